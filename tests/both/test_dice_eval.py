# Phase 10 Dice: the dice table, reading dice, the evaluator, real-dice matching, the turn
# and the turn-order roll. Expected figures are worked out by hand from RULINGS.md "Dice".
from check import raises, message
from engine_mpy.game import RuleError
from engine_mpy.dice_eval import DICE_TABLE, FACE_NUM, FACE_COL, best, parse_die, die_text
from engine_mpy.dice import Turn, match_dice
from engine_mpy.dice_order import OrderRoll


def nums_cols(texts):
    nums = bytearray(10)
    cols = bytearray(10)
    for i in range(10):
        nums[i], cols[i] = parse_die(texts[i])
    return nums, cols


def score(phase, texts):
    nums, cols = nums_cols(texts.split())
    return best(phase, nums, cols)


def plain(phase, nums):
    # Number phases ignore colour: every die red.
    return best(phase, bytes(nums), bytes(10))


def positions(mask):
    return [i for i in range(10) if mask >> i & 1]


# --- the table ----------------------------------------------------------------------------
def test_four_low_dice_show_1_to_4_and_two_wilds():
    for d in range(4):
        assert sorted([FACE_NUM[d * 6 + f] for f in range(6)]) == [0, 0, 1, 2, 3, 4], DICE_TABLE[d][0]


def test_six_high_dice_show_5_to_10():
    for d in range(4, 10):
        assert sorted([FACE_NUM[d * 6 + f] for f in range(6)]) == [5, 6, 7, 8, 9, 10], DICE_TABLE[d][0]


def test_colours_read_as_the_rulings_table():
    # RULINGS.md: L1 is blue, green, orange, green, red, orange; H6 blue, orange, green, red,
    # green, orange (r=0 o=1 b=2 g=3).
    assert [FACE_COL[f] for f in range(6)] == [2, 3, 1, 3, 0, 1]
    assert [FACE_COL[9 * 6 + f] for f in range(6)] == [2, 1, 3, 0, 3, 1]
    # L3 shows both its 2 and its 3 in red; H5 both its 5 and its 6 in blue.
    assert FACE_COL[2 * 6 + 1] == FACE_COL[2 * 6 + 2] == 0
    assert FACE_COL[8 * 6 + 0] == FACE_COL[8 * 6 + 1] == 2


def test_reading_dice():
    assert parse_die("10o") == (10, 1)
    assert parse_die("Wg") == (0, 3)
    assert parse_die("wR") == (0, 0)
    assert parse_die("1b") == (1, 2)
    assert die_text(10, 1) == "10o" and die_text(0, 3) == "Wg"
    for bad in ("", "W", "10", "11r", "0b", "5x", "1.5r", "-1r", "100r"):
        e = raises(RuleError, parse_die, bad)
        assert "is not a die" in message(e), bad


# --- the evaluator ------------------------------------------------------------------------
def test_book_example_phase_1():
    # The book: 8, 8, 8 and 10, W, W score 8+8+8+10 = 34.
    s, m = score(1, "8g 8o 8b 10b 5b 6o Wr Wb 1o 3b")
    assert s == 34
    assert positions(m) == [0, 1, 2, 3, 6, 7]


def test_book_example_seven_orange():
    # The book: 2, 4, W, 5, 8, 9, 10 all orange make 7 of one colour: 38 (the Wild scores 0).
    s, m = score(8, "Wo 4o 3r 2o 9o 8o 5o 5r 7r 10o")
    assert s == 38
    assert positions(m) == [0, 1, 3, 4, 5, 6, 9]


def test_wild_of_another_colour_does_not_count_for_colour():
    # Six orange dice and a red Wild: only six of one colour.
    assert score(8, "Wr 4o 3r 2o 9o 8o 5o 5r 7r 10o")[0] == -1


def test_colour_phase_keeps_the_seven_highest():
    # All ten orange: 10+10+9+8+8+7+4 = 56; the 3, 1 and 2 are not needed.
    s, m = score(8, "3o 4o 1o 2o 9o 8o 10o 7o 8o 10o")
    assert s == 56
    assert positions(m) == [1, 4, 5, 6, 7, 8, 9]


def test_run_example_with_wilds_in_a_gap():
    # Phase 2: set 5,5,5 (15) + run 6,W,W,9 (15) = 30; the run W,W,9,10 is impossible (no 10),
    # 5,6,W,W with the fourth 5 only makes 26.
    s, m = plain(2, [0, 0, 1, 1, 6, 9, 5, 5, 5, 5])
    assert s == 30
    assert positions(m) == [0, 1, 4, 5, 6, 7, 8]


def test_four_wilds_and_a_high_straight():
    # W W W W 5 6 7 8 9 10, worked by hand for every number phase.
    d = [0, 0, 0, 0, 5, 6, 7, 8, 9, 10]
    assert plain(1, d)[0] == 19  # 10,W,W + 9,W,W
    assert plain(2, d)[0] == 40  # 10,W,W + 6,7,8,9
    assert plain(3, d)[0] == 40  # 10,W,W,W + 6,7,8,9
    assert plain(4, d)[0] == 45  # W,5..10
    assert plain(5, d)[0] == 45  # W,W,5..10
    assert plain(6, d)[0] == 45  # W,W,W,5..10
    assert plain(7, d)[0] == -1  # two sets of 4 need two pairs or more Wilds
    assert plain(9, d)[0] == -1
    assert plain(10, d)[0] == -1


def test_wilds_join_the_highest_single_die():
    # Phase 1 with 5,5,5, W,W,W and 1,6,7,8: 5,5,5 + 8,W,W = 23, not + W,W,W (15) or 1,W,W (16).
    s, m = plain(1, [0, 0, 0, 1, 5, 5, 5, 6, 7, 8])
    assert s == 23
    assert positions(m) == [0, 1, 4, 5, 6, 9]
    # Six 5s: two sets of 5s (30). 5,5,5 and 6,6: 5,5,5 + 6,6,W (27).
    assert plain(1, [0, 0, 0, 1, 5, 5, 5, 5, 5, 5])[0] == 30
    assert plain(1, [0, 0, 0, 1, 5, 5, 5, 6, 6, 7])[0] == 15 + 6 + 6


def test_two_sets_of_one_number():
    # Phase 7: ten 10s-and-Wilds: 10,10,10,10 + 10,10,W,W = 60 (the books allow one number twice).
    assert plain(7, [0, 0, 1, 1, 10, 10, 10, 10, 10, 10]) == (60, 0b1111110011)
    # Phase 10: 10 x5 + 4,4,4 = 62.
    assert plain(10, [4, 4, 4, 1, 10, 10, 10, 10, 10, 10]) == (62, 0b0111110111)


def test_runs_stay_within_1_to_10():
    # Run of 9 from 2..10: 54; with the 1 the best is still 2..10 (1..9 makes 45).
    assert plain(6, [2, 3, 4, 1, 5, 6, 7, 8, 9, 10])[0] == 54
    # Six distinct naturals 5..10 and no Wild: no run of 7.
    assert plain(4, [1, 1, 1, 1, 5, 6, 7, 8, 9, 10])[0] == -1
    assert plain(4, [1, 1, 1, 4, 5, 6, 7, 8, 9, 10])[0] == 49


def test_no_phase_from_pairs():
    # 1 1 2 2 5 5 6 6 7 7 in four colours, no seven of one: nothing is made.
    nums, cols = nums_cols("1b 1r 2r 2o 5r 5g 6b 6g 7r 7g".split())
    for ph in range(1, 11):
        assert best(ph, nums, cols) == (-1, 0), ph


def test_ties_mark_the_first_dice():
    # Six 10s, sets of 3: positions 4-9 (the low dice are not needed).
    assert plain(1, [1, 2, 3, 4, 10, 10, 10, 10, 10, 10]) == (60, 0b1111110000)
    # Seven 10s are impossible on real dice, but the evaluator takes any ten: the first six.
    assert plain(1, [10, 10, 10, 10, 10, 10, 10, 1, 2, 3]) == (60, 0b0000111111)


# --- real dice ----------------------------------------------------------------------------
def test_matching_puts_each_result_on_a_die():
    texts = "10o 7o 8o 10o 9o 8o 1o 2o 3o 4o".split()
    faces, where = match_dice([parse_die(t) for t in texts])
    for k in range(10):
        d = where[k]
        assert (FACE_NUM[d * 6 + faces[d]], FACE_COL[d * 6 + faces[d]]) == parse_die(texts[k])
    assert sorted(where) == list(range(10))
    # 1o is on L3 only, 3o on L1 only (RULINGS table).
    assert where[6] == 2 and where[8] == 0


def test_matching_refuses_what_the_set_cannot_show():
    e = raises(RuleError, match_dice, [parse_die(t) for t in "10r 10r 1b 2b 3b 4b 5r 6o 7b 8g".split()])
    # said in what the screen shows (colours and numbers), not the dice's names
    assert "red 10 and red 10 together" in message(e) and "only one die has" in message(e)
    e = raises(RuleError, match_dice, [parse_die(t) for t in "10r 9r 1b 2b 3b 5r 6o 7b 8g 9g".split()])
    assert "4 low dice" in message(e) and "3 low and 7 high" in message(e)
    e = raises(RuleError, match_dice, [parse_die(t) for t in "1b 2b 3b 4b 5r 6o 7b 8g 9g".split()])
    assert "Ten dice" in message(e)
    # 8r is on H6 only and 10o, 6b, 7r on H3/H5/H6: four results for three dice.
    e = raises(RuleError, match_dice, [parse_die(t) for t in "8r 8g 8b 10o Wg Wr 1b 2b 6b 7r".split()])
    assert "red 8, orange 10, blue 6 and red 7" in message(e) and "only 3 dice have" in message(e)


# --- the turn -----------------------------------------------------------------------------
class Seq:
    """A stand-in random source: getrandbits returns the listed values in a cycle."""

    def __init__(self, vals):
        self.vals = vals
        self.i = 0

    def getrandbits(self, n):
        v = self.vals[self.i % len(self.vals)]
        self.i += 1
        return v


def test_turn_rolls_holds_and_stops():
    t = Turn()
    raises(RuleError, t.hold, 0)  # nothing to hold before the first roll
    raises(RuleError, t.record, 0)  # nor to commit
    rng = Seq([0, 1, 2, 3, 4, 5, 6, 7])  # 6 and 7 are not faces: drawn again
    t.roll(rng)
    assert list(t.faces) == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3]
    t.hold(0)
    t.hold(9)
    t.hold(5)
    t.hold(5, False)  # taken back
    t.roll(rng)
    assert list(t.faces) == [0, 4, 5, 0, 1, 2, 3, 4, 5, 3]
    assert t.can_roll()
    t.roll(rng)
    assert not t.can_roll()
    raises(RuleError, t.roll, rng)
    raises(RuleError, t.hold, 1)
    rec = t.record(2)
    assert rec["player"] == 2 and "how" not in rec and len(rec["faces"]) == 10  # rolled: the default
    # what the dice show follows the table
    for d in range(10):
        assert t.nums[d] == FACE_NUM[d * 6 + t.faces[d]]


def test_turn_from_real_dice():
    t = Turn()
    t.enter("10o 7o 8o 10o 9o 8o 1o 2o 3o 4o".split())
    assert t.best(8)[0] == 56
    assert t.record(0)["how"] == "entered"
    raises(RuleError, t.roll, Seq([0]))


def test_turn_order_roll_with_ties():
    o = OrderRoll(3)
    assert o.waiting == [0, 1, 2]
    o.enter([7, 9, 7])
    assert o.waiting == [0, 2] and not o.done()
    o.enter([8, 8])
    assert o.waiting == [0, 2]
    o.enter([5, 10])
    assert o.done() and o.order() == [1, 2, 0]
    raises(RuleError, OrderRoll(2).enter, [4, 6])


def test_turn_order_roll_from_a_random_source():
    o = OrderRoll(4)
    n = 0
    rng = Seq([0, 1, 2, 3, 4, 5, 2, 4, 1, 0, 3])
    while not o.done():
        o.roll(rng)
        n += 1
        assert n < 20
    assert sorted(o.order()) == [0, 1, 2, 3]
