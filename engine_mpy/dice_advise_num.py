# Phase 10 Dice, the Hint for the number phases (all but 8): loaded by dice_advise.advise
# and dropped after (docs/dice-advisor.md). The table (dice_advise.bin, built on a PC from
# the exact advisor by tools/gen/advise_tables.py) holds, for each phase and rolls left, the
# holds the exact advisor picks in some state with their exact chance and expected score;
# every hold these dice contain is looked up, a group of the table at a time.
from engine_mpy.dice_eval import N_DICE

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_FULL = const(1023)
_GROUPS = const(254)  # a section's group starts: 127 u16
_CHUNK = const(48)   # entries read at a time
# _N[2 * (k * 7 + t)], little-endian u16: count vectors of length k with total at most t,
# C(t + k, k), to rank holds (bytes: a fraction of a tuple's heap)
_N = (
    b"\x01\x00\x01\x00\x01\x00\x01\x00\x01\x00\x01\x00\x01\x00\x01\x00\x02\x00"
    b"\x03\x00\x04\x00\x05\x00\x06\x00\x07\x00\x01\x00\x03\x00\x06\x00\x0a\x00"
    b"\x0f\x00\x15\x00\x1c\x00\x01\x00\x04\x00\x0a\x00\x14\x00\x23\x00\x38\x00"
    b"\x54\x00\x01\x00\x05\x00\x0f\x00\x23\x00\x46\x00\x7e\x00\xd2\x00\x01\x00"
    b"\x06\x00\x15\x00\x38\x00\x7e\x00\xfc\x00\xce\x01\x01\x00\x07\x00\x1c\x00"
    b"\x54\x00\xd2\x00\xce\x01\x9c\x03")


def _rank(c, lo, m, t):
    """Rank of the counts c[lo:lo+m] (total at most t) among such vectors in lexicographic
    order (tools/gen/advise_tables.py numbers them the same way)."""
    r = 0
    for i in range(m):
        v = c[lo + i]
        k = ((m - i) * 7 + t) * 2
        j = k - v * 2
        r += _N[k] | _N[k + 1] << 8
        r -= _N[j] | _N[j + 1] << 8
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


def run(phase, rolls, nums, cols, path):
    """(held dice as a mask, chance in half points, expected score) of the criterion's hold."""
    c = bytearray(11)
    for v in nums:
        c[v] += 1
    h = bytearray(11)
    # sz: for the rank of each sub-multiset of the high dice shown, its dice + 1 (4 bits;
    # 0: not one of them)
    sz = bytearray(462)
    while True:
        r = _rank(h, 5, 6, 6)
        sz[r >> 1] |= (h[5] + h[6] + h[7] + h[8] + h[9] + h[10] + 1) << ((r & 1) << 2)
        if not _step(h, c, 5, 11):
            break
    b = bytearray(4)
    buf = bytearray(_CHUNK * 3)
    f = open(path, "rb")
    try:
        f.seek(4 + ((phase - 1) * 2 + rolls - 1) * 4)
        f.readinto(b)
        off = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
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
            left = (b[2] | b[3] << 8) - s
            f.seek(off + _GROUPS + s * 3)
            while left > 0:
                n = left if left < _CHUNK else _CHUNK
                left -= n
                f.readinto(buf)   # may read past the group: only n entries are used
                for i in range(0, n * 3, 3):
                    hr = buf[i] | (buf[i + 1] & 3) << 8
                    k = sz[hr >> 1] >> ((hr & 1) << 2) & 15
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
