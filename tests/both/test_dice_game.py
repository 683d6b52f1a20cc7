# Phase 10 Dice game rules (RULINGS.md "Dice"): phases in order, the five-phase bonus, the
# end of normal play and the last tries, the first-finish bonus, solitaire, winners, the
# score sheet (part 2 in test_dice_game2.py). Every score below is worked out by hand.
from check import raises, message
from engine_mpy.game import RuleError
from engine_mpy.dice import DiceGame
from dice_rolls import MAKE, FAIL, rec, play, game, row


def test_settings():
    assert game(["Ann"]).settings == {"players": ["Ann"], "order": [0]}
    assert game(["A", "B", "C"], [2, 0, 1]).state.player() == 2
    raises(RuleError, game, [])
    raises(RuleError, game, ["P%d" % i for i in range(9)])
    assert "turn order" in message(raises(RuleError, game, ["A", "B"], [0, 0]))
    raises(RuleError, game, ["A", "B"], [0, 2])
    raises(RuleError, game, ["A", "B"], [0])


def test_perfect_solitaire_game_is_649():
    # The book's highest possible score: every phase at its best, both bonuses.
    g = game(["Ann"])
    for ph in range(1, 11):
        assert g.state.phase[0] == ph
        play(g, True)
    st = g.state
    assert st.over and st.phase[0] == 11
    assert g.total(0) == 649
    assert row(g, "FIVE PHASE TOTAL") == [60 + 57 + 59 + 49 + 52 + 40]
    assert row(g, "Five Phase Bonus +40") == [40]
    assert row(g, "First Finish Bonus +40") == [40]
    assert row(g, "GRAND TOTAL") == [649]
    assert [lab for lab, c in g.sheet()][1:] == [
        "2 sets of 3",
        "1 set of 3 & 1 run of 4",
        "1 set of 4 & 1 run of 4",
        "1 run of 7",
        "1 run of 8",
        "Five Phase Bonus +40",
        "FIVE PHASE TOTAL",
        "1 run of 9",
        "2 sets of 4",
        "7 of all one colour",
        "1 set of 5 & 1 set of 2",
        "1 set of 5 & 1 set of 3",
        "First Finish Bonus +40",
        "Failed turns -5",
        "GRAND TOTAL",
    ]
    assert g.winners() == [0]
    assert "over" in message(raises(RuleError, g.add, rec(0, FAIL)))


def five_phases(phase4, phase5):
    g = game(["Ann", "Bob"])
    for ph in (1, 2, 3):
        play(g, True)
        play(g, False)
    g.add(rec(0, phase4))
    play(g, False)
    g.add(rec(0, phase5))
    return g


def test_five_phase_bonus_needs_over_220():
    # 60 + 57 + 59 + 18 + 26 = 220: no bonus. Run of 7 from 5,6,7 + four Wilds: 18;
    # run of 8 from 5,6,7,8 + four Wilds: 26.
    g = five_phases([0, 0, 0, 0, 5, 6, 7, 5, 5, 5], [0, 0, 0, 0, 5, 6, 7, 8, 5, 5])
    assert g.state.scores[0][3:5] == [18, 26]
    assert g.five_bonus(0) == 0
    assert row(g, "FIVE PHASE TOTAL")[0] == 220
    assert row(g, "Five Phase Bonus +40")[0] is None
    assert g.total(0) == 220


def test_five_phase_bonus_at_221():
    # Run of 8 from 5,6,7,9 + four Wilds: 27, so 221: +40.
    g = five_phases([0, 0, 0, 0, 5, 6, 7, 5, 5, 5], [0, 0, 0, 0, 5, 6, 7, 9, 5, 5])
    assert g.five_bonus(0) == 40
    assert row(g, "FIVE PHASE TOTAL")[0] == 261
    assert g.total(0) == 261
    # Bob has made nothing: blank cells, total 0.
    assert row(g, "FIVE PHASE TOTAL")[1] is None and g.total(1) == 0


def test_failed_turn_scores_nothing_and_phase_is_tried_again():
    g = game(["Ann", "Bob"])
    play(g, False)
    assert g.state.phase[0] == 1 and g.state.scores[0][0] == -1 and g.state.fails[0] == 1
    play(g, True)
    play(g, True)
    assert g.state.phase == [2, 2]
    assert g.total(0) == 60 and g.total(1) == 60


def test_wrong_player_is_refused():
    g = game(["Ann", "Bob"], [1, 0])
    e = raises(RuleError, g.add, rec(0, FAIL))
    assert "Bob's turn" in message(e)
    assert g.records == []
    raises(RuleError, g.add, rec(5, FAIL))


def test_last_tries_and_first_finish_bonus():
    # Ann, Bob, Cy, Dee in that turn order. Rounds 1-9: Ann, Bob and Cy make every phase;
    # Dee fails once, so she is on phase 9. Round 10: Ann fails phase 10, Bob makes it.
    g = game(["Ann", "Bob", "Cy", "Dee"])
    for r in range(9):
        for p in range(4):
            play(g, p != 3 or r != 0)
    assert g.state.phase == [10, 10, 10, 9]
    play(g, False)  # Ann
    assert play(g, True) == 1  # Bob finishes: normal play ends
    assert g.state.first == 1 and g.state.ff_bonus[1] and g.state.last_tries()
    # Last tries, in turn order after Bob: Cy (on 10, after Bob) earns the bonus too.
    assert play(g, True) == 2 and g.state.ff_bonus[2]
    # Dee was on phase 9: she makes 9 and goes on to make 10, but no bonus.
    assert play(g, True) == 3 and g.state.player() == 3
    assert play(g, True) == 3 and g.state.phase[3] == 11 and not g.state.ff_bonus[3]
    # Ann was on 10 but plays before Bob: no bonus.
    assert play(g, True) == 0 and not g.state.ff_bonus[0]
    assert g.state.over and g.state.player() == -1
    assert [g.total(p) for p in range(4)] == [609, 649, 649, 609]
    assert g.winners() == [1, 2]  # co-winners
    assert row(g, "First Finish Bonus +40") == [None, 40, 40, None]
    # Turns applied one by one give what a replay of the saved turns gives.
    h = DiceGame(g.settings, g.records)
    assert h.state.over and h.state.ff_bonus == [False, True, True, False]
    assert [h.total(p) for p in range(4)] == [609, 649, 649, 609]
    assert "over" in message(raises(RuleError, g.add, rec(0, FAIL)))


def test_last_tries_stop_at_the_first_failure():
    # Three players; Cy fails every turn, Ann fails in round 10; Bob finishes in round 10.
    g = game(["Ann", "Bob", "Cy"])
    for r in range(9):
        play(g, True)
        play(g, True)
        play(g, r != 0 and r != 1)  # Cy fails twice: on phase 8 at the end
    play(g, False)
    play(g, True)  # Bob finishes
    assert g.state.phase == [10, 11, 8]
    assert play(g, True) == 2 and g.state.phase[2] == 9  # Cy makes 8, goes on
    assert play(g, False) == 2  # fails 9: done, total final
    assert g.state.player() == 0 and not g.state.over
    assert play(g, False) == 0
    st = g.state
    assert st.over
    assert g.total(2) == 649 - 40 - 60 - 62  # phases 1-8 and the five-phase bonus
    assert g.winners() == [1]
    # In a many-player game failures cost nothing.
    assert st.fails[0] == 2 and g.total(0) == 649 - 40 - 62


def test_a_player_later_in_turn_order_on_phase_10_who_fails_gets_nothing():
    g = game(["Ann", "Bob"])
    for r in range(9):
        play(g, True)
        play(g, True)
    play(g, True)  # Ann finishes
    play(g, False)  # Bob was on 10 and after Ann, but fails
    assert g.state.over and not g.state.ff_bonus[1]
    assert g.winners() == [0]
