# Every host command: --help lists every option it takes (from each route a user may try),
# usage errors exit 2, and files or pipes that cannot work get one clear line and exit 2
# (or a quiet stop for a closed pipe), never a traceback or a hang.
import argparse
import os
import re
import subprocess
import sys

import pytest

from host_sim import cli_board, cli_dice, cli_pull, cli_show, cli_wifi, golden, sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import deploy  # noqa: E402
import firmware_image  # noqa: E402
import unprivileged  # noqa: E402  (tests/)

PY = sys.executable


def run(args, timeout=60, **kw):
    return subprocess.run([PY] + args, cwd=ROOT, capture_output=True, text=True, timeout=timeout, **kw)


def options(parser):
    """Every option string a parser (and its subcommands) accepts, with the subcommand's
    argv prefix: {(prefix...): {"--json", ...}}."""
    out = {}

    def walk(p, prefix):
        opts = out.setdefault(prefix, set())
        for a in p._actions:
            opts.update(a.option_strings)
            if isinstance(a, argparse._SubParsersAction):
                for name, sub in a.choices.items():
                    walk(sub, prefix + (name,))
    walk(parser, ())
    return out


def literal_options(*modules):
    """Option-like string literals in a command's source: an option parsed by hand (outside
    its argparse parser) would show up here and be missed by the parser walk."""
    found = set()
    for m in modules:
        with open(m.__file__) as f:
            found.update(re.findall(r"""["'](--[a-z][a-z-]+)""", f.read()))
    return found


# (how it is run, its parser, modules whose source must not hold other options)
COMMANDS = [
    (["-m", "host_sim"], sim.parser(), ()),
    (["-m", "host_sim", "show"], cli_show.parser(), (cli_show,)),
    (["-m", "host_sim", "dice"], cli_dice.parsers()[0], (cli_dice,)),
    (["-m", "host_sim", "board"], cli_board.parser(), (cli_board,)),
    (["-m", "host_sim", "pull"], cli_pull.parser(), (cli_pull,)),
    (["-m", "host_sim", "wifi"], cli_wifi.parser(), (cli_wifi,)),
    (["-m", "host_sim.golden"], golden.parser(), (golden,)),
    (["tools/build/deploy.py"], deploy.parser(), (deploy,)),
    (["tools/build/firmware_image.py"], firmware_image.parser(), (firmware_image,)),
]


@pytest.mark.parametrize("cmd,parser,modules", COMMANDS, ids=[" ".join(c[0]) for c in COMMANDS])
def test_help_lists_every_option(cmd, parser, modules):
    accepted = options(parser)
    assert len(accepted) >= 1
    for prefix, opts in accepted.items():
        r = run(cmd + list(prefix) + ["--help"])
        assert r.returncode == 0 and r.stderr == "", (prefix, r.stderr)
        assert r.stdout.startswith("usage: "), r.stdout[:80]
        for o in opts:
            assert re.search(r"(^|[\s,\[])%s\b" % re.escape(o), r.stdout), (cmd, prefix, o)
        # every subcommand is named in its parent's help
        for sub in accepted:
            if len(sub) == len(prefix) + 1 and sub[:-1] == prefix:
                assert sub[-1] in r.stdout
    every = set().union(*accepted.values())
    assert literal_options(*modules) <= every, literal_options(*modules) - every


def test_the_simulators_help_lists_its_options_and_every_command_from_each_route():
    sim_opts = options(sim.parser())[()]
    for opt in ("--headless", "--window", "--keys", "--state", "--png", "--board", "--bounce",
                "--panel", "--mem-free", "--stats"):
        assert opt in sim_opts
    texts = []
    for args in (["--help"], ["-h"], ["help"], ["--headless", "--help"], ["--window", "-h"],
                 ["--keys", "OK", "--help"]):
        r = run(["-m", "host_sim"] + args)
        assert r.returncode == 0 and r.stderr == "", (args, r.stderr)
        texts.append(r.stdout)
    assert all(t == texts[0] for t in texts)
    for opt in sim_opts:
        assert opt in texts[0]
    for name in sim.COMMANDS:
        assert re.search(r"^\s+%s\s" % name, texts[0], re.M), name
    # each command's own help, reached the same ways (`show help` reads a file named help,
    # `pull help` pulls into a folder named help, export and stats read one)
    for name in sim.COMMANDS:
        for h in ("--help", "-h") + (("help",) if name not in ("show", "pull", "export", "stats") else ()):
            r = run(["-m", "host_sim", name, h])
            assert r.returncode == 0 and r.stdout.startswith("usage: python -m host_sim %s" % name), (name, h)


# Every host command and subcommand with arguments it cannot take: argparse's own usage
# errors and the commands' own refusals alike are one line on stderr, exit 2.
BAD_ARGS = [
    ["--frobnicate"], ["--headless", "--bounce", "x"], ["--headless", "--bounce", "-1"],
    ["--headless", "--panel", "oled"], ["--headless", "--window"], ["--keys"],
    ["--headless", "--keys", "JUMP"],
    ["show"], ["show", "a", "b"], ["show", "--yaml", "x"],
    ["export"], ["export", "game.json"], ["export", "game.json", "--csv", "-", "--html", "-"],
    ["export", "game.json", "--pdf", "x"],
    ["stats"], ["stats", "a", "b"], ["stats", ".", "--csv", "-", "--html", "-"], ["stats", ".", "--pdf", "x"],
    ["dice"], ["dice", "roll"], ["dice", "score", "1", "--yaml"], ["dice", "score"],
    ["dice", "score", "11"] + "8g 8o 8b 10b 5b 6o Wr Wb 1o 3b".split(), ["dice", "score", "1", "1r"],
    ["dice", "score", "1"] + "8g 8o 8b 10b 5b 6o Wr Wb 1o 3x".split(),
    ["dice", "advise"], ["dice", "advise", "1"], ["dice", "advise", "1", "5"] + "8g 8o 8b 10b 5b 6o Wr Wb 1o 3b".split(),
    ["dice", "advise", "x", "1"], ["dice", "advise", "--top", "0", "1", "1"], ["dice", "advise", "1", "1", "2r"],
    ["board"], ["board", "check"], ["board", "show", "extra"], ["board", "paint"],
    ["pull", "--bogus"], ["pull", "a", "b"], ["pull", "--timeout", "x"], ["pull", "--timeout", "0"],
    ["wifi"], ["wifi", "--ssid", "A", "--forget"], ["wifi", "--ssid", "Home"],
    ["wifi", "--ssid", "Home", "--password", "short"], ["wifi", "--ssid", "", "--password", "long enough"],
    ["wifi", "--ssid", "N" * 33, "--password", "long enough"], ["wifi", "--ssid", "Home", "--password", "x" * 64],
    ["wifi", "--ssid", "Home", "--password", "caf\u00e9 au lait".encode().decode("unicode_escape")],
    ["wifi", "--forget", "--password", "long enough"], ["wifi", "--forget", "--timeout", "0"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=[" ".join(a) for a in BAD_ARGS])
def test_every_refusal_is_one_line_and_exit_2(args):
    r = run(["-m", "host_sim"] + args)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.endswith("\n"), (args, r.stderr)
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_usage_errors_name_the_command_and_its_help():
    r = run(["-m", "host_sim", "export"])
    assert r.stderr == ("python -m host_sim export: error: the following arguments are required: SOURCE "
                        "(see --help)\n")
    r = run(["-m", "host_sim", "dice", "score", "11"])
    assert r.stderr.startswith("python -m host_sim dice score: error: ") and "1 to 10" in r.stderr


def closed_pipe_run(args):
    """Run with stdout into a pipe nobody reads any more (`... | head` after head left)."""
    rd, wr = os.pipe()
    os.close(rd)
    try:
        p = subprocess.run([PY] + args, cwd=ROOT, stdout=wr, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(wr)
    return p


def test_output_into_a_closed_pipe_stops_quietly(tmp_path):
    from engine_mpy import savefile
    from engine_mpy.classic import Classic
    g = Classic({"players": ["Ann", "Bob"]})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    save = tmp_path / "game.json"
    save.write_text(savefile.dumps(g))
    state = tmp_path / "state"
    for args in (["-m", "host_sim", "board", "show"], ["-m", "host_sim", "show", str(save)],
                 ["-m", "host_sim", "dice", "score", "1"] + "8g 8o 8b 10b 5b 6o Wr Wb 1o 3b".split(),
                 ["-m", "host_sim", "export", str(save), "--csv", "-"],
                 ["-m", "host_sim", "export", str(save), "--html", "-"],
                 ["-m", "host_sim", "--headless", "--state", str(state)]):
        p = closed_pipe_run(args)
        assert p.returncode == 141, (args, p.returncode, p.stderr)   # as if SIGPIPE ended it
        assert p.stderr == "", (args, p.stderr)
    # help text: argparse itself drops output errors; quiet all the same
    p = closed_pipe_run(["-m", "host_sim", "--help"])
    assert p.returncode in (0, 141) and p.stderr == ""


def test_files_that_cannot_be_read_get_one_line_and_exit_2(tmp_path):
    big_layout = tmp_path / "big.txt"
    big_layout.write_text("# " + "x" * 4100 + "\n1S 10R\n")
    big_save = tmp_path / "big.json"
    big_save.write_bytes(b" " * (512 * 1024 + 1))
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    cases = [
        ("show", str(tmp_path / "missing.json"), "No such file"),
        ("show", str(tmp_path), "a folder"),
        ("show", str(big_save), "over 524288 bytes"),
        ("show", str(binary), "not UTF-8"),
        ("board check", str(tmp_path / "missing.txt"), "No such file"),
        ("board check", str(tmp_path), "a folder"),
        ("board check", str(big_layout), "over 4096 bytes"),
        ("board check", str(binary), "not plain text (UTF-8)"),    # the device's words
    ]
    # endless: refused at once, nothing read; a named pipe nobody writes: refused without
    # waiting
    os.mkfifo(str(tmp_path / "pipe"))
    cases += [("show", "/dev/zero", "not a plain file"), ("board check", "/dev/zero", "not a plain file"),
              ("show", str(tmp_path / "pipe"), "not a plain file"),
              ("board check", str(tmp_path / "pipe"), "not a plain file")]
    locked = tmp_path / "locked.txt"
    locked.write_text("1S 10R\n")
    locked.chmod(0)
    cases += [("show", str(locked), "Permission denied"), ("board check", str(locked), "Permission denied")]
    for cmd, path, words in cases:
        r = subprocess.run(unprivileged.prefix() + [PY, "-m", "host_sim"] + cmd.split() + [path], cwd=ROOT,
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 2, (cmd, path, r.stderr)
        assert r.stderr.count("\n") == 1 and words in r.stderr and path in r.stderr, (cmd, path, r.stderr)
        assert r.stdout == ""


def test_png_and_state_that_cannot_work_are_refused_before_the_run(tmp_path):
    missing = tmp_path / "no" / "such" / "screen.png"
    r = run(["-m", "host_sim", "--headless", "--png", str(missing)])
    assert r.returncode == 2 and "no folder" in r.stderr and str(missing.parent) in r.stderr
    assert r.stdout == "" and not (tmp_path / "no").exists()
    r = run(["-m", "host_sim", "--headless", "--png", str(tmp_path)])
    assert r.returncode == 2 and "folder" in r.stderr and r.stdout == ""
    a_file = tmp_path / "f"
    a_file.write_text("x")
    r = run(["-m", "host_sim", "--headless", "--state", str(a_file)])
    assert r.returncode == 2 and "not a folder" in r.stderr and r.stdout == ""
    assert a_file.read_text() == "x"
    # a folder that exists takes the picture
    r = run(["-m", "host_sim", "--headless", "--png", str(tmp_path / "ok.png")])
    assert r.returncode == 0 and (tmp_path / "ok.png").stat().st_size > 0


# A save whose content the device's reader trips over (a key that is not text: issue 23)
# is damaged: one line naming the file, exit 2, whichever exception the reader raised.
@pytest.mark.parametrize("content", ["{[]:1}", "{{}:1}"])
def test_a_save_the_reader_trips_over_is_called_damaged(tmp_path, content):
    f = tmp_path / "game.json"
    f.write_text(content)
    for cmd in (["show", str(f)], ["show", str(f), "--json"], ["export", str(f), "--csv", "-"]):
        r = run(["-m", "host_sim"] + cmd)
        assert r.returncode == 2, (cmd, r.stderr)
        assert r.stderr.count("\n") == 1 and str(f) in r.stderr and "damaged" in r.stderr, (cmd, r.stderr)
        assert "Traceback" not in r.stderr and r.stdout == ""


@pytest.mark.parametrize("exc", [ValueError, TypeError, KeyError, IndexError, RecursionError, AttributeError])
def test_any_error_of_the_save_reader_is_a_damaged_file(tmp_path, capsys, monkeypatch, exc):
    # Whatever the engine's reader raises on content it cannot take (the bugs the fuzz finds
    # next included): the host commands say the file is damaged, they do not crash.
    from engine_mpy import saveload
    from host_sim import cli_export
    f = tmp_path / "game.json"
    f.write_text('{"format":"phase10","v":2,"game":"classic","settings":{"players":["A","B"]}}\n')

    def trip(text):
        raise exc("tripped")
    monkeypatch.setattr(saveload, "loads", trip)
    for main, args in ((cli_show.main, [str(f)]), (cli_export.main, [str(f), "--csv", "-"])):
        capsys.readouterr()
        assert main(args) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and str(f) in err and "damaged" in err, err


def test_pull_names_what_the_port_is(tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    for port in ("/dev/null", str(a_file), str(tmp_path)):
        r = run(["-m", "host_sim", "pull", "--port", port, str(tmp_path / "out")])
        assert r.returncode == 2, (port, r.stderr)
        assert r.stderr.count("\n") == 1 and "not a serial port" in r.stderr and port in r.stderr, (port, r.stderr)
        assert "another program" not in r.stderr and r.stdout == ""
    r = run(["-m", "host_sim", "pull", "--port", str(tmp_path / "ttyACM7"), str(tmp_path / "out")])
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "no board on" in r.stderr and "plugged in" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]

FAKE_PYGAME = '''
# pygame as it is on a machine with no display: SDL falls back to its offscreen driver
import os


class error(Exception):
    pass


class display:
    @staticmethod
    def init():
        if os.environ.get("FAKE_SDL") == "fail":
            raise error("No available video device")

    @staticmethod
    def get_driver():
        return "offscreen"

    @staticmethod
    def quit():
        pass

    @staticmethod
    def set_mode(size):
        raise AssertionError("a window was opened where nobody can see it")
'''


def test_window_without_a_display_says_so_and_exits_2(tmp_path):
    (tmp_path / "pygame.py").write_text(FAKE_PYGAME)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("SDL_VIDEODRIVER", None)
    state = tmp_path / "state"
    for sdl, said in (("offscreen", "only its 'offscreen' driver"), ("fail", "No available video device")):
        env["FAKE_SDL"] = sdl
        r = run(["-m", "host_sim", "--window", "--state", str(state)], timeout=30, env=env)
        assert r.returncode == 2, r.stderr
        assert "--window needs a display" in r.stderr and said in r.stderr, r.stderr
        assert not state.exists()      # nothing started
