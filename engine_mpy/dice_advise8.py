# Phase 10 Dice, the Hint for phase 8 (seven of one colour): loaded by dice_advise.advise
# for that phase only and dropped after (docs/dice-advisor.md).
from engine_mpy.dice_eval import FACE_COL, FACE_NUM, N_DICE, best

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_FULL = const(1023)


# Chances in units of 1/4096 (small ints on a 32-bit board: products stay under 2**30).
_Q = const(4096)


def run(phase, rolls, nums, cols, path):
    """Hold every die of one colour: the colour with the best chance (then expected score,
    as the criterion). One roll left: that chance is worked out here, exactly. Two: it is
    read from the table (by colour and how many dice of each kind are held: a kind is
    dice with the same two colours on two faces; the last roll played for the best
    chance). The expected score is an estimate (its error is in docs/dice-advisor.md)."""
    cnt = bytearray(4)
    for d in range(N_DICE):
        cnt[cols[d]] += 1
    for c in range(4):
        if cnt[c] >= 7:
            return _made(rolls, nums, cols, c, cnt[c])
    dist = [0] * 11
    sm = [0] * 11
    ps = [0] * 4
    es = [0] * 4
    kinds = None
    if rolls == 2:
        f = open(path, "rb")
        try:
            b = bytearray(4)
            f.seek(4 + 15 * 4)
            f.readinto(b)
            off = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
            kinds = bytearray(14)   # the kind of each die, then each kind's dice + 1
            f.seek(off)
            f.readinto(kinds)
            n = kinds[10] * kinds[11] * kinds[12] * kinds[13]
            for c in range(4):
                held = bytearray(4)
                for d in range(N_DICE):
                    if cols[d] == c:
                        held[kinds[d]] += 1
                f.seek(off + 14 + c * n + ((held[0] * kinds[11] + held[1]) * kinds[12] + held[2]) * kinds[13] + held[3])
                f.readinto(b)
                ps[c] = b[0]
        finally:
            f.close()
    top = 0
    for c in range(4):
        held = 0
        for d in range(N_DICE):
            if cols[d] == c:
                held |= 1 << d
        p = 0
        if rolls == 1 and N_DICE - cnt[c] >= 7:
            for c2 in range(4):
                if c2 != c:
                    p += _reach(dist, sm, rolls, nums, held, c2, False)
        p += _reach(dist, sm, rolls, nums, held, c, True)
        # the seven highest of k: the sum less the k - 7 lowest, taken as the lowest held
        low = 10
        for d in range(N_DICE):
            if cols[d] == c and nums[d] < low:
                low = nums[d]
        e = 0
        for k in range(7, 11):
            e += sm[k] - dist[k] * (k - 7) * low
        if rolls == 1:
            ps[c] = (p * 200 + _Q // 2) // _Q
        es[c] = e
        if ps[c] > top:
            top = ps[c]
    b = -1
    for c in range(4):
        if ps[c] >= top - 1 and (b < 0 or (es[c], ps[c]) > (es[b], ps[b])):
            b = c
    held = 0
    for d in range(N_DICE):
        if cols[d] == b:
            held |= 1 << d
    return held, ps[b], (es[b] + _Q // 2) // _Q


def _reach(dist, sm, rolls, nums, held, c, own):
    """The chance (in _Q) that colour c ends with seven dice or more, the dice not in held
    re-rolled (rolls tries each); the held dice count when own. Leaves in sm[k] the
    expected sum of the numbers in colour c times the chance of ending with k of them."""
    for k in range(11):
        dist[k] = 0
        sm[k] = 0
    h = s = 0
    if own:
        for d in range(N_DICE):
            if held >> d & 1:
                h += 1
                s += nums[d]
    dist[h] = _Q
    sm[h] = s * _Q
    for d in range(N_DICE):
        if held >> d & 1:
            continue
        n = t = 0
        for f in range(d * 6, d * 6 + 6):
            if FACE_COL[f] == c:
                n += 1
                t += FACE_NUM[f]
        if rolls == 1:
            q = n * _Q // 6
        else:
            q = (36 - (6 - n) * (6 - n)) * _Q // 36
        mu = t * 64 // n      # the mean number of its faces in colour c, in 64ths
        q8 = q >> 4
        for k in range(10, 0, -1):
            sm[k] = (sm[k] * (256 - q8) + (sm[k - 1] + (dist[k - 1] * mu >> 6)) * q8) >> 8
            dist[k] = (dist[k] * (_Q - q) + dist[k - 1] * q) >> 12
        sm[0] = sm[0] * (256 - q8) >> 8
        dist[0] = dist[0] * (_Q - q) >> 12
    return dist[7] + dist[8] + dist[9] + dist[10]


def _made(rolls, nums, cols, c, n):
    """Seven or more in colour c: the chance is 100% while seven of them are held. The
    other dice are re-rolled (they can only add a die of colour c), and so may be dice of
    colour c that can come up higher in it, while seven stay; stop when no such re-roll
    raises the expected score. Each re-rolled die ends on its highest face in colour c
    over its tries (one roll left: exact)."""
    s = best(8, nums, cols)[0]
    # w[d * 12 + v + 1]: ways (of 6 or 36) die d ends on v in colour c; w[d * 12]: not in c
    w = bytearray(12 * N_DICE)
    up = 0     # dice of colour c showing the lower of their two numbers in c
    mine = 0
    for d in range(N_DICE):
        for f in range(6 ** rolls):
            v = 0
            for t in range(rolls):
                k = d * 6 + (f // 6 ** t) % 6
                if FACE_COL[k] == c and FACE_NUM[k] + 1 > v:
                    v = FACE_NUM[k] + 1
            w[d * 12 + v] += 1
        if cols[d] == c:
            mine |= 1 << d
            for f in range(d * 6, d * 6 + 6):
                if FACE_COL[f] == c and FACE_NUM[f] > nums[d]:
                    up |= 1 << d
    seven = bytearray(7)
    free = bytearray(3)
    ways = 6 ** (rolls * 3)   # the ways the (at most three) re-rolled dice can end
    bk = _FULL
    bt = s * ways
    sub = up
    while True:
        if n - _pop(sub) >= 7:
            keep = mine & ~sub
            # the seven highest held, and the dice re-rolled
            i = j = 0
            for v in range(10, -1, -1):
                for d in range(N_DICE):
                    if keep >> d & 1 and nums[d] == v and i < 7:
                        seven[i] = v
                        i += 1
            for d in range(N_DICE):
                if not keep >> d & 1:
                    free[j] = d
                    j += 1
            t = _walk(w, free, j, 0, seven, 6 ** (rolls * (3 - j)))
            # more expected, or as much with more dice held (stopping wins ties)
            if t > bt or (t == bt and bk != _FULL and _pop(keep) > _pop(bk)):
                bk = keep
                bt = t
        if not sub:
            break
        sub = (sub - 1) & up
    return bk, 200, (bt + ways // 2) // ways


def _pop(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def _walk(w, free, n, i, seven, ways):
    """Sum over the ends of the re-rolled dice free[i:n] of ways times the seven highest."""
    if i == n:
        return ways * sum(seven)
    o = free[i] * 12
    t = 0
    j = 0
    for k in range(7):
        if seven[k] < seven[j]:
            j = k
    lo = seven[j]
    for v in range(12):
        if w[o + v]:
            if v - 1 > lo:
                seven[j] = v - 1
                t += _walk(w, free, n, i + 1, seven, ways * w[o + v])
                seven[j] = lo
            else:
                t += _walk(w, free, n, i + 1, seven, ways * w[o + v])
    return t
