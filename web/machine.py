# The page's `machine` module: the edges the firmware touches, in MicroPython's WebAssembly
# port, where there is no machine module (web/device.mjs puts this one on the path).
#   Pin     the page's buttons: an input reads 0 while its button is held (a pull-up
#           shorted to ground, as on a board); irq() handlers see each change the page makes
#   I2C     the display's bus: each write goes to the page (web/device.mjs decodes the
#           SSD1306's commands and draws the panel), through one buffer whose address the
#           page reads, so no bytes object is made per write
#   Timer   none: the page steps the app itself (firmware/boards/web.py)
import uctypes

import pagejs      # the page's functions (web/device.mjs registerJsModule)

_held = bytearray(8)          # GPIO -> 1 while the page holds its button
_irq = [None] * 8             # GPIO -> the firmware's edge handler (Pin.irq)
_pins = [None] * 8
_BUF = 2048
_xfer = bytearray(_BUF)
_XFER_AT = uctypes.addressof(_xfer)


def set_buttons(bits, gpios):
    """The page's buttons now held (bit i: gpios[i]); each input that changes gets its
    edge, as a board's pin interrupt would see it."""
    for i in range(len(gpios)):
        g = gpios[i]
        v = 1 if bits & (1 << i) else 0
        if _held[g] != v:
            _held[g] = v
            h = _irq[g]
            if h is not None:
                h(_pins[g])


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        _pins[id] = self

    def value(self, v=None):
        return 0 if _held[self.id] else 1

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        _irq[self.id] = handler


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self.freq = freq

    def writeto(self, addr, buf, stop=True):
        n = len(buf)
        at = 0
        while at < n:
            k = min(n - at, _BUF)
            _xfer[:k] = buf[at:at + k]
            # the page answers False where nothing is at that address (the display's probe)
            if not pagejs.i2c_write(addr, _XFER_AT, k, at + k == n):
                raise OSError(19)     # ENODEV
            at += k
        return n

    def readfrom_into(self, addr, buf):
        if addr != 0x3C:
            raise OSError(19)
        for i in range(len(buf)):
            buf[i] = 0


class Timer:
    PERIODIC = 1

    def __init__(self, id=-1):
        # no timer in the page: make_timer gives None and the app loop samples the pins
        raise ValueError("no timer in the page")


def unique_id():
    return b"webpage"
