# The words the device and the PC commands say, where a newcomer found them wrong (issue 41):
# a count of one in the singular, "phase 1 only", no Continue without a game, the title bar
# apart from the line selected under it, each file named in full (pull's folder, the game a
# folder holds), --help naming every dice command the README uses, and the phones page's
# password as it is made.
import json
import os
import re
import subprocess
import sys

from engine_mpy import savefile
from engine_mpy.classic import Classic
from engine_mpy.dice import DiceGame
from host_sim import cli_export, cli_show, report, script, sim
from tests import table_keys as K

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_hand():
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    return g


def test_one_hand_or_turn_is_said_in_the_singular():
    g = one_hand()
    assert "2 players, 1 hand played" in report.text(g)
    g.add({"out": 1, "left": [[10, 0, 0, 0], None]})
    assert "2 players, 2 hands played" in report.text(g)
    d = DiceGame({"players": ["Ann", "Bob"], "order": [0, 1]})
    d.add({"player": 0, "faces": "4144405455"})
    assert "1 turn played" in report.text(d)


def drawn(dev):
    """Every text the screen on top draws."""
    app = dev.app
    c = app.canvas
    got = []
    text = c.text
    c.text = lambda s, *a, **k: (got.append(s), text(s, *a, **k))[1]
    try:
        app.redraw()
    finally:
        c.text = text
    return got


def test_first_one_phase_says_phase_1_only(tmp_path):
    dev = script.Device(state=str(tmp_path))
    dev.play(script.parse(K.menu("new game") + " OK DOWN DOWN OK"))   # Phase 10, First N phases: 5
    assert "phases 1 to 5" in drawn(dev)
    dev.play(script.parse("DOWN DOWN DOWN DOWN"))
    words = drawn(dev)
    assert "phase 1 only" in words and not any("1 to 1" in w for w in words)


def test_the_title_bar_and_the_line_selected_under_it_do_not_run_together(tmp_path):
    dev = script.Device(state=str(tmp_path))
    for keys in ("", "OK"):                 # the menu on New game; New game's first page
        dev.play(script.parse(keys))
        rows = dev.rows()
        assert rows[0].count("#") > 64 and rows[8].count("#") > 64   # both inverted bars
        assert rows[7] == "." * 128, keys                              # a dark row between


def test_pull_names_the_folder_it_left_alone_in_full(tmp_path):
    # "Nothing was written in .." named the current folder as "."
    r = subprocess.run([sys.executable, "-m", "host_sim", "pull", "--port", str(tmp_path / "no-such-port")],
                       cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2
    assert "Nothing was written in %s." % tmp_path in r.stderr and " .." not in r.stderr, r.stderr


def pulled(tmp_path):
    d = tmp_path / "board-20250131-142530"
    d.mkdir()
    (d / "game.json").write_text(savefile.dumps(one_hand()))
    from engine_mpy import summary
    (d / "history.json").write_text(json.dumps({"format": summary.FORMAT, "v": 2}) + "\n"
                                    + json.dumps(summary.entry(one_hand(), False, 1)) + "\n")
    return d


def test_show_of_a_folder_names_the_file_to_give(tmp_path, capsys):
    d = pulled(tmp_path)
    assert cli_show.main([str(d)]) == 2
    err = capsys.readouterr().err
    assert "it is a folder" in err and str(d / "game.json") in err
    os.remove(str(d / "game.json"))
    assert cli_show.main([str(d)]) == 2
    assert "no game.json" in capsys.readouterr().err


def test_export_of_a_folder_says_the_running_game_is_not_in_it(tmp_path, capsys):
    d = pulled(tmp_path)
    assert cli_export.main([str(d), "--csv", str(tmp_path / "all.csv")]) == 0
    err = capsys.readouterr().err
    assert "running game" in err and str(d / "game.json") in err
    # and without a running game nothing is said
    os.remove(str(d / "game.json"))
    assert cli_export.main([str(d), "--csv", str(tmp_path / "all2.csv")]) == 0
    assert capsys.readouterr().err == ""


def test_help_lists_every_dice_command_the_readme_uses(capsys):
    try:
        sim.main(["--help"])
    except SystemExit:
        pass
    out = capsys.readouterr().out
    with open(os.path.join(ROOT, "README.md")) as f:
        used = set(re.findall(r"host_sim dice (\w+)", f.read()))
    assert used == {"score", "advise"}
    for sub in used:
        assert "dice %s" % sub in out, sub


def test_the_phones_doc_says_the_password_as_it_is_made():
    from firmware.phones import control
    pw = control.credentials(bytes(range(23, 35)))["wifi_pw"]      # (bytes that give digits)
    assert any(ch.isdigit() for ch in pw) and any(ch.isalpha() for ch in pw)
    with open(os.path.join(ROOT, "docs", "table-on-phones.md")) as f:
        doc = f.read()
    m = re.search(r"password of (\d+) (letters and digits|letters)", doc)
    assert m and int(m.group(1)) == len(pw) and m.group(2) == "letters and digits"
