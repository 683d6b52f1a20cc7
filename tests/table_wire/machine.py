"""The least `machine` the device runs on in real time, for the table on phones' runner
(tests/table_serve.py) under the micropython binary: buttons read off `held` (GPIO numbers
pressed), a display bus that takes every write and keeps nothing, and no timer (the app
loop then samples the buttons itself). Nothing here takes heap the board would not spend,
so the heap the runner reports is the firmware's and its server's."""

held = set()
# GPIO -> when (time.ticks_ms) it is pressed: a press that comes at its own moment, whatever
# the loop is doing then (serving a phone, drawing), as a finger does
press_at = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id

    def value(self, v=None):
        t = press_at.get(self.id)
        if t is not None:
            import time
            if time.ticks_diff(time.ticks_ms(), t) >= 0:
                held.add(self.id)
                del press_at[self.id]
        return 0 if self.id in held else 1     # a button shorts its pull-up to ground


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        pass

    def writeto(self, addr, buf, stop=True):
        if addr != 0x3C:
            raise OSError(19)
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        return sum(len(b) for b in bufs)

    def readfrom_into(self, addr, buf, stop=True):
        if addr != 0x3C:
            raise OSError(19)

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def scan(self):
        return [0x3C]


class Timer:
    PERIODIC = 1

    def __init__(self, id=-1):
        raise OSError("no timer")
