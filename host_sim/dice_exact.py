"""The exact dice advisor (host only; the board runs engine_mpy/dice_advise.py).

For a Phase 10 Dice turn (the phase, the rolls left, what each of the ten real dice shows)
every hold is scored by two exact figures (docs/dice-advisor.md has the definitions):

- chance: the probability that the phase is made when the turn ends, when the player
  holds these dice, re-rolls the others, and (with two rolls left) then plays the last
  roll by the same rule from whatever came up;
- expected score: the mean of the score the turn ends with, a phase not made counting 0.

The rule that picks a hold ("the criterion"): the highest chance; among the holds within
0.5 points of it, the highest expected score; then the higher chance, then more dice held
(holding all ten is stopping), then the lower dice. Every figure is an exact fraction:
each die's six faces have probability 1/6, so a value is an integer count of 6**-20ths.

Numbers phases (all but 8) ignore colour, and the four low dice roll the same numbers
(1, 2, 3, 4, Wild, Wild) as do the six high ones (5-10): a state is the multiset of numbers
showing, a hold a sub-multiset, and everything is memoised over sorted states.
Phase 8 (seven of one colour) depends on which die shows what: see _Phase8.
"""
import itertools

from engine_mpy.dice_eval import FACE_COL, FACE_NUM, N_DICE, N_LOW, best

UNIT = 6 ** 20            # values are integers in units of 1 / 6**20
_LOW_FACES = (0, 0, 1, 2, 3, 4)       # a low die's numbers (0 = Wild, twice)
_HIGH_FACES = (5, 6, 7, 8, 9, 10)


def choose(cands):
    """The criterion's pick from [(chance, expected, held, key)]: chance and expected in
    UNIT, held = dice held (10 = stop), key = a last tie-break (lower wins)."""
    top = max(c[0] for c in cands)
    near = [c for c in cands if 200 * c[0] >= 200 * top - UNIT]   # within 0.5 points
    return max(near, key=lambda c: (c[1], c[0], c[2], _neg(c[3])))


def _neg(key):
    return tuple(-k for k in key)


def ranked(cands, n):
    """The first n by the criterion applied again to what is left each time."""
    left = list(cands)
    out = []
    while left and len(out) < n:
        c = choose(left)
        out.append(c)
        left.remove(c)
    return out


# --- number phases ----------------------------------------------------------------------------
class _Numbers:
    """One number phase: values memoised over count vectors (index = number, 0 = Wild)."""

    def __init__(self, phase):
        self.phase = phase
        self.end = {}     # full state -> (chance, expected) when the turn ends there
        self.one = {}     # held -> value of holding it with one roll left
        self.two = {}     # held -> value with two rolls left
        self.pick = {}    # full state -> the criterion's best (value, held) with one roll left

    def ended(self, counts):
        v = self.end.get(counts)
        if v is None:
            nums = bytearray()
            for n in range(11):
                nums.extend(bytes([n]) * counts[n])
            s = best(self.phase, nums, bytes(N_DICE))[0]
            v = (UNIT, s * UNIT) if s >= 0 else (0, 0)
            self.end[counts] = v
        return v

    def value(self, held, rolls):
        """(chance, expected) of holding `held` (a count vector) with `rolls` rolls left (1
        or 2): the missing low dice, then the missing high dice, rolled one at a time."""
        memo = self.one if rolls == 1 else self.two
        v = memo.get(held)
        if v is not None:
            return v
        low = held[0] + held[1] + held[2] + held[3] + held[4]
        if low < N_LOW:
            faces = _LOW_FACES
        elif low + sum(held[5:]) < N_DICE:
            faces = _HIGH_FACES
        else:
            v = self.ended(held) if rolls == 1 else self.best(held)[0]
            memo[held] = v
            return v
        p = e = 0
        for n in faces:
            c = list(held)
            c[n] += 1
            cp, ce = self.value(tuple(c), rolls)
            p += cp
            e += ce
        assert p % 6 == 0 and e % 6 == 0
        v = (p // 6, e // 6)
        memo[held] = v
        return v

    def holds(self, counts):
        """Every sub-multiset of the full state counts."""
        out = [()]
        for n in range(11):
            out = [h + (k,) for h in out for k in range(counts[n] + 1)]
        return out

    def best(self, counts):
        """The criterion's hold at a full state with one roll left: ((chance, expected), held)."""
        b = self.pick.get(counts)
        if b is None:
            one = self.one
            hs = self.holds(counts)
            vals = []
            top = 0
            for h in hs:
                v = one.get(h) or self.value(h, 1)
                vals.append(v)
                if v[0] > top:
                    top = v[0]
            lim = 200 * top - UNIT
            c = choose([self._cand(h, 1) for h, v in zip(hs, vals) if 200 * v[0] >= lim])
            b = ((c[0], c[1]), c[4])
            self.pick[counts] = b
        return b

    def _cand(self, held, rolls):
        # Holding all ten is stopping: the turn ends with these dice (with two rolls left
        # too; no roll of no dice).
        p, e = self.ended(held) if sum(held) == N_DICE else self.value(held, rolls)
        # Lower dice first among equals: the key prefers holding higher numbers.
        return (p, e, sum(held), tuple(-k for k in reversed(held)), held)

    def advise(self, counts, rolls, n):
        return ranked([self._cand(h, rolls) for h in self.holds(counts)], n)


# --- phase 8 ----------------------------------------------------------------------------------
class _Phase8:
    """Seven dice of one colour: each die has its own colours (two faces in each of two
    colours, one face in each of the other two), so a state is the face of each die.

    With one roll left the holds weighed are those of one colour: for each colour, every
    subset of the dice showing it, and stopping. Holding dice of two colours at once is
    never better: when only one colour can still reach seven, releasing the other
    colours' dice can only add dice of that colour (chance and expected score both at
    least as high); when two or more can (four or more dice re-rolled), the chance is at
    least 1.6 points below that of holding every die of one colour, in every pattern of
    colours (tools/checks/verify_phase8.py checks them all), so such a hold is never within the
    0.5 points of the criterion. The pick is therefore the criterion's pick among all
    1024 holds.
    With two rolls left every one of the 1024 holds is a candidate. Each is first bounded
    (bound()): a hold whose bound is 0.5 points below an exact chance already found cannot
    be picked, and is not computed."""

    def __init__(self):
        self.col = [[FACE_COL[d * 6 + f] for f in range(6)] for d in range(N_DICE)]
        self.num = [[FACE_NUM[d * 6 + f] for f in range(6)] for d in range(N_DICE)]
        # cfaces[d][c]: the numbers die d shows in colour c (one or two)
        self.cfaces = [[[self.num[d][f] for f in range(6) if self.col[d][f] == c] for c in range(4)]
                       for d in range(N_DICE)]
        self.dbl = [sum(1 << d for d in range(N_DICE) if len(self.cfaces[d][c]) == 2) for c in range(4)]
        self.dbl_key = [sum(1 << c for c in range(4) if len(self.cfaces[d][c]) == 2) for d in range(N_DICE)]
        # tail[need][n2][n1]: chance (UNIT) of at least need successes from n2 dice of
        # chance 2/6 and n1 of chance 1/6
        self.tail = [[[0] * (N_DICE + 1) for _ in range(N_DICE + 1)] for _ in range(N_DICE + 1)]
        for n2 in range(N_DICE + 1):
            for n1 in range(N_DICE + 1 - n2):
                dist = [1]
                for w in [2] * n2 + [1] * n1:
                    nd = [0] * (len(dist) + 1)
                    for k in range(len(dist)):
                        nd[k] += dist[k] * (6 - w)
                        nd[k + 1] += dist[k] * w
                    dist = nd
                for need in range(N_DICE + 1):
                    self.tail[need][n2][n1] = sum(dist[need:]) * UNIT // 6 ** (n2 + n1)
        self.own = {}
        self.near = {}
        self.leaves = {}
        self.pt = None

    def colour_value(self, c, nums, mask):
        """(chance, expected) of colour c making seven: nums (sorted) the numbers of the held
        dice of colour c, the dice in mask re-rolled once. Every outcome in colour c of each
        re-rolled die is walked (the other faces together), the seven highest counted."""
        key = (c, nums, mask)
        v = self.own.get(key)
        if v is not None:
            return v
        dice = [d for d in range(N_DICE) if mask >> d & 1]
        acc = [0, 0]

        def walk(i, got, ways):
            if len(got) + len(dice) - i < 7:
                return
            if i == len(dice):
                acc[0] += ways
                acc[1] += ways * sum(sorted(got, reverse=True)[:7])
                return
            fs = self.cfaces[dice[i]][c]
            for n in fs:
                walk(i + 1, got + [n], ways)
            walk(i + 1, got, ways * (6 - len(fs)))

        walk(0, list(nums), 1)
        w = 6 ** len(dice)
        v = (acc[0] * UNIT // w, acc[1] * UNIT // w)
        self.own[key] = v
        return v

    def family(self, cols):
        """The holds weighed with one roll left (dice colours cols): each subset of the
        dice showing one colour, and stopping (all ten)."""
        out = {_FULL}
        for c in range(4):
            subs = [0]
            for d in range(N_DICE):
                if cols[d] == c:
                    subs += [s | 1 << d for s in subs]
            out.update(subs)
        return sorted(out)

    def chance(self, cols, held):
        """The chance of holding `held` with one roll left: the colours alone decide it."""
        if held == _FULL:
            return UNIT if self.made(cols) else 0
        r = _FULL & ~held
        nr = _POP[r]
        t = 0
        for c in range(4):
            h = 0
            for d in range(N_DICE):
                if held >> d & 1 and cols[d] == c:
                    h += 1
            if h + nr >= 7:
                n2 = _POP[r & self.dbl[c]]
                t += self.tail[max(0, 7 - h)][n2][nr - n2]
        return t

    def made(self, cols):
        for c in range(4):
            if cols.count(c) >= 7:
                return True
        return False

    def tables(self):
        """pt[c][r]: the chance with one roll left when only dice of colour c are held, the
        dice in mask r re-rolled (all the others held)."""
        if self.pt is None:
            self.pt = [[0] * (_FULL + 1) for c in range(4)]
            for c in range(4):
                for r in range(_FULL + 1):
                    nr = _POP[r]
                    t = 0
                    for c2 in range(4):
                        h = N_DICE - nr if c2 == c else 0
                        if h + nr >= 7:
                            n2 = _POP[r & self.dbl[c2]]
                            t += self.tail[max(0, 7 - h)][n2][nr - n2]
                    self.pt[c][r] = t
        return self.pt

    def others(self, c, r):
        """Expected score from the colours other than c (none of their dice held), the dice
        in r re-rolled."""
        if _POP[r] < 7:
            return 0
        e = 0
        for c2 in range(4):
            if c2 != c:
                e += self.colour_value(c2, (), r)[1]
        return e

    def expected(self, cols, nums, held):
        """Expected score of a one-colour hold (or stopping) with one roll left."""
        if held == _FULL:
            s = best(8, bytes(nums), bytes(cols))[0]
            return s * UNIT if s >= 0 else 0
        r = _FULL & ~held
        own = []
        c = 0
        for d in range(N_DICE):
            if held >> d & 1:
                own.append(nums[d])
                c = cols[d]
        own.sort()
        return self.colour_value(c, tuple(own), r)[1] + self.others(c, r)

    def _cand(self, held, p, e):
        return (p, e, _POP[held], (-held,), held)

    def near_best(self, cols):
        """The one-roll holds within 0.5 points of the best chance, as (chance, held): the
        colours alone decide them. Candidates: each subset of the dice of one colour, and
        stopping (all ten)."""
        key = _key(cols)
        near = self.near.get(key)
        if near is not None:
            return near
        pt = self.tables()
        cands = {}
        made = False
        for c in range(4):
            m = 0
            for d in range(N_DICE):
                if cols[d] == c:
                    m |= 1 << d
            if _POP[m] >= 7:
                made = True
            ptc = pt[c]
            a = m
            while True:
                cands[a] = ptc[_FULL ^ a]
                if not a:
                    break
                a = (a - 1) & m
        if made:
            # Seven or more of colour c: every hold keeping seven of them has chance 1;
            # which scores most depends on the numbers (leaf() weighs them).
            for c in range(4):
                if list(cols).count(c) >= 7:
                    near = ((UNIT, -1 - c),)
        else:
            cands[_FULL] = 0
            top = max(cands.values())
            near = tuple((p, h) for h, p in cands.items() if 200 * p >= 200 * top - UNIT)
        if len(self.near) < 300000:   # a bound on the host's memory
            self.near[key] = near
        return near

    def made_best(self, cols, nums, c, mine):
        """The highest expected score with one roll left when seven or more dice (mine)
        show colour c: chance 1 for every hold keeping seven of them. Re-rolling a die of
        another colour can only add one of colour c, and keeping a die of colour c showing
        the higher of its numbers in c (or its only one) can only beat re-rolling it, so
        only dice of colour c showing their lower number are worth re-rolling (with the
        others), seven staying; or stop."""
        up = 0
        for d in range(N_DICE):
            if mine >> d & 1 and max(self.cfaces[d][c]) > nums[d]:
                up |= 1 << d
        e = self.expected(cols, nums, _FULL)
        sub = up
        while True:
            keep = mine & ~sub
            if _POP[keep] >= 7:
                e = max(e, self.expected(cols, nums, keep))
            if not sub:
                break
            sub = (sub - 1) & up
        return e

    def one_roll(self, faces):
        """Every one-roll candidate at these faces with its exact figures."""
        cols = [self.col[d][faces[d]] for d in range(N_DICE)]
        nums = [self.num[d][faces[d]] for d in range(N_DICE)]
        return [self._cand(h, self.chance(cols, h), self.expected(cols, nums, h)) for h in self.family(cols)]

    def two_rolls(self, faces, held):
        """(chance, expected) of holding `held` with two rolls left: each re-rolled die in
        each colour it can come up in, weighted by its faces of that colour. Which
        one-roll holds are within 0.5 points of the best chance depends on the colours
        alone, so numbers are walked only for the dice in those holds that show a colour
        on two faces (for stopping: every die)."""
        dice = [d for d in range(N_DICE) if not held >> d & 1]
        cols = [self.col[d][faces[d]] for d in range(N_DICE)]
        nums = [self.num[d][faces[d]] for d in range(N_DICE)]
        acc = [0, 0]

        def leaf(weight):
            near = self.near_best(cols)
            used = 0
            made = -1
            for p, h in near:
                if h < 0:
                    made = -1 - h
                    for d in range(N_DICE):
                        if cols[d] == made:
                            used |= 1 << d
                else:
                    used |= h
            branch = [d for d in dice if used >> d & 1 and len(self.cfaces[d][cols[d]]) == 2]
            bm = 0
            for d in branch:
                bm |= 1 << d
            # The same colours, dice walked and numbers that count recur from hold to hold.
            key = (_key(cols), bm, tuple(nums[d] for d in range(N_DICE) if (used & ~bm) >> d & 1))
            v = self.leaves.get(key)
            if v is None:
                sp = se = 0
                for bits in range(1 << len(branch)):
                    for i in range(len(branch)):
                        d = branch[i]
                        nums[d] = self.cfaces[d][cols[d]][bits >> i & 1]
                    if made >= 0:
                        sp += UNIT
                        se += self.made_best(cols, nums, made, used)
                    elif len(near) == 1:
                        p, h = near[0]
                        sp += p
                        se += self.expected(cols, nums, h)
                    else:
                        c = choose([self._cand(h, p, self.expected(cols, nums, h)) for p, h in near])
                        sp += c[0]
                        se += c[1]
                v = (sp, se)
                if len(self.leaves) < 500000:   # a bound on the host's memory
                    self.leaves[key] = v
            w = weight >> len(branch)
            acc[0] += w * v[0]
            acc[1] += w * v[1]

        def walk(i, weight):
            if i == len(dice):
                leaf(weight)
                return
            d = dice[i]
            for c in range(4):
                fs = self.cfaces[d][c]
                cols[d] = c
                nums[d] = fs[0]
                walk(i + 1, weight * len(fs))
            cols[d] = self.col[d][faces[d]]
            nums[d] = self.num[d][faces[d]]

        walk(0, 1)
        w = 6 ** len(dice)
        return acc[0] // w, acc[1] // w

    def bound(self, faces, held):
        """An upper bound on the chance of holding `held` with two rolls left: the sum over
        colours of the best any play can do for that colour (at most one colour makes
        seven). For colour c: the held dice showing c stay; every other held die may be
        released for the last roll (one try at c); every re-rolled die gets two tries."""
        t = 0
        for c in range(4):
            h = 0
            dist = [1]   # weights in 36ths per die
            for d in range(N_DICE):
                n = len(self.cfaces[d][c])
                if not held >> d & 1:
                    q = 36 - (6 - n) ** 2
                elif self.col[d][faces[d]] == c:
                    h += 1
                    continue
                else:
                    q = 6 * n
                nd = [0] * (len(dist) + 1)
                for j in range(len(dist)):
                    nd[j] += dist[j] * (36 - q)
                    nd[j + 1] += dist[j] * q
                dist = nd
            t += -(-sum(dist[max(0, 7 - h):]) * UNIT // 36 ** (len(dist) - 1))   # rounded up
        return t

    def advise(self, faces, rolls, n):
        faces = tuple(faces)
        if rolls == 1:
            return ranked(self.one_roll(faces), n), 0
        bounds = sorted(((self.bound(faces, h), h) for h in range(1 << N_DICE)), reverse=True)
        cands = []
        top = 0
        left = 0
        for i in range(len(bounds)):
            b, h = bounds[i]
            if 200 * b < 200 * top - UNIT:
                return ranked(cands, n), left + len(bounds) - i
            # A closer bound, colours only: the chance when the last roll is played for the
            # best chance (the criterion may give up to half a point of it for score).
            if h != _FULL and 200 * self.chance_first(faces, h) < 200 * top - UNIT:
                left += 1
                continue
            p, e = _ended(8, faces) if h == _FULL else self.two_rolls(faces, h)
            top = max(top, p)
            cands.append(self._cand(h, p, e))
        return ranked(cands, n), left

    def chance_first(self, faces, held):
        """The chance of holding `held` with two rolls left when the last roll is played
        for the best chance: at least the criterion's chance (which stays within half a
        point of the best at that roll); colours alone decide it. Re-rolled dice with the
        same colours on two faces (a kind) are interchangeable here, so each kind's dice
        are walked as a multiset of colours (multinomial weights)."""
        cols = [self.col[d][faces[d]] for d in range(N_DICE)]
        kinds = {}
        for d in range(N_DICE):
            if not held >> d & 1:
                kinds.setdefault(self.dbl_key[d], []).append(d)
        groups = list(kinds.values())
        acc = [0]

        def walk(g, weight):
            if g == len(groups):
                acc[0] += weight * max(p for p, h in self.near_best(cols))
                return
            dice = groups[g]
            n = [len(self.cfaces[dice[0]][c]) for c in range(4)]
            for cs in itertools.combinations_with_replacement(range(4), len(dice)):
                w = weight * _multinomial(cs)
                for d, c in zip(dice, cs):
                    cols[d] = c
                    w *= n[c]
                walk(g + 1, w)

        walk(0, 1)
        return acc[0] // 6 ** (N_DICE - _POP[held])


def _multinomial(cs):
    out = 1
    k = 0
    for c in range(4):
        for i in range(cs.count(c)):
            k += 1
            out = out * k // (i + 1)
    return out


def _key(cols):
    key = 0
    for c in cols:
        key = key << 2 | c
    return key


_FULL = (1 << N_DICE) - 1
_POP = [bin(i).count("1") for i in range(1 << N_DICE)]
_NUMBERS = {}
_P8 = []


def advise(phase, rolls, faces, n=5):
    """The best holds for the dice showing `faces` (face index 0-5 of each die), ranked by
    the criterion: a list of (held mask, chance, expected) with chance and expected as
    fractions of UNIT, and the number of holds left out as provably worse (phase 8, two
    rolls). rolls 0: stopping is all there is."""
    full = (1 << N_DICE) - 1
    if rolls == 0:
        return [(full,) + _ended(phase, faces)], 0
    if phase == 8:
        if not _P8:
            _P8.append(_Phase8())
        picks, skipped = _P8[0].advise(faces, rolls, n)
        return [(c[4], c[0], c[1]) for c in picks], skipped
    eng = _NUMBERS.get(phase)
    if eng is None:
        eng = _NUMBERS[phase] = _Numbers(phase)
    nums = [FACE_NUM[d * 6 + faces[d]] for d in range(N_DICE)]
    counts = [0] * 11
    for n_ in nums:
        counts[n_] += 1
    out = []
    for c in eng.advise(tuple(counts), rolls, n):
        held = list(c[4])
        mask = 0
        for d in range(N_DICE):
            if held[nums[d]]:
                held[nums[d]] -= 1
                mask |= 1 << d
        out.append((mask, c[0], c[1]))
    return out, 0


def _ended(phase, faces):
    nums = bytes(FACE_NUM[d * 6 + faces[d]] for d in range(N_DICE))
    cols = bytes(FACE_COL[d * 6 + faces[d]] for d in range(N_DICE))
    s = best(phase, nums, cols)[0]
    return (UNIT, s * UNIT) if s >= 0 else (0, 0)


def figures(phase, rolls, faces, held):
    """(chance, expected) in UNIT of holding the dice in mask held (any of the 1024; all
    ten is stopping) with rolls left, the dice showing faces."""
    if rolls == 0 or held == _FULL:
        return _ended(phase, faces)
    if phase == 8:
        if not _P8:
            _P8.append(_Phase8())
        p8 = _P8[0]
        if rolls == 2:
            return p8.two_rolls(tuple(faces), held)
        cols = [p8.col[d][faces[d]] for d in range(N_DICE)]
        nums = [p8.num[d][faces[d]] for d in range(N_DICE)]
        r = _FULL & ~held
        p = e = 0
        for c in range(4):
            own = tuple(sorted(nums[d] for d in range(N_DICE) if held >> d & 1 and cols[d] == c))
            cp, ce = p8.colour_value(c, own, r)
            p += cp
            e += ce
        return p, e
    eng = _NUMBERS.get(phase)
    if eng is None:
        eng = _NUMBERS[phase] = _Numbers(phase)
    counts = [0] * 11
    for d in range(N_DICE):
        if held >> d & 1:
            counts[FACE_NUM[d * 6 + faces[d]]] += 1
    return eng.value(tuple(counts), rolls)
