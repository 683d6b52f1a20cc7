# The board's dice advisor (engine_mpy/dice_advise.py) on both runtimes; under MicroPython
# taking at most 8 KB of the heap (the budget; make bench: advise_heap_kb) from
# loading its code to the answer. Answers worked out from the rules; the exact advisor
# checks thousands more (tests/test_dice_advise_exact.py).
import gc
import sys

from engine_mpy.dice_eval import FACE_COL, FACE_NUM, N_DICE

FULL = (1 << N_DICE) - 1
BUDGET = 8 * 1024


def faces_for(nums_cols):
    """Face indices of dice showing (number, colour) in die order."""
    out = bytearray(N_DICE)
    for d in range(N_DICE):
        for f in range(6):
            if (FACE_NUM[d * 6 + f], FACE_COL[d * 6 + f]) == nums_cols[d]:
                out[d] = f
    return out


def ask(phase, rolls, faces):
    from engine_mpy import dice_advise
    r = dice_advise.advise(phase, rolls, faces)
    # dropped after, as the turn screen does
    del sys.modules["engine_mpy.dice_advise"]
    delattr(sys.modules["engine_mpy"], "dice_advise")
    return r


def _one(c):
    """Faces putting every die on a face of colour c."""
    out = bytearray(N_DICE)
    for k in range(N_DICE):
        for f in range(6):
            if FACE_COL[k * 6 + f] == c:
                out[k] = f
    return out


MIXED = bytearray((0, 1, 2, 3, 4, 5, 0, 1, 2, 3))
STATES = (
    # Phase 1, 1 1 1 1 and six 5s (every die on its first face): made with 5 5 5 + 5 5 5 =
    # 30 and one roll left: no low die can beat a 5 and the 5s are all used: stop.
    (1, 1, bytearray(N_DICE)),
    # Phase 4 (run of 7) with 1 2 3 4 and 5-10: made with 4-10 (49); one roll left: the run
    # 4-10 is the highest there is: stop.
    (4, 1, faces_for([(1, 2), (2, 2), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 2), (9, 0), (10, 1)])),
    # Phase 8, every die orange: made; the hold keeps seven orange dice at least.
    (8, 2, _one(1)),
    # Phase 8, two rolls left, dice of all colours: not made, a chance below 100%.
    (8, 2, MIXED),
    # Phase 2 (set of 3 + run of 4), the same dice, two rolls left: a hold short of all ten.
    (2, 2, MIXED),
)


def answers():
    return [ask(phase, rolls, faces) for phase, rolls, faces in STATES]


def check(out):
    assert out[0] == (FULL, 200, 30, True), out[0]
    assert out[1] == (FULL, 200, 49, True), out[1]
    m, p, e, stop = out[2]
    assert p == 200 and bin(m).count("1") >= 7 and e >= 7 * 5, out[2]
    m, p, e, stop = out[3]
    assert 0 < p < 200 and not stop, out[3]
    m, p, e, stop = out[4]
    assert 0 < p <= 200 and not stop and m != FULL, out[4]


def test_advisor_answers():
    check(answers())


def test_advisor_takes_at_most_8k_of_heap():
    # Each answer from the import of the advisor's code to its answer, the collector held
    # off: nothing allocated is freed meanwhile, so the growth bounds the heap it takes at
    # any moment (the first answer interns its names too).
    if not hasattr(gc, "mem_alloc"):
        return   # CPython: no such heap
    out = []
    for phase, rolls, faces in STATES:
        gc.collect()
        gc.disable()
        try:
            a = gc.mem_alloc()
            out.append(ask(phase, rolls, faces))
            used = gc.mem_alloc() - a
        finally:
            gc.enable()
        assert used <= BUDGET, (phase, rolls, used)
    check(out)


def test_a_board_without_the_table_says_so_on_the_hint_line_and_goes_on():
    # A board has no room for the 130 KB table (tools/build/deploy.py DATA_FILES): the Hint then
    # says so on its line; it does not stop the turn (it raised OSError out of the key,
    # which ended the app's loop on a board)
    from engine_mpy import dice_advise
    faces = faces_for([(1, 0)] * N_DICE)
    real = dice_advise.TABLE
    try:
        dice_advise.TABLE = "no_such_table.bin"
        assert dice_advise.hint(1, 2, faces, -1) == (0, "No hint: no table")
        dice_advise.TABLE = real
        m, line = dice_advise.hint(1, 2, faces, -1)
        assert line != "No hint: no table" and line.startswith(("Hold", "Stop"))
    finally:
        dice_advise.TABLE = real
        del sys.modules["engine_mpy.dice_advise"]
        delattr(sys.modules["engine_mpy"], "dice_advise")
