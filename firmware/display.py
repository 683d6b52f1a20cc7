# The OLED: Adafruit's maintained SSD1306 driver (adafruit-circuitpython-ssd1306) does the
# chip's set-up, contrast and power; this file adds what the device needs on top of it:
# - a few-line adapter giving machine.I2C the busio-style interface the driver expects;
# - show() that sends only what changed since the last show, since a full frame costs
#   23.5 ms of bus time at 400 kHz and a cursor move changes a few characters: each run of
#   changed page rows (8-pixel bands) goes out through one column window (21h/22h) that
#   spans the columns that changed in them, a page row per data transaction (the
#   controller's pointer runs on from one to the next); one full frame in a single
#   transaction when that is fewer bytes;
# - SH1106 1.3-inch modules: 132-column RAM with the glass on columns 2-129 and page
#   addressing only, so rows go out page by page from their first changed column (+2).
# - once the chip is set up, the driver's code is dropped from RAM (about 13 KB on the
#   64-bit twin, half that on a board): the frame buffer it allocated stays, and the few
#   commands needed later (contrast, on/off, invert, flip) go out exactly as the driver
#   sends them, one [0x80, command] transaction each.
# Every draw goes through self.canvas (firmware/gfx.py) over the driver's frame buffer.
try:
    from micropython import const
except ImportError:
    const = lambda x: x

import sys

from firmware import gfx

_PAGE_W = const(128)
_CMD_BYTES = const(8)     # on the wire: address + 00h 21h lo hi 22h p0 p1
_DATA_BYTES = const(2)    # on the wire ahead of a data transaction's pixels: address + 40h
_DIM = const(1)           # contrast while dimmed: still readable in a dark room
_ENODEV = const(19)
_SET_CONTRAST = const(0x81)
_SET_DISP = const(0xAE)
# The driver and its bus helper: needed only to set the chip up.
_DRIVER_MODULES = ("adafruit_ssd1306", "adafruit_bus_device.i2c_device",
                   "adafruit_bus_device.spi_device", "adafruit_bus_device")


class _Bus:
    """machine.I2C as the busio-like object adafruit_bus_device.I2CDevice drives: it only
    needs try_lock/unlock (nothing else shares this bus) and writeto with start/end."""

    def __init__(self, i2c):
        self.i2c = i2c
        self.bytes_sent = 0     # address byte + payload, per transaction

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def writeto(self, addr, buf, *, start=0, end=None):
        if end is None:
            end = len(buf)
        if start or end != len(buf):
            buf = memoryview(buf)[start:end]
        self.bytes_sent += 1 + end - start
        self.i2c.writeto(addr, buf)

    def readfrom_into(self, addr, buf, *, start=0, end=None):
        if end is None:
            end = len(buf)
        self.bytes_sent += 1 + end - start
        self.i2c.readfrom_into(addr, memoryview(buf)[start:end])


class Display:

    def __init__(self, i2c, addr=0x3C, controller="ssd1306", width=128, height=64):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError("controller must be ssd1306 or sh1106")
        if width != _PAGE_W:
            raise ValueError("width must be 128")
        self._sh1106 = controller == "sh1106"
        self._bus = _Bus(i2c)
        self._addr = addr
        import adafruit_ssd1306
        try:
            # page_addressing for the SH1106 keeps the driver away from 21h/22h, which that
            # chip does not have (it would read their arguments as other commands).
            driver = adafruit_ssd1306.SSD1306_I2C(
                width, height, self._bus, addr=addr, page_addressing=self._sh1106)
        except ValueError:   # the driver's "No I2C device at address"
            raise OSError(_ENODEV, "no display at 0x%02x" % addr)
        finally:
            adafruit_ssd1306 = None
            # (CPython keeps them: the simulator builds many displays and has RAM to spare.)
            if sys.implementation.name == "micropython":
                for m in _DRIVER_MODULES:
                    sys.modules.pop(m, None)
        # byte 0 is the driver's 0x40 data prefix
        self.buffer = driver.buffer
        driver = None
        self._pages = height // 8
        frame = memoryview(self.buffer)
        self._frame = frame[1:]
        self.canvas = gfx.Canvas(self._frame)
        # the scan and copy below: native code, or the Python reference (CPython)
        self._nat = self.canvas._nat
        # What the panel holds, page by page, to find the rows that changed.
        self._sent = bytearray(self._pages * _PAGE_W)
        # Per page, the first and last column that changed (first > last: none).
        self._lo = bytearray(self._pages)
        self._hi = bytearray(self._pages)
        self._cmd = bytearray(7)   # 00h + a command string, reused for every update
        self._one = bytearray(2)   # 80h + one command byte, as the driver sends them
        self._one[0] = 0x80
        self._contrast = 0xFF      # the driver's init value
        self.dimmed = False
        self.is_on = True
        self.full_frames = 0       # shows that sent the whole frame
        # The driver's init cleared the panel through horizontal addressing; an SH1106
        # got that at the wrong columns, so clear it properly once.
        if self._sh1106:
            self.show(full=True)

    @property
    def bytes_sent(self):
        """Bytes handed to the bus so far: each transaction's address byte + payload."""
        return self._bus.bytes_sent

    def show(self, full=False):
        """Send what changed since the last show (everything when full); return how many
        page rows changed."""
        lo = self._lo
        hi = self._hi
        pages = self._pages
        if full:
            for p in range(pages):
                lo[p] = 0
                hi[p] = _PAGE_W - 1
            n = pages
        else:
            n = self._nat.diff_rows(self._frame, self._sent, lo, hi, pages)
        if not n:
            return 0
        if self._sh1106:
            for p in range(pages):
                if lo[p] <= hi[p]:
                    self._send_sh1106(p, lo[p], hi[p])
        elif self._windows(False) >= _CMD_BYTES + _DATA_BYTES + pages * _PAGE_W:
            self.full_frames += 1
            self._send(0, pages - 1, 0, _PAGE_W - 1)
        else:
            self._windows(True)
        self._nat.copy_rows(self._frame, self._sent, lo, hi, pages)
        return n

    def _windows(self, send):
        """The bytes that the runs of changed rows take, each through one column window
        over the columns changed in any of its rows; sent when send is True."""
        lo = self._lo
        hi = self._hi
        pages = self._pages
        total = 0
        p = 0
        while p < pages:
            if lo[p] > hi[p]:
                p += 1
                continue
            q = p
            a = lo[p]
            z = hi[p]
            while q + 1 < pages and lo[q + 1] <= hi[q + 1]:
                q += 1
                if lo[q] < a:
                    a = lo[q]
                if hi[q] > z:
                    z = hi[q]
            w = z - a + 1
            if w == _PAGE_W:   # whole rows lie end to end in the buffer: one transaction
                total += _CMD_BYTES + _DATA_BYTES + (q - p + 1) * _PAGE_W
            else:
                total += _CMD_BYTES + (q - p + 1) * (_DATA_BYTES + w)
            if send:
                self._send(p, q, a, z)
            p = q + 1
        return total

    def _data(self, i, j):
        # Buffer bytes i..j-1 (frame bytes, after the prefix) straight out of the driver's
        # buffer: the byte just before them stands in for the 0x40 data prefix during the
        # write, then gets its pixels back.
        b = self.buffer
        keep = b[i - 1]
        b[i - 1] = 0x40
        try:
            self._bus.writeto(self._addr, b, start=i - 1, end=j)
        finally:
            b[i - 1] = keep

    def _send(self, p0, p1, a, z):
        c = self._cmd
        c[0] = 0x00                      # a command stream: one transaction
        c[1] = 0x21                      # columns a..z
        c[2] = a
        c[3] = z
        c[4] = 0x22                      # pages p0..p1
        c[5] = p0
        c[6] = p1
        self._bus.writeto(self._addr, c)
        if z - a + 1 == _PAGE_W:
            self._data(1 + p0 * _PAGE_W, 1 + (p1 + 1) * _PAGE_W)
        else:
            for p in range(p0, p1 + 1):
                i = 1 + p * _PAGE_W + a
                self._data(i, i + z - a + 1)

    def _send_sh1106(self, p, a, z):
        c = self._cmd
        col = a + 2                      # the glass starts at RAM column 2
        c[0] = 0x00
        c[1] = 0xB0 | p                  # page p
        c[2] = col & 0x0F                # column, low nibble
        c[3] = 0x10 | (col >> 4)         # column, high nibble
        self._bus.writeto(self._addr, c, end=4)
        i = 1 + p * _PAGE_W + a
        self._data(i, i + z - a + 1)

    def command(self, *cmds):
        """Send command bytes one transaction each, the way the driver does."""
        one = self._one
        for c in cmds:
            one[1] = c
            self._bus.writeto(self._addr, one)

    def contrast(self, v):
        """Set the contrast (0-255); while dimmed it is remembered for dim(False)."""
        self._contrast = max(0, min(255, int(v)))
        if not self.dimmed:
            self.command(_SET_CONTRAST, self._contrast)

    def dim(self, on=True):
        self.dimmed = bool(on)
        self.command(_SET_CONTRAST, _DIM if on else self._contrast)

    def power(self, on=True):
        """Panel on or off (the RAM keeps the picture; nothing is resent)."""
        self.command(_SET_DISP | (1 if on else 0))
        self.is_on = bool(on)
