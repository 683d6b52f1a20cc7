# What the hand-entry screen asks the engine before it commits (engine_mpy.cards):
# preview (points and completion of a hand, nothing saved), points_open (must the table
# say whether a player completed?), before (the state a correction is judged against)
# and Masters remaining phases as of that state. Runs under pytest and MicroPython.
from check import raises, message

from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.game import RuleError

FAIL = [10, 0, 0, 0]


def classic(n=3):
    return Classic({"players": ["Ann", "Bob", "Cid", "Dee"][:n], "dealer": 0})


def test_preview_gives_points_and_completion_and_changes_nothing():
    g = classic()
    # Bob: 2 low + 1 Wild = 5+5+25 = 35, 3 cards: completed phase 1 (keeps at most 4).
    pts, ok = g.preview({"out": 0, "left": [None, [2, 0, 0, 1], FAIL]})
    assert pts == [0, 35, 50] and ok == [True, True, False]
    assert g.records == [] and g.state.hands == 0 and g.state.total == [0, 0, 0]


def test_preview_refuses_like_the_commit_would():
    g = classic()
    e = raises(RuleError, g.preview, {"out": 0, "left": [None, [5, 0, 0, 0], FAIL]})
    assert "at most 4" in message(e)
    e = raises(RuleError, g.preview, {"out": 0, "left": [None, [0, 0, 0, 4], [5, 0, 0, 5]]})
    assert "the deck has only 8" in message(e)


def test_points_open_only_where_points_fit_both():
    g = classic()
    st = g.state
    # Phase 1 (6 cards): a completer keeps 1-4 cards, at most 100 points (4 Wilds).
    assert g.points_open(st, 1, 60)        # 10 low cards, or e.g. 2 Wilds + 1 ten
    assert not g.points_open(st, 1, 35)    # under 50: completed
    assert not g.points_open(st, 1, 130)   # over 100: failed
    assert not g.points_open(st, 1, 37)    # impossible: the commit will say why


def test_before_is_the_state_a_correction_is_judged_against():
    g = classic(2)
    g.add({"out": 0, "left": [None, FAIL]})
    g.add({"out": 0, "left": [None, FAIL]})
    assert g.before() is g.state
    st = g.before(1)
    # Before hand 2 Ann had completed phase 1 only; Bob had 50 points.
    assert st.step == [1, 0] and st.total == [0, 50]
    assert g.attempted(st, 0, None) == 2
    pts, ok = g.preview({"out": 1, "left": [FAIL, None]}, st)
    assert pts == [50, 0] and ok == [False, True]


def test_masters_points_never_open_and_remaining_as_of_a_hand():
    g = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, FAIL], "phase": [7, 0]})
    assert not g.points_open(g.state, 1, 60, [7, 3])
    assert g.remaining(0) == [1, 2, 3, 4, 5, 6, 8, 9, 10]
    assert g.remaining(0, g.before(0)) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def test_masters_fits_says_which_phases_an_entry_allows():
    g = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    st = g.state
    ph = [1, 0]

    def fitting(entry):
        out = []
        for v in range(11):
            ph[1] = v
            if g.fits(st, 1, entry, ph):
                out.append(v)
        return out
    # counts: ten cards, none; 3 cards, the phases that lay 6 or 7; 1 card, any phase
    assert fitting(FAIL) == [0]
    assert fitting([3, 0, 0, 0]) == [1, 2, 4, 8, 9]
    assert fitting([1, 0, 0, 0]) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    # points: 35 only as a completed phase (under ten cards' 50) that leaves 2+ cards;
    # 60 ten cards or a completed phase leaving 3+ (2 Wilds and a 10); 0 nothing
    assert fitting(35) == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    assert fitting(60) == [0, 1, 2, 4, 8, 9]
    assert fitting(0) == []
    assert g.records == [] and g.state.hands == 0
