"""`python -m host_sim pull`: the device's files copied off a board, against a stand-in
board on a pseudo-terminal (tests/fake_board.py) so mpremote's real serial code runs."""
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from fake_board import FakeBoard
from host_sim import cli_pull

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Waits that end a test only when something is wrong are short, but long enough that a
# loaded machine does not fall silent for that long in the healthy part of a failing pull.
# A healthy pull never waits a whole timeout, so it gets more room.
FAIL_TIMEOUT = "1"
OK_TIMEOUT = "3"

HISTORY = ('[' + ",".join('{"game":"classic","players":["Ann","Bob","Zoë"],"winner":%d}' % (i % 3)
                          for i in range(40)) + ']').encode()
FILES = {
    "game.json": b'{"game":"classic","players":["Ann","Bob"],"hands":[]}',
    "history.json": HISTORY,                    # many chunks, and UTF-8 beyond ASCII
    "history-2.json": b"[]",
    "roster.json": b'["Ann","Bob","Zo\xc3\xab"]',
    "settings.json": b'{"contrast":128}',
    "game.json.bad1": b'{"game":"clas\x00\xff',  # a damaged copy: any bytes at all
    "history.json.bad2": b"[{",     # numbered as the device numbers them (storeread.py)
    "game.json.tmp": b'{"game":"classic"}',
    "main.py": b"from firmware import main; main.run()",
    "board.txt": b"not the device's",
}
COPIED = {
    "game.json": "game.json", "history.json": "history.json", "history-2.json": "history-2.json",
    "roster.json": "roster.json", "settings.json": "settings.json",
    "game.json.bad1": "bad/game.json.bad1", "history.json.bad2": "bad/history.json.bad2",
    "game.json.tmp": "bad/game.json.tmp",
}


@pytest.fixture
def boards():
    made = []

    def make(files=FILES, **kw):
        b = FakeBoard(files, **kw)
        made.append(b)
        return b
    yield make
    for b in made:
        b.close()


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_sim", "pull"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def tree(d):
    """{path under d: bytes} for every file under d (hidden ones too)."""
    out = {}
    for dirpath, _, files in os.walk(d):
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d).replace(os.sep, "/")] = fh.read()
    return out


def earlier_pull(tmp_path):
    """A DIR holding an earlier pull, to show a failed pull leaves it as it was."""
    d = tmp_path / "pulls"
    (d / "board-20240101-120000").mkdir(parents=True)
    (d / "board-20240101-120000" / "game.json").write_bytes(b'{"old":1}')
    return d, tree(d)


def only_pull(d):
    names = [n for n in os.listdir(d)]
    assert len(names) == 1 and names[0].startswith("board-"), names
    return os.path.join(d, names[0])


def test_a_pull_copies_the_device_files_and_restarts_the_app(boards, tmp_path):
    b = boards()
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, str(tmp_path))
    assert r.returncode == 0, r.stderr
    got = tree(only_pull(tmp_path))
    info = json.loads(got.pop("pull.json"))
    assert got == {rel: FILES[name] for name, rel in COPIED.items()}
    assert info["files"] == {rel: len(FILES[name]) for name, rel in COPIED.items()}
    assert info["port"] == b.port and info["missing"] == []
    for rel in COPIED.values():       # each file named with its size
        assert any(line.split()[:2] == [rel, str(len(got[rel]))] for line in r.stdout.splitlines()), r.stdout
    assert "restarted" in r.stdout
    # only read: nothing changed on the board, and the app runs again
    assert b.writes == [] and b.files == FILES
    assert not any("open(" in c and ("'w" in c or "'a" in c) for c in b.commands)
    assert b.app_starts == 1 and b.state == "app" and b.soft_resets == 1


def test_a_pull_sets_the_boards_clock_to_this_pcs_time_and_writes_no_file(boards, tmp_path):
    # The device dates a game only once its clock was set (an RP2040's starts at 2021 after
    # power-up): a pull sets it, with MicroPython's RTC().datetime 8-tuple (weekday from
    # Monday = 0), as mpremote rtc --set does; the files on the board are not touched.
    import time
    b = boards()
    before = time.time()
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, str(tmp_path))
    after = time.time()
    assert r.returncode == 0, r.stderr
    assert b.rtc is not None and len(b.rtc) == 8 and b.rtc[7] == 0, b.rtc
    set_at = time.mktime(b.rtc[:3] + b.rtc[4:7] + (0, 0, -1))
    assert before - 1 <= set_at <= after + 1 and b.rtc[3] == time.localtime(set_at).tm_wday
    said = time.strftime("%Y-%m-%d %H:%M", time.localtime(set_at))
    assert "The board's clock was set to this PC's time (%s)" % said in r.stdout, r.stdout
    assert json.loads(tree(only_pull(tmp_path))["pull.json"])["clock_set"] == said
    assert b.writes == [] and b.files == FILES and b.app_starts == 1
    # a port without machine.RTC: the pull goes on, and says so
    b = boards(clock=False)
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, str(tmp_path / "two"))
    assert r.returncode == 0, r.stderr
    assert b.rtc is None and "no clock to set" in r.stdout and b.writes == []


def test_a_second_pull_never_overwrites_the_first(boards, tmp_path):
    b = boards()
    d = str(tmp_path / "new" / "pulls")    # made when there is something to put in it
    assert cli_pull.main(["--port", b.port, "--timeout", OK_TIMEOUT, d]) == 0
    first = tree(d)
    b.files["game.json"] = b'{"game":"classic","players":["Ann","Bob"],"hands":[1]}'
    assert cli_pull.main(["--port", b.port, "--timeout", OK_TIMEOUT, d]) == 0
    after = tree(d)
    assert {k: v for k, v in after.items() if k in first} == first
    new = [k for k in after if k not in first]
    assert len(new) == len(first) and len({k.split("/")[0] for k in new}) == 1
    assert after[new[0].split("/")[0] + "/game.json"] == b.files["game.json"]


def test_no_restart_leaves_the_board_at_the_prompt(boards, tmp_path):
    b = boards({"game.json": b"{}"}, raw_paste=False)   # and the plain raw REPL path
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, "--no-restart", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert tree(only_pull(tmp_path))["game.json"] == b"{}"
    assert b.state != "app" and b.app_starts == 0 and b.soft_resets == 0
    assert "reset button" in r.stdout
    assert "Not on the board: history*.json, roster.json, settings.json" in r.stdout


def test_a_new_board_has_nothing_to_copy(boards, tmp_path):
    b = boards({"main.py": b"x"})
    d, before = earlier_pull(tmp_path)
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, str(d))
    assert r.returncode == 0, r.stderr
    assert "nothing copied" in r.stdout
    assert tree(d) == before
    assert b.writes == [] and b.app_starts == 1


def test_a_full_heap_is_freed_by_a_soft_reset_and_the_pull_goes_on(boards, tmp_path):
    b = boards(mode="lowmem")
    r = run("--port", b.port, "--timeout", OK_TIMEOUT, str(tmp_path))
    assert r.returncode == 0, r.stderr
    got = tree(only_pull(tmp_path))
    assert got["history.json"] == HISTORY and got["bad/game.json.bad1"] == FILES["game.json.bad1"]
    assert b.writes == [] and b.soft_resets == 2 and b.app_starts == 1


@pytest.mark.parametrize("mode, stop_after, words", [
    ("busy", 0, "no answer from the board"),
    ("garbage", 0, "does not answer as a MicroPython board"),
    ("garbled", 0, "made no sense while listing its files"),
    # game.json and history-2.json whole (55 bytes), then the line dies in history.json
    ("stop", 300, "stopped answering while reading /history.json"),
    ("unplug", 300, "lost while reading /history.json"),
    ("short", 0, "read 53 bytes of /game.json, which the board lists as 63"),
])
def test_a_board_that_fails_leaves_dir_as_it_was(boards, tmp_path, mode, stop_after, words):
    b = boards(mode=mode, stop_after=stop_after)
    d, before = earlier_pull(tmp_path)
    r = run("--port", b.port, "--timeout", FAIL_TIMEOUT, str(d))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert words in r.stderr and "Nothing was written in" in r.stderr
    assert r.stderr.count("\n") == 1, r.stderr      # one line, whatever went wrong
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert tree(d) == before            # no file, no temporary folder
    assert b.writes == []
    if mode in ("stop", "unplug"):
        before_history = len(FILES["game.json"]) + len(FILES["history-2.json"])
        assert 0 < b.served - before_history < len(HISTORY)    # it did die halfway through
        assert "reset button" in r.stderr


def test_absent_port_and_bad_arguments(tmp_path):
    r = run("--port", str(tmp_path / "ttyACM9"), str(tmp_path))
    assert r.returncode == 2 and "no board on %s" % (tmp_path / "ttyACM9") in r.stderr
    assert "Traceback" not in r.stderr
    f = tmp_path / "a-file"
    f.write_text("x")
    r = run("--port", "/dev/null", str(f))
    assert r.returncode == 2 and "not a folder" in r.stderr
    assert run("--timeout", "0", str(tmp_path)).returncode == 2
    assert run("--bogus").returncode == 2
    assert os.listdir(tmp_path) == ["a-file"]
    # DIR that is a pipe or a device: refused in one line before the board is asked, and
    # left as it is (never replaced by a folder)
    nodes = ["/dev/null"] if os.path.exists("/dev/null") else []
    if hasattr(os, "mkfifo"):
        os.mkfifo(str(tmp_path / "pipe"))
        nodes.append(str(tmp_path / "pipe"))
    for node in nodes:
        mode = os.stat(node).st_mode
        r = run("--port", "/dev/null", node)
        assert r.returncode == 2 and "not a folder" in r.stderr and r.stderr.count("\n") == 1, r.stderr
        assert os.stat(node).st_mode == mode


def test_help_lists_every_option():
    r = run("--help")
    assert r.returncode == 0
    for opt in ("--port", "--timeout", "--no-restart", "DIR", "reset button"):
        assert opt in r.stdout


def port(device, vid=None, pid=None, serial_number=None, description="n/a"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial_number, description=description)


def test_the_one_board_attached_is_found_by_its_usb_ids():
    other = port("/dev/ttyS0")
    mouse = port("/dev/ttyACM1", 0x046D, 0xC52B, description="Logitech receiver")
    assert cli_pull.find_port([other, port("/dev/ttyACM0", 0x2E8A, 0x0005), mouse]) == "/dev/ttyACM0"
    assert cli_pull.find_port([port("/dev/ttyUSB0", 0x10C4, 0xEA60), other]) == "/dev/ttyUSB0"
    assert cli_pull.find_port([port("COM4", 0x303A, 0x1001)]) == "COM4"
    # a CP210x with another product id is some other gadget
    with pytest.raises(cli_pull.PullError, match="no board found") as e:
        cli_pull.find_port([other, mouse, port("/dev/ttyUSB1", 0x10C4, 0x1234)])
    assert "/dev/ttyACM1 (Logitech receiver)" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(cli_pull.PullError, match="no board found"):
        cli_pull.find_port([])
    with pytest.raises(cli_pull.PullError, match="several boards") as e:
        cli_pull.find_port([port("/dev/ttyUSB0", 0x1A86, 0x7523), port("/dev/ttyACM0", 0x2E8A, 5, "E66")])
    assert "/dev/ttyUSB0" in str(e.value) and "/dev/ttyACM0" in str(e.value) and "E66" in str(e.value)
    assert "\n" not in str(e.value)     # every refusal is one line


def test_without_port_the_attached_board_is_used(boards, tmp_path, monkeypatch, capsys):
    from serial.tools import list_ports
    b = boards({"roster.json": b'["Ann"]'})
    monkeypatch.setattr(list_ports, "comports", lambda: [port(b.port, 0x0403, 0x6001)])
    assert cli_pull.main(["--timeout", OK_TIMEOUT, str(tmp_path)]) == 0
    assert tree(only_pull(tmp_path))["roster.json"] == b'["Ann"]'
    assert b.port in capsys.readouterr().out
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    assert cli_pull.main([str(tmp_path / "none")]) == 2
    assert "no board found" in capsys.readouterr().err


def test_a_write_that_fails_on_the_pc_leaves_nothing(tmp_path, monkeypatch):
    d = tmp_path / "pulls"
    calls = []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError):
        cli_pull.write_pull(str(d), {"game.json": b"{}", "roster.json": b"[]"}, {})
    assert not d.exists()
