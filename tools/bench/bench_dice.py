# Benchmark of the dice evaluator (not a test): the median time of one evaluation (one roll,
# one phase) over seeded random rolls, per phase and overall. Budget: 200 us on the
# MicroPython unix port (an RP2040 is about 116 times slower: ~23 ms per roll).
#   make mpy BUILD=build/dice && MICROPYPATH=build/dice .venv/bin/micropython tools/bench/bench_dice.py
# Also runs on CPython from the project root: .venv/bin/python tools/bench/bench_dice.py
import sys

from ticks import ticks_diff, ticks_us  # (this folder: the script's own)

if sys.implementation.name != "micropython":
    sys.path.insert(0, ".")   # CPython, from the project root: engine_mpy


import random
from array import array

from engine_mpy.dice_eval import FACE_COL, FACE_NUM, best

ROLLS = 400
REPEAT = 5  # each evaluation timed this many times; the fastest counts (less timer noise)


def median(a):
    s = sorted(a)
    return s[len(s) // 2]


def main():
    random.seed(10)
    nums = []
    cols = []
    for k in range(ROLLS):
        n = bytearray(10)
        c = bytearray(10)
        for d in range(10):
            f = random.getrandbits(3)
            while f > 5:
                f = random.getrandbits(3)
            n[d] = FACE_NUM[d * 6 + f]
            c[d] = FACE_COL[d * 6 + f]
        nums.append(n)
        cols.append(c)
    overall = array("I", [0] * (ROLLS * 10))
    per = array("I", [0] * ROLLS)
    worst = 0
    print("phase  median_us  max_us")
    for ph in range(1, 11):
        for k in range(ROLLS):
            n = nums[k]
            c = cols[k]
            t_best = 1 << 30
            for r in range(REPEAT):
                t0 = ticks_us()
                best(ph, n, c)
                dt = ticks_diff(ticks_us(), t0)
                if dt < t_best:
                    t_best = dt
            per[k] = t_best
            overall[(ph - 1) * ROLLS + k] = t_best
        m = max(per)
        if m > worst:
            worst = m
        print("%5d  %9d  %6d" % (ph, median(per), m))
    print("median us per (roll, phase): %d   worst: %d   (%d rolls x 10 phases, %s)"
          % (median(overall), worst, ROLLS, sys.implementation.name))


main()
