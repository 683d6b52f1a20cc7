"""`python -m host_sim show FILE [--json]`: a saved game read on the PC."""
import json
import os
import subprocess
import sys

from engine_mpy.classic import Classic
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
        "game": "classic", "hands": 1, "over": False, "dealer": "Bob",
        "dealer_next": "Bob", "first_next": "Cid",
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


def tied_masters():
    # Ann goes out in odd hands, Bob in even ones; the other completes the same phase with
    # one 1-9 card left: all ten phases each, 25 points each, a tie.
    from engine_mpy.masters import Masters
    g = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    for h in range(10):
        o = h % 2
        g.add({"out": o, "left": [None if p == o else [1, 0, 0, 0] for p in range(2)],
               "phase": [h + 1, h + 1]})
    return g


def test_a_due_tie_break_hand_names_its_dealer_and_first_player(tmp_path):
    # RULINGS: the deal passes to the left each hand, a tie-break hand too. Classic: Bob
    # dealt hand 1, so hand 11 (the tie-break) is his; Masters: Ann dealt hand 1.
    for g, dealer, first in ((tied_game(), "Bob", "Ann"), (tied_masters(), "Ann", "Bob")):
        assert g.state.tiebreak == [0, 1] and not g.over
        f = tmp_path / ("%s.json" % g.KIND)
        f.write_text(savefile.dumps(g))
        t = run(str(f)).stdout
        assert "Tie-break hand due between Ann and Bob." in t
        assert "Next hand: %s deals, %s plays first." % (dealer, first) in t
        d = json.loads(run(str(f), "--json").stdout)
        assert (d["dealer"], d["dealer_next"], d["first_next"]) == (dealer, dealer, first)
        # once answered the game has its result: no next hand
        g.add({"tiebreak": 1})
        f.write_text(savefile.dumps(g))
        t = run(str(f)).stdout
        assert "Game over: Bob won." in t and "Next hand" not in t
        d = json.loads(run(str(f), "--json").stdout)
        assert (d["dealer"], d["dealer_next"], d["first_next"]) == (None, None, None)


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


def test_every_game_kind_shows_as_text_and_json(tmp_path):
    # Dice saves crashed show (finding 1 of the audit); each kind has its text and shape
    from engine_mpy.dice import DiceGame
    from engine_mpy.twist import Twist
    from engine_mpy.masters import Masters
    dice = DiceGame({"players": ["Ann", "Bob"], "order": [1, 0]})
    dice.add({"player": 1, "faces": "0000000000"})      # Bob's turn first
    dice.add({"player": 0, "faces": "0123450123"})
    tw = Twist({"players": ["Ann", "Bob"], "dealer": 0})
    tw.add({"out": 0, "left": [None, 10]})
    ma = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    ma.add({"out": 0, "left": [None, [10, 0, 0, 0]], "phase": [1, 0]})
    for g, keys, words in ((dice, {"game", "turns", "over", "winners", "next", "order", "players"}, "Phase 10 Dice"),
                           (tw, {"game", "hands", "over", "winners", "dealer", "players"}, "Twist, 2 players"),
                           (ma, {"game", "hands", "over", "winners", "tiebreak", "dealer", "dealer_next", "first_next", "players"},
                            "Masters, 2 players")):
        f = tmp_path / ("%s.json" % g.KIND)
        f.write_text(savefile.dumps(g))
        r = run(str(f), "--json")
        assert r.returncode == 0 and r.stderr == "", r.stderr
        d = json.loads(r.stdout)
        assert set(d) == keys and d["game"] == g.KIND and [p["name"] for p in d["players"]] == ["Ann", "Bob"]
        r = run(str(f))
        assert r.returncode == 0 and r.stderr == "" and words in r.stdout, r.stdout
    d = json.loads(run(str(tmp_path / "dice.json"), "--json").stdout)
    bob = d["players"][1]
    # Bob's ten 1s/5s... made phase 1 (two sets of three)? the engine scores it; shown as is
    assert d["turns"] == 2 and d["order"] == [1, 0] and len(bob["scores"]) == 10
    # turns go round in the order drawn (Bob, Ann): after two, Bob's again
    assert d["next"] == "Bob" and isinstance(bob["total"], int)
    t = run(str(tmp_path / "dice.json")).stdout
    assert "GRAND TOTAL" in t and "Next turn: Bob" in t
    d = json.loads(run(str(tmp_path / "twist.json"), "--json").stdout)
    assert [p["space"] for p in d["players"]] == [4, 2] and d["dealer"] == "Bob"


def test_a_dice_games_next_player_goes_round_in_the_order_drawn():
    # worked out from the rules, not the engine: the turns go round in "order" until the
    # game is over (nobody has made phase 10 here), so after t turns it is order[t % 3]'s
    from engine_mpy import standings
    from engine_mpy.dice import DiceGame
    names = ["Ann", "Bob", "Cid"]
    order = [2, 0, 1]
    g = DiceGame({"players": names, "order": order})
    for t in range(7):
        assert standings.summary(g)["next"] == names[order[t % 3]], t
        g.add({"player": order[t % 3], "faces": "0000000000"})
