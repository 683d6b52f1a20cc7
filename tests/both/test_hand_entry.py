# A hand's entry (firmware/game/hand_entry.py), its rules without the screen or its keys:
# cards left and what they say about the phase, who went out, points and the answers they
# leave open, Masters' phases, the presses and taking them back, correcting a saved hand,
# and the record the engine takes. Runs under pytest and, unchanged, under the MicroPython
# binary (tests/both/run.py).
from check import raises, message

from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.game import RuleError
from engine_mpy.phases import PHASE_CARDS, CARD_POINTS, DECK_COUNTS, MASTERS_DECK
from firmware.game.hand_entry import HandEntry

FAIL = [10, 0, 0, 0]          # did not complete: ten 1-9 cards


def classic(n=3):
    return Classic({"players": ["Ann", "Bob", "Cid", "Dee"][:n], "dealer": 0})


def masters(n=2):
    return Masters({"players": ["Ann", "Bob", "Cid"][:n], "dealer": 0})


def worth(counts):
    # the cards' points, as the rules count them (5, 10, 15, 25)
    return sum(counts[k] * CARD_POINTS[k] for k in range(4))


def presses(e, p, kinds):
    for k in kinds:
        e.press(p, k)


# --- cards left -------------------------------------------------------------------------

def test_the_cards_left_say_who_completed_and_what_each_scores():
    g = classic()
    e = HandEntry(g, None, False)
    e.out = 0
    presses(e, 1, [0, 0, 1, 3])             # Bob: two fewer, then a 10-12 and a Wild
    bob = e.left[1]
    assert sum(bob) < 10 and bob[1] == 1 and bob[3] == 1
    points, completed = e.judge()
    assert completed == [True, True, False]
    assert points == [0, worth(bob), worth(FAIL)]
    # nothing to ask: the cards say it, so the record carries no answers
    assert e.made == [None, None, None] and "done" not in e.record()
    assert e.record()["left"] == [None, bob, FAIL]     # who went out holds nothing
    assert list(e.open) == [0, 0, 0]


def test_one_card_fewer_goes_from_ten_to_the_most_a_completed_phase_leaves_then_to_one():
    g = classic()
    e = HandEntry(g, None, False)
    e.out = 0
    most = 10 - PHASE_CARDS[g.attempted(g.state, 1, None)]
    e.press(1, 0)
    assert sum(e.left[1]) == most
    for t in range(most - 1, 0, -1):
        e.press(1, 0)
        assert sum(e.left[1]) == t
    e.press(1, 0)
    assert e.left[1] == [1, 0, 0, 0]        # it stops at one card
    # three buttons step back up the same way: one more each, then from the most to ten
    for t in range(2, most + 1):
        e.step_cards(1, 1)
        assert sum(e.left[1]) == t
    e.step_cards(1, 1)
    assert e.left[1] == FAIL


def test_a_kind_stops_at_the_decks_count_and_when_no_1_9_is_left_to_replace():
    for g, deck in ((classic(), DECK_COUNTS), (masters(), MASTERS_DECK)):
        e = HandEntry(g, None, False)
        presses(e, 1, [2] * 6)                  # Skips: Masters' deck has 2, the game's 4
        assert e.left[1] == [10 - deck[2], 0, deck[2], 0]
        e.left[1] = [1, 0, 0, 0]
        presses(e, 1, [3, 3])                   # one 1-9 to replace: one Wild, no more
        assert e.left[1] == [0, 0, 0, 1]


def test_fewer_cards_take_the_10_12s_first_and_the_wilds_last():
    e = HandEntry(classic(), None, False)
    e.left[1] = [0, 2, 1, 1]
    e.set_total(e.left[1], 3)
    assert e.left[1] == [0, 1, 1, 1]
    e.set_total(e.left[1], 1)
    assert e.left[1] == [0, 0, 0, 1]
    e.left[1] = [2, 0, 1, 0]
    e.fewer(1, 2)                               # a Skip fewer: a 1-9 in its place
    assert e.left[1] == [3, 0, 0, 0]
    e.fewer(1, 2)                               # none left: it stops
    assert e.left[1] == [3, 0, 0, 0]


def test_presses_are_taken_back_last_first_and_a_press_that_changes_nothing_is_not_kept():
    e = HandEntry(classic(), None, False)
    e.new_page(1)
    assert e.nundo == 0 and not e.take_back(1)
    seen = [e.left[1][:]]
    for k in (0, 1, 3, 2):
        e.press(1, k)
        seen.append(e.left[1][:])
    assert e.nundo == 4
    e.left[1][0] = 0
    e.left[1][3] = 8
    full = e.left[1][:]
    e.press(1, 3)                               # no 1-9 left: nothing changes, nothing kept
    assert e.left[1] == full and e.nundo == 4
    e.left[1] = seen[-1]
    while e.take_back(1):
        seen.pop()
        assert e.left[1] == seen[-1]
    assert len(seen) == 1 and e.left[1] == FAIL
    # points: nothing to take back
    p = HandEntry(classic(), None, True)
    assert not p.take_back(1)


# --- points left ------------------------------------------------------------------------

def test_points_stop_at_0_and_250():
    e = HandEntry(classic(), None, True)
    start = e.left[1]
    e.add_points(1, 25)
    assert e.left[1] == start + 25
    e.add_points(1, -1000)
    assert e.left[1] == 0
    e.add_points(1, 1000)
    assert e.left[1] == 250


def test_points_that_fit_both_answers_are_open_and_filled_in_as_not_completed():
    g = classic()
    e = HandEntry(g, None, True)
    e.out = 0
    e.left[1] = 60          # ten cards, or a few Wilds after a completed phase
    e.left[2] = 20          # under 50: fewer than ten cards, completed
    points, completed = e.judge()
    assert list(e.open) == [0, 1, 0]
    assert e.made == [None, False, None]
    assert completed == [True, False, True] and points == [0, 60, 20]
    assert e.record()["done"] == [None, False, None]
    # the table's answer stands while the points allow it
    e.answer(1, True)
    points, completed = e.judge()
    assert e.made[1] is True and completed[1] is True
    g.add(e.record())
    assert [r["phase"] for r in g.players()] == [2, 2, 2]


def test_points_no_player_can_hold_are_refused_naming_them():
    g = classic()
    e = HandEntry(g, None, True)
    e.out = 0
    e.check_points(1)                           # 60: fits
    e.left[1] = 0
    x = raises(RuleError, e.check_points, 1)
    assert "Bob" in message(x)
    x = raises(RuleError, e.judge)
    assert x.player == 1 and "Bob" in message(x)
    assert len(g.records) == 0


# --- Masters ----------------------------------------------------------------------------

def test_masters_offers_the_phases_the_cards_leave_and_fills_in_the_lowest():
    g = masters()
    e = HandEntry(g, None, False)
    e.out = 0
    e.name_phase(0, 2, False)
    assert e.fitting(1) == [0]                  # ten cards: no phase
    e.left[1] = [3, 0, 0, 0]
    fits = [v for v in range(1, 11) if PHASE_CARDS[v] <= 10 - 3]
    assert e.fitting(1) == fits
    points, completed = e.judge()
    assert e.phase == [2, fits[0]] and e.open[1] == 1 and completed == [True, True]
    # the table names another that fits: it stands, and goes into the record
    e.name_phase(1, fits[-1], True)
    e.judge()
    assert e.phase[1] == fits[-1] and e.record()["phase"] == [2, fits[-1]]
    # more cards, where it no longer fits: the one that does is filled in
    e.left[1] = [4, 0, 0, 0]
    e.judge()
    assert PHASE_CARDS[fits[-1]] > 10 - 4
    assert e.phase[1] == [v for v in range(1, 11) if PHASE_CARDS[v] <= 10 - 4][0]
    assert e.typed[1] == 0 and e.open[1] == 0


def test_masters_offers_only_the_phases_a_player_has_left():
    g = masters()
    g.add({"out": 0, "left": [None, [4, 0, 0, 0]], "phase": [1, 1]})
    e = HandEntry(g, None, False)
    assert 1 not in e.remaining(0) and e.remaining(0)[0] == 2
    e.out = 1
    e.left[0] = [3, 0, 0, 0]
    assert e.fitting(0) == [v for v in range(2, 11) if PHASE_CARDS[v] <= 10 - 3]


def test_the_phase_named_by_who_went_out_is_no_answer_when_someone_else_went_out():
    g = masters()
    e = HandEntry(g, None, False)
    e.out = 0
    e.name_phase(0, 9, False)
    # back to who went out: Bob did; Ann kept two cards, which phase 9 leaves, but her
    # nine is no answer of the table's: the lowest that fits is filled in
    e.out = 1
    e.left[0] = [2, 0, 0, 0]
    e.name_phase(1, 1, False)
    e.judge()
    assert 9 in e.fitting(0) and e.phase == [e.fitting(0)[0], 1] and e.phase[0] != 9
    # a phase the table gave on the check page stays
    e.name_phase(0, 9, True)
    e.judge()
    assert e.phase == [9, 1]


def test_masters_cards_of_a_phase_not_made_are_bounded_by_every_phase_left():
    # no phase named yet: one fewer from ten goes to what the smallest phase leaves
    g = masters()
    e = HandEntry(g, None, False)
    e.name_phase(1, 9, False)
    e.press(1, 0)
    assert sum(e.left[1]) == 10 - min(PHASE_CARDS[1:])
    assert e.phase[1] == 9                      # the phase set aside is put back


# --- a saved hand corrected --------------------------------------------------------------

def test_a_saved_hand_is_corrected_from_its_record_and_replaced():
    g = classic()
    g.add({"out": 0, "left": [None, [3, 0, 0, 1], FAIL]})
    g.add({"out": 1, "left": [FAIL, None, FAIL]})
    saved = g.records[0]
    e = HandEntry(g, 0, False)
    assert e.before.hands == 0 and e.before.total == [0, 0, 0]
    assert e.out == 0 and e.left[1] == [3, 0, 0, 1] and e.left[2] == FAIL
    assert list(e.typed) == [1, 1, 1]
    assert e.record() == saved
    e.left[2] = [4, 0, 0, 0]
    g.replace(0, e.record())
    assert g.records[0]["left"] == [None, [3, 0, 0, 1], [4, 0, 0, 0]]
    assert [r["phase"] for r in g.players()] == [2, 3, 2]


def test_correcting_a_players_cards_takes_back_to_a_fresh_page_first():
    g = classic()
    g.add({"out": 0, "left": [None, [3, 0, 0, 1], FAIL]})
    e = HandEntry(g, 0, False)
    e.new_page(1)
    assert e.starts_over()
    e.press(1, 0)
    assert not e.starts_over() and e.nundo == 2
    assert e.take_back(1) and e.left[1] == [3, 0, 0, 1]
    assert e.take_back(1) and e.left[1] == FAIL and not e.take_back(1)
    e.new_page(2)                               # ten cards already: nothing to go back to
    assert e.nundo == 0
    n = HandEntry(g, None, False)               # the next hand: its pages start fresh
    n.left[1] = [3, 0, 0, 0]
    n.new_page(1)
    assert n.nundo == 0 and not n.starts_over()


def test_a_saved_hands_answers_and_phases_stand():
    g = masters()
    g.add({"out": 0, "left": [None, [3, 0, 0, 0]], "phase": [1, 4]})
    e = HandEntry(g, 0, False)
    e.judge()
    assert e.phase == [1, 4] and e.open[1] == 1
    assert e.record() == g.records[0]
    p = classic(2)
    p.add({"out": 0, "left": [None, 60], "done": [None, True]})
    e = HandEntry(p, 0, True)
    e.judge()
    assert e.made == [None, True] and e.record() == p.records[0]
