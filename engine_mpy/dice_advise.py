# Phase 10 Dice: the Hint (docs/dice-advisor.md). Which dice to hold for the best chance of
# making the phase by the end of the turn, with that chance and the expected score.
# Loaded when Hint is pressed and dropped after; it loads the number phases' advisor
# (dice_advise_num.py) or phase 8's (dice_advise8.py) for the one answer and drops it, so
# the heap holds one of them at a time. Both read dice_advise.bin, beside this module.
from engine_mpy.dice_eval import N_DICE, show_faces

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_FULL = const(1023)


# The table's file name, beside this module (make deploy copies it there)
TABLE = "dice_advise.bin"


def advise(phase, rolls, faces):
    """The hold for the dice showing faces (face index 0-5 of each die), rolls left 1 or 2:
    (held dice as a mask, chance in half points 0-200, expected score, stop) where stop
    means holding all ten: stopping now is best."""
    import sys
    nums = bytearray(N_DICE)
    cols = bytearray(N_DICE)
    show_faces(faces, nums, cols)
    # The table lies beside this module (on the board /engine_mpy/, in a build folder, in
    # the repository); a module frozen into the firmware names a path relative to /.
    path = __file__[:__file__.rfind("/") + 1] + TABLE
    name = "dice_advise8" if phase == 8 else "dice_advise_num"
    mod = __import__("engine_mpy." + name, None, None, ("run",))
    try:
        m, p, e = mod.run(phase, rolls, nums, cols, path)
    finally:
        mod = None
        sys.modules.pop("engine_mpy." + name, None)
        try:
            delattr(sys.modules["engine_mpy"], name)
        except (AttributeError, TypeError, KeyError):
            pass
    return m, p, e, m == _FULL


# --- the turn screen's line ------------------------------------------------------------------
def hint(phase, rolls, faces, score):
    """(dice to mark as a mask, the line to show) for the dice showing faces with rolls
    left; score: what they make now (-1: not made)."""
    if rolls <= 0:
        return 0, ("No rolls: best %d" % score) if score >= 0 else "No rolls: not made"
    try:
        m, p, e, stop = advise(phase, rolls, faces)
    except OSError:
        # no table beside the code (a board: tools/build/deploy.py DATA_FILES says why it is
        # left off): said on the line, never a crash of the turn
        return 0, "No hint: no table"
    if stop:
        return 0, ("Stop now: best %d" % score) if score >= 0 else "Stop now: best"
    return m, "Hold ^ %d%% exp %d" % (p // 2, e)
