# The microsecond timer of the benches that run on both runtimes (bench_dice.py,
# bench_advise.py): MicroPython's own, or CPython's stood in for it. (pystone.py keeps its
# own copy: `mpremote run` sends a board that one file alone.)
try:
    from time import ticks_us, ticks_diff
except ImportError:  # CPython
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b
