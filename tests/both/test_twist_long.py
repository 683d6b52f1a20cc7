# A long Twist game under the capped heap: six players, Twist cards failed again and again
# (each failure sends the pawn back), saved, loaded and corrected from its first hand.
# Run it under tools/checks/heapcap.py to measure the heap a long game needs.
import gc

from engine_mpy.twist import Twist
from engine_mpy import savefile, saveload

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def long_game(hands):
    g = Twist({"players": PLAYERS, "dealer": 0})
    for h in range(hands):
        out = h % 6
        pick = [None] * 6
        left = [10] * 6
        left[out] = None
        card = 1
        for p in range(6):
            if g.on_twist(p):
                # Everyone on a Twist space takes a card (one of each) and fails it,
                # except the player who goes out with it.
                pick[p] = card
                card += 1
        rec = {"out": out, "left": left}
        if card > 1:
            rec["pick"] = pick
        g.add(rec)
        # As the device does after each committed hand, before it writes the save: the
        # heap never moves objects, so garbage left between hands would split it.
        rec = left = pick = None
        gc.collect()
        if g.state.over:
            break
    return g


def test_long_game_saves_loads_and_recomputes():
    g = long_game(60)
    assert g.state.hands >= 30 and g.state.over
    # Moves every pawn made, checked hand by hand on the live game.
    pos, winners, first = g.state.pos, g.state.winners, g.records[0]
    text = savefile.dumps(g)
    # The device holds one game: drop the live one before loading the save.
    g = None
    h = saveload.loads(text)
    text = None
    assert h.state.pos == pos and h.state.winners == winners
    # Correct hand 1 to what it was: the whole game is replayed and agrees.
    h.replace(0, first)
    assert h.state.pos == pos


def test_long_game_moves_are_the_books():
    g = Twist({"players": PLAYERS, "dealer": 0})
    seen = {}
    for rec in long_game(60).records:
        g.add(rec)
        for m in g.state.moves:
            assert m in (-1, 1, 2, 3, 4, 6)
            seen[m] = 1
    # The game went through failed Twist cards, Twist cards gone out with and plain moves.
    for m in (-1, 1, 3, 6):
        assert m in seen
