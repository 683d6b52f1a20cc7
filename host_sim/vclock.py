# The simulator's time: a clock that only moves when slept on (or advanced), with the three
# methods of the board's (firmware/clock.py). Runs under CPython and the micropython twin.

# MicroPython's millisecond counter wraps at 2**30 on every port; the virtual clock wraps at
# the same point so the app's arithmetic is exercised the same way.
_PERIOD = 1 << 30
_HALF = 1 << 29


class VirtualClock:
    """A clock that only moves when slept on (or advanced): the simulator's time."""

    def __init__(self, start=0):
        self.now = start & (_PERIOD - 1)

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def sleep_ms(self, ms):
        if ms > 0:
            self.now = (self.now + ms) & (_PERIOD - 1)

    advance = sleep_ms
