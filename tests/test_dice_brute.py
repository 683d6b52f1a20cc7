# The dice evaluator against an independent brute force: every way to give dice to the
# phase's parts (each die to one part at most) is tried, on thousands of seeded random
# rolls of the real dice for every phase, Wild-heavy and repeat-heavy rolls included.
# The brute force shares nothing with the engine but the dice table.
import itertools
import random

from engine_mpy.dice_eval import FACE_COL, FACE_NUM, best

PARTS = {
    1: (("set", 3), ("set", 3)),
    2: (("set", 3), ("run", 4)),
    3: (("set", 4), ("run", 4)),
    4: (("run", 7),),
    5: (("run", 8),),
    6: (("run", 9),),
    7: (("set", 4), ("set", 4)),
    8: (("colour", 7),),
    9: (("set", 5), ("set", 2)),
    10: (("set", 5), ("set", 3)),
}


def part_ok(kind, dice):
    """dice: (number, colour) pairs, number 0 = Wild."""
    nat = [n for n, c in dice if n]
    if kind == "set":
        return len(set(nat)) <= 1
    if kind == "run":
        # n different numbers, Wilds in the gaps; n <= 10, so a span of at most n-1 always
        # fits somewhere in 1..10.
        return len(set(nat)) == len(nat) and (not nat or max(nat) - min(nat) <= len(dice) - 1)
    return len(set(c for n, c in dice)) == 1


def brute(phase, dice, idx):
    """Best score making phase from the dice at positions idx, or -1."""
    parts = PARTS[phase]
    top = -1
    k1, n1 = parts[0]
    for a in itertools.combinations(idx, n1):
        da = [dice[i] for i in a]
        if not part_ok(k1, da):
            continue
        sa = sum(n for n, c in da)
        if len(parts) == 1:
            top = max(top, sa)
            continue
        k2, n2 = parts[1]
        rest = [i for i in idx if i not in a]
        for b in itertools.combinations(rest, n2):
            db = [dice[i] for i in b]
            if part_ok(k2, db):
                top = max(top, sa + sum(n for n, c in db))
    return top


def rolls(seed, n):
    """Seeded real rolls, a quarter each: uniform; each die mostly on one face (many
    repeats); the low dice mostly Wild; most dice in one colour (for phase 8)."""
    rnd = random.Random(seed)
    for k in range(n):
        mode = k % 4
        colour = rnd.randrange(4)
        faces = []
        for d in range(10):
            if mode == 3:
                mine = [f for f in range(6) if FACE_COL[d * 6 + f] == colour]
                f = rnd.choice(mine) if mine and rnd.random() < 0.85 else rnd.randrange(6)
            elif mode == 0:
                f = rnd.randrange(6)
            elif mode == 1:
                f = rnd.choice((5, rnd.randrange(6)))
            else:
                f = rnd.choice((4, 5, 4, 5, rnd.randrange(6))) if d < 4 else rnd.randrange(6)
            faces.append(f)
        yield [(FACE_NUM[d * 6 + faces[d]], FACE_COL[d * 6 + faces[d]]) for d in range(10)]


def check_phase(phase, n, seed):
    made = 0
    for dice in rolls(seed, n):
        nums = bytes(d[0] for d in dice)
        cols = bytes(d[1] for d in dice)
        score, mask = best(phase, nums, cols)
        want = brute(phase, dice, list(range(10)))
        assert score == want, (phase, dice, score, want)
        used = [i for i in range(10) if mask >> i & 1]
        if want < 0:
            assert mask == 0
            continue
        made += 1
        # The marked dice alone make the phase with that score, and no die is left over.
        size = sum(p[1] for p in PARTS[phase])
        assert len(used) == size, (phase, dice, used)
        assert brute(phase, dice, used) == score, (phase, dice, used)
    return made


def test_every_phase_agrees_with_brute_force():
    for phase in range(1, 11):
        made = check_phase(phase, 2400, 1000 + phase)
        # The rolls must exercise made phases too, not only failures.
        assert made >= 100, (phase, made)


def test_ties_choose_the_same_dice_every_time():
    for dice in rolls(7, 300):
        nums = bytes(d[0] for d in dice)
        cols = bytes(d[1] for d in dice)
        for phase in range(1, 11):
            assert best(phase, nums, cols) == best(phase, nums, cols)


def test_evaluator_on_any_ten_dice():
    # Beyond what the real set can show (seven 10s, eight Wilds...): still exact.
    rnd = random.Random(5)
    for k in range(1500):
        dice = [(rnd.choice((0, 0, 5, 10, rnd.randrange(11))), rnd.randrange(4)) for i in range(10)]
        nums = bytes(d[0] for d in dice)
        cols = bytes(d[1] for d in dice)
        phase = k % 10 + 1
        assert best(phase, nums, cols)[0] == brute(phase, dice, list(range(10))), (phase, dice)
