# Time for the app loop, passed in rather than read from `time` so the simulator can run a
# virtual clock (host_sim/vclock.py: headless runs take no real time and give the same
# screens on every run). Both clocks have the same methods: ticks_ms(), ticks_diff(a, b),
# sleep_ms(ms), wait(ms, ready) and wall() (the time of day, below).
import time

# MicroPython's millisecond counter wraps at 2**30 on every port; a virtual clock wraps at
# the same point so the app's arithmetic is exercised the same way.
_PERIOD = 1 << 30
_HALF = 1 << 29


# The real-time clock counts from a default until it is set (make deploy and host_sim pull
# set it over USB to the PC's time, as mpremote's rtc --set does): the RP2040's starts at
# 2021-01-01, the ESP32's at 2000-01-01. A time before this one (2025-01-01 00:00) is a
# clock never set: no time, never a made-up one.
SET_SINCE = 1735689600
_EPOCH_2000 = 946684800      # seconds from 1970 to 2000 (ports whose time counts from 2000)


def wall():
    """The table's time: seconds since 1970-01-01 00:00 as the clock shows it, or None
    when the clock was never set (a board's real-time clock after power-up)."""
    try:
        t = int(time.time())
        if time.gmtime(0)[0] == 2000:
            t += _EPOCH_2000
    except (AttributeError, OSError, OverflowError):
        return None
    return t if t >= SET_SINCE else None


class Clock:
    """The board's clock (MicroPython's time.ticks_*); on CPython a monotonic stand-in.
    wall(): the real-time clock (above)."""

    wall = staticmethod(wall)

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
