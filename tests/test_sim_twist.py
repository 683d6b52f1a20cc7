# Phase 10 Twist on the simulated device, from the first key to game over: a whole game on
# the short board (firmware/layouts/short.txt) with a Twist card drawn by the device and
# shown to its player alone, cards drawn by hand, a refused entry, a correction, an undo
# and a tie-break on card totals; the pawns after every hand are worked out by hand below.
import json

from tests import histfile
import os
import shutil
import tempfile

from engine_mpy import savefile, saveload
from host_sim import script, sim
from tests.table_keys import new_game, k, down, up, count, choose, BEFORE, AFTER, DRAW, BY_HAND

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# 0-based spaces of the short board; the red space is 16.
#   0 1S  1 2  2 T  3 3  4 T  5 4  6 T  7 5  8 T  9 6  10 T  11 7  12 T  13 8  14 T  15 9  16 10R
SHORT = "1S 2 T 3 T 4 T 5 T 6 T 7 T 8 T 9 10R"
SETTINGS = {"players": ["Ann", "Bob", "Cy"], "dealer": 0, "layout": SHORT}


def new_state():
    """A new device (empty flash, no roster) whose maker put the short board on it as
    twist_layout.txt: the session's first chunk (START) starts the game from New game."""
    d = tempfile.mkdtemp(prefix="phase10-twist-")
    src = os.path.join(ROOT, "firmware", "layouts", "short.txt")
    shutil.copy(src, os.path.join(d, "twist_layout.txt"))
    return d


# New game: Twist, Ann, Bob and Cy typed on the picker, Ann the first dealer; the
# standings open on Play hand.
START = new_game("twist", SETTINGS["players"], SETTINGS["dealer"])
PLAY = "OK"
SAVE_AND_BOARD = "OK OK"   # save on the review page, close the board view

# Hand 1 (dealer Ann; nobody on a Twist space): Ann goes out, Bob first types 5 cards left,
# refused (phase 1 is 6 cards: 1-4 or 10), then 3; Cy keeps 10.
H1_REFUSED = k(PLAY, "OK", count(5), count(10))
H1_FIX = k("OK", "LEFT", "DOWN DOWN", "OK", "OK", SAVE_AND_BOARD)
# -> Ann 0+3 = 3, Bob 0+2 = 2 (Twist space), Cy 0+1 = 1.
# Hand 2 (dealer Bob): Bob on the Twist space lets the device draw a card; he goes out with
# it (+6, whatever the card); Ann 2 left on phase 3 (8 cards): +2; Cy fails: +1.
H2 = k(PLAY, choose(DRAW), "DOWN OK", count(2), count(10), SAVE_AND_BOARD)
# The same in two chunks for the twin, so it compares the card face up too.
H2_SHOWN = k(PLAY, down(DRAW + 1), "OK", "OK")
H2_REST = k("OK", "DOWN OK", count(2), count(10), SAVE_AND_BOARD)
assert k(H2_SHOWN, H2_REST) == H2
# -> Ann 5, Bob 8 (Twist), Cy 2 (Twist).
# Hand 3 (dealer Cy; asked from Ann: Bob, then Cy): Bob takes the phase after (6, 9 cards),
# Cy the phase before (2). Cy goes out +3; Ann fails +1; Bob 1 left: made, +2.
H3 = k(PLAY, choose(AFTER), choose(BEFORE), "DOWN DOWN OK", count(10), count(1), SAVE_AND_BOARD)
# -> Ann 6 (Twist), Bob 10 (Twist), Cy 5.
# Correction of hand 1 from the score sheet: Bob had 2 cards left, not 3 (moves unchanged).
# Score sheet, up to hand 1, Ann went out (kept), Bob 3 -> 2, Cy, Save, the note, back.
FIX1 = k("DOWN DOWN OK", "UP UP OK", "OK", "DOWN OK", "OK", "OK", "OK", "LEFT")
# Hand 4 (dealer Ann; asked from Bob: Bob, then Ann): Bob the phase before (6), Ann the
# phase after (5, 8 cards). Bob goes out +3; Ann 2 left +2; Cy 3 left on phase 4 (7): +2.
H4 = k(PLAY, choose(BEFORE), choose(AFTER), "DOWN OK", count(2), count(3), SAVE_AND_BOARD)
# -> Ann 8 (Twist), Bob 13, Cy 7. Undone (asked first) and entered again:
UNDO = k(down(3), "OK", "OK")
# Hand 5 (dealer Bob; asked from Cy: only Ann): Ann takes Twist card 8 drawn by hand and
# goes out with it: +6. Bob 3 left on phase 8 (7 cards): +2. Cy fails: +1.
H5 = k(PLAY, choose(BY_HAND, 8), "OK", count(3), count(10), SAVE_AND_BOARD)
# -> Ann 14 (Twist, two before the red space), Bob 15, Cy 8 (Twist).
# Hand 6 (dealer Cy; asked from Ann: Ann, then Cy): Ann takes Twist card 2 by hand (4 sets
# of 2, 8 cards), Cy the phase before (5). Cy goes out: 8 + 3 = 11. Ann 2 left: made, +4
# from 14 jumps the red space; Bob 3 left on phase 9 (7 cards): +2 from 15 moves past it.
# Neither went out: the card totals decide (face values): Ann 9 (e.g. 4 + 5), Bob 20.
H6_CARDS = k(PLAY, choose(BY_HAND, 2), choose(BEFORE), "DOWN DOWN OK", count(2), count(3))
H6_TOTALS = k(up(9), "OK", up(20), "OK")
# Ann's total is lower: Ann wins; Bob is second (past the red space), Cy third on 11.
OVER = k(H6_TOTALS, SAVE_AND_BOARD)
FINISH = k(down(7), "OK")


STEPS = (("start", START), ("h1", H1_REFUSED), ("h1fix", H1_FIX), ("h2 card face up", H2_SHOWN), ("h2", H2_REST), ("h3", H3),
         ("fix1", FIX1), ("h4", H4), ("undo", UNDO), ("h4b", H4), ("h5", H5),
         ("h6", H6_CARDS), ("over", OVER), ("finish", FINISH))


def run(keys, state):
    dev = script.Device(state=state)
    dev.play(script.parse(keys))
    return dev


def game(dev):
    return dev.app.session.game


def test_full_twist_session_to_game_over():
    d = new_state()
    try:
        dev = script.Device(state=d)
        app = dev.app
        play = lambda s: dev.play(script.parse(s))
        play(START)
        assert app.top().module == "twist_home"
        g = game(dev)
        assert dict((k, g.settings[k]) for k in SETTINGS) == SETTINGS and list(g.records) == []
        assert g.settings["values"] == "face"   # the rulebook's card totals (H6)
        play(H1_REFUSED)
        # Refused: the note names Bob and phase 1's rule; nothing was saved.
        assert app.top().module == "note" and "Bob" in " ".join(app.top().lines)
        assert list(game(dev).records) == []
        play(H1_FIX)
        assert game(dev).state.pos == [3, 2, 1]
        assert game(dev).records[0] == {"out": 0, "left": [None, 3, 10]}
        play(H2)
        g = game(dev)
        assert g.state.pos == [5, 8, 2]
        card = g.records[1]["pick"][1]
        assert g.records[1]["pick"] == [None, card, None] and 1 <= card <= 10
        play(H3)
        assert game(dev).state.pos == [6, 10, 5]
        assert game(dev).records[2]["pick"] == [None, "after", "before"]
        play(FIX1)
        g = game(dev)
        assert g.records[0] == {"out": 0, "left": [None, 2, 10]} and g.state.pos == [6, 10, 5]
        assert app.top().module == "twist_home"
        play(H4)
        assert game(dev).state.pos == [8, 13, 7]
        play(UNDO)
        assert game(dev).state.pos == [6, 10, 5] and len(game(dev).records) == 3
        play(H4)
        assert game(dev).state.pos == [8, 13, 7]
        play(H5)
        assert game(dev).state.pos == [14, 15, 8]
        assert game(dev).records[4]["pick"] == [8, None, None]
        play(H6_CARDS)
        # The engine asks for the card totals: the tie-break page, nothing saved yet.
        assert app.top().module == "twist_hand" and len(game(dev).records) == 5
        play(OVER)
        g = game(dev)
        st = g.state
        assert st.over and st.winners == [0] and st.passed == [0, 1]
        assert st.pos == [17, 17, 11]
        assert g.records[5] == {"out": 2, "left": [2, 3, None], "pick": [2, None, "before"],
                                "total": [9, 20, None]}
        assert app.top().module == "twist_home" and app.top().title == "Game over"
        # The saved game says the same.
        with open(os.path.join(d, "game.json")) as f:
            saved = saveload.loads(f.read())
        assert saved.state.winners == [0] and saved.state.pos == [17, 17, 11]
        play(FINISH)
        assert app.top().module == "menu" and app.session.game is None
        assert not os.path.exists(os.path.join(d, "game.json"))
        hist = histfile.games(d)
        assert hist[-1]["game"] == "twist" and hist[-1]["winners"] == ["Ann"]
        assert hist[-1]["hands"] == 6
        with open(os.path.join(d, "roster.json")) as f:
            rows = json.load(f)
        # Every player a game, Ann a win; Twist has no points.
        assert sorted(rows) == [["Ann", 1, 1, 0, 0], ["Bob", 1, 0, 0, 0], ["Cy", 1, 0, 0, 0]]
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_browsing_writes_no_flash():
    # Standings, board, score sheet, Twist choices and the hand entry opened and left
    # without saving: not one write.
    d = new_state()
    try:
        dev = run(START, d)   # New game writes the roster and the new game
        started = dev.app.store.writes
        assert started > 0
        # A hand typed up to its review, then backed out of page by page.
        dev.play(script.parse(k(PLAY, "OK", count(3), count(10), "LONG_OK LONG_OK LONG_OK LONG_OK")))
        assert dev.app.top().module == "twist_home"
        # The board (a pawn picked), the empty score sheet's note, a pawn's phase in words.
        dev.play(script.parse("DOWN OK DOWN OK DOWN OK OK UP UP UP UP OK OK"))
        assert dev.app.top().module == "twist_home"
        assert dev.app.store.writes == started
    finally:
        shutil.rmtree(d, ignore_errors=True)



def test_twin_draws_the_same_twist_session():
    from tests.test_twin import play
    chunks = [keys for _, keys in STEPS]
    a = new_state()
    b = new_state()
    try:
        dev = script.Device(state=b)
        want = []
        for c in chunks:
            dev.play(script.parse(c))
            want.append("\n".join(dev.rows()) + "\n")
        got = play(a, chunks)
        for i in range(len(got)):
            assert got[i] == want[i], "twin differs after %r" % chunks[i]
        # The game ended the same way on both: history written, the save gone.
        assert not os.path.exists(os.path.join(a, "game.json"))
        assert histfile.games(a)[-1]["winners"] == ["Ann"]
    finally:
        shutil.rmtree(a, ignore_errors=True)
        shutil.rmtree(b, ignore_errors=True)
