"""Where the host commands write (export's and stats' --csv/--html OUT, the simulator's
--png): a path that is not a plain file is written to as it is or refused, never replaced
by a plain file (issue 23). A pipe or a character device gets the bytes; `-` is the
standard output; a symbolic link is followed and its target written whole; a folder, a
socket or a full disk is one line on stderr and exit 2."""
import csv
import io
import json
import os
import socket
import stat
import subprocess
import sys
import threading

import pytest

from engine_mpy import savefile
from engine_mpy.classic import Classic
from host_sim import cli_export, cli_stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = '{"format":"phase10-history","v":2}\n'

posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs, /dev/full and symbolic links as on Linux")


def game_file(tmp_path):
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    f = tmp_path / "game.json"
    f.write_text(savefile.dumps(g))
    return f


def history_folder(tmp_path):
    from engine_mpy import summary
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    d = tmp_path / "pulled"
    d.mkdir(exist_ok=True)
    (d / "history.json").write_text(HEAD + json.dumps(summary.entry(g, True, 1)) + "\n")
    return d


def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "host_sim"] + list(args), cwd=ROOT,
                          capture_output=True, timeout=60, **kw)


def one_line(r):
    err = r.stderr.decode() if isinstance(r.stderr, bytes) else r.stderr
    assert r.returncode == 2, (r.returncode, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# The commands and how each is told to write OUT; what it writes is checked by check(bytes).
def _csv_ok(b):
    rows = list(csv.DictReader(io.StringIO(b.decode())))
    return [(r["player"], r["points"]) for r in rows] == [("Ann", "0"), ("Bob", "50")]


def _stats_ok(b):
    rows = list(csv.DictReader(io.StringIO(b.decode())))
    return [(r["player"], r["wins"]) for r in rows if not r["opponent"]] == [("Ann", "1"), ("Bob", "0")]


def _html_ok(b):
    return b.startswith(b"<!DOCTYPE html>") and b"Bob" in b and b.rstrip().endswith(b"</html>")


def _png_ok(b):
    return b.startswith(b"\x89PNG\r\n\x1a\n") and len(b) > 100


WRITERS = {
    "export --csv": (lambda t: ["export", str(game_file(t)), "--csv"], _csv_ok),
    "export --html": (lambda t: ["export", str(game_file(t)), "--html"], _html_ok),
    "stats --csv": (lambda t: ["stats", str(history_folder(t)), "--csv"], _stats_ok),
    "stats --html": (lambda t: ["stats", str(history_folder(t)), "--html"], _html_ok),
    "simulator --png": (lambda t: ["--headless", "--png"], _png_ok),
}


@pytest.mark.parametrize("which", list(WRITERS))
def test_a_plain_file_is_written_whole_and_keeps_its_mode(tmp_path, which):
    args, ok = WRITERS[which]
    out = tmp_path / "out"
    out.write_bytes(b"old")
    out.chmod(0o640)
    r = run(*args(tmp_path), str(out))
    assert r.returncode == 0, r.stderr
    assert ok(out.read_bytes())
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == sorted(x for x in ["out", "game.json", "pulled"]
                                                  if (tmp_path / x).exists())   # no temporary file left


@posix
@pytest.mark.parametrize("which", list(WRITERS))
def test_a_fifo_is_written_to_not_replaced(tmp_path, which):
    args, ok = WRITERS[which]
    fifo = tmp_path / "pipe"
    os.mkfifo(str(fifo))
    got = []
    reader = threading.Thread(target=lambda: got.append(open(str(fifo), "rb").read()), daemon=True)
    reader.start()
    r = run(*args(tmp_path), str(fifo))
    reader.join(30)
    if reader.is_alive():
        # the command never opened the pipe (it replaced it): let the reader go
        os.close(os.open(str(fifo), os.O_WRONLY | os.O_NONBLOCK))
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(str(fifo)).st_mode)
    assert got and ok(got[0])


@posix
@pytest.mark.parametrize("which", list(WRITERS))
def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path, which):
    args, ok = WRITERS[which]
    target = tmp_path / "sheets" / "real.out"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to(target)
    r = run(*args(tmp_path), str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(str(link)) == str(target)
    assert ok(target.read_bytes())
    assert os.listdir(str(target.parent)) == ["real.out"]
    # a link to a file not there yet: the file is made where the link points
    target.unlink()
    r = run(*args(tmp_path), str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and ok(target.read_bytes())


def to_a_terminal(args):
    """Run a command writing to a pseudo-terminal (a character device that cannot be
    replaced: nothing can be made in /dev/pts) and return (result, bytes that arrived)."""
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)          # the bytes as written, no newline translation
    name = os.ttyname(slave)
    got = []

    def drain():
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:
                return
            if not b:
                return
            got.append(b)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        r = run(*args, name)
        assert stat.S_ISCHR(os.stat(name).st_mode)
    finally:
        os.close(slave)
        reader.join(10)
        os.close(master)
    return r, b"".join(got)


@posix
@pytest.mark.parametrize("which", list(WRITERS))
def test_a_character_device_is_written_as_it_is(which, tmp_path):
    args, ok = WRITERS[which]
    r, got = to_a_terminal(args(tmp_path))
    assert r.returncode == 0, r.stderr
    assert ok(got)


def devices_are_safe(tmp_path):
    """Point the commands at the machine's /dev/null and /dev/full only once they write a
    character device in place (a pseudo-terminal, first): a writer that replaced device
    nodes, as before issue 23, would turn /dev/null into a plain file for every program on
    the machine (the tests may run as root)."""
    args, ok = WRITERS["export --csv"]
    r, got = to_a_terminal(args(tmp_path))
    if r.returncode != 0 or not ok(got):
        pytest.fail("the writer does not write a character device in place: not run on /dev")


@posix
@pytest.mark.parametrize("which", list(WRITERS))
def test_dev_null_stays_a_device(which, tmp_path):
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    devices_are_safe(tmp_path)
    args, ok = WRITERS[which]
    before = os.stat("/dev/null")
    r = run(*args(tmp_path), "/dev/null")
    assert r.returncode == 0, r.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


@posix
@pytest.mark.parametrize("which", list(WRITERS))
def test_a_full_device_is_one_line_and_exit_2(which, tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    devices_are_safe(tmp_path)
    args, ok = WRITERS[which]
    err = one_line(run(*args(tmp_path), "/dev/full"))
    assert "/dev/full" in err and "No space left" in err
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@posix
@pytest.mark.parametrize("which", list(WRITERS))
def test_a_write_that_fails_leaves_the_file_as_it_was(which, tmp_path):
    # A file-size limit makes the write fail halfway (EFBIG), as a disk filling up would:
    # one line, exit 2, the old file whole and no temporary file left beside it.
    import resource
    import signal
    args, ok = WRITERS[which]
    argv = args(tmp_path)
    out = tmp_path / "sheets" / "out"
    out.parent.mkdir()
    out.write_bytes(b"the old sheet")

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40))
    r = subprocess.run([sys.executable, "-m", "host_sim"] + argv + [str(out)], cwd=ROOT, capture_output=True,
                       timeout=60, preexec_fn=limit)
    err = one_line(r)
    assert str(out) in err and "too large" in err
    assert out.read_bytes() == b"the old sheet" and os.listdir(str(out.parent)) == ["out"]


@pytest.mark.parametrize("which", list(WRITERS))
def test_a_folder_or_a_socket_is_refused_before_anything_is_written(tmp_path, which):
    args, ok = WRITERS[which]
    folder = tmp_path / "a-folder"
    folder.mkdir()
    err = one_line(run(*args(tmp_path), str(folder)))
    assert "folder" in err and str(folder) in err
    assert os.listdir(str(folder)) == []
    if hasattr(socket, "AF_UNIX"):
        path = tmp_path / "sock"
        s = socket.socket(socket.AF_UNIX)
        try:
            s.bind(str(path))
            err = one_line(run(*args(tmp_path), str(path)))
            assert str(path) in err and "not a file" in err
            assert stat.S_ISSOCK(os.lstat(str(path)).st_mode)
        finally:
            s.close()


@posix
def test_dash_is_the_standard_output_and_a_full_one_is_one_line(tmp_path):
    f = game_file(tmp_path)
    r = run("export", str(f), "--csv", "-")
    assert r.returncode == 0 and _csv_ok(r.stdout)
    if not os.path.exists("/dev/full"):
        return
    for args in (["export", str(f), "--csv", "-"], ["export", str(f), "--html", "-"],
                 ["stats", str(history_folder(tmp_path))], ["show", str(f)], ["board", "show"],
                 ["--headless"]):
        with open("/dev/full", "wb") as full:
            r = subprocess.run([sys.executable, "-m", "host_sim"] + args, cwd=ROOT, stdout=full,
                               stderr=subprocess.PIPE, timeout=60)
        err = one_line(r)
        assert "No space left" in err, (args, err)


def test_the_simulator_png_cannot_be_the_standard_output(tmp_path):
    # the standard output holds the screen as text
    err = one_line(run("--headless", "--png", "-"))
    assert "--png" in err and not (tmp_path / "-").exists() and not os.path.exists(os.path.join(ROOT, "-"))



# Half a character (a lone surrogate) in a player's name: JSON holds it, UTF-8 cannot. Every
# command that writes names stopped on it with a traceback, exit 1 (issue 42). A game the
# rules replay (a save, a history line with its sheet) refuses such a name in one line, as
# the device does; a line with no sheet (earlier firmware's) is written with the half as
# its escape and the rest as it is.
def _halves_game(tmp_path):
    g = Classic({"players": ["Ann", "Hal"], "dealer": 0})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    f = tmp_path / "game.json"
    f.write_text(savefile.dumps(g).replace('"Hal"', '"\\ud800"'))
    return str(f)


def _halves_history(tmp_path):
    d = tmp_path / "pulled"
    d.mkdir()
    (d / "history.json").write_text(
        HEAD + '{"n":1,"game":"classic","players":["Ann","\\ud800","\\udc80x"],"winners":["\\ud800"],'
               '"hands":3,"done":true}\n')
    return str(d)


@pytest.mark.parametrize("args", [["show", "GAME"], ["export", "GAME", "--csv", "-"],
                                  ["export", "GAME", "--html", "OUT"]])
def test_half_a_character_in_a_saved_games_name_is_one_line(tmp_path, args):
    out = tmp_path / "out"
    where = {"GAME": lambda: _halves_game(tmp_path), "OUT": lambda: str(out)}
    r = run(*[where[a]() if a in where else a for a in args])
    assert "A player's name holds half of a character (U+D800)." in one_line(r)
    assert r.stdout == b"" and not out.exists()


@pytest.mark.parametrize("args", [
    ["export", "HIST", "--csv", "OUT"], ["export", "HIST", "--html", "-"],
    ["stats", "HIST"], ["stats", "HIST", "--csv", "-"], ["stats", "HIST", "--html", "OUT"],
])
def test_half_a_character_in_a_history_name_is_written_as_its_escape(tmp_path, args):
    out = tmp_path / "out"
    where = {"HIST": lambda: _halves_history(tmp_path), "OUT": lambda: str(out)}
    r = run(*[where[a]() if a in where else a for a in args])
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode(errors="replace")
    b = out.read_bytes() if "OUT" in args else r.stdout
    assert b"\\ud800" in b
    if args[0] == "export" and "--html" not in args:     # (the page of a game without its
        assert b"\\udc80x" in b and b"Ann" in b          # hands names its winner only)
    b.decode("utf-8")      # the rest is UTF-8 as written
