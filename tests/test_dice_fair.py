# Fairness of the roller: chi-square of each die's faces over many seeded rolls. The device
# seeds its random source from the hardware; tests use fixed seeds, so these are exact
# reruns, not flaky statistics.
import random

from engine_mpy.dice import N_DICE, Turn, roll_face

# Chi-square, 5 degrees of freedom: 20.52 is exceeded by chance once in 1000.
CRIT_5DF = 20.52


def chi2(counts):
    n = sum(counts)
    e = n / len(counts)
    return sum((c - e) ** 2 / e for c in counts)


class BitsOnly:
    """A source with only getrandbits, like the smallest MicroPython random module."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def getrandbits(self, n):
        return self.r.getrandbits(n)


def test_each_die_is_fair_over_many_turns():
    rng = BitsOnly(2024)
    counts = [[0] * 6 for d in range(N_DICE)]
    for k in range(12000):
        t = Turn()
        t.roll(rng)
        for d in range(N_DICE):
            counts[d][t.faces[d]] += 1
    for d in range(N_DICE):
        assert chi2(counts[d]) < CRIT_5DF, (d, counts[d])


def test_rerolled_dice_are_fair_and_held_dice_stay():
    rng = BitsOnly(77)
    counts = [0] * 6
    for k in range(6000):
        t = Turn()
        t.roll(rng)
        kept = t.faces[0]
        t.hold(0)
        t.roll(rng)
        assert t.faces[0] == kept
        counts[t.faces[1]] += 1
    assert chi2(counts) < CRIT_5DF, counts


def test_roll_face_is_not_biased_by_the_rejection():
    # getrandbits(3) gives 0-7; 6 and 7 are drawn again, so 0 and 1 are not favoured.
    for seed in (1, 2, 3):
        rng = BitsOnly(seed)
        counts = [0] * 6
        for k in range(30000):
            counts[roll_face(rng)] += 1
        assert chi2(counts) < CRIT_5DF, (seed, counts)


def test_chi_square_catches_a_loaded_die():
    # The check has teeth: a die that shows 0 or 1 one time in four too often fails it.
    rng = BitsOnly(9)
    counts = [0] * 6
    for k in range(12000):
        f = roll_face(rng)
        if f > 1 and rng.getrandbits(2) == 0:
            f = f & 1
        counts[f] += 1
    assert chi2(counts) > CRIT_5DF
