# Phase 10 Twist: pawn moves, the red space, Twist cards, the end and the winner
# (seeds/twist.txt and RULINGS.md, "Twist"). Expected spaces are counted by hand on the
# layouts written out in each test; spaces are 0-based indexes into the layout.
from check import raises, message
from engine_mpy.game import RuleError
from engine_mpy.twist import Twist, move, draw_twist_card, BEFORE, AFTER
from engine_mpy import savefile, saveload
from host_sim import report

N = None  # the player who went out has no cards-left entry


def game(players=("Ann", "Bob", "Cy"), layout=None, values=None, dealer=0):
    s = {"players": list(players), "dealer": dealer}
    if layout is not None:
        s["layout"] = layout
    if values is not None:
        s["values"] = values
    return Twist(s)


def hand(out, left, pick=None, total=None):
    r = {"out": out, "left": left}
    if pick is not None:
        r["pick"] = pick
    if total is not None:
        r["total"] = total
    return r


# --- plain moves -----------------------------------------------------------------------

def test_pawns_start_on_1_start_and_attempt_phase_1():
    g = game()
    assert g.state.pos == [0, 0, 0]
    assert g.attempt_text(0) == ("Phase 1", "2 sets of 3")
    assert g.space(2) == 1


def test_went_out_3_completed_2_not_completed_1():
    g = game()
    # Phase 1 lays down 6 cards, so a player who completed it keeps 1..4.
    g.add(hand(0, [N, 4, 10]))
    # Default layout: 1S(0) 1(1) T(2) 2(3): Ann 0+3, Bob 0+2, Cy 0+1.
    assert g.state.pos == [3, 2, 1]
    assert g.state.moves == [3, 2, 1]
    assert g.attempt_text(0) == ("Phase 2", "1 set of 3 + 1 run of 4")
    assert g.attempt_text(1) == ("Twist", "phase 1, phase 2 or a Twist card")
    assert g.attempt_text(2) == ("Phase 1", "2 sets of 3")


def test_cards_left_checked_against_the_phase_size():
    g = game()
    # 5 left after completing phase 1 (6 cards down): a hand holds 10, so at most 4.
    m = message(raises(RuleError, g.add, hand(0, [N, 5, 10])))
    assert "Bob" in m and "at most 4" in m
    assert "only the player who went out" in message(raises(RuleError, g.add, hand(0, [N, 0, 10])))
    assert "went out" in message(raises(RuleError, g.add, hand(0, [3, 10, 10])))
    assert "exactly one player" in message(raises(RuleError, g.add, hand(3, [N, 10, 10])))
    assert "every player" in message(raises(RuleError, g.add, hand(0, [N, 10])))
    # Refused entries changed nothing.
    assert g.records == [] and g.state.pos == [0, 0, 0]
    # The out player's entry may be given as 0; it is saved as null.
    g.add(hand(0, [0, 10, 10]))
    assert g.records == [{"out": 0, "left": [None, 10, 10]}]


def test_dealer_passes_left_and_first_player_is_left_of_dealer():
    g = game(dealer=2)
    assert g.dealer() == 2 and g.first_player() == 0
    g.add(hand(0, [N, 10, 10]))
    assert g.dealer() == 0 and g.first_player() == 1
    g.add(hand(1, [10, N, 10]))
    assert g.dealer() == 1 and g.first_player() == 2


# --- Twist spaces ----------------------------------------------------------------------
# Layout A: 1S(0) 1(1) T(2) 2(3) 3(4) ... Bob completes hand 1 and lands on the Twist space.
LAYOUT_A = "1S 1 T 2 3 4 5 6 7 8 9 10R"


def on_twist():
    g = game(layout=LAYOUT_A)
    g.add(hand(0, [N, 4, 10]))  # Ann 3, Bob 2 (Twist), Cy 1
    assert g.on_twist(1) and not g.on_twist(0)
    return g


def test_twist_space_needs_a_choice_and_only_there():
    g = on_twist()
    m = message(raises(RuleError, g.add, hand(0, [N, 10, 10])))
    assert "Bob is on a Twist space" in m
    m = message(raises(RuleError, g.add, hand(0, [N, 10, 10], pick=[BEFORE, BEFORE, None])))
    assert "Ann is not on a Twist space" in m
    assert "before" in message(raises(RuleError, g.add, hand(0, [N, 10, 10], pick=[None, 11, None])))


def test_twist_space_phase_before_or_after_moves_normally():
    g = on_twist()
    # Phase after the Twist space is 2 (7 cards down, keep at most 3): 4 left is refused.
    assert "at most 3" in message(raises(RuleError, g.add, hand(0, [N, 4, 10], pick=[None, AFTER, None])))
    # Phase before it is 1 (6 cards down): 4 left is a completed phase: +2, no bonus.
    g.add(hand(0, [N, 4, 10], pick=[None, BEFORE, None]))
    assert g.state.pos == [3 + 3, 2 + 2, 1 + 1]
    assert g.records[1]["pick"] == [None, BEFORE, None]
    assert g.attempt_text(0) == ("Phase 5", "1 run of 8")  # space 6 of LAYOUT_A holds 5


def test_twist_space_texts_include_the_twist_card():
    g = on_twist()
    assert g.attempt_text(1) == ("Twist", "phase 1, phase 2 or a Twist card")
    assert g.attempt_text(1, BEFORE) == ("Phase 1", "2 sets of 3")
    assert g.attempt_text(1, AFTER) == ("Phase 2", "1 set of 3 + 1 run of 4")
    assert g.attempt_text(1, 3) == ("Twist card 3", "1 set of 5 + 1 run of 4")


def test_twist_card_completed_moves_4():
    g = on_twist()
    # Twist card 8, run of 5 of one colour: 5 cards down, so up to 5 left.
    g.add(hand(0, [N, 5, 10], pick=[None, 8, None]))
    assert g.state.pos[1] == 2 + 4
    assert g.state.moves == [3, 4, 1]


def test_twist_card_gone_out_with_moves_6():
    g = on_twist()
    g.add(hand(1, [10, N, 10], pick=[None, 1, None]))
    assert g.state.pos == [3 + 1, 2 + 6, 1 + 1]


def test_twist_card_failed_moves_back_one():
    g = on_twist()
    g.add(hand(0, [N, 10, 10], pick=[None, 5, None]))
    assert g.state.pos[1] == 1
    assert g.state.moves[1] == -1
    assert g.attempt_text(1) == ("Phase 1", "2 sets of 3")


def test_twist_card_failed_next_to_the_start_goes_back_to_start_only():
    # 1S(0) T(1) 2(2) 3(3) ... : Bob fails his first hand and stands on the Twist space
    # next to the start; failing a Twist card there puts him back on 1/Start, never before.
    g = game(("Ann", "Bob"), layout="1S T 2 3 4 5 6 10R")
    g.add(hand(0, [N, 10]))
    assert g.state.pos == [3, 1]
    g.add(hand(0, [N, 10], pick=[None, 2]))
    assert g.state.pos == [6, 0]
    assert g.attempt_text(1) == ("Phase 1", "2 sets of 3")
    # And the pure rule: back one from the start stays on the start.
    assert move(0, -1, 4) == 0


def test_twist_card_sizes_check_cards_left():
    g = on_twist()
    # Twist card 1, 3 sets of 3: 9 cards down, so exactly 1 left if completed.
    m = message(raises(RuleError, g.add, hand(0, [N, 2, 10], pick=[None, 1, None])))
    assert "Twist card 1" in m and "at most 1" in m
    g.add(hand(0, [N, 1, 10], pick=[None, 1, None]))
    assert g.state.pos[1] == 6


def test_no_two_players_the_same_twist_card():
    # 1S(0) T(1) 2(2) 3(3) ... 10R(7): Ann and Bob fail phase 1 and both stand on the Twist space.
    g = game(("Ann", "Bob", "Cy"), layout="1S T 2 3 4 5 6 10R")
    g.add(hand(2, [10, 10, N]))  # Ann 1 (T), Bob 1 (T), Cy 3
    m = message(raises(RuleError, g.add, hand(2, [10, 10, N], pick=[4, 4, None])))
    assert "Twist card 4" in m
    g.add(hand(2, [10, 10, N], pick=[4, 5, None]))
    # Both failed their Twist card: back to the start; Cy 3 + 3 = 6.
    assert g.state.pos == [0, 0, 6]


def test_draw_twist_card_never_repeats_in_a_hand():
    class Cycle:
        # A fake random source: randrange returns 0, 1, 2, ... modulo n.
        def __init__(self):
            self.k = 0

        def randrange(self, n):
            self.k += 1
            return (self.k - 1) % n

    rng = Cycle()
    taken = []
    for _ in range(6):
        taken.append(draw_twist_card(rng, taken))
    assert len(taken) == 6
    for c in taken:
        assert 1 <= c <= 10 and taken.count(c) == 1
    # First draw index 0 of 1..10 -> 1; second index 1 of 2..10 -> 3; third index 2 of
    # {2, 4..10} -> 5 (worked out by hand).
    assert taken[:3] == [1, 3, 5]
    assert message(raises(RuleError, draw_twist_card, rng, list(range(1, 11)))).startswith("All ten")


def test_draw_twist_card_with_getrandbits_only():
    class Bits:
        # Returns 15, 14 (both too big for 9 free cards: rejected), then 2.
        def __init__(self):
            self.seq = [15, 14, 2]

        def getrandbits(self, k):
            assert k == 4
            return self.seq.pop(0)

    # Card 3 taken: free cards are 1, 2, 4, ..., 10; index 2 is card 4.
    assert draw_twist_card(Bits(), [3]) == 4


# --- the red Phase 10 space --------------------------------------------------------------

def test_move_rule_around_the_red_space():
    red = 10
    # From two spaces before it: 1 -> the space before; 2 or more jumps it (a move of 2 that
    # would end on it included: "a 2 or 3-space move from one of the two preceding spaces").
    assert move(8, 1, red) == 9
    assert move(8, 2, red) == 11
    assert move(8, 3, red) == 11
    assert move(8, 4, red) == 11 and move(8, 6, red) == 11
    # From the space before it: 1 -> onto it, 2 and 3 -> jump it.
    assert move(9, 1, red) == 10
    assert move(9, 2, red) == 11
    assert move(9, 3, red) == 11
    # On it: no 1-space move off it; completing Phase 10 (2, or 3 going out) moves past.
    assert move(10, 1, red) == 10
    assert move(10, 2, red) == 11
    assert move(10, 3, red) == 11
    # From further back a move never passes it: the pawn stops on the red space.
    assert move(7, 3, red) == 10
    assert move(7, 4, red) == 10
    assert move(6, 6, red) == 10
    assert move(4, 6, red) == 10
    assert move(3, 6, red) == 9


# Layout R: 1S(0) 1(1) 9(2) 10R(3). Hand 1 puts Ann on the red space, Bob on the space
# before it (phase 9) and Cy two before it (phase 1).
LAYOUT_R = "1S 1 9 10R"


def near_red():
    g = game(layout=LAYOUT_R)
    g.add(hand(0, [N, 4, 10]))
    assert g.state.pos == [3, 2, 1]
    assert g.attempt_text(0) == ("Phase 10", "1 set of 5 + 1 set of 3")
    assert g.attempt_text(1) == ("Phase 9", "1 set of 5 + 1 set of 2")
    return g


def test_on_red_failing_stays_and_1_moves_from_the_two_spaces_before():
    g = near_red()
    # Ann fails phase 10 (10 left): no move. Cy goes out on phase 1 from two before the
    # red: 3 jumps it, so Cy wins. Bob fails phase 9: 1 space onto the red.
    g.add(hand(2, [10, 10, N]))
    assert g.state.pos == [3, 3, 4]
    assert g.state.moves == [1, 1, 3]  # Ann's 1 was not made: she stayed
    assert g.state.over and g.state.winners == [2] and g.state.passed == [2]
    assert g.attempt_text(2) == ("Finished", "moved past the red space")


def test_completed_from_two_before_jumps_and_who_went_out_wins():
    g = near_red()
    # Cy completes phase 1 from two before: 2 jumps the red. Bob goes out from the space
    # before: he passes too, and of the two the one who went out wins. Ann fails on the
    # red space: stays.
    g.add(hand(1, [10, N, 3]))
    assert g.state.pos == [3, 4, 4]
    assert g.state.passed == [1, 2] and g.state.winners == [1]


def test_completed_from_one_before_jumps_and_red_completed_passes():
    g = near_red()
    # Ann completes phase 10 on the red space (8 cards down: 2 left at most) and Bob
    # completes phase 9 from the space before (7 down: 3 left at most): both pass. Cy
    # goes out from two before the red space: 3 jumps it too. All three passed and Cy
    # went out, so Cy wins whatever the others hold (no card totals asked).
    g.add(hand(2, [2, 3, N]))
    assert g.state.pos == [4, 4, 4]
    assert g.state.passed == [0, 1, 2] and g.state.winners == [2]
    assert "total" not in g.records[-1]


def test_phase_10_completed_on_red_checks_its_8_cards():
    g = near_red()
    m = message(raises(RuleError, g.add, hand(1, [3, N, 10])))
    assert "Ann" in m and "Phase 10" in m and "at most 2" in m


def test_game_over_refuses_more_hands():
    g = near_red()
    g.add(hand(1, [10, N, 10]))
    assert g.state.over
    m = message(raises(RuleError, g.add, hand(0, [N, 10, 10])))
    assert "over" in m and "Bob won" in m
    # Undo reopens it.
    g.undo()
    assert not g.state.over and g.state.pos == [3, 2, 1]


def test_twist_card_from_three_before_red_stops_on_it():
    # 1S(0) 1(1) 1(2) T(3) 8(4) 9(5) 10R(6): Twist space three before the red space.
    g = game(("Ann", "Bob"), layout="1S 1 1 T 8 9 10R")
    g.add(hand(0, [N, 10]))  # Ann 3 (T), Bob 1
    g.add(hand(0, [N, 10], pick=[7, None]))  # Ann goes out on Twist card 7: 6 spaces
    assert g.state.pos == [6, 2]
    assert not g.state.over


# --- several pawns past the red space in one hand ----------------------------------------
# Layout P: 1S(0) 1(1..6) 9(7) 10R(8). After three hands Ann is on the red space, Bob on the
# space before it (phase 9) and Cy far back on 3, so Cy can go out without passing.
LAYOUT_P = "1S 1 1 1 1 1 1 9 10R"


def before_final(values=None):
    g = game(layout=LAYOUT_P, values=values)
    g.add(hand(0, [N, 3, 10]))  # 3, 2, 1
    g.add(hand(1, [3, N, 10]))  # 5, 5, 2
    g.add(hand(0, [N, 3, 10]))  # 8 (3 from three before the red lands on it), 7, 3
    assert g.state.pos == [8, 7, 3]
    return g


def test_two_pass_one_went_out_wins():
    g = before_final()
    # Bob goes out from the space before the red; Ann completes phase 10 on it.
    g.add(hand(1, [1, N, 10]))
    assert g.state.passed == [0, 1] and g.state.winners == [1]


def test_two_pass_neither_went_out_face_values():
    g = before_final()
    # Ann keeps 2 cards: 9 and 9 = 18. Bob keeps 3: 1, 1, 2 = 4. Face values: Bob wins.
    m = message(raises(RuleError, g.add, hand(2, [2, 3, N])))
    assert "value of Ann's cards" in m
    g.add(hand(2, [2, 3, N], total=[18, 4, None]))
    assert g.state.pos == [9, 9, 6]
    assert g.state.passed == [0, 1] and g.state.winners == [1]
    assert g.records[-1]["total"] == [18, 4, None]


def test_two_pass_neither_went_out_classic_values():
    g = before_final("classic")
    # Same cards in Classic 5/10 values: Ann 9, 9 = 10; Bob 1, 1, 2 = 15. Ann wins.
    g.add(hand(2, [2, 3, N], total=[10, 15, None]))
    assert g.state.winners == [0]


def test_two_pass_tied_totals_are_co_winners():
    g = before_final()
    # Ann 10 + 2 = 12, Bob 3 + 4 + 5 = 12.
    g.add(hand(2, [2, 3, N], total=[12, 12, None]))
    assert g.state.winners == [0, 1]
    m = message(raises(RuleError, g.add, hand(0, [N, 10, 10])))
    assert "Ann and Bob won" in m


def test_two_pass_tied_classic_values_co_winners():
    g = before_final("classic")
    # Ann 10 and 5 -> 10 + 5 = 15; Bob 1, 2, 3 -> 5 + 5 + 5 = 15.
    g.add(hand(2, [2, 3, N], total=[15, 15, None]))
    assert g.state.winners == [0, 1]


def test_impossible_card_totals_refused():
    g = before_final()
    # Two cards are worth at most 50 (two Wilds) and at least 2 (two 1s).
    assert "cannot be worth 51" in message(raises(RuleError, g.add, hand(2, [2, 3, N], total=[51, 4, None])))
    assert "cannot be worth 1" in message(raises(RuleError, g.add, hand(2, [2, 3, N], total=[1, 4, None])))
    c = before_final("classic")
    # Classic values are multiples of 5; 3 cards are worth at least 15.
    assert "Classic" in message(raises(RuleError, c.add, hand(2, [2, 3, N], total=[12, 20, None])))
    assert "Bob" in message(raises(RuleError, c.add, hand(2, [2, 3, N], total=[10, 10, None])))
    assert g.state.pos == [8, 7, 3] and c.state.pos == [8, 7, 3]


def test_single_passer_needs_no_total():
    g = before_final()
    g.add(hand(2, [2, 10, N]))  # only Ann passes; Bob fails phase 9 and reaches the red
    assert g.state.winners == [0] and g.state.pos == [9, 8, 6]


# --- corrections and the save --------------------------------------------------------------

def test_correcting_an_early_hand_recomputes_the_pawns():
    g = game(layout=LAYOUT_P)
    g.add(hand(0, [N, 3, 10]))  # 3, 2, 1
    g.add(hand(2, [10, 10, N]))  # 4, 3, 4
    assert g.state.pos == [4, 3, 4]
    # Hand 1 really: Bob went out, Ann completed, Cy failed.
    g.replace(0, hand(1, [4, N, 10]))
    assert g.state.pos == [2 + 1, 3 + 1, 1 + 3]
    assert g.records[0] == {"out": 1, "left": [4, None, 10]}


def test_correction_that_breaks_a_later_hand_is_refused_naming_it():
    g = on_twist()
    g.add(hand(0, [N, 10, 10], pick=[None, AFTER, None]))
    # Had Bob gone out in hand 1 he would not stand on the Twist space in hand 2, so the
    # choice recorded for him there would be impossible.
    e = raises(RuleError, g.replace, 0, hand(1, [10, N, 10]))
    assert e.hand == 2 and "hand 2" in message(e) and "Bob is not on a Twist space" in message(e)
    assert g.state.pos == [6, 3, 2]


def test_save_round_trip_keeps_the_layout():
    g = before_final()
    g.add(hand(2, [2, 3, N], total=[18, 4, None]))
    text = savefile.dumps(g)
    h = saveload.loads(text)
    assert isinstance(h, Twist)
    assert h.settings["layout"] == LAYOUT_P and h.settings["values"] == "face"
    assert h.state.pos == g.state.pos and h.state.winners == [1]


def test_settings_refused_with_messages():
    assert "players" in message(raises(RuleError, game, ("Ann",)))
    assert "Space 2" in message(raises(RuleError, game, ("Ann", "Bob"), "1S X 10R"))
    assert "face" in message(raises(RuleError, game, ("Ann", "Bob"), None, "points"))
    # A layout given as a list of codes is accepted and saved as text.
    g = game(("Ann", "Bob"), ["1s", "T", "2", "10r"])
    assert g.settings["layout"] == "1S T 2 10R"


def test_standings_lead_first():
    g = game()
    g.add(hand(0, [N, 4, 10]))
    rows = g.standings()
    assert [r[0] for r in rows] == [0, 1, 2]
    assert rows[0] == (0, 4, "Phase 2", "1 set of 3 + 1 run of 4")


def test_totals_edge_entries_refused():
    g = before_final()
    # The player who went out has no cards to count; a total must be a whole number.
    assert "no cards left to count" in message(raises(RuleError, g.add, hand(2, [2, 3, N], total=[18, 4, 5])))
    assert "cannot be worth" in message(raises(RuleError, g.add, hand(2, [2, 3, N], total=["18", 4, None])))
    assert "every player" in message(raises(RuleError, g.add, hand(2, [2, 3, N], total=[18, 4])))
    assert g.state.hands == 3 and not g.state.over


def test_totals_kept_when_not_needed_and_a_correction_can_need_them():
    g = before_final()
    # Only Ann passes (Bob fails phase 9): Bob's total is not needed, but it is kept.
    g.add(hand(2, [2, 10, N], total=[18, None, None]))
    assert g.records[-1]["total"] == [18, None, None]
    # Correcting the hand so Bob completes phase 9 too makes the tie-break need his total.
    m = message(raises(RuleError, g.replace, 3, hand(2, [2, 3, N], total=[18, None, None])))
    assert "value of Bob's cards" in m
    g.replace(3, hand(2, [2, 3, N], total=[18, 20, None]))
    assert g.state.winners == [0]


def test_summary_and_describe():
    g = near_red()
    d = report.summary(g)
    assert d["game"] == "twist" and d["hands"] == 1 and d["over"] is False
    assert d["players"][0] == {"name": "Ann", "space": 4, "next": "Phase 10", "text": "1 set of 5 + 1 set of 3"}
    assert d["dealer"] == "Bob"
    g.add(hand(1, [10, N, 10]))
    d = report.summary(g)
    assert d["over"] and d["winners"] == ["Bob"] and d["dealer"] is None
    assert d["players"][1]["space"] == 5 and d["players"][1]["next"] == "Finished"
    assert "Game over: Bob won." in report.text(g)


def test_the_engine_s_twist_card_sizes_are_the_cards_table():
    # engine_mpy/twist.py keeps its own copy of the cards laid down per Twist card (a game
    # in play does not load the cards' texts): it must be twist_cards.py's.
    from engine_mpy import twist, twist_cards
    assert twist.TWIST_CARDS == twist_cards.TWIST_CARDS
