# The history's line for a finished game (engine_mpy/summary.py): the per-hand sheet worked
# out by hand from the rules for each kind, and a game too long for a line cut to fit.
from engine_mpy import summary
from engine_mpy.classic import Classic
from engine_mpy.twist import Twist
from engine_mpy.dice import DiceGame


def test_classic_sheet_by_hand():
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0})
    # Hand 1: Ann out (phase 1 done); Bob 10 low cards: failed, 50 points.
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    # Hand 2: Bob out (phase 1 done); Ann 1 Wild on phase 2: completed, 25 points.
    g.add({"out": 1, "left": [[0, 0, 0, 1], None]})
    e = summary.entry(g, False, 7)
    # A[who out], then per player A[points/5] A[phase*2 + completed]:
    # hand 1: "0", Ann 0 -> "0", phase 1 done -> "3"; Bob 50 -> "A", phase 1 failed -> "2"
    # hand 2: "1", Ann 25 -> "5", phase 2 done -> "5"; Bob 0 -> "0", phase 1 done -> "3"
    assert e["sheet"] == "003A2,15503"
    assert e["n"] == 7 and e["hands"] == 2 and e["totals"] == [25, 50] and e["made"] == [2, 1]
    assert "cut" not in e and e["done"] is False and e["winners"] == []


def test_dice_sheet_by_hand():
    g = DiceGame({"players": ["Ann", "Bob"], "order": [1, 0]})
    # Bob first, real dice entered: four 1s, three 10s, 9, 8, 7 make phase 1 (2 sets of
    # 3) with 10,10,10 and 1,1,1: 33. Ann: 1-10 all different, no set: not made.
    g.add({"player": 1, "dice": "1b 1r 1o 1g 10g 10r 10o 9r 8b 7g".split()})
    g.add({"player": 0, "dice": "1b 2b 3r 4r 5r 6r 7r 8b 9r 10o".split()})
    e = summary.entry(g, False, 1)
    # A[player] A[phase] A[score] / "-": Bob (1) phase 1 "1", 33 -> "X"; Ann "0", "1", "-"
    assert e["sheet"] == "11X,01-" and e["first"] == [1, 0]
    assert e["totals"] == [0, 33]


def test_twist_sheet_and_cut():
    g = Twist({"players": ["Ann", "Bob"], "dealer": 0})
    # Ann goes out each hand (+3), Bob fails (+1): per player A[move + 1] and "." (no
    # Twist space choice) until someone stands on a Twist space.
    g.add({"out": 0, "left": [None, 10]})
    e = summary.entry(g, False, 1)
    assert e["sheet"] == "4.2."
    # A long game keeps its first hands in SHEET_MAX characters and says how many.
    old = summary.SHEET_MAX
    summary.SHEET_MAX = 9          # room for two hands of "xx.xx" and a comma
    try:
        g.add({"out": 0, "left": [None, 10]})
        # Bob stands on a Twist space (the third): he takes the phase before it
        g.add({"out": 1, "left": [10, None], "pick": [None, "before"]})
        e = summary.entry(g, False, 1)
        assert e["cut"] == 2 and len(e["sheet"]) == 9 and e["sheet"].count(",") == 1
        assert e["hands"] == 3
    finally:
        summary.SHEET_MAX = old


def _twist_played():
    """A Twist game played hand by hand to its end (each hand the next player goes out,
    the others fail; whoever stands on a Twist space takes a card, or the phase before or
    after it), and the sheet each hand's state says, made as the hands are added."""
    A = summary.A
    g = Twist({"players": ["Ann", "Bob", "Cid"], "dealer": 0})
    items = []
    h = 0
    while not g.state.over and h < 60:
        out = h % 3
        pick = [None] * 3
        card = 1
        for p in range(3):
            if g.on_twist(p):
                pick[p] = ("before", "after", card)[h % 3]
                card += 1
        rec = {"out": out, "left": [None if p == out else 10 for p in range(3)]}
        if card > 1 or [x for x in pick if x is not None]:
            rec["pick"] = pick
        g.add(rec)
        item = ""
        for p in range(3):
            c = pick[p]
            item += chr(A[g.state.moves[p] + 1]) + ("." if c is None else ("b" if c == "before" else ("a" if c == "after" else chr(A[c]))))
        items.append(item)
        h += 1
    return g, items


def test_a_twist_sheet_is_each_hand_as_it_was_played_after_an_undo_too():
    g, items = _twist_played()
    assert len(items) > 10 and [x for x in items if "b" in x or "a" in x or x.count(".") < 3]
    assert summary.entry(g, True, 1)["sheet"] == ",".join(items)
    g.undo()
    g.undo()
    assert summary.entry(g, False, 1)["sheet"] == ",".join(items[:-2])
    assert list(g.moves_by_hand()) == [summary.A.index(x[2 * p].encode()) for x in items[:-2] for p in range(3)]


def test_a_history_line_is_the_game_with_its_number_first():
    # firmware/history/entries.py writes the line in pieces (no long line built in RAM), the
    # game's number first: a finish reads only the start of the newest line.
    import json
    from firmware.history import entries
    g = Classic({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    e = summary.entry(g, False, 12)
    out = []
    entries.write_entry(e, out.append)
    text = "".join(out)
    assert text.startswith('{"n":12,') and json.loads(text) == e
