# Phase 10 Dice: the Hint (docs/dice-advisor.md). Which dice to hold for the best chance of
# making the phase by the end of the turn, with that chance and the expected score.
# Loaded when Hint is pressed and dropped after. Number phases read the figures of every
# hold their dice contain from dice_advise.bin (built on a PC from the exact advisor by
# tools/advise_tables.py), a few hundred bytes at a time; phase 8 is worked out in
# dice_advise8.py (with one table of that file).
from engine_mpy.dice_eval import N_DICE, show_faces

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_FULL = const(1023)
_HEAD = const(84)    # the table's header: magic and section offsets, then the longest group
_GROUPS = const(254)  # a section's group starts: 127 u16
# _N[k * 7 + t]: count vectors of length k with total at most t, C(t + k, k), to rank holds
_N = (1, 1, 1, 1, 1, 1, 1,
      1, 2, 3, 4, 5, 6, 7,
      1, 3, 6, 10, 15, 21, 28,
      1, 4, 10, 20, 35, 56, 84,
      1, 5, 15, 35, 70, 126, 210,
      1, 6, 21, 56, 126, 252, 462,
      1, 7, 28, 84, 210, 462, 924)


def _path():
    # The table lies beside this module (on the board /engine_mpy/, in a build folder, in
    # the repository); a module frozen into the firmware names a path relative to /.
    f = __file__
    return f[:f.rfind("/") + 1] + "dice_advise.bin"


def _drop(name):
    import sys
    if sys.modules.pop(name, None) is not None:
        import engine_mpy
        try:
            delattr(engine_mpy, name[11:])
        except (AttributeError, TypeError, KeyError):
            pass


def _rank(c, lo, m, t):
    """Rank of the counts c[lo:lo+m] (total at most t) among such vectors in lexicographic
    order (tools/advise_tables.py numbers them the same way)."""
    r = 0
    for i in range(m):
        v = c[lo + i]
        k = (m - i) * 7
        r += _N[k + t] - (_N[k + t - v] if v <= t else 0)
        t -= v
    return r


def _step(h, c, lo, hi):
    """The next sub-multiset h[lo:hi] of c[lo:hi] (an odometer); False after the last."""
    for i in range(lo, hi):
        if h[i] < c[i]:
            h[i] += 1
            return True
        h[i] = 0
    return False


def advise(phase, rolls, faces):
    """The hold for the dice showing faces (face index 0-5 of each die), rolls left 1 or 2:
    (held dice as a mask, chance in half points 0-200, expected score, stop) where stop
    means holding all ten: stopping now is best."""
    nums = bytearray(N_DICE)
    cols = bytearray(N_DICE)
    show_faces(faces, nums, cols)
    if phase == 8:
        # its own module: each path loads only its code (the heap)
        from engine_mpy import dice_advise8
        try:
            m, p, e = dice_advise8.colour(rolls, nums, cols, _path())
        finally:
            dice_advise8 = None
            _drop("engine_mpy.dice_advise8")
    else:
        m, p, e = _numbers(phase, rolls, nums)
    return m, p, e, m == _FULL


# --- number phases: the table ------------------------------------------------------------------
def _numbers(phase, rolls, nums):
    c = bytearray(11)
    for v in nums:
        c[v] += 1
    h = bytearray(11)
    # size[rank of a sub-multiset of the high dice] = its dice + 1 (0: not one of them)
    size = bytearray(924)
    while True:
        size[_rank(h, 5, 6, 6)] = h[5] + h[6] + h[7] + h[8] + h[9] + h[10] + 1
        if not _step(h, c, 5, 11):
            break
    b = bytearray(4)
    f = open(_path(), "rb")
    try:
        f.seek(4 + ((phase - 1) * 2 + rolls - 1) * 4)
        f.readinto(b)
        off = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
        f.seek(_HEAD)
        f.readinto(b)
        buf = bytearray((b[0] | b[1] << 8) * 3)
        mv = memoryview(buf)
        # The criterion in one pass: the best (expected, chance, dice held) among the holds
        # at the top chance (a) and half a point below it (b), packed in one int. The
        # table holds the state itself (hold all: stop) exactly when stopping is best.
        full = _rank(c, 0, 5, 4) << 10 | _rank(c, 5, 6, 6)
        stop = -1
        top = -1
        a = b_ = -1
        ai = bi = 0
        while True:
            lr = _rank(h, 0, 5, 4)
            ln = h[0] + h[1] + h[2] + h[3] + h[4]
            f.seek(off + lr * 2)
            f.readinto(b)
            s = b[0] | b[1] << 8
            n = ((b[2] | b[3] << 8) - s) * 3
            if n:
                f.seek(off + _GROUPS + s * 3)
                f.readinto(mv[:n])
                for i in range(0, n, 3):
                    hr = buf[i] | (buf[i + 1] & 3) << 8
                    k = size[hr]
                    if k:
                        p = buf[i + 1] >> 2 | (buf[i + 2] & 3) << 6
                        if lr << 10 | hr == full:
                            stop = (buf[i + 2] >> 2) << 13 | p << 4
                        if p < top - 1:
                            continue
                        if p > top:
                            if p == top + 1:
                                b_ = a
                                bi = ai
                            else:
                                b_ = -1
                            top = p
                            a = -1
                        sc = (buf[i + 2] >> 2) << 13 | p << 4 | (ln + k - 1)
                        if p == top:
                            if sc > a:
                                a = sc
                                ai = lr << 10 | hr
                        elif sc > b_:
                            b_ = sc
                            bi = lr << 10 | hr
            if not _step(h, c, 0, 5):
                break
    finally:
        f.close()
    if stop >= 0:
        return _FULL, stop >> 4 & 255, stop >> 13
    if b_ > a:
        a = b_
        ai = bi
    # Back from the ranks to the dice: find the two sub-multisets, then hold dice showing them.
    lr = ai >> 10
    while _rank(h, 0, 5, 4) != lr:
        _step(h, c, 0, 5)
    while _rank(h, 5, 6, 6) != ai & 1023:
        _step(h, c, 5, 11)
    m = 0
    for d in range(N_DICE):
        if h[nums[d]]:
            h[nums[d]] -= 1
            m |= 1 << d
    return m, a >> 4 & 255, a >> 13


# --- the turn screen's line ------------------------------------------------------------------
def hint(phase, rolls, faces, score):
    """(dice to mark as a mask, the line to show) for the dice showing faces with rolls
    left; score: what they make now (-1: not made)."""
    if rolls <= 0:
        return 0, ("No rolls: best %d" % score) if score >= 0 else "No rolls: not made"
    m, p, e, stop = advise(phase, rolls, faces)
    if stop:
        return 0, ("Stop now: best %d" % score) if score >= 0 else "Stop now: best"
    return m, "Hold ^ %d%% exp %d" % (p // 2, e)
