# The one Undo question (firmware/screens/confirm.py) as each screen that offers "Undo"
# asks it: the Phase 10 standings, the game-over screen, the Twist home and the Dice home.
# Nothing saved changes until OK on the question: long OK and LEFT leave it with the game
# and its file untouched (not one write), the other keys do nothing; OK undoes the last
# record, in RAM and on flash, and goes back to the game's home.
import os

import pytest

from engine_mpy import savefile, saveload
from engine_mpy.classic import Classic
from engine_mpy.dice import DiceGame
from engine_mpy.twist import Twist
from host_sim import script, sim

sim.use_fake_machine()

FAIL = [10, 0, 0, 0]   # ten cards of 1-9 left: the phase not completed


def classic_running():
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, FAIL]})
    g.add({"out": 1, "left": [FAIL, None]})
    return g


def classic_over():
    # First 1 phase: Ann goes out completing it, the game is over after one hand.
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1})
    g.add({"out": 0, "left": [None, FAIL]})
    assert g.state.over
    return g


def twist_running():
    g = Twist({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, 10]})
    return g


def dice_running():
    g = DiceGame({"players": ["Ann", "Bob"]})
    g.add({"player": 0, "faces": "0000000000"})
    g.add({"player": 1, "faces": "0000000000"})
    return g


# (game, keys from the main menu to the question, title it asks, home after the undo)
# Continue opens the home: the standings on "End of hand" (Undo is two down), the Twist
# home on "Play hand" (three down), the Dice home on its first line (Undo is the last).
CASES = {
    "standings": (classic_running, "OK DOWN DOWN OK", "Undo hand 2?", "cards_home"),
    "game over": (classic_over, "OK OK DOWN DOWN OK", "Undo hand 1?", "cards_home"),
    "twist": (twist_running, "OK DOWN DOWN DOWN OK", "Undo hand 1?", "twist_home"),
    "dice": (dice_running, "OK UP OK", "Undo turn 2?", "dice_home"),
}


def device(tmp_path, game):
    with open(os.path.join(str(tmp_path), "game.json"), "w") as f:
        f.write(savefile.dumps(game))
    return script.Device(state=str(tmp_path))


def on_flash(tmp_path):
    with open(os.path.join(str(tmp_path), "game.json")) as f:
        return f.read()


@pytest.mark.parametrize("case", sorted(CASES))
def test_undo_asks_once_and_only_ok_undoes(tmp_path, case):
    make, reach, title, home = CASES[case]
    game = make()
    n = len(game.records)
    dev = device(tmp_path, game)
    app = dev.app
    before = on_flash(tmp_path)
    under = None
    for back in ("LEFT", "LONG_OK"):
        dev.play(script.parse(reach))
        q = app.top()
        assert q.module == "confirm" and q.title == title
        under = app.stack[-2].module
        # Moving keys do nothing; the question stays.
        dev.play(script.parse("UP DOWN RIGHT UP"))
        assert app.top() is q
        dev.play(script.parse(back))
        assert app.top().module == under
        assert len(app.session.game.records) == n
        # Back to the main menu for the next round.
        while len(app.stack) > 1:
            dev.play(script.parse("LEFT"))
    assert app.store.writes == 0 and on_flash(tmp_path) == before
    dev.play(script.parse(reach + " OK"))
    assert app.top().module == home
    assert len(app.session.game.records) == n - 1
    assert list(saveload.loads(on_flash(tmp_path)).records) == list(app.session.game.records)
    assert app.store.writes == 1


def test_the_dice_question_names_the_turn_it_takes_back(tmp_path):
    dev = device(tmp_path, dice_running())
    dev.play(script.parse(CASES["dice"][1]))
    # Bob's turn (the last): its phase and the score the engine gave it.
    g = dev.app.session.game
    q, ph, sc = g.state.last
    lines = dev.app.top().lines
    assert lines[0] == "Bob, phase %d:" % ph
    assert lines[1] == ("%d points" % sc if sc >= 0 else "not made")


@pytest.mark.parametrize("make", [lambda: Classic({"players": ["Ann", "Bob"], "dealer": 0}),
                                  lambda: DiceGame({"players": ["Ann"]})])
def test_nothing_to_undo_is_said_and_changes_nothing(tmp_path, make):
    g = make()
    dev = device(tmp_path, g)
    dev.play(script.parse(CASES["dice" if g.KIND == "dice" else "standings"][1]))
    q = dev.app.top()
    assert q.module == "confirm" and q.yes is None
    assert "nothing" in " ".join(q.lines)
    dev.play(script.parse("OK"))
    assert dev.app.top().module == ("dice_home" if g.KIND == "dice" else "cards_home")
    assert dev.app.store.writes == 0
