"""`python -m host_sim stats SOURCE...`: each player's figures, a kind of game at a time, over a
history written by hand here (the lines as the device writes them, engine_mpy/summary.py:
each hand's sheet spelt out character by character), with the answers worked out by hand.
The league over several sources: tests/test_league.py."""
import csv
import io
import json
import os
import subprocess
import sys

from host_sim import cli_stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = '{"format":"phase10-history","v":2}\n'

# The sheet's alphabet: "0".."9" are 0-9, "A" 10, "B" 11, "C" 12, ... "K" 20, ... "U" 30.
# A card hand: who went out, then per player points / 5 and phase * 2 + 1 if completed.
OLD = [
    # 1. Phase 10, first phase only. Ann goes out (0 points, phase 1 done: "03"); Bob 50
    #    points, phase 1 not done ("A2"). Ann wins.
    {"n": 1, "game": "classic", "variation": "first_n", "phases": 1, "players": ["Ann", "Bob"],
     "first": 0, "winners": ["Ann"], "done": True, "hands": 1, "totals": [0, 50], "made": [1, 0],
     "sheet": "003A2"},
    # 2. First two phases, Ann Bob Cid. Hand 1, Bob out: Ann 50 fails phase 1, Cid 20
    #    completes it. Hand 2, Ann out (phase 1): Bob 30 completes phase 2, his last, and
    #    wins; Cid 60 fails phase 2. Totals Ann 50, Bob 30, Cid 80.
    {"n": 2, "game": "classic", "variation": "first_n", "phases": 2, "players": ["Ann", "Bob", "Cid"],
     "first": 1, "winners": ["Bob"], "done": True, "hands": 2, "totals": [50, 30, 80], "made": [1, 2, 1],
     "sheet": "1A20343,00365C4"},
    # 3. Masters, abandoned after a hand: not counted (Dan played only here).
    {"n": 3, "game": "masters", "players": ["Ann", "Dan"], "first": 0, "winners": [], "done": False,
     "hands": 1, "totals": [50, 0], "made": [0, 1], "sheet": "1A009"},
]
NEW = [
    # 4. Dice solitaire, Ann: phases 1-10 at 30 each ("0" player, phase, "U" = 30). Phases
    #    1-5 make 150 (no Five Phase Bonus); phase 10 on its first try: +40. 340.
    {"n": 4, "game": "dice", "players": ["Ann"], "first": [0], "winners": ["Ann"], "done": True,
     "hands": 10, "totals": [340], "sheet": ",".join("0%sU" % "123456789A"[k] for k in range(10))},
    # 5. Twist on a board of 3 spaces (1S 2 10R), Ann and Cid: Ann goes out (+3: "4"),
    #    jumping the red space from the start; Cid fails phase 1 (+1: "2"). Ann wins.
    {"n": 5, "game": "twist", "players": ["Ann", "Cid"], "first": 0, "layout": "1S 2 10R",
     "winners": ["Ann"], "done": True, "hands": 1, "totals": [4, 2], "sheet": "4.2."},
    # 6. Dice solitaire, Bob: fails phase 1 once (-5), then every phase at 20 ("K"), phase 10
    #    on its first try (+40): 200 - 5 + 40 = 235.
    {"n": 6, "game": "dice", "players": ["Bob"], "first": [0], "winners": ["Bob"], "done": True,
     "hands": 11, "totals": [235], "sheet": "01-," + ",".join("0%sK" % "123456789A"[k] for k in range(10))},
    # 7. First two phases, Cid and Ann. Hand 1, Cid out: Ann 50 fails phase 1. Hand 2, Ann
    #    out: Cid 50 fails phase 2. Hand 3, Ann out completing phase 2: she wins; Cid 55
    #    fails phase 2 again. Totals Cid 105, Ann 50.
    {"n": 7, "game": "classic", "variation": "first_n", "phases": 2, "players": ["Cid", "Ann"],
     "first": 0, "winners": ["Ann"], "done": True, "hands": 3, "totals": [105, 50], "made": [1, 2],
     "sheet": "003A2,1A403,1B405"},
]

# By hand from the games above, a kind of game at a time (the CSV's columns: games, wins,
# win %, hands, points a hand, phases completed a hand, stuck phase and hands, best and
# worst game; then each pair: games together, the player's wins in them, ahead-behind-level).
# Phase 10 (games 1, 2, 7):
# Ann: games 1, 2, 7; wins 1 and 7 (66.7%); hands 1 + 2 + 3 = 6 with 0 + 50 + 50 = 100
#      points (16.7 a hand); completed in 4 of them (game 1's, game 2's second, game 7's
#      last two: 0.67); failed phase 1 in game 2 and in game 7: phase 1, 2 hands; best game
#      0 points (game 1), worst 50.
# Bob: games 1, 2; won game 2 (50.0%); 3 hands, 50 + 30 points (26.7); completed 2 of 3
#      (0.67); failed phase 1 once; best 30, worst 50.
# Cid: games 2, 7; no win; 5 hands, 80 + 105 points (37.0); completed 2 (game 2's first,
#      game 7's first: 0.40); failed phase 2 in game 2 and twice in game 7: phase 2, 3
#      hands; best 80, worst 105.
# Head to head: Ann-Bob 1-1 (game 1 Ann won, game 2 Bob); Ann-Cid 2-0 (game 2: both made
# one phase, Ann with 50 points to Cid's 80; game 7 Ann won); Bob-Cid 1-0 (game 2).
# Twist (game 5): Ann won, 1 hand completed, space 4; Cid failed phase 1, space 2.
# Dice (games 4 and 6, solitaire): Ann 10 turns of 30 (30.0 a turn, every one made), 340;
# Bob 11 turns, 200 points (18.2), 10 made (0.91), failed phase 1 once, 235.
PLAYER = ("kind", "player", "opponent", "games", "wins", "win_pct", "hands", "avg_points_per_hand",
          "phases_per_hand", "stuck_phase", "stuck_hands", "best_game", "worst_game", "ahead", "behind", "level")
WANT = [dict(zip(PLAYER, r)) for r in (
    ("classic", "Ann", "", "3", "2", "66.7", "6", "16.7", "0.67", "1", "2", "0", "50", "", "", ""),
    ("classic", "Bob", "", "2", "1", "50.0", "3", "26.7", "0.67", "1", "1", "30", "50", "", "", ""),
    ("classic", "Cid", "", "2", "0", "0.0", "5", "37.0", "0.40", "2", "3", "80", "105", "", "", ""),
    ("classic", "Ann", "Bob", "2", "1", "50.0", "", "", "", "", "", "", "", "1", "1", "0"),
    ("classic", "Ann", "Cid", "2", "1", "50.0", "", "", "", "", "", "", "", "2", "0", "0"),
    ("classic", "Bob", "Ann", "2", "1", "50.0", "", "", "", "", "", "", "", "1", "1", "0"),
    ("classic", "Bob", "Cid", "1", "1", "100.0", "", "", "", "", "", "", "", "1", "0", "0"),
    ("classic", "Cid", "Ann", "2", "0", "0.0", "", "", "", "", "", "", "", "0", "2", "0"),
    ("classic", "Cid", "Bob", "1", "0", "0.0", "", "", "", "", "", "", "", "0", "1", "0"),
    ("twist", "Ann", "", "1", "1", "100.0", "1", "", "1.00", "", "", "4", "4", "", "", ""),
    ("twist", "Cid", "", "1", "0", "0.0", "1", "", "0.00", "1", "1", "2", "2", "", "", ""),
    ("twist", "Ann", "Cid", "1", "1", "100.0", "", "", "", "", "", "", "", "1", "0", "0"),
    ("twist", "Cid", "Ann", "1", "0", "0.0", "", "", "", "", "", "", "", "0", "1", "0"),
    ("dice", "Ann", "", "1", "1", "100.0", "10", "30.0", "1.00", "", "", "340", "340", "", "", ""),
    ("dice", "Bob", "", "1", "1", "100.0", "11", "18.2", "0.91", "1", "1", "235", "235", "", "", ""),
)]


def pulled(tmp_path):
    d = tmp_path / "board-20250131-142530"
    d.mkdir()
    (d / "history.1.json").write_text(HEAD + "".join(json.dumps(e) + "\n" for e in OLD))
    (d / "history.json").write_text(HEAD + "".join(json.dumps(e) + "\n" for e in NEW))
    return d


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_sim", "stats"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_stats_of_a_hand_made_history(tmp_path, capsys):
    d = pulled(tmp_path)
    assert cli_stats.main([str(d), "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows == WANT


def test_a_history_file_named_by_hand_is_said_and_not_counted(tmp_path, capsys):
    # history.01.json beside history.1.json (copied by hand) was read as history.1.json:
    # its games counted twice, the other file's never (issue 42)
    d = pulled(tmp_path)
    (d / "history.01.json").write_text(HEAD + json.dumps(dict(OLD[0], n=99, players=["Zed", "Bob"])) + "\n")
    assert cli_stats.main([str(d), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert list(csv.DictReader(io.StringIO(out))) == WANT
    assert err.count("\n") == 2 and "history.01.json: history.01.json is not a name the device" in err, err
    assert "export it by name" in err
    # export says the same and lists each game once
    from host_sim import cli_export
    assert cli_export.main([str(d), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert "history.01.json is not a name" in err and "Zed" not in out
    assert sorted({r["game"] for r in csv.DictReader(io.StringIO(out))}) == ["1", "2", "3", "4", "5", "6", "7"]


def test_stats_as_text_and_as_a_page(tmp_path, capsys):
    d = pulled(tmp_path)
    (d / "pull.json").write_text(json.dumps({"time": "2025-01-31T14:25:30"}))
    assert cli_stats.main([str(d)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("League: 6 finished games from ") and out[0].endswith("(1 not finished, not counted)")
    assert out[2] == "Phase 10: 3 games"
    assert out[4].split() == ["Ann", "3", "2", "66.7", "6", "16.7", "0.67", "phase", "1", "(2", "hands)", "0", "50"]
    assert out[6].split() == ["Cid", "2", "0", "0.0", "5", "37.0", "0.40", "phase", "2", "(3", "hands)", "80", "105"]
    assert out[7:11] == ["Head to head, games ahead-behind-level:", "  Ann v Bob: 1-1-0 in 2 games",
                         "  Ann v Cid: 2-0-0 in 2 games", "  Bob v Cid: 1-0-0 in 1 game"]
    assert "Phase 10 Twist: 1 game" in out and "Phase 10 Dice: 2 games" in out
    assert "Dan" not in "\n".join(out)
    page = tmp_path / "players.html"
    assert cli_stats.main([str(d), "--html", str(page)]) == 0
    text = page.read_text()
    assert "2025-01-31 14:25" in text and "<script" not in text and "http" not in text
    assert text.index("Ann</td>") < text.index("Bob</td>") < text.index("Cid</td>")
    assert "<h2>Phase 10 <span" in text and "Head to head" in text


def test_one_history_file_alone(tmp_path, capsys):
    d = pulled(tmp_path)
    assert cli_stats.main([str(d / "history.1.json"), "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    # games 1 and 2 only (3 was abandoned): Bob won game 2, Ann game 1
    assert [(r["player"], r["games"], r["wins"]) for r in rows if not r["opponent"]] == [
        ("Ann", "2", "1"), ("Bob", "2", "1"), ("Cid", "1", "0")]


def test_bad_input_is_a_message_and_status_2(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    d = pulled(tmp_path)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    bad = dict(NEW[-1], totals=[100, 50])      # the hands add up to 105 for Cid
    (damaged / "history.json").write_text(HEAD + json.dumps(bad) + "\n")
    game = tmp_path / "game.json"
    game.write_text('{"format":"phase10","v":2,"game":"classic","settings":{"players":["A","B"]}}\n')
    cases = [
        ([str(empty)], "no history here"),
        ([str(tmp_path / "missing")], "No such file or directory"),
        ([str(damaged)], "line 2 (game 7) is damaged"),
        ([str(game)], "not a history file"),
        ([str(d), "--csv", str(tmp_path / "no" / "s.csv")], "make it first"),
    ]
    for args, said in cases:
        r = run(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert said in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def damaged_pull(tmp_path):
    """The pulled folder with damage the audit found (issue 23): in history.json game 5's
    line is not JSON, game 6's hands do not add up to the total it keeps, and game 7, the
    last line, is whole but lacks its final newline (a FAT cut, or the last byte lost); the
    device also set a damaged history aside (bad/history.json.bad1)."""
    d = pulled(tmp_path)
    bad6 = dict(NEW[2], totals=[230])        # the turns add up to 235
    (d / "history.json").write_text(HEAD + json.dumps(NEW[0]) + "\n" + '{"n":5,"game":"twi\x01st"\n'
                                    + json.dumps(bad6) + "\n" + json.dumps(NEW[3]))
    (d / "bad").mkdir()
    (d / "bad" / "history.json.bad1").write_text(HEAD + '{"n":')
    return d


def test_what_could_not_be_read_is_said_and_the_rest_counted(tmp_path, capsys):
    d = damaged_pull(tmp_path)
    assert cli_stats.main([str(d), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 4, err        # one line a problem, then how many games were read
    assert "history.json: line 3 is damaged" in lines[0]
    assert "history.json: line 4 (game 6) is damaged: Bob's turns do not add up" in lines[1]
    assert "history.json.bad1" in lines[2] and "set aside" in lines[2]
    assert "5 games read" in lines[3]
    # the figures are those of the games that could be read, game 7 (no newline) among them
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "history.json").write_text(HEAD + "".join(json.dumps(e) + "\n" for e in OLD + [NEW[0], NEW[3]]))
    assert cli_stats.main([str(clean), "--csv", "-"]) == 0
    want, clean_err = capsys.readouterr()
    assert clean_err == "" and out == want
    assert [(r["kind"], r["player"]) for r in csv.DictReader(io.StringIO(out)) if not r["opponent"]] == [
        ("classic", "Ann"), ("classic", "Bob"), ("classic", "Cid"), ("dice", "Ann")]
    # as text: the heading counts the games read
    assert cli_stats.main([str(d)]) == 0
    assert capsys.readouterr().out.startswith("League: 4 finished games from ")


def test_a_last_line_without_its_newline_is_a_game(tmp_path, capsys):
    d = tmp_path / "h"
    d.mkdir()
    (d / "history.json").write_text(HEAD + json.dumps(NEW[0]) + "\n" + json.dumps(NEW[3]))
    assert cli_stats.main([str(d), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = {(r["kind"], r["player"]): r for r in csv.DictReader(io.StringIO(out)) if not r["opponent"]}
    assert rows["dice", "Ann"]["games"] == "1" and rows["classic", "Ann"]["games"] == "1" and rows["classic", "Cid"]["games"] == "1"


def test_nothing_readable_is_status_2(tmp_path):
    d = tmp_path / "h"
    d.mkdir()
    (d / "history.json").write_text(HEAD + '{"n":1,"ga\n' + "[1,2]\n")
    r = run(str(d))
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 2 and "line 2 is damaged" in lines[0] and "line 3" in lines[1], r.stderr
