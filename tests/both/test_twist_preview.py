# Twist for the screens: a hand previewed before it is committed (the review page shows
# the moves the engine derives, and asks for card totals only when the tie-break needs
# them), and every hand's moves for the score sheet. Spaces are 0-based indexes.
from check import raises, message
from engine_mpy.game import RuleError
from engine_mpy.twist import Twist

N = None

# 1S 1 T 2 ... : a short board whose red space is index 9.
SHORT = "1S 1 T 2 3 4 5 6 9 10R"


def game(layout=SHORT):
    return Twist({"players": ["Ann", "Bob", "Cy"], "dealer": 0, "layout": layout})


def test_preview_moves_without_committing():
    g = game()
    st = g.preview({"out": 1, "left": [3, N, 10]})
    # Ann completed phase 1 (3 cards left <= 10 - 6): 2; Bob went out: 3; Cy failed: 1.
    assert st.moves == [2, 3, 1] and st.pos == [2, 3, 1] and st.need is None
    assert g.state.pos == [0, 0, 0] and g.records == [] and g.state.hands == 0
    g.add({"out": 1, "left": [3, N, 10]})
    assert g.state.pos == [2, 3, 1]


def test_preview_refuses_like_add_and_changes_nothing():
    g = game()
    m = message(raises(RuleError, g.preview, {"out": 1, "left": [5, N, 10]}))
    assert "Ann" in m
    assert g.state.pos == [0, 0, 0]


def test_preview_says_whose_totals_the_tie_break_needs():
    # 1S(0) 1(1..6) 9(7) 10R(8): the red space is index 8.
    g = game("1S 1 1 1 1 1 1 9 10R")
    g.add({"out": 0, "left": [N, 3, 10]})  # Ann out 3, Bob done 2, Cy failed 1: [3, 2, 1]
    g.add({"out": 1, "left": [3, N, 10]})  # [5, 5, 2]
    g.add({"out": 0, "left": [N, 3, 10]})  # Ann 5 + 3 = 8 (red), Bob 5 + 2 = 7, Cy 3
    assert g.state.pos == [8, 7, 3]
    # Cy goes out; Ann completes Phase 10 on the red space, Bob phase 9 on the space before
    # it: both move past it and neither went out, so the card totals decide.
    st = g.preview({"out": 2, "left": [2, 3, N]})
    assert st.need == [0, 1] and st.winners == [] and g.state.pos == [8, 7, 3]
    # Face values: Ann 9 + 9 = 18, Bob 1 + 1 + 2 = 4: Bob wins.
    st = g.preview({"out": 2, "left": [2, 3, N], "total": [18, 4, N]})
    assert st.need is None and st.winners == [1] and st.over and st.pos == [9, 9, 6]
    assert not g.state.over
    # Without them add() still refuses, naming the rule.
    assert "value of Ann's cards" in message(raises(RuleError, g.add, {"out": 2, "left": [2, 3, N]}))


def test_moves_by_hand_for_the_score_sheet():
    g = game("1S 1 T 2 2 3 4 5 6 7 8 9 10R")
    g.add({"out": 0, "left": [N, 2, 10]})
    # Ann on index 3, Bob on the Twist space (index 2), Cy on index 1.
    # Bob takes Twist card 8 (5 cards) and fails (10 left): back 1; Cy goes out: 3.
    g.add({"out": 2, "left": [3, 10, N], "pick": [N, 8, N]})
    m = g.moves_by_hand()
    assert list(m) == [4, 3, 2, 3, 0, 4]
    assert g.state.pos == [5, 1, 4]


def test_preview_as_a_correction_starts_from_that_hand():
    g = game()
    g.add({"out": 1, "left": [3, N, 10]})   # [2, 3, 1]: Ann on the Twist space (index 2)
    g.add({"out": 0, "left": [N, 10, 10], "pick": ["after", N, N]})   # Ann 5, Bob 4, Cy 2
    assert g.state.pos == [5, 4, 2]
    assert g.state_before(1).pos == [2, 3, 1] and g.state_before(0).pos == [0, 0, 0]
    # Hand 1 corrected so Cy went out: Ann 2, Bob 2 (3 cards left), Cy 3.
    st = g.preview({"out": 2, "left": [3, 3, N]}, 0)
    assert st.pos == [2, 2, 3] and st.moves == [2, 2, 3]
    assert g.state.pos == [5, 4, 2] and len(g.records) == 2
