# Benchmark of the board's dice advisor (engine_mpy/dice_advise.py), not a test. Runs on the
# micropython binary like tools/bench/bench_dice.py:
#   make mpy BUILD=build/adv && MICROPYPATH=build/adv .venv/bin/micropython tools/bench/bench_advise.py
# The states: seeded random ones (every phase, one and two rolls left) and the slowest
# kinds: a number phase whose dice hold the most different holds (ten different numbers:
# 1 2 3 4 and 5-10, the most table groups and entries to read), phase 8 with every die in
# one colour (the most holds of seven weighed, two rolls left). Each state is timed
# REPEAT times, the fastest counting (less timer noise), from the import of the module
# (a Hint loads it) to the answer. Prints the most heap one answer takes, then the median,
# p95 and largest times in us (make bench: advise_heap_kb, advise_ms_p95_rp2040).
import gc
import sys

from ticks import ticks_diff, ticks_us  # (this folder: the script's own)

if sys.implementation.name != "micropython":
    sys.path.insert(0, ".")   # CPython, from the project root: engine_mpy

from engine_mpy.dice_eval import FACE_COL, N_DICE

STATES = 300
REPEAT = 3


def states():
    out = []
    x = 19
    for k in range(STATES):
        faces = bytearray(N_DICE)
        for d in range(N_DICE):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            faces[d] = (x >> 8) % 6
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(((x >> 8) % 10 + 1, (x >> 12) % 2 + 1, faces))
    # the worst kinds, both rolls left
    distinct = bytearray((0, 1, 2, 3, 0, 1, 2, 3, 4, 5))   # 1 2 3 4 on the low dice, 5-10 high
    for ph in (1, 2, 3, 4, 5, 6, 7, 9, 10):
        for r in (1, 2):
            out.append((ph, r, distinct))
    for c in range(4):
        one = bytearray(N_DICE)
        for d in range(N_DICE):
            for f in range(6):
                if FACE_COL[d * 6 + f] == c:
                    one[d] = f
        for r in (1, 2):
            out.append((8, r, one))
    return out


def run(st):
    from engine_mpy import dice_advise
    r = dice_advise.advise(st[0], st[1], st[2])
    del sys.modules["engine_mpy.dice_advise"]
    import engine_mpy
    try:
        delattr(engine_mpy, "dice_advise")
    except (AttributeError, TypeError, KeyError):
        pass
    return r


def timing():
    sts = states()
    ts = []
    for st in sts:
        best = 1 << 30
        for i in range(REPEAT):
            gc.collect()
            t0 = ticks_us()
            run(st)
            dt = ticks_diff(ticks_us(), t0)
            if dt < best:
                best = dt
        ts.append(best)
    ts.sort()
    n = len(ts)
    print("advise us median %d p95 %d max %d (%d states, %s)"
          % (ts[n // 2], ts[(95 * n + 99) // 100 - 1], ts[-1], n, sys.implementation.name))


def heap():
    """The most the advisor allocates for one state, from the import of its code to the
    answer, the collector held off: nothing it allocates is freed during the call, so this
    bounds the heap it takes at any moment."""
    worst = 0
    for st in states():
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        run(st)
        b = gc.mem_alloc()
        gc.enable()
        if b - a > worst:
            worst = b - a
    print("advise heap bytes max %d (%d states)" % (worst, len(states())))


# The heap first: the first answer also interns the advisor's names (they stay, on the
# board too).
if hasattr(gc, "mem_alloc"):
    heap()
timing()
