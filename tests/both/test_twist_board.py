# The Twist board layout (RULINGS.md, "Twist": the layout is data; a layout file replaces
# the default; every bad layout is refused with a message saying what is wrong).
from check import raises, message
from engine_mpy.game import RuleError
from engine_mpy import board_layout as board
from engine_mpy.board_layout import parse_layout, check_codes, default_layout


def bad(text):
    return message(raises(RuleError, parse_layout, text))


def test_default_layout_is_the_rulings_27_spaces():
    codes = default_layout()
    assert len(codes) == 27
    assert codes[0] == "1S" and codes[-1] == "10R"
    # Eight Twist spaces, one after each phase pair 1-1 (with 1S), 2-2, ... 8-8 (counted by hand).
    assert codes.count("T") == 8
    assert [i for i in range(27) if codes[i] == "T"] == [2, 5, 8, 11, 14, 17, 20, 23]
    assert check_codes(codes) == codes


def test_space_phases_table():
    ph = board.space_phases(parse_layout("1S 1 T 2 9 10R"))
    assert ph == bytes([1, 1, board.TWIST, 2, 9, 10])


def test_layout_file_text_with_comments_and_newlines():
    text = "# my board\n1s 1 t 2   # lower case is fine\n\n2 T 3\n3 10r\n"
    assert parse_layout(text) == ["1S", "1", "T", "2", "2", "T", "3", "3", "10R"]


def test_shortest_board_is_start_and_red():
    assert parse_layout("1S 10R") == ["1S", "10R"]


def test_empty_layout_refused():
    assert "empty" in bad("")
    assert "empty" in bad("# only a comment\n   \n")


def test_unknown_space_code_refused_naming_the_space():
    m = bad("1S 1 X 2 10R")
    assert "Space 3" in m and "'X'" in m and "not a space code" in m
    # A plain 10 is not a code: the Phase 10 space is the red one.
    assert "Space 2" in bad("1S 10 10R")
    assert "Space 2" in bad("1S 0 10R")


def test_start_must_be_a_phase_1_space():
    m = bad("2 T 3 10R")
    assert "Space 1" in m and "phase-1" in m
    assert "Space 1" in bad("T 1 10R")


def test_start_space_only_first():
    assert "Space 3" in bad("1S 1 1S 10R")


def test_no_red_space_refused():
    m = bad("1S 1 T 2 9")
    assert "red Phase 10" in m and "last space" in m


def test_red_space_not_last_refused():
    m = bad("1S 1 10R 2 3")
    assert "Space 3" in m and "last space" in m
    # Two red spaces: the first one is not last.
    assert "Space 2" in bad("1S 10R 10R")


def test_twist_space_without_numbered_neighbour_refused():
    m = bad("1S 1 T T 2 10R")
    assert "Space 3" in m and "numbered space on each side" in m


def test_twist_next_to_start_and_red_allowed():
    # The start and the red space are numbered (phase 1 and phase 10).
    assert parse_layout("1S T 10R") == ["1S", "T", "10R"]


def test_too_long_refused():
    longest = "1S " + "1 " * (board.MAX_SPACES - 2) + "10R"
    assert len(parse_layout(longest)) == board.MAX_SPACES
    m = bad("1S " + "1 " * (board.MAX_SPACES - 1) + "10R")
    assert "at most %d" % board.MAX_SPACES in m
    m = message(raises(RuleError, check_codes, ["1S"] + ["1"] * board.MAX_SPACES + ["10R"]))
    assert "has %d spaces" % (board.MAX_SPACES + 2) in m


def test_check_codes_refuses_non_strings():
    assert "Space 2" in message(raises(RuleError, check_codes, ["1S", 3, "10R"]))
    assert "list" in message(raises(RuleError, check_codes, "1S 10R"))


def test_load_layout_missing_file_gives_default():
    assert board.load_layout("/no/such/dir/twist_layout.txt") == default_layout()
