"""The league over many sources (issue 48): `stats` and `export` given three pulls of one board
(each holding the games of the one before and more), the browser's Download zip and a pull
from before the games had ids count each game once, by its id (a line of the earlier
firmware: by its content); a game two sources hold with other contents is said in one
line and its later finish counted; a finish under way in a pull (finish.json) is counted
and said. The figures are worked out by hand below from the lines written here (as the
device writes them, engine_mpy/summary.py: each hand's sheet spelt out)."""
import csv
import io
import json
import zipfile

from host_sim import cli_export, cli_stats

HEAD = '{"format":"phase10-history","v":2}\n'
T = 1795896000        # 28 Nov 2026 20:00 on the table's clock
H = 3600


def game(n, players, sheet, winners, totals, made, gid=None, end=None, done=True):
    """A Phase 10 "first phase only" game's history line (one hand decides it), "n" first as
    the device writes it. The sheet: who went out, then per player points / 5 and phase * 2
    + 1 when completed ("03": out, phase 1 done; "A2": 50 points, not done; "13": 5
    points, done)."""
    e = {"n": n}
    if gid:
        e["id"] = gid
        e["start"] = end - H
        e["end"] = end
    e.update({"game": "classic", "players": players, "winners": winners, "done": done,
              "hands": 1 if sheet else 0, "variation": "first_n", "phases": 1, "first": 0,
              "totals": totals, "made": made, "sheet": sheet})
    return e


# Board A: games 1 and 2 finished on the firmware before ids (their lines have none, for
# good: the device never rewrites a line), 3 to 7 after.
G1 = game(1, ["Ann", "Bob"], "003A2", ["Ann"], [0, 50], [1, 0])
G2 = game(2, ["Ann", "Bob"], "1A203", ["Bob"], [50, 0], [0, 1])
# Cid goes out; Ann completes phase 1 too, with 5 points: Cid wins on fewer points
G3 = game(3, ["Ann", "Bob", "Cid"], "213A203", ["Cid"], [5, 50, 0], [1, 0, 1], "00000000000000a3", T + 3 * H)
G4 = game(4, ["Bob", "Cid"], "003A2", ["Bob"], [0, 50], [1, 0], "00000000000000a4", T + 4 * H)
G5 = game(5, ["Ann", "Cid"], "", [], [0, 0], [0, 0], "00000000000000a5", T + 5 * H, done=False)   # abandoned
G6 = game(6, ["Ann", "Cid"], "003A2", ["Ann"], [0, 50], [1, 0], "00000000000000a6", T + 6 * H)
G7 = game(7, ["Bob", "Ann"], "1A203", ["Ann"], [50, 0], [0, 1], "00000000000000a7", T + 7 * H)
# The browser: its own two games (names as typed there: case aside, the same players) and
# game 4 of the board again, its game.json loaded there before this firmware refused that,
# finished later with the other result
B1 = game(1, ["ANN", "Dee"], "1A203", ["Dee"], [50, 0], [0, 1], "00000000000000b1", T + 24 * H)
B2 = game(2, ["bob", "Dee"], "003A2", ["bob"], [0, 50], [1, 0], "00000000000000b2", T + 25 * H)
B4 = game(3, ["Bob", "Cid"], "1A203", ["Cid"], [50, 0], [0, 1], "00000000000000a4", T + 30 * H)


def lines(*games):
    return HEAD + "".join(json.dumps(e) + "\n" for e in games)


def sources(tmp_path):
    """The five sources, oldest first: a pull from before the ids, three pulls of board A
    (the last caught in the middle of game 7's finish), the browser's Download zip."""
    old = tmp_path / "board-20261001-190000"
    old.mkdir()
    (old / "history.json").write_text(lines(G1, G2))
    (old / "pull.json").write_text(json.dumps({"time": "2026-10-01T19:00:00"}))
    p1 = tmp_path / "board-20261128-230000"
    p1.mkdir()
    (p1 / "history.json").write_text(lines(G1, G2, G3))
    p2 = tmp_path / "board-20261129-230000"
    p2.mkdir()
    (p2 / "history.1.json").write_text(lines(G1, G2, G3))
    (p2 / "history.json").write_text(lines(G4, G5))
    p3 = tmp_path / "board-20261201-200000"
    p3.mkdir()
    (p3 / "history.1.json").write_text(lines(G1, G2, G3))
    (p3 / "history.json").write_text(lines(G4, G5, G6))
    (p3 / "finish.json").write_text(json.dumps({"n": 7, "roster": [["Bob", 4, 2, 200, 4], ["Ann", 5, 3, 105, 5]],
                                                "entry": G7}))
    (p3 / "game.json").write_text('{"format":"phase10","v":3,"game":"classic","id":"00000000000000a7",'
                                  '"settings":{"players":["Bob","Ann"],"dealer":0,"variation":"first_n","phases":1}}\n'
                                  '{"out":1,"left":[[10,0,0,0],null]}\n')
    z = tmp_path / "phase10-files.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("phase10/history.json", lines(B1, B2, B4))
        f.writestr("phase10/roster.json", '[["ANN",1,0,50,1]]')
        f.writestr("phase10/settings.json", "{}")
    return [str(old), str(p1), str(p2), str(p3), str(z)]


# By hand, over the games each counted once: 1, 2 (no id: the same lines in four sources),
# 3, 4 as the browser finished it (its end is later), 6, 7 (from the finish journal), the
# browser's 1 and 2; game 5 was abandoned. 8 finished games, every one a single hand.
# Ann (ANN): games 1, 2, 3, 6, 7, B1 (6); won 1, 6, 7 (50.0%); points 0 + 50 + 5 + 0 + 0 + 50
#      = 105 (17.5 a hand); completed in 1, 3, 6, 7 (4 of 6: 0.67); failed phase 1 twice;
#      best 0, worst 50.
# Cid: games 3, 4, 6 (3); won 3 and 4 (66.7%); 0 + 0 + 50 points (16.7); completed 2 of 3
#      (0.67); failed once; best 0, worst 50.
# Bob (bob): games 1, 2, 3, 4, 7, B2 (6); won 2 and B2 (33.3%); 50 + 0 + 50 + 50 + 50 + 0 =
#      200 (33.3); completed 2 of 6 (0.33); failed 4 times; best 0, worst 50.
# Dee: games B1, B2 (2); won B1 (50.0%); 0 + 50 (25.0); 1 of 2 (0.50); failed once.
# Ranked by wins, then win share: Ann 3, Cid 2 (66.7%), Bob 2 (33.3%), Dee 1.
# Head to head: Ann-Cid 1-1 (3 Cid won, 6 Ann); Ann-Bob 3-1 (1 and 7 Ann won, 2 Bob, 3
# neither: Ann completed, Bob not); Ann-Dee 0-1; Cid-Bob 2-0 (3 and 4); Bob-Dee 1-0.
COLS = ("player", "opponent", "games", "wins", "win_pct", "hands", "avg_points_per_hand", "phases_per_hand",
        "stuck_phase", "stuck_hands", "best_game", "worst_game", "ahead", "behind", "level")
WANT = [dict(zip(COLS, r), kind="classic") for r in (
    ("Ann", "", "6", "3", "50.0", "6", "17.5", "0.67", "1", "2", "0", "50", "", "", ""),
    ("Cid", "", "3", "2", "66.7", "3", "16.7", "0.67", "1", "1", "0", "50", "", "", ""),
    ("Bob", "", "6", "2", "33.3", "6", "33.3", "0.33", "1", "4", "0", "50", "", "", ""),
    ("Dee", "", "2", "1", "50.0", "2", "25.0", "0.50", "1", "1", "0", "50", "", "", ""),
    ("Ann", "Cid", "2", "1", "50.0", "", "", "", "", "", "", "", "1", "1", "0"),
    ("Ann", "Bob", "4", "2", "50.0", "", "", "", "", "", "", "", "3", "1", "0"),
    ("Ann", "Dee", "1", "0", "0.0", "", "", "", "", "", "", "", "0", "1", "0"),
    ("Cid", "Ann", "2", "1", "50.0", "", "", "", "", "", "", "", "1", "1", "0"),
    ("Cid", "Bob", "2", "2", "100.0", "", "", "", "", "", "", "", "2", "0", "0"),
    ("Bob", "Ann", "4", "1", "25.0", "", "", "", "", "", "", "", "1", "3", "0"),
    ("Bob", "Cid", "2", "0", "0.0", "", "", "", "", "", "", "", "0", "2", "0"),
    ("Bob", "Dee", "1", "1", "100.0", "", "", "", "", "", "", "", "1", "0", "0"),
    ("Dee", "Ann", "1", "1", "100.0", "", "", "", "", "", "", "", "1", "0", "0"),
    ("Dee", "Bob", "1", "0", "0.0", "", "", "", "", "", "", "", "0", "1", "0"),
)]


def test_the_league_counts_each_game_once_over_pulls_a_browser_zip_and_an_earlier_pull(tmp_path, capsys):
    src = sources(tmp_path)
    assert cli_stats.main(src + ["--csv", "-"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows == WANT, rows
    said = err.splitlines()
    # the finish under way, and the game held with other contents: a line each, nothing else
    assert len(said) == 2, err
    assert said[0] == ("%s/finish.json: game 7 was being finished when these files were copied (the device "
                       "completes it at its next start): counted from this journal" % src[3])
    assert said[1].startswith("game 3 (id 00000000000000a4) is held with other contents by %s/history.json: line 2 "
                              "and by %s/phase10/history.json: line 4: the later finish is kept (%s/phase10/"
                              "history.json: line 4)" % (src[2], src[4], src[4])), said[1]
    # as text: the heading counts each game once
    assert cli_stats.main(src) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == "League: 8 finished games from %s (1 not finished, not counted)" % ", ".join(src)
    assert "  Ann v Bob: 3-1-0 in 4 games" in text and "  Cid v Bob: 2-0-0 in 2 games" in text


def test_export_writes_each_game_once_and_the_finish_under_way_is_no_running_game(tmp_path, capsys):
    src = sources(tmp_path)
    assert cli_export.main(src + ["--csv", "-"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    games = []
    for r in rows:
        key = (r["game"], r["date"])
        if key not in games:
            games.append(key)
    # 1 and 2 (no date: an earlier firmware's), 3 to 7 of the board, the browser's 1 and 2;
    # game 4 the browser's finish, numbered 3 there
    assert [g[0] for g in games] == ["1", "2", "3", "3", "5", "6", "7", "1", "2"], games
    assert games[3][1] == "finished 30 Nov 2026 02:00" and games[0][1] == "copied off the board 2026-10-01 19:00"
    assert "running game" not in err and "game 7 was being finished" in err


def test_one_pull_twice_is_the_same_league(tmp_path, capsys):
    # two pulls of one board holding the same games: not a game more than one of them
    src = sources(tmp_path)
    assert cli_stats.main([src[2], "--csv", "-"]) == 0
    once = capsys.readouterr().out
    assert cli_stats.main([src[2], src[2], src[1], "--csv", "-"]) == 0
    assert capsys.readouterr().out == once
