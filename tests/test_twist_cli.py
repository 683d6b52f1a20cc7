"""`python -m host_sim board check FILE | board show`, the example layout files, and a Twist
save read by `python -m host_sim show`."""
import json
import os
import subprocess
import sys

from engine_mpy import board_layout as board, savefile, saveload
from engine_mpy.twist import Twist

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYOUTS = os.path.join(ROOT, "firmware", "layouts")


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_sim"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_example_layout_files_are_valid():
    names = sorted(f for f in os.listdir(LAYOUTS) if f.endswith(".txt"))
    assert "default.txt" in names
    for name in names:
        board.load_layout(os.path.join(LAYOUTS, name))
    # The shipped default file is the default layout itself.
    assert board.load_layout(os.path.join(LAYOUTS, "default.txt")) == board.default_layout()


def test_custom_layout_file_loaded_and_played(tmp_path):
    f = tmp_path / "twist_layout.txt"
    f.write_text("# our board\n1S 2 T 3\n9 10R\n")
    codes = board.load_layout(str(f))
    assert codes == ["1S", "2", "T", "3", "9", "10R"]
    g = Twist({"players": ["Ann", "Bob"], "layout": codes})
    g.add({"out": 0, "left": [None, 4]})  # Ann 0+3 = space 4 (phase 3), Bob 0+2 = Twist
    assert g.attempt_text(0) == ("Phase 3", "1 set of 4 + 1 run of 4")
    assert g.attempt_text(1) == ("Twist", "phase 2, phase 3 or a Twist card")
    # The layout lives in the save: changing the file later does not change this game.
    f.write_text("1S 10R\n")
    h = saveload.loads(savefile.dumps(g))
    assert h.state.pos == [3, 2] and h.settings["layout"] == "1S 2 T 3 9 10R"


def test_bad_layout_file_refused_with_its_message(tmp_path):
    f = tmp_path / "twist_layout.txt"
    f.write_text("1S 1 T 2 2 T 3 3\n")
    try:
        board.load_layout(str(f))
    except Exception as e:
        assert "red Phase 10 space (10R)" in e.args[0]
    else:
        raise AssertionError("a board without the red space was loaded")


def test_board_check_draws_a_valid_file():
    r = run("board", "check", os.path.join(LAYOUTS, "short.txt"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "17 spaces, 7 Twist spaces" in lines[0]
    # Space 3 of short.txt is the Twist space between phase 2 and phase 3.
    row3 = [l for l in lines if l.split()[:2] == ["3", "T"]]
    assert row3 and "phase 2 (before) or phase 3 (after)" in row3[0]
    assert any(l.split()[:2] == ["17", "10R"] for l in lines)


def test_board_check_refuses_a_bad_file_exit_2(tmp_path):
    cases = {
        "1S 1 X 10R": "Space 3: 'X' is not a space code",
        "1S 1 T T 2 10R": "Space 3: a Twist space needs a numbered space on each side; space 4",
        "1S 1 2 3": "red Phase 10 space (10R)",
        "1S 10R 2": "Space 2: the red Phase 10 space (10R) must be the last space",
        "# nothing\n": "empty",
        "2 3 10R": "Space 1 is 2",
        "1S " + "1 " * 70 + "10R": "at most 64",
    }
    for text, expected in cases.items():
        f = tmp_path / "bad.txt"
        f.write_text(text)
        r = run("board", "check", str(f))
        assert r.returncode == 2, text
        assert "not a valid board layout" in r.stderr and expected in r.stderr, (text, r.stderr)
        assert r.stdout == ""


class _NewGameApp:
    """What New game uses of the app to read /twist_layout.txt: the store and say()."""

    def __init__(self, root):
        from firmware.files.store import Store
        self.store = Store(root)
        self.said = []

    def say(self, msg):
        self.said.append(msg)


def test_board_check_takes_exactly_the_layouts_the_device_takes(tmp_path):
    # The device reads /twist_layout.txt at New game (firmware/screens/newgame.py) and plays
    # the default board, saying why, when it refuses the file; board check must pass the
    # same files and give the same reason, size limit (4,096 bytes) included.
    from firmware.screens import newgame
    body = "1S 1 T 2 3 4 5 6 7 8 9 10R\n"
    def padded(size):   # a valid layout made exactly size bytes long by a comment
        return ("#" + "x" * (size - len(body) - 2) + "\n" + body).encode()
    cases = [body.encode(), padded(board.MAX_FILE), padded(board.MAX_FILE + 1), padded(20000),
             b"1s 1 t 2 10r\r\n", b"1S\t2\t10R", b"\xef\xbb\xbf1S 10R\n", b"1S \xff 10R\n",
             b"", b"1S " + b"2 " * 63 + b"10R", b"1S " + b"2 " * 62 + b"10R", b"1S 10R\x00"]
    refused = 0
    for data in cases:
        (tmp_path / "twist_layout.txt").write_bytes(data)
        app = _NewGameApp(str(tmp_path))
        codes = newgame._layout(app)
        r = run("board", "check", str(tmp_path / "twist_layout.txt"))
        if not app.said:
            assert r.returncode == 0, (data[:40], r.stderr)
            assert "%d spaces" % len(codes) in r.stdout.splitlines()[0]
            continue
        refused += 1
        # the device: "twist_layout.txt: <reason> The default board is used."
        reason = app.said[0][len("twist_layout.txt: "):-len(" The default board is used.")]
        assert r.returncode == 2 and r.stdout == "", (data[:40], r.stdout)
        assert r.stderr.strip().endswith("not a valid board layout: " + reason), (data[:40], r.stderr, app.said)
    assert 0 < refused < len(cases)


def test_board_check_answers_at_once_for_what_is_not_a_layout_file(tmp_path):
    # /dev/zero never ends and a named pipe nobody writes never starts: refused, not read
    os.mkfifo(str(tmp_path / "pipe"))
    paths = [str(tmp_path), "/dev/zero", str(tmp_path / "pipe")]
    for path in paths:
        r = run("board", "check", path)    # run()'s timeout fails the test if it hangs
        assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr, (path, r.stderr)
        assert r.stderr.count("\n") == 1 and path in r.stderr and "cannot read" in r.stderr, r.stderr


def test_board_check_missing_file_and_usage():
    r = run("board", "check", "/no/such/file.txt")
    assert r.returncode == 2 and "cannot read" in r.stderr
    r = run("board")
    assert r.returncode == 2 and "give a command: check FILE or show" in r.stderr and r.stderr.count("\n") == 1


def test_board_show_draws_the_default():
    r = run("board", "show")
    assert r.returncode == 0
    assert "27 spaces, 8 Twist spaces" in r.stdout
    assert "[Start]" in r.stdout and "[RED10]" in r.stdout


def test_show_reads_a_twist_save(tmp_path):
    g = Twist({"players": ["Ann", "Bob"], "dealer": 1, "layout": "1S 1 9 10R"})
    g.add({"out": 0, "left": [None, 4]})  # Ann on the red space, Bob on phase 9
    f = tmp_path / "game.json"
    f.write_text(savefile.dumps(g))
    r = run("show", str(f), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["game"] == "twist" and d["hands"] == 1 and not d["over"]
    assert d["players"][0] == {"name": "Ann", "space": 4, "next": "Phase 10", "text": "1 set of 5 + 1 set of 3"}
    assert d["players"][1]["next"] == "Phase 9"
    # Dealer 1 dealt hand 1; the deal passes left to Ann.
    assert d["dealer"] == "Ann"
    r = run("show", str(f))
    assert r.returncode == 0 and "Ann deals, Bob plays first" in r.stdout
