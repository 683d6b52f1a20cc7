"""Build engine_mpy/dice_advise.bin, the board's table of hold figures for the dice
advisor (docs/dice-advisor.md), from the host's exact advisor (host_sim/dice_exact.py).

  python tools/gen/advise_tables.py            write engine_mpy/dice_advise.bin (about 6 minutes)
  python tools/gen/advise_tables.py --check    rebuild in memory and compare with the file

For each number phase (all but 8) and 1 or 2 rolls left, the holds kept are those the
exact advisor picks in some state (of the 32,340 the ten dice can show, up to which die
shows which number in each row), and in each state the hold of the highest chance: the
board weighs every hold in its table that its dice contain, so it finds the exact pick.
Each hold is stored with its chance (half points, 200 only when certain) and expected score
(whole points).

Layout (little-endian): b"P10A", then for phase 1-10 and rolls 1-2 the offset (u32) of
its section (0 for phase 8), then the length in entries of the longest group (u16).
A section: 127 u16 group starts (the holds grouped by their low dice: the counts of
Wild, 1, 2, 3, 4 held, ranked 0-125; the 127th is the end), then 3-byte entries: bits
0-9 the rank (0-923) of the high dice held (counts of 5-10), bits 10-17 the chance in
half points (0-200), bits 18-23 the expected score rounded (0-63).
Ranks: count vectors of that length, total at most 4 (low) or 6 (high), in lexicographic
order (engine_mpy/dice_advise.py _rank).
"""
import itertools
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from host_sim import dice_exact as X  # noqa: E402

OUT = os.path.join(ROOT, "engine_mpy", "dice_advise.bin")
PHASES = (1, 2, 3, 4, 5, 6, 7, 9, 10)
HEADER = 4 + 20 * 4 + 2
GROUPS = 126


def vectors(m, t):
    """Count vectors of length m with total at most t, in rank order."""
    return [v for v in itertools.product(range(t + 1), repeat=m) if sum(v) <= t]


LOW = vectors(5, 4)
HIGH = vectors(6, 6)
LOW_RANK = {v: i for i, v in enumerate(LOW)}
HIGH_RANK = {v: i for i, v in enumerate(HIGH)}
FULL_LOW = [v for v in LOW if sum(v) == 4]
FULL_HIGH = [v for v in HIGH if sum(v) == 6]


def useful(eng, rolls):
    """{held: (chance, expected)}: every hold the criterion picks in some state, and in
    each state the hold of the highest chance (the most expected among those)."""
    out = {}
    for lo in FULL_LOW:
        for hi in FULL_HIGH:
            cands = [eng._cand(h, rolls) for h in eng.holds(lo + hi)]
            top = max(c[0] for c in cands)
            for c in (X.choose(cands), max((c for c in cands if c[0] == top), key=lambda c: (c[1], c[2]))):
                out[c[4]] = (c[0], c[1])
    return out


def half_points(chance):
    """A chance (in X.UNIT) in half points, rounded; 200 only when it is certain: a chance of
    99.75% or more would round to it, and the Hint would say 100% of a hold that can fail."""
    p = (chance * 200 + X.UNIT // 2) // X.UNIT
    return 199 if p == 200 and chance < X.UNIT else p


def entry(hi_rank, chance, expected):
    p = half_points(chance)
    e = (expected + X.UNIT // 2) // X.UNIT
    assert 0 <= p <= 200 and 0 <= e <= 63, (p, e)
    v = hi_rank | p << 10 | e << 18
    return bytes((v & 255, v >> 8 & 255, v >> 16))


def section(eng, rolls):
    """(bytes, longest group) of one phase and rolls left."""
    groups = [[] for _ in range(GROUPS)]
    for held, (p, e) in useful(eng, rolls).items():
        groups[LOW_RANK[held[:5]]].append((HIGH_RANK[held[5:]], p, e))
    starts = []
    body = bytearray()
    n = 0
    for g in groups:
        starts.append(n)
        for hr, p, e in sorted(g):
            body += entry(hr, p, e)
            n += 1
    starts.append(n)
    assert n < 65536
    return struct.pack("<127H", *starts) + bytes(body), max(len(g) for g in groups)


def types(p8):
    """The dice by their colours: dice with the same two colours on two faces each roll
    colours alike. [(type of each die)], [(dice of each type)]."""
    keys = [sum(1 << c for c in range(4) if len(p8.cfaces[d][c]) == 2) for d in range(X.N_DICE)]
    order = sorted(set(keys))
    t = [order.index(k) for k in keys]
    return t, [[d for d in range(X.N_DICE) if t[d] == i] for i in range(len(order))]


def colour_section(log=None):
    """Phase 8, two rolls left: the chance of holding every die of one colour c and
    playing the last roll for the best chance, for each colour and each count of held
    dice of each type (what the chance depends on: the held dice show c, the others are
    re-rolled whatever they show). Layout: the type (0-3) of each die, the number of dice
    of each type + 1 (the radix), then for each colour the chances (half points) in
    mixed radix of the held counts per type, type 0 the most significant."""
    p8 = X._Phase8()
    pt = p8.tables()
    tof, groups = types(p8)
    sizes = [len(g) for g in groups]
    memo = {}

    def stage2(cols):
        """The best chance with one roll left (each subset of one colour, or stop)."""
        key = tuple(cols)
        v = memo.get(key)
        if v is None:
            v = 0
            for c in range(4):
                m = sum(1 << d for d in range(X.N_DICE) if cols[d] == c)
                if X._POP[m] >= 7:
                    v = X.UNIT
                    break
                a = m
                while True:
                    v = max(v, pt[c][X._FULL ^ a])
                    if not a:
                        break
                    a = (a - 1) & m
            memo[key] = v
        return v

    def outcomes(dice):
        """(weight in 6**len(dice), colours) for the colours the dice come up in, up to
        order within a type (multinomial weights)."""
        out = [(1, [])]
        for d in dice:
            out = [(w * len(p8.cfaces[d][c]), cs + [c]) for w, cs in out for c in range(4)]
        return out

    out = bytearray()
    for c in range(4):
        for held in itertools.product(*[range(n + 1) for n in sizes]):
            cols = [0] * X.N_DICE
            rolled = []
            for t, g in enumerate(groups):
                for i, d in enumerate(g):
                    if i < held[t]:
                        cols[d] = c
                    else:
                        rolled.append(d)
            if sum(held) >= 7:
                out.append(200)
                continue
            tot = 0
            for w, cs in outcomes(rolled):
                for d, x in zip(rolled, cs):
                    cols[d] = x
                tot += w * stage2(cols)
            out.append(half_points(tot // 6 ** len(rolled)))
        if log:
            log("phase 8, 2 rolls left, colour %d" % c)
    radix = bytes(n + 1 for n in sizes)
    return bytes(tof) + radix + bytes(out)


def build(log=None):
    offsets = [0] * 20
    parts = []
    longest = 0
    pos = HEADER
    for ph in PHASES:
        eng = X._Numbers(ph)
        for rolls in (1, 2):
            data, lg = section(eng, rolls)
            offsets[(ph - 1) * 2 + rolls - 1] = pos
            parts.append(data)
            pos += len(data)
            longest = max(longest, lg)
            if log:
                log("phase %d, %d roll(s) left: %d holds" % (ph, rolls, (len(data) - 254) // 3))
    offsets[15] = pos
    parts.append(colour_section(log))
    return b"P10A" + struct.pack("<20I", *offsets) + struct.pack("<H", longest) + b"".join(parts)


def main(argv):
    data = build(lambda s: print(s, file=sys.stderr, flush=True))
    if "--check" in argv:
        with open(OUT, "rb") as f:
            same = f.read() == data
        print("dice_advise.bin matches" if same else "dice_advise.bin differs from a rebuild")
        return 0 if same else 1
    with open(OUT, "wb") as f:
        f.write(data)
    print("wrote %s (%d bytes)" % (os.path.relpath(OUT, ROOT), len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
