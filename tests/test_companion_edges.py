"""The PC companion's own edges (issue 48, from the audit): a CSV cell no spreadsheet runs, an
output that would write over an input refused, a folder that cannot be read or made is one
line and exit 2, a finish under way counted and said, `show` of a history file, and the
ways to get a finished game named where a folder holds none."""
import csv
import io
import json
import os
import subprocess
import sys

from tests import unprivileged

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = '{"format":"phase10-history","v":2}\n'


def run(*args, prefix=()):
    return subprocess.run(list(prefix) + [sys.executable, "-m", "host_sim"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def line(n, players, winners, sheet="003A2", totals=(0, 50), made=(1, 0), **more):
    """A "first phase only" Phase 10 game's history line: the first player went out."""
    e = {"n": n, "game": "classic", "players": players, "winners": winners, "done": True, "hands": 1,
         "variation": "first_n", "phases": 1, "first": 0, "totals": list(totals), "made": list(made), "sheet": sheet}
    e.update(more)
    return json.dumps(e) + "\n"


def test_a_csv_cell_a_spreadsheet_would_run_is_written_as_text(tmp_path, capsys):
    # Names are the table's to type: "=1+1" in a cell is a formula a spreadsheet runs when
    # the file is opened (and "=HYPERLINK(...)" or "@SUM(...)" worse). Text that starts with
    # = + - @, a tab or a carriage return gets a ' first; numbers stay numbers (a Dice
    # bonus of -5, a Twist move of -1).
    from host_sim import cli_export, cli_stats, hostio
    names = ["=1+1", "+Bob", "-Cid", "@Dee", "\tEve", "Fay"]
    d = tmp_path / "pull"
    d.mkdir()
    (d / "history.json").write_text(
        HEAD + line(1, names[:2], [names[0]]) + line(2, names[2:4], [names[2]]) + line(3, names[4:], [names[4]])
        + json.dumps({"n": 4, "game": "dice", "players": ["-Bo"], "first": [0], "winners": [], "done": False,
                      "hands": 1, "totals": [-5], "sheet": "01-"}) + "\n")
    assert cli_export.main([str(d), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert [x["player"] for x in rows] == ["'=1+1", "'+Bob", "'-Cid", "'@Dee", "'\tEve", "Fay", "'-Bo"]
    assert [x["dealer"] for x in rows[:2]] == ["'=1+1"] * 2 and rows[0]["went_out"] == "'=1+1"
    assert [x["bonus"] for x in rows if x["kind"] == "dice"] == ["-5"]        # numbers stay numbers
    assert cli_stats.main([str(d), "--csv", "-"]) == 0
    cells = [c for x in csv.reader(io.StringIO(capsys.readouterr().out, newline="")) for c in x]
    assert "'=1+1" in cells and "'-Cid" in cells and "'\tEve" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r") or (c[:1] == "-" and not c[1:].isdigit())], cells
    # a carriage return first, and the numbers of both commands, as the writers take them
    assert hostio.csv_safe({"player": "\rFay", "move": -1, "note": "tie-break"}) == {
        "player": "'\rFay", "move": -1, "note": "tie-break"}


def test_export_refuses_to_write_over_one_of_its_inputs(tmp_path):
    # `export game.json --html game.json` put the page where the save was
    save = tmp_path / "game.json"
    text = ('{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","Bob"],'
            '"dealer":0,"variation":"standard"}}\n{"out":0,"left":[null,[10,0,0,0]]}\n')
    save.write_text(text)
    d = tmp_path / "pull"
    d.mkdir()
    (d / "history.json").write_text(HEAD + line(1, ["Ann", "Bob"], ["Ann"]))
    link = tmp_path / "link.csv"
    link.symlink_to(d / "history.json")
    for args in (["export", str(save), "--html", str(save)],
                 ["export", str(d), "--csv", str(d / "history.json")],
                 ["export", str(d), "--csv", str(link)],
                 ["stats", str(d), "--html", str(d / "history.json")]):
        r = run(*args)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (args, r.stderr)
        assert "is one of the files it reads" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert save.read_text() == text and (d / "history.json").read_text() == HEAD + line(1, ["Ann", "Bob"], ["Ann"])
    # a new file in the same folder is written as ever
    r = run("export", str(d), "--html", str(d / "history.html"))
    assert r.returncode == 0 and (d / "history.html").read_text().startswith("<!DOCTYPE html>"), r.stderr


def test_a_folder_that_cannot_be_read_is_one_line_and_exit_2(tmp_path):
    d = tmp_path / "locked"
    d.mkdir()
    (d / "history.json").write_text(HEAD + line(1, ["Ann", "Bob"], ["Ann"]))
    os.chmod(d, 0)
    try:
        for cmd in (["stats", str(d)], ["export", str(d), "--csv", "-"]):
            r = run(*cmd, prefix=unprivileged.prefix())
            assert r.returncode == 2, (cmd, r.stdout, r.stderr)
            assert r.stderr.splitlines() == ["%s: cannot read this folder: Permission denied" % d], r.stderr
    finally:
        os.chmod(d, 0o755)


def test_a_state_folder_that_cannot_be_made_is_one_line_and_exit_2(tmp_path):
    f = tmp_path / "a file"
    f.write_text("")
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    try:
        for state, why in ((f / "state", "Not a directory"), (ro / "state", "Permission denied")):
            r = run("--headless", "--state", str(state), prefix=unprivileged.prefix())
            assert r.returncode == 2 and r.stdout == "", (state, r.stderr)
            assert r.stderr == "host_sim: --state %s: cannot make this folder: %s\n" % (state, why), r.stderr
    finally:
        os.chmod(ro, 0o755)


def finish_under_way(tmp_path):
    """A pull caught between a finish's journal and its history's new line: 2 games in the
    history, the third in finish.json, its game.json not removed yet."""
    d = tmp_path / "board-20261128-223000"
    d.mkdir()
    (d / "history.json").write_text(HEAD + line(1, ["Ann", "Bob"], ["Ann"]) + line(2, ["Ann", "Bob"], ["Bob"], "1A203", (50, 0), (0, 1)))
    third = json.loads(line(3, ["Cid", "Bob"], ["Cid"], id="00000000000000c3", start=1795896000, end=1795899600))
    (d / "finish.json").write_text(json.dumps({"n": 3, "roster": [["Ann", 2, 1, 50, 2], ["Bob", 3, 1, 100, 3],
                                                                 ["Cid", 1, 1, 0, 1]], "entry": third}))
    (d / "game.json").write_text('{"format":"phase10","v":3,"game":"classic","id":"00000000000000c3","settings":'
                                 '{"players":["Cid","Bob"],"dealer":0,"variation":"first_n","phases":1}}\n'
                                 '{"out":0,"left":[null,[10,0,0,0]]}\n')
    return d


def test_a_finish_under_way_is_counted_and_said(tmp_path):
    d = finish_under_way(tmp_path)
    # export writes it with the others, and its game.json is not "the running game"
    r = run("export", str(d), "--csv", "-")
    assert r.returncode == 0, r.stderr
    assert sorted({x["game"] for x in csv.DictReader(io.StringIO(r.stdout))}) == ["1", "2", "3"]
    assert "running game" not in r.stderr and "game 3 was being finished" in r.stderr
    r = run("stats", str(d), "--csv", "-")
    assert r.returncode == 0, r.stderr
    rows = {x["player"]: x for x in csv.DictReader(io.StringIO(r.stdout)) if not x["opponent"]}
    # the device counts game 3 at its next start: so does stats (Cid's only game, won)
    assert (rows["Cid"]["games"], rows["Cid"]["wins"], rows["Bob"]["games"]) == ("1", "1", "3")
    assert r.stderr.splitlines() == ["%s: game 3 was being finished when these files were copied (the device "
                                     "completes it at its next start): counted from this journal"
                                     % (d / "finish.json")]
    r = run("stats", str(d))
    assert r.stdout.startswith("League: 3 finished games from ")
    # once the history holds it (the device completed the finish, the journal left by a cut
    # after its line was added): counted once, and said so
    (d / "history.json").write_text((d / "history.json").read_text() + json.dumps(json.loads((d / "finish.json").read_text())["entry"]) + "\n")
    r = run("stats", str(d))
    assert r.stdout.startswith("League: 3 finished games from ") and "holds it already" in r.stderr, r.stderr


def test_show_lists_the_games_of_a_history_file(tmp_path):
    f = tmp_path / "history.json"
    f.write_text(HEAD + line(1, ["Ann", "Bob"], ["Ann"])
                 + line(2, ["Cid", "Bob"], ["Cid"], id="00000000000000c3", start=1795896000, end=1795899600)
                 + json.dumps({"n": 3, "game": "dice", "players": ["Ann"], "winners": [], "done": False,
                               "hands": 2, "first": [0], "totals": [30], "sheet": "01U,02-", "id": "00000000000000d1",
                               "start": 1795982400, "end": 1795983000}) + "\n" + '{"n":4,"ga\n')
    r = run("show", str(f))
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "%s: 3 games, oldest first" % f
    assert out[1].split() == ["Game", "Date", "Kind", "Players", "Winner", "Hands"]
    assert out[2].split() == ["1", "-", "Phase", "10", "Ann,", "Bob", "Ann", "1"]
    # (the end of game 2: 28 Nov 2026 21:00 on the table's clock)
    assert out[3].split() == ["2", "28", "Nov", "2026", "21:00", "Phase", "10", "Cid,", "Bob", "Cid", "1"]
    assert out[4].split() == ["3", "29", "Nov", "2026", "20:10", "Dice", "Ann", "unfinished", "2"]
    assert r.stderr.splitlines() == ["%s: line 5 is damaged (not valid JSON)" % f]
    r = run("show", str(f), "--json")
    games = json.loads(r.stdout)
    assert [(g["n"], g["date"], g["game"], g["winners"], g["hands"]) for g in games] == [
        (1, None, "classic", ["Ann"], 1), (2, "28 Nov 2026 21:00", "classic", ["Cid"], 1),
        (3, "29 Nov 2026 20:10", "dice", [], 2)]
    assert games[1]["id"] == "00000000000000c3" and len(games[0]["id"]) == 16


def test_a_folder_with_no_finished_game_names_both_ways_to_get_one(tmp_path):
    # a player of the browser's device has no board to pull: the Download is the other way
    d = tmp_path / "empty"
    d.mkdir()
    (d / "settings.json").write_text("{}")
    for cmd in (["stats", str(d)], ["export", str(d), "--csv", "-"]):
        r = run(*cmd)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert "python -m host_sim pull" in r.stderr and "Download files" in r.stderr, r.stderr
