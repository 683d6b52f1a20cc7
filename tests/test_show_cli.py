"""`python -m host_sim show FILE [--json]`: a saved game read on the PC."""
import json
import os
import subprocess
import sys

from engine_mpy.cards import Classic
from engine_mpy import savefile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_sim", "show"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def tied_game():
    g = Classic({"players": ["Ann", "Bob"], "dealer": 1})
    for h in range(9):
        g.add({"out": h % 2, "left": [None if p == h % 2 else [1, 0, 0, 0] for p in range(2)]})
    g.add({"out": 1, "left": [[1, 0, 0, 0], None]})
    return g


def test_json_view_of_a_running_game(tmp_path):
    g = Classic({"players": ["Ann", "Bob", "Cid"], "dealer": 0})
    g.add({"out": 1, "left": [[10, 0, 0, 0], None, [0, 1, 0, 1]]})
    f = tmp_path / "game.json"
    f.write_text(savefile.dumps(g))
    r = run(str(f), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d == {
        "game": "classic", "hands": 1,
        "players": [
            {"name": "Ann", "phase": 1, "phases_done": 0, "total": 50},
            {"name": "Bob", "phase": 2, "phases_done": 1, "total": 0},
            {"name": "Cid", "phase": 2, "phases_done": 1, "total": 35},
        ],
        "winners": [], "tiebreak": [],
    }


def test_json_view_of_a_pending_tie_break_then_its_winner(tmp_path):
    g = tied_game()
    f = tmp_path / "g.json"
    f.write_text(savefile.dumps(g))
    d = json.loads(run(str(f), "--json").stdout)
    assert d["winners"] == [] and d["tiebreak"] == ["Ann", "Bob"]
    assert [p["phase"] for p in d["players"]] == [None, None]
    g.add({"tiebreak": 0})
    f.write_text(savefile.dumps(g))
    d = json.loads(run(str(f), "--json").stdout)
    assert d["winners"] == ["Ann"] and d["tiebreak"] == []


def test_text_view_shows_standings_sheet_and_next_dealer(tmp_path):
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    f = tmp_path / "g.json"
    f.write_text(savefile.dumps(g))
    r = run(str(f))
    assert r.returncode == 0
    assert "Next hand: Bob deals, Ann plays first." in r.stdout
    assert ">0/0" in r.stdout and "50/50" in r.stdout


def test_bad_files_get_a_message_and_exit_2(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text('{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["A", "B"]},'
                 ' "records": [{"out": 0, "left": [null, [4, 0, 0, 0]]}, {"out": 5}]}')
    r = run(str(f))
    assert r.returncode == 2 and "hand 2" in r.stderr and r.stdout == ""
    r = run(str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "cannot read" in r.stderr
    f.write_bytes(b"\xff\xfe garbage")
    assert run(str(f)).returncode == 2
    assert run().returncode == 2
