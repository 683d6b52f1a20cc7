# Phase 10 and Masters on the simulated device, key by key: whole games from the first key
# on a new device (New game, the game and variation, the players typed on the picker, the
# first dealer) to game over, checked against figures worked out by hand from RULINGS.md;
# corrections, undo, a refusal that keeps what was typed; and the same keys on the twin
# (micropython, .mpy, capped heap) drawing the same screens.
import json

from tests import histfile
import os
import shutil
import tempfile

from host_sim import script, sim
from tests.table_keys import new_game, menu, ups, counts, points, hand, FAIL

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = ["Ann", "Bob", "Cid"]


# Settings, "Hands by" (fifth): points; back to the menu, then up to New game.
POINTS = menu("settings") + " DOWN DOWN DOWN DOWN OK UP OK LEFT UP UP UP UP"


class Table:
    """A new device (empty flash) on the main menu: the first chunk of keys starts the
    game (new_game(kind, NAMES[:players], dealer, ...)) and its standings open. Keys are
    kept in chunks so the twin can replay them from the same empty start and print the
    screen after each."""

    def __init__(self, kind, players, dealer, points=False, **variation):
        self.state = tempfile.mkdtemp(prefix="phase10-cards-")
        self.start = os.path.join(self.state, "start")
        os.makedirs(self.start)
        self.dev = script.Device(state=self.state, mem_free=40000)
        self.chunks = []
        self.screens = []
        if points:
            self.keys(POINTS)
            assert self.dev.app.settings["entry"] == "points"
        self.keys(new_game(kind, NAMES[:players], dealer, **variation))
        assert self.top() == "cards_home"
        g = self.game()
        assert g.KIND == kind and g.settings["players"] == NAMES[:players]
        assert g.settings["dealer"] == dealer and list(g.records) == []
        if kind == "classic":
            assert g.settings["variation"] == variation.get("variation", "standard")
            assert g.settings.get("phases") == variation.get("phases")

    def keys(self, k):
        self.dev.play(script.parse(k))
        self.chunks.append(k)
        self.screens.append("\n".join(self.dev.rows()) + "\n")

    def top(self):
        return self.dev.app.top().module

    def game(self):
        return self.dev.app.session.game

    def close(self):
        shutil.rmtree(self.state, ignore_errors=True)


def finish(t):
    """Game over screen: OK on "Finish game" ends it (roster and history) to the menu."""
    assert t.top() == "gameover"
    t.keys("OK")
    assert t.top() == "menu" and t.game() is None
    return histfile.games(t.state)[-1]


def test_classic_standard_with_undo_correction_and_refusal():
    t = Table("classic", 2, 0)
    try:
        # Hand 1: Ann out; Bob keeps 1 low + 1 Wild (2 cards, phase 1 leaves at most 4):
        # completed, 5 + 25 = 30.
        t.keys(hand(0, [None, counts([1, 0, 0, 1])]))
        assert t.top() == "cards_home"
        assert [r["total"] for r in t.game().players()] == [0, 30]
        # Undo it (home: End of hand, Score sheet, Undo last hand), with the confirmation.
        t.keys("DOWN DOWN OK")
        assert t.game().records            # asked, not yet undone
        t.keys("OK UP UP")
        assert list(t.game().records) == []
        # Hand 1 again, entered on the hand page from a full hand: LEFT three times (ten
        # cards, then four, three, two), DOWN for a Wild in place of a 1-9; the review.
        t.keys(hand(0, [None, counts([1, 0, 0, 1])]))
        assert t.top() == "cards_home"
        assert t.game().records[0]["left"] == [None, [1, 0, 0, 1]]
        # Hands 2-3: Ann out, Bob fails (50 each).
        t.keys(hand(0, [None, FAIL]))
        t.keys(hand(0, [None, FAIL]))
        # Correct hand 1: Bob had no Wild (5 points). Correct a hand is the fourth action;
        # the sheet starts on the last hand.
        # Bob's page opens on his entry (1 low + 1 Wild): DOWN takes the other 1-9 for a
        # second Wild, DOWN again (no 1-9 left to take) stops there, nothing reset.
        t.keys("DOWN DOWN DOWN OK UP UP OK OK DOWN DOWN")
        h = t.dev.app.top()
        assert h.module == "hand" and h.entry.left[1] == [0, 0, 0, 2]
        # Hold OK takes the last press back, then starts the page over (ten 1-9 cards,
        # what the arrows only add to or take from); LEFT three times: two 1-9.
        t.keys("LONG_OK")
        assert h.entry.left[1] == [1, 0, 0, 1]
        t.keys("LONG_OK")
        assert h.entry.left[1] == [10, 0, 0, 0] and h.stage == 2
        t.keys("LEFT LEFT LEFT OK OK")
        assert t.top() == "cards_home"
        assert t.game().records[0]["left"] == [None, [2, 0, 0, 0]]
        assert [r["total"] for r in t.game().players()] == [0, 110]
        t.keys("UP UP UP")   # back on End of hand
        for h in range(4, 11):
            t.keys(hand(0, [None, FAIL]))
        # By hand: Ann went out ten times, completing phases 1-10: 0 points, the game is
        # over after hand 10. Bob: 10 (hand 1, phase 1 done) + 9 x 50 = 460, on phase 2.
        g = t.game()
        assert g.over and g.state.winners == [0]
        assert [(r["phases_done"], r["total"]) for r in g.players()] == [(10, 0), (1, 460)]
        e = finish(t)
        assert e["winners"] == ["Ann"] and e["hands"] == 10 and e["done"]
        check_twin(t)
    finally:
        t.close()


def test_classic_ten_hands_tie_break():
    t = Table("classic", 2, 1, variation="ten_hands")
    try:
        # Ann goes out in odd hands, Bob in even ones; the other fails with 50 each time.
        for h in range(1, 11):
            out = 0 if h % 2 else 1
            t.keys(hand(out, [FAIL, None] if out else [None, FAIL]))
        # By hand: 5 x 50 = 250 each after ten hands: a tie, so a tie-break hand.
        g = t.game()
        assert g.state.tiebreak == [0, 1] and [p["total"] for p in g.players()] == [250, 250]
        assert t.top() == "gameover"
        t.screens_tie = t.screens[-1]
        # The tie-break hand is dealt like any other: Bob dealt hands 1, 3 ... 9, Ann
        # hand 10, so Bob deals it and Ann plays first (RULINGS: the deal passes left).
        scr = t.dev.app.top()
        assert [scr.label(i) for i in range(4)] == [
            "Tied: they replay", "Bob deals", "Ann plays first", "Who went out first?"]
        # Back on the standings ("Hand 11"): the dealer mark is on Bob's row, not Ann's.
        t.keys("LONG_OK")
        assert t.top() == "cards_home" and t.dev.app.top().title.startswith("Hand 11")
        rows = t.dev.rows()
        assert "#" not in "".join(r[:8] for r in rows[8:16])       # Ann's row
        assert "#" in "".join(r[:8] for r in rows[16:24])          # Bob's row
        t.keys("OK")
        assert t.top() == "gameover"
        # Bob went out first in it (DOWN to him, OK): Bob wins, no points recorded.
        t.keys("DOWN OK")
        g = t.game()
        assert g.over and g.state.winners == [1] and g.records[-1] == {"tiebreak": 1}
        assert [p["total"] for p in g.players()] == [250, 250]
        e = finish(t)
        assert e["winners"] == ["Bob"] and e["variation"] == "ten_hands"
        check_twin(t)
    finally:
        t.close()


def test_classic_first_n_phases():
    t = Table("classic", 3, 2, variation="first_n", phases=2)
    try:
        # Hand 1: Ann out; Bob 2 low (completed phase 1, 10); Cid 9 low + 1 ten (10 cards,
        # failed, 45 + 10 = 55).
        t.keys(hand(0, [None, counts([2, 0, 0, 0]), counts([9, 1, 0, 0])]))
        # Hand 2: Bob out (completes phase 2, the last); Ann 1 Wild (completed phase 2,
        # 25); Cid fails (50). Finishers Ann 25 and Bob 10: Bob, the lowest, wins.
        t.keys(hand(1, [counts([0, 0, 0, 1]), None, FAIL]))
        g = t.game()
        assert g.over and g.state.winners == [1]
        assert [(r["phases_done"], r["total"]) for r in g.players()] == [(2, 25), (2, 10), (0, 105)]
        finish(t)
        check_twin(t)
    finally:
        t.close()


def test_classic_even_phases_by_points():
    t = Table("classic", 2, 0, points=True, variation="even")
    try:
        # Hand 1 (phase 2, 7 cards: a completer keeps at most 3, 75 points at most): Bob
        # 60 fits both 10 cards and 3 cards, so the check page fills in the likelier "not
        # completed" and offers his row; he completed it.
        t.keys("OK OK " + points(60))
        h = t.dev.app.top()
        assert t.top() == "hand" and h.stage == 4 and h.entry.made[1] is False and h.entry.open[1]
        t.keys("UP OK")          # his row, his question: on No
        assert h.stage == 3 and h.choice == 1
        t.keys("UP OK OK")       # Yes; back on the check page, then save
        assert t.game().records[0] == {"out": 0, "left": [None, 60], "done": [None, True]}
        # Hands 2-5: Bob on phase 4 holds 100 (over 75: failed, not asked); Ann out.
        for h in range(2, 6):
            t.keys(hand(0, [None, points(100)]))
        # By hand: Ann did phases 2, 4, 6, 8, 10 in five hands: 0, wins. Bob 60 + 400.
        g = t.game()
        assert g.over and g.state.winners == [0]
        assert [(r["phases_done"], r["total"]) for r in g.players()] == [(5, 0), (1, 460)]
        finish(t)
        check_twin(t)
    finally:
        t.close()


def test_masters_full_game():
    t = Table("masters", 2, 0)
    try:
        # Hand 1: Ann out with phase 1 (first of her remaining). Bob kept 3 cards: the
        # check page fills in phase 1, and his phase page offers only the phases that
        # leave 3 cards: not phase 5, which lays 8 (one who completed it keeps at most 2).
        # He completed phase 5: back to his cards (hold OK twice), 1 card (LEFT one fewer
        # each: 3, 2, 1), then phase 5 on the check page (UP 4 from the lowest).
        t.keys(hand(0, [None, counts([3, 0, 0, 0])], masters="OK")[:-len(" OK")] + " UP OK")
        h = t.dev.app.top()
        assert h.module == "hand" and h.stage == 1 and h.opts == [1, 2, 4, 8, 9]
        t.keys("LONG_OK LONG_OK")
        assert h.stage == 2 and h.p == 1 and h.entry.left[1] == [3, 0, 0, 0]
        t.keys("LEFT LEFT OK")
        assert h.stage == 4 and h.entry.phase == [1, 1]
        t.keys("UP OK UP UP UP UP OK")
        assert h.stage == 4 and h.entry.phase == [1, 5]
        t.keys("OK")
        assert t.game().records[0]["phase"] == [1, 5]
        assert t.game().records[0]["left"] == [None, [1, 0, 0, 0]]
        # Hands 2-10: Ann out with the lowest phase she has left; Bob holds ten: not asked.
        for h in range(2, 11):
            t.keys(hand(0, [None, FAIL], masters="OK"))
        # By hand: Ann completed all ten in ten hands with 0 points: she wins. Bob: 5 +
        # 9 x 50 = 455, one phase (5) done.
        g = t.game()
        assert g.over and g.state.winners == [0]
        assert [(r["phases_done"], r["total"]) for r in g.players()] == [(10, 0), (1, 455)]
        assert g.remaining(1) == [1, 2, 3, 4, 6, 7, 8, 9, 10]
        finish(t)
        check_twin(t)
    finally:
        t.close()


def check_twin(t):
    """The same chunks on the twin from the same empty start: the same screens."""
    from tests.test_twin import play
    got = play(t.start, t.chunks)
    for i in range(len(got)):
        assert got[i] == t.screens[i], "twin differs after %r" % t.chunks[i]


def test_the_standings_ask_the_engine_once_per_change_of_the_game():
    # A cursor move, or the way back from the score sheet, draws the standings kept from
    # the last drawing; a hand, an undo or a correction (the game's change count) makes
    # them worked out again, so the totals shown are always the game's.
    t = Table("classic", 3, 0)
    try:
        g = t.game()
        asked = []
        real = g.ranking
        g.ranking = lambda: asked.append(1) or real()
        t.keys(hand(0, [None, counts([1, 0, 0, 1]), FAIL]))
        assert asked == [1] and t.top() == "cards_home"
        t.keys("UP UP DOWN DOWN")
        t.keys("DOWN OK")                  # the score sheet, then back (LEFT)
        assert t.top() == "sheet"
        t.keys("LEFT")
        assert t.top() == "cards_home" and asked == [1]
        t.keys("DOWN OK OK UP UP")        # undo the hand (confirmed): worked out again
        assert list(g.records) == [] and len(asked) == 1    # no hand: no ranking asked
        t.keys(hand(0, [None, FAIL, FAIL]))
        assert len(asked) == 2
        h = t.dev.app.top()
        assert h.lines[1][5] == "50" and h.lines[2][5] == "50"    # the new hand's totals
        t.keys("DOWN UP")
        rows = t.dev.rows()
        n = len(asked)
        t.keys("DOWN UP DOWN UP")          # the cursor alone: the same lines, nothing asked
        assert t.dev.rows() == rows and len(asked) == n
    finally:
        t.close()
