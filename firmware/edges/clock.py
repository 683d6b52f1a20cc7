# Time for the app loop, passed in rather than read from `time` so the simulator can run a
# virtual clock (host_sim/vclock.py: headless runs take no real time and give the same
# screens on every run). Both clocks have the same methods: ticks_ms(), ticks_diff(a, b),
# sleep_ms(ms) and wait(ms, ready).
import time

# MicroPython's millisecond counter wraps at 2**30 on every port; a virtual clock wraps at
# the same point so the app's arithmetic is exercised the same way.
_PERIOD = 1 << 30
_HALF = 1 << 29


class Clock:
    """The board's clock (MicroPython's time.ticks_*); on CPython a monotonic stand-in."""

    def __init__(self):
        if hasattr(time, "ticks_ms"):
            self.ticks_ms = time.ticks_ms
            self.ticks_diff = time.ticks_diff
            self.sleep_ms = time.sleep_ms

    # CPython fallbacks (used when a front end runs in real time on the PC).
    def ticks_ms(self):
        return int(time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_diff(self, a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)

    def wait(self, ms, ready):
        """Sleep up to ms, waking within a millisecond once ready() (a key event queued by
        the buttons' timer)."""
        end = self.ticks_ms() + ms
        while self.ticks_diff(end, self.ticks_ms()) > 0:
            if ready():
                return
            self.sleep_ms(1)
