# Phase 10 Dice game rules, part 2: solitaire, dice entered from real dice, corrections and
# saving (shared rolls in dice_rolls.py). Every score is worked out by hand.
from check import raises, message
from engine_mpy.game import RuleError
from engine_mpy.dice import DiceGame
from engine_mpy import savefile, saveload
from dice_rolls import MAKE, FAIL_FACES, rec, play, game, row


def test_solitaire_failures_cost_5_and_phase_10_first_try_earns_the_bonus():
    g = game(["Sol"])
    for ph in range(1, 11):
        if ph == 3:
            play(g, False)
            play(g, False)
        play(g, True)
    assert g.state.over and g.state.ff_bonus[0]
    assert g.total(0) == 649 - 10
    assert row(g, "Failed turns -5") == [-10]


def test_solitaire_no_bonus_when_phase_10_needs_a_second_try():
    g = game(["Sol"])
    for ph in range(1, 10):
        play(g, True)
    play(g, False)
    assert not g.state.over
    play(g, True)
    assert g.state.over and not g.state.ff_bonus[0]
    assert g.total(0) == 649 - 40 - 5
    assert row(g, "First Finish Bonus +40") == [None]


def test_entered_dice_are_matched_and_saved_as_faces():
    g = game(["Ann"])
    g.add({"player": 0, "dice": "10o 10r 10g 10b 10o 10g 1b 2b 3b 4b".split()})
    r = g.records[0]
    assert r["how"] == "entered" and len(r["faces"]) == 10 and "dice" not in r
    assert g.total(0) == 60
    e = raises(RuleError, g.add, {"player": 0, "dice": "10r 10r 10g 10b 10o 10g 1b 2b 3b 4b".split()})
    assert e.hand == 2 and "red 10 and red 10" in message(e)
    assert len(g.records) == 1 and g.total(0) == 60 and g.state.phase[0] == 2 and g.state.turns == 1
    raises(RuleError, g.add, {"player": 0, "faces": "0123456789"})
    raises(RuleError, g.add, {"player": 0, "faces": "012"})
    raises(RuleError, g.add, {"player": 0, "faces": "0000000000", "how": "guessed"})
    # A rolled turn is saved without "how" (rolled is the default).
    g.add({"player": 0, "faces": FAIL_FACES})
    assert g.records[1] == {"player": 0, "faces": FAIL_FACES}


def test_corrections_recompute_and_refuse_impossible_later_turns():
    g = game(["Sol"])
    for ph in range(1, 10):
        play(g, True)
    play(g, False)
    play(g, True)
    assert g.state.over and g.total(0) == 649 - 40 - 5
    # Turn 10 was really a make: the game would have ended there, so turn 11 cannot stand.
    e = raises(RuleError, g.replace, 9, rec(0, MAKE[10][0]))
    assert e.hand == 11 and "hand 11" in message(e) and "over" in message(e)
    assert g.total(0) == 649 - 40 - 5  # nothing changed
    # Turn 1 (phase 1, 60) was really 5,5,5 + 5,5,5 = 30; 30+57+59+49+52 = 247 keeps the bonus.
    g.replace(0, rec(0, [1, 2, 3, 4, 5, 5, 5, 5, 5, 5]))
    assert g.state.scores[0][0] == 30
    assert g.total(0) == 649 - 40 - 5 - 30
    g.undo()
    assert not g.state.over and g.state.phase[0] == 10


def test_save_and_load():
    g = game(["Ann", "Bob"], [1, 0])
    play(g, True)
    play(g, False)
    g.add({"player": 1, "dice": "10g 10r 10o 10b 9r 8r Wo 1r 1o 1g".split()})
    text = savefile.dumps(g)
    h = saveload.loads(text)
    assert isinstance(h, DiceGame)
    assert h.records == g.records and h.settings == g.settings
    assert [h.total(p) for p in (0, 1)] == [0, 60 + 57]
    assert h.state.player() == 0


def test_turns_are_small_ints_in_ram_and_read_as_the_saved_dicts():
    # Eight players (the most), rolled and entered turns, every face 0-5 at both ends of
    # the packing: each turn reads back exactly as it is saved, and in RAM it is one small
    # int (nothing on the heap per turn).
    names = ["P%d" % i for i in range(8)]
    g = game(names)
    g.add({"player": 0, "faces": "5555555555"})
    g.add({"player": 1, "faces": "0000000000", "how": "entered"})
    for p in range(2, 8):
        g.add({"player": p, "faces": FAIL_FACES})
    g.add({"player": 0, "dice": "10o 10r 10g 10b 10o 10g 1b 2b 3b 4b".split()})
    want = [{"player": 0, "faces": "5555555555"}, {"player": 1, "faces": "0000000000", "how": "entered"}]
    want += [{"player": p, "faces": FAIL_FACES} for p in range(2, 8)]
    assert g.records[:2] == want[:2] and list(g.records)[:8] == want
    assert g.records[8]["how"] == "entered" and g.records[8]["player"] == 0
    assert len(g.records) == 9
    packed = g.records._v
    assert all([type(v) is int for v in packed]) and max(packed) < 1 << 30
    # Undo, a correction and a reload keep the same turns.
    h = saveload.loads(savefile.dumps(g))
    assert h.records == g.records and h.records._v == packed
    g.undo()
    assert len(g.records) == 8 and list(g.records) == want
    # A correction that breaks a rule: refused, the turns unchanged; a malformed entry too.
    raises(RuleError, g.replace, 3, {"player": 3, "faces": "9999999999"})
    raises(RuleError, g.replace, 3, {"player": 3})
    assert list(g.records) == want


def test_a_face_that_is_no_face_is_named_and_changes_nothing():
    g = game(["Ann", "Bob"])
    for faces, die, shows in (("01234x5555", 6, "x"), ("0123455556", 10, "6"), ("/123455555", 1, "/"),
                              ("01234\u00e95555", 6, "\u00e9")):
        e = raises(RuleError, g.add, {"player": 0, "faces": faces})
        assert message(e) == "A die has faces 0 to 5; die %d shows %s." % (die, shows), message(e)
        assert len(g.records) == 0 and g.state.turns == 0
    g.add({"player": 0, "faces": "0204322022"})
    assert g.records[0] == {"player": 0, "faces": "0204322022"}    # saved as it was given
    assert list(g.state.log[:2]) == [0, 1]
