"""`python -m host_sim wifi`: the network the table on phones joins, written over USB into
the board's wifi.json, against a stand-in board on a pseudo-terminal (tests/fake_board.py)
so mpremote's real serial code runs; what it writes is read back by the device's own reader
(firmware/files/wifi_file.py)."""
import json
import subprocess
import sys

import pytest

from fake_board import FakeBoard
from test_pull_cli import ROOT, FAIL_TIMEOUT, OK_TIMEOUT
from firmware.files import wifi_file
from firmware.files.store import Store

OLD = b'{"ssid": "Old net", "pw": "old password"}'
FILES = {"game.json": b'{"game":"classic"}', "settings.json": b'{"contrast":128}'}


@pytest.fixture
def boards():
    made = []

    def make(files=FILES, **kw):
        kw.setdefault("writable", True)
        b = FakeBoard(files, **kw)
        made.append(b)
        return b
    yield make
    for b in made:
        b.close()


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "host_sim", "wifi"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60, input=stdin)


def device_reads(files, tmp_path):
    """What the device's reader makes of the board's files (as at its start)."""
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return wifi_file.load(Store(str(tmp_path)))


def test_a_network_is_written_whole_and_the_device_reads_it(boards, tmp_path):
    b = boards(dict(FILES, **{"wifi.json": OLD}))
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, "--ssid", "Café ☕ 5G", "--password", "correct horse")
    assert r.returncode == 0, r.stderr
    assert "joins Café ☕ 5G" in r.stdout and "Settings > Phones > join Wi-Fi" in r.stdout
    assert "restarted" in r.stdout and b.app_starts == 1 and b.state == "app"
    # only wifi.json changed, by a copy renamed over it, and no copy is left
    assert {k: v for k, v in b.files.items() if k != "wifi.json"} == FILES
    assert ("rename", "/wifi.json.tmp", "/wifi.json") in b.writes
    net, msg, unread = device_reads(b.files, tmp_path)
    assert net == {"ssid": "Café ☕ 5G", "pw": "correct horse"} and msg is None and not unread


def test_a_name_past_the_first_plane_goes_to_the_board_in_utf8(boards, tmp_path):
    # escaped as \ud83d\ude00, the board's json read eight emoji as 16 halves (issue 42)
    name = "\U0001F600" * 8
    b = boards()
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, "--ssid", name, "--password", "correct horse")
    assert r.returncode == 0, r.stderr
    assert json.loads(b.files["wifi.json"]) == {"ssid": name, "pw": "correct horse"}
    assert name.encode() in b.files["wifi.json"] and b"\\u" not in b.files["wifi.json"]


def test_a_key_of_64_hex_digits_and_a_password_from_stdin(boards, tmp_path):
    b = boards()
    key = "0123456789abcdef" * 4
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, "--ssid", "Home", "--password", "-", stdin=key + "\n")
    assert r.returncode == 0, r.stderr
    assert key not in r.stdout + r.stderr
    assert device_reads(b.files, tmp_path)[0] == {"ssid": "Home", "pw": key}


def test_forget_removes_the_network(boards, tmp_path):
    b = boards(dict(FILES, **{"wifi.json": OLD}))
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, "--forget")
    assert r.returncode == 0, r.stderr
    assert "forgot its network" in r.stdout
    assert b.files == FILES and b.app_starts == 1
    assert device_reads(b.files, tmp_path) == (None, None, False)
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, "--forget", "--no-restart")
    assert r.returncode == 0 and "nothing to forget" in r.stdout and "reset button" in r.stdout
    assert b.files == FILES and b.app_starts == 1 and b.state != "app"


@pytest.mark.parametrize("args, words", [
    (["--ssid", "", "--password", "long enough"], "1 to 32 bytes, this one is 0"),
    (["--ssid", "é" * 17, "--password", "long enough"], "1 to 32 bytes, this one is 34"),
    (["--ssid", "Tab\there", "--password", "long enough"], "no control characters"),
    (["--ssid", "N" * 33, "--password", "long enough"], "1 to 32 bytes, this one is 33"),
    (["--ssid", "Home", "--password", "x"], "8 to 63 characters (or a key of 64 hex digits), this one is 1"),
    (["--ssid", "Home", "--password", "seven77"], "8 to 63 characters"),
    (["--ssid", "Home", "--password", "x" * 64], "hex digits only"),
    (["--ssid", "Home", "--password", "z" * 65], "8 to 63 characters"),
    (["--ssid", "Home", "--password", "naïve password"], "printable ASCII"),
    (["--ssid", "Home"], "needs --password"),
    # bytes that are not UTF-8 reach Python as lone halves of a character (issue 42)
    (["--ssid", b"\xff\xfe", "--password", "12345678"], "half a character (U+DCFF)"),
    (["--forget", "--password", "long enough"], "takes no --password"),
])
def test_bad_input_is_refused_before_the_board_is_asked(boards, args, words):
    b = boards(dict(FILES, **{"wifi.json": OLD}))
    r = run("--port", b.port, "--timeout", FAIL_TIMEOUT, *args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert words in r.stderr and "Nothing was written to the board" in r.stderr
    assert r.stderr.count("\n") == 1 and r.stdout == "" and "Traceback" not in r.stderr
    assert b.commands == [] and b.writes == [] and b.state == "app"


def test_a_full_flash_keeps_the_old_network_whole(boards, tmp_path):
    b = boards(dict(FILES, **{"wifi.json": OLD}), full=True)
    r = run("--port", b.port, "--timeout", FAIL_TIMEOUT, "--ssid", "Home", "--password", "long enough")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "ENOSPC" in r.stderr and "writing /wifi.json" in r.stderr
    assert "the old network or the new" in r.stderr and r.stderr.count("\n") == 1
    assert b.files == dict(FILES, **{"wifi.json": OLD})      # no half copy left beside it
    assert device_reads(b.files, tmp_path)[0] == json.loads(OLD)


@pytest.mark.parametrize("mode, words", [
    ("busy", "no answer from the board"),
    ("garbage", "does not answer as a MicroPython board"),
])
def test_a_board_that_does_not_answer_is_left_as_it_was(boards, mode, words):
    b = boards(dict(FILES, **{"wifi.json": OLD}), mode=mode)
    r = run("--port", b.port, "--timeout", FAIL_TIMEOUT, "--ssid", "Home", "--password", "long enough")
    assert r.returncode == 2 and words in r.stderr and "Nothing on the board changed" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert b.files["wifi.json"] == OLD and b.writes == []


def test_a_read_only_board_says_so(boards):
    b = boards(writable=False)
    r = run("--port", b.port, "--timeout", FAIL_TIMEOUT, "--forget")
    assert r.returncode == 2 and "removing /wifi.json" in r.stderr and "EROFS" in r.stderr, r.stderr
    assert b.files == FILES


def test_an_absent_port_is_one_line():
    r = run("--port", "/dev/ttyACM97", "--ssid", "Home", "--password", "long enough")
    assert r.returncode == 2 and "no board on /dev/ttyACM97" in r.stderr and r.stderr.count("\n") == 1
