# Classic, its variations and Masters, rule by rule (RULINGS.md). Runs under pytest and,
# unchanged, under the MicroPython binary (tests/both/run.py).
import json

from check import raises, message

from engine_mpy import savefile, saveload
from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.game import RuleError
from host_sim import report

# Cards left, as counts [1-9, 10-12, Skip, Wild].
FAIL = [10, 0, 0, 0]          # did not complete: 10 low cards, 50 points


def low(k):
    """Completed but kept k cards of 1-9: 5k points."""
    return [k, 0, 0, 0]


def hand(out, *left):
    return {"out": out, "left": list(left)}


def classic(n=3, **kw):
    s = {"players": ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:n], "dealer": 0}
    s.update(kw)
    return Classic(s)


def phases(g):
    return [r["phase"] for r in g.players()]


def totals(g):
    return [r["total"] for r in g.players()]


# --- Classic ---------------------------------------------------------------------------

def test_going_out_scores_zero_and_cards_left_score_by_kind():
    g = classic()
    # Bob kept 2 low, 1 ten-twelve, 1 Wild: completed (4 cards <= 10-6); 5+5+10+25 = 45.
    g.add(hand(0, None, [2, 1, 0, 1], [6, 2, 1, 1]))
    assert totals(g) == [0, 45, 30 + 20 + 15 + 25]
    # Ann went out and Bob completed: both on phase 2; Cid held 10 cards: still phase 1.
    assert phases(g) == [2, 2, 1]
    assert [r["won"] for r in g.players()] == [1, 0, 0]


def test_dealer_passes_left_and_first_player_is_left_of_dealer():
    g = classic(n=4, dealer=2)
    assert (g.dealer(), g.first_player()) == (2, 3)
    g.add(hand(0, None, FAIL, FAIL, FAIL))
    assert (g.dealer(), g.first_player()) == (3, 0)
    g.add(hand(0, None, FAIL, FAIL, FAIL))
    assert (g.dealer(), g.first_player()) == (0, 1)
    assert report.card_sheet(g)[1][1] == 3          # the score sheet keeps who dealt each hand


def test_failed_phase_is_tried_again_and_phases_never_skip():
    g = classic(n=2)
    g.add(hand(0, None, FAIL))
    g.add(hand(0, None, FAIL))
    assert phases(g) == [3, 1]
    assert g.players()[0]["phase_text"] == "1 set of 4 + 1 run of 4"


def play_to_phase_10(g, n):
    """Everyone completes phases 1-9 in nine hands; player 0 goes out each time."""
    for h in range(9):
        g.add(hand(0, None, *[low(1)] * (n - 1)))


def test_several_complete_the_last_phase_lowest_total_wins():
    g = classic(n=3)
    play_to_phase_10(g, 3)
    assert phases(g) == [10, 10, 10]
    # Hand 10: Bob goes out; Ann completes phase 10 keeping 2 cards (10 pts), Cid fails.
    # Totals: Ann 0 + 10, Bob 9*5 = 45, Cid 45 + 50: Ann and Bob finished, Ann lower.
    g.add(hand(1, low(2), None, FAIL))
    assert g.over
    assert report.summary(g)["winners"] == ["Ann"]
    assert totals(g) == [10, 45, 95]
    assert [r["rank"] for r in g.players()] == [1, 2, 3]
    e = raises(RuleError, g.add, hand(0, None, FAIL, FAIL))
    assert "game is over" in message(e)


def test_only_finishers_can_win_even_against_a_lower_total():
    g = classic(n=2)
    g.add(hand(0, None, FAIL))                 # Bob fails phase 1: 50
    for h in range(8):
        g.add(hand(1, [0, 0, 0, 1], None))      # Ann completes, keeps a Wild: 25 each
    assert phases(g) == [10, 9] and totals(g) == [200, 50]
    g.add(hand(0, None, low(1)))                # Ann finishes; Bob completes phase 9
    assert g.over and report.summary(g)["winners"] == ["Ann"]
    assert totals(g) == [200, 55]
    assert [r["rank"] for r in g.players()] == [1, 2]


def test_exact_tie_calls_a_tie_break_hand_with_no_points():
    g = classic(n=3)
    play_to_phase_10(g, 3)
    # Ann 0, Bob 45, Cid 45. Hand 10: Ann fails (50), Bob and Cid complete; Bob out,
    # Cid keeps 0 points? impossible; Cid keeps 1 card: Bob 45, Cid 50; make them tie:
    # Bob goes out (45), Cid completes keeping nothing is impossible, so instead Ann goes
    # out (0 -> stays 0 but Ann finishes alone). Build the tie from the start instead:
    g = classic(n=2)
    for h in range(9):
        g.add(hand(h % 2, *[None if p == h % 2 else low(1) for p in range(2)]))
    # Ann went out in hands 1,3,5,7,9 and held 1 card in 2,4,6,8: 20; Bob: 25.
    assert totals(g) == [20, 25]
    g.add(hand(0, None, low(1)))    # both complete phase 10: 20 vs 30
    assert report.summary(g)["winners"] == ["Ann"]

    g = classic(n=2)
    for h in range(9):
        g.add(hand(h % 2, *[None if p == h % 2 else low(1) for p in range(2)]))
    g.add(hand(1, low(1), None))    # Ann 25, Bob 25: an exact tie
    s = report.summary(g)
    assert s["winners"] == [] and s["tiebreak"] == ["Ann", "Bob"]
    assert not g.over
    e = raises(RuleError, g.add, hand(0, None, FAIL))
    assert "tie-break" in message(e)
    g.add({"tiebreak": 1})
    assert g.over and report.summary(g)["winners"] == ["Bob"]
    assert totals(g) == [25, 25]            # the tie-break hand records no points
    assert report.summary(g)["hands"] == 10
    assert [r["rank"] for r in g.players()] == [2, 1]


def test_tie_break_refused_when_none_is_due_or_for_an_untied_player():
    g = classic(n=3)
    e = raises(RuleError, g.add, {"tiebreak": 0})
    assert "No tie-break" in message(e)


# --- Variations --------------------------------------------------------------------------

def test_even_phases_third_step_is_phase_6():
    g = classic(n=2, variation="even")
    assert phases(g) == [2, 2]
    assert g.players()[0]["phase_text"] == "1 set of 3 + 1 run of 4"
    g.add(hand(0, None, FAIL))
    g.add(hand(0, None, FAIL))
    assert phases(g) == [6, 2]
    assert g.players()[0]["phases_done"] == 2
    # Phase 6 (run of 9) leaves at most 1 card to a player who completed it.
    g.add(hand(1, FAIL, None))
    e = raises(RuleError, g.add, hand(1, low(2), None))
    assert "at most 1" in message(e)


def test_even_phases_end_at_phase_10_after_five_steps():
    g = classic(n=2, variation="even")
    for h in range(4):
        g.add(hand(0, None, FAIL))
    assert phases(g) == [10, 2] and not g.over
    g.add(hand(0, None, FAIL))
    assert g.over and report.summary(g)["winners"] == ["Ann"]


def test_ten_hands_everyone_attempts_hand_number_and_game_ends_after_ten():
    g = classic(n=3, variation="ten_hands")
    g.add(hand(0, None, FAIL, low(3)))
    # Everyone advances, completed or not.
    assert phases(g) == [2, 2, 2]
    for h in range(1, 9):
        g.add(hand(h % 3, *[None if p == h % 3 else FAIL for p in range(3)]))
    assert phases(g) == [10, 10, 10] and not g.over
    # Phase 10 (8 cards) leaves at most 2 cards to a completer.
    e = raises(RuleError, g.add, hand(2, low(3), FAIL, None))
    assert "at most 2" in message(e)
    g.add(hand(2, FAIL, FAIL, None))
    assert g.over
    # Ann: h1 0, out in h4,h7 -> 6 fails * 50 + h10 50 = 350? count: hands 2..9 Ann failed
    # unless out (hands 4 and 7 by index 3 and 6): 8 - 2 = 6 fails = 300, + 50 = 350.
    # Bob: h1 50, out in h2,h5,h8 -> 5 fails = 250, + h10 50 = 350.
    # Cid: h1 15, out in h3,h6,h9 -> 5 fails = 250, h10 out: 265.
    assert totals(g) == [350, 350, 265]
    assert report.summary(g)["winners"] == ["Cid"]
    assert [r["phase"] for r in g.players()] == [None, None, None]


def test_ten_hands_tie_goes_to_a_tie_break_hand():
    g = classic(n=2, variation="ten_hands")
    for h in range(10):
        g.add(hand(h % 2, *[None if p == h % 2 else FAIL for p in range(2)]))
    assert totals(g) == [250, 250]
    assert report.summary(g)["tiebreak"] == ["Ann", "Bob"]
    g.add({"tiebreak": 0})
    assert report.summary(g)["winners"] == ["Ann"]


def test_first_n_phases_ends_at_phase_n():
    g = classic(n=2, variation="first_n", phases=3)
    g.add(hand(0, None, FAIL))
    g.add(hand(0, None, FAIL))
    assert not g.over and phases(g) == [3, 1]
    g.add(hand(1, low(1), None))
    assert g.over and report.summary(g)["winners"] == ["Ann"]
    assert phases(g) == [None, None]


def test_first_n_needs_a_number_of_phases():
    e = raises(RuleError, classic, variation="first_n")
    assert "number of phases" in message(e)
    e = raises(RuleError, classic, variation="first_n", phases=11)
    assert "1 to 10" in message(e)
    e = raises(RuleError, classic, variation="odd")
    assert "Unknown variation" in message(e)


# --- Card-count consistency -------------------------------------------------------------

def refused(g, rec, words):
    before = g.records[:]
    e = raises(RuleError, g.add, rec)
    assert words in message(e), message(e)
    assert g.records == before
    return e


def test_each_card_count_rule_is_enforced_and_changes_nothing():
    g = classic(n=3)
    g.add(hand(0, None, FAIL, FAIL))
    # A player who did not complete holds exactly 10; one who did, at most 10 - 6 = 4.
    refused(g, hand(0, None, [5, 0, 0, 0], FAIL), "at most 4")
    refused(g, hand(0, None, [11, 0, 0, 0], FAIL), "holds 11 cards")
    # Only the player who went out can hold nothing.
    refused(g, hand(0, None, [0, 0, 0, 0], FAIL), "only the player who went out")
    # The player who went out holds nothing.
    refused(g, hand(0, [1, 0, 0, 0], FAIL, FAIL), "went out")
    # Counts cannot be negative or exceed the deck (8 Wilds, 4 Skips).
    refused(g, hand(0, None, [-1, 0, 0, 0], FAIL), "0 or more")
    refused(g, hand(0, None, [0, 0, 5, 0], FAIL), "only 4")
    refused(g, hand(0, None, [2, 0, 0, 8], [2, 0, 0, 8]), "only 8")
    # Exactly one player goes out.
    refused(g, {"out": 3, "left": [None, FAIL, FAIL]}, "went out")
    refused(g, {"left": [None, FAIL, FAIL]}, "went out")
    # Everyone's cards are entered.
    refused(g, hand(0, None, FAIL), "every player")
    refused(g, hand(0, None, None, FAIL), "Enter the cards Bob")
    # Ann is on phase 2 (7 cards): a completer keeps at most 3.
    g.add(hand(1, FAIL, None, FAIL))
    refused(g, hand(1, low(4), None, FAIL), "at most 3")


def test_points_entry_bounds_completion_and_asks_when_open():
    g = classic(n=3)
    # Under 50: completed. Over 100 (4 Wilds is the most a completer can hold): failed.
    g.add(hand(0, None, 35, 130))
    assert phases(g) == [2, 2, 1]
    # 60 fits 10 cards (failed) and 4 cards (completed): the table must say.
    refused(g, hand(0, None, 60, 130), "say whether Bob completed")
    g.add({"out": 0, "left": [None, 60, 130], "done": [None, True, None]})
    assert phases(g) == [3, 3, 1]
    # Not a multiple of 5; zero for a player who did not go out; impossible sums.
    refused(g, hand(0, None, 37, 130), "multiple of 5")
    refused(g, hand(0, None, 0, 130), "only the player who went out")
    refused(g, hand(0, None, 245, 130), "cannot be the cards left")
    # A flag that contradicts the points.
    refused(g, {"out": 0, "left": [None, 30, 130], "done": [None, False, None]}, "completed")
    # The saved record keeps the table's answer only where it was needed.
    assert g.records[1]["done"] == [None, True, None]
    assert "done" not in g.records[0]


# --- Masters -----------------------------------------------------------------------------

def masters(n=2):
    return Masters({"players": ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:n], "dealer": 0})


def mhand(out, left, ph):
    return {"out": out, "left": left, "phase": ph}


def test_masters_phases_in_any_order_and_a_completed_phase_never_again():
    g = masters()
    g.add(mhand(0, [None, FAIL], [7, 0]))
    assert g.remaining(0) == [1, 2, 3, 4, 5, 6, 8, 9, 10]
    assert g.players()[0]["phases_done"] == 1
    refused(g, mhand(0, [None, FAIL], [7, 0]), "completed phase 7 already")
    # Counts must agree with the phase named.
    refused(g, mhand(0, [None, low(2)], [1, 0]), "say which")
    refused(g, mhand(0, [None, FAIL], [1, 4]), "did not complete phase 4")
    refused(g, mhand(0, [None, FAIL], [0, 0]), "went out")
    # Phase 6 (run of 9) leaves at most 1 card.
    refused(g, mhand(0, [None, low(2)], [1, 6]), "at most 1")
    g.add(mhand(1, [low(4), None], [1, 6]))
    assert g.remaining(1) == [1, 2, 3, 4, 5, 7, 8, 9, 10]


def test_masters_up_to_six_players_and_winner_after_all_ten():
    e = raises(RuleError, Masters, {"players": list("ABCDEFG")})
    assert "2 to 6" in message(e)
    g = masters(6)
    order = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    for h in range(10):
        ph = [order[h]] + [0] * 5
        g.add(mhand(0, [None] + [FAIL] * 5, ph))
    assert g.over and report.summary(g)["winners"] == ["Ann"]
    assert report.summary(g)["players"][0]["phase"] is None


def test_masters_points_entry_uses_the_named_phase():
    g = masters()
    # Bob named phase 1 (6 cards): up to 4 cards, 100 points at most.
    g.add(mhand(0, [None, 100], [2, 1]))
    assert g.remaining(1)[0] == 2
    # 105 is more than 4 cards can hold.
    refused(g, mhand(0, [None, 105], [3, 2]), "did not complete")


def test_the_masters_deck_has_two_skips():
    # RULINGS.md, "The decks": the Masters Edition deck has 2 Skips, the Classic one 4.
    # Three Skips left across the table (or in one hand) are refused, naming the deck.
    g = masters(3)
    three = mhand(0, [None, [8, 0, 2, 0], [9, 0, 1, 0]], [1, 0, 0])
    e = refused(g, three, "3 Skip cards")
    assert message(e) == "This hand lists 3 Skip cards; the Masters Edition deck has only 2.", message(e)
    e = refused(g, mhand(0, [None, [7, 0, 3, 0], FAIL], [1, 0, 0]), "Bob holds 3 Skip cards")
    assert "Masters Edition deck has only 2" in message(e)
    # two are in the deck
    g.add(mhand(0, [None, [8, 0, 2, 0], FAIL], [1, 0, 0]))
    assert totals(g) == [0, 70, 50]
    # the Classic deck holds those three Skips, and says "the deck" with its own 4
    c = classic(3)
    c.add(hand(0, None, [8, 0, 2, 0], [9, 0, 1, 0]))
    assert totals(c) == [0, 70, 60]
    assert message(refused(c, hand(0, None, [6, 0, 4, 0], [9, 0, 1, 0]), "5 Skip")) == \
        "This hand lists 5 Skip cards; the deck has only 4."
    # a saved Masters game that says three were left is refused, naming the hand and the rule
    text = savefile.dumps(g).replace("[8,0,2,0],[10,0,0,0]", "[8,0,2,0],[9,0,1,0]")
    assert "[9,0,1,0]" in text, text
    e = raises(Exception, saveload.loads, text)
    assert "hand 1" in message(e) and "the Masters Edition deck has only 2" in message(e), message(e)


# --- Corrections and undo ------------------------------------------------------------------

def test_correcting_an_early_hand_recomputes_everything_after_it():
    g = classic(n=2)
    g.add(hand(0, None, FAIL))
    g.add(hand(0, None, FAIL))
    g.add(hand(0, None, FAIL))
    assert phases(g) == [4, 1] and totals(g) == [0, 150]
    # Bob actually completed phase 1 in hand 1, keeping 2 cards.
    g.replace(0, hand(0, None, low(2)))
    assert phases(g) == [4, 2] and totals(g) == [0, 110]
    assert [row[3][1][3] for row in report.card_sheet(g)] == [10, 60, 110]


def test_correction_refused_when_it_makes_a_later_hand_impossible():
    g = classic(n=2, variation="first_n", phases=2)
    g.add(hand(1, FAIL, None))
    g.add(hand(0, None, FAIL))
    # Bob finished phase 2 in hand 2? No: Bob went out in hand 1 (phase 1) and is on 2.
    # Hand 3: Bob goes out on phase 2 and wins.
    g.add(hand(1, FAIL, None))
    assert g.over
    before = g.to_dict()
    # Making Ann go out in hand 1 too means Ann completes phase 2 in hand 2 and the game
    # ends there: hand 3 becomes impossible.
    e = raises(RuleError, g.replace, 0, hand(0, None, FAIL))
    assert "hand 3 impossible" in message(e) and e.hand == 3
    assert g.to_dict() == before
    # A change to phase 2's card range that breaks hand 3's entry is named the same way.
    g2 = classic(n=2)
    g2.add(hand(0, None, FAIL))
    g2.add(hand(0, None, low(4)))      # Bob completes phase 1 (up to 4 cards)
    e = raises(RuleError, g2.replace, 0, hand(0, None, low(1)))
    # Now Bob was on phase 2 in hand 2 (7 cards, at most 3 left): 4 cards is impossible.
    assert "hand 2 impossible" in message(e) and "at most 3" in message(e)


def test_undo_drops_the_last_hand_only():
    g = classic(n=2)
    e = raises(RuleError, g.undo)
    assert "nothing to undo" in message(e)
    g.add(hand(0, None, FAIL))
    g.add(hand(1, FAIL, None))
    g.undo()
    assert len(g.records) == 1 and phases(g) == [2, 1] and totals(g) == [0, 50]
    assert g.dealer() == 1


# --- Save and load ---------------------------------------------------------------------------

def test_save_and_load_round_trip_every_card_game():
    games = [classic(n=3), classic(n=2, variation="even"), classic(n=2, variation="first_n", phases=4),
             classic(n=2, variation="ten_hands"), masters(3)]
    games[0].add(hand(1, low(3), None, [3, 3, 2, 2]))
    games[0].add({"out": 0, "left": [None, 60, 130], "done": [None, True, None]})
    games[4].add(mhand(2, [FAIL, low(1), None], [0, 3, 9]))
    for g in games:
        text = savefile.dumps(g)
        g2 = saveload.loads(text)
        assert type(g2) is type(g)
        assert g2.to_dict() == g.to_dict()
        assert g2.players() == g.players()
        assert savefile.dumps(g2) == text
        # The text streamed piece by piece (as the device saves) is the same text: a
        # header line, then a line per hand.
        pieces = []
        savefile.write(g, pieces.append)
        assert len(pieces) == 1 + 2 * len(g.records) and "".join(pieces) == text
        lines = text.split("\n")
        assert lines[-1] == "" and len(lines) == len(g.records) + 2
        head = json.loads(lines[0])
        d = g.to_dict()
        assert head == {"format": "phase10", "v": 3, "game": d["game"], "settings": d["settings"]}
        assert [json.loads(t) for t in lines[1:-1]] == d["records"]
        # and a save of version 1 (earlier firmware: one JSON object) reads the same
        old = json.dumps(dict(d, v=1))
        assert saveload.loads(old).to_dict() == d
        spread = json.dumps(dict(d, v=1)).replace(", ", ",\n  ").replace("{", "{\n ")
        assert saveload.loads(spread).to_dict() == d


def test_malformed_saves_are_refused_with_a_reason():
    good = savefile.dumps(classic(n=2))
    cases = [
        ("", "not a Phase 10 save"),
        (good[:-5], "not valid JSON"),
        (good + '{"out": 0, "left": [null, [5, 0, 0, 0]]}\n', "hand 1"),
        (good + '{"out": 0, "left": [null, [10, 0, 0, 0]]}\n7\n', "hand 2"),
        (good + '{"out": 0, "left": [null, [10, 0, 0, 0]]}\n{"out": 0\n', "hand 2: not valid JSON"),
        (good + "x" * 3000 + "\n", "too long"),
        ('{"format": "phase10", "v": 2, "game": "classic", "settings": {"players": ["A", "B"]}, "records": []}\n', "holds no records"),
        ("[1, 2]", "expected a JSON object"),
        ('{"format": "other"}', "not a Phase 10 save"),
        ('{"format": "phase10", "v": 99, "game": "classic", "settings": {}, "records": []}', "newer"),
        ('{"format": "phase10", "v": 1, "game": "poker", "settings": {}, "records": []}', "unknown game"),
        ('{"format": "phase10", "v": 1, "game": "classic", "settings": [], "records": []}', "settings"),
        ('{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["A"]}, "records": []}', "2 to 6"),
        ('{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["A", "B"]}, "records": {}}', "records"),
        ('{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["A", "B"]},'
         ' "records": [{"out": 0, "left": [null, [5, 0, 0, 0]]}]}', "hand 1"),
        ('{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["A", "B"]},'
         ' "records": [{"out": 0, "left": [null, [10, 0, 0, 0]]}, 7]}', "hand 2"),
        ('{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["A", "A"]}, "records": []}', "Two players"),
        ('{"format": "phase10", "v": true, "game": "classic", "settings": {"players": ["A", "B"]}, "records": []}', "version"),
    ]
    for text, words in cases:
        e = raises(savefile.SaveError, saveload.loads, text)
        assert words in message(e), (text, message(e))


def test_check_points_refuses_what_no_hand_can_hold_and_takes_the_rest():
    # (the hand page asks this on OK, so a 0 is refused where it is typed)
    g = classic(2)
    st = g.before(None)
    e = raises(RuleError, g.check_points, st, 1, 0)
    assert "Bob" in message(e) and "0 points" in message(e)
    assert "multiple of 5" in message(raises(RuleError, g.check_points, st, 1, 7))
    for ok in (5, 20, 50, 85, 100):     # completed (1-4 cards), or ten cards, or either
        g.check_points(st, 1, ok)
    m = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    st = m.before(None)
    assert "0 points" in message(raises(RuleError, m.check_points, st, 1, 0, [0, 0]))
    m.check_points(st, 1, 30, [0, 0])
    assert len(list(g.records)) == 0 and len(list(m.records)) == 0
