# The OLED: Adafruit's maintained SSD1306 driver (adafruit-circuitpython-ssd1306) does the
# chip's set-up, contrast and power; this file adds what the device needs on top of it:
# - a few-line adapter giving machine.I2C the busio-style interface the driver expects;
# - show() that sends only the page rows (8-pixel bands) that changed since the last
#   show, since a full frame costs 23.5 ms of bus time at 400 kHz and a cursor move
#   changes two rows; when most rows changed, one full frame in a single transaction;
# - SH1106 1.3-inch modules: 132-column RAM with the glass on columns 2-129 and page
#   addressing only, so rows go out page by page at column 2.
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
_DIM = const(1)           # contrast while dimmed: still readable in a dark room
_ENODEV = const(19)
_SET_CONTRAST = const(0x81)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_COM_OUT_DIR = const(0xC0)
_SET_SEG_REMAP = const(0xA0)
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
    FULL_FRAME_PAGES = 5      # this many changed rows or more: send the whole frame

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
        self.canvas = gfx.Canvas(frame[1:])
        # What the panel holds, page by page, to find the rows that changed.
        self._sent = bytearray(self._pages * _PAGE_W)
        sent = memoryview(self._sent)
        self._row = [frame[1 + p * _PAGE_W:1 + (p + 1) * _PAGE_W] for p in range(self._pages)]
        self._sent_row = [sent[p * _PAGE_W:(p + 1) * _PAGE_W] for p in range(self._pages)]
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
        """Send the rows that changed since the last show; return how many were sent."""
        rows = self._row
        sent = self._sent_row
        changed = 0
        n = 0
        for p in range(self._pages):
            if full or rows[p] != sent[p]:
                changed |= 1 << p
                n += 1
        if not n:
            return 0
        if self._sh1106:
            for p in range(self._pages):
                if changed & (1 << p):
                    self._send_sh1106(p)
        elif n >= self.FULL_FRAME_PAGES:
            self.full_frames += 1
            self._send(0, self._pages - 1)
        else:
            p = 0
            while p < self._pages:
                if changed & (1 << p):
                    q = p
                    while q + 1 < self._pages and changed & (1 << (q + 1)):
                        q += 1
                    self._send(p, q)
                    p = q + 1
                else:
                    p += 1
        for p in range(self._pages):
            if changed & (1 << p):
                sent[p][:] = rows[p]
        return n

    def _data(self, p0, p1):
        # Rows p0..p1 straight out of the driver's buffer: the byte just before them
        # stands in for the 0x40 data prefix during the write, then gets its pixels back.
        b = self.buffer
        i = p0 * _PAGE_W
        keep = b[i]
        b[i] = 0x40
        try:
            self._bus.writeto(self._addr, b, start=i, end=1 + (p1 + 1) * _PAGE_W)
        finally:
            b[i] = keep

    def _send(self, p0, p1):
        c = self._cmd
        c[0] = 0x00                      # a command stream: one transaction
        c[1] = 0x21                      # columns 0..127
        c[2] = 0
        c[3] = _PAGE_W - 1
        c[4] = 0x22                      # pages p0..p1
        c[5] = p0
        c[6] = p1
        self._bus.writeto(self._addr, c)
        self._data(p0, p1)

    def _send_sh1106(self, p):
        c = self._cmd
        c[0] = 0x00
        c[1] = 0xB0 | p                  # page p
        c[2] = 0x02                      # column 2 (low nibble), where the glass starts
        c[3] = 0x10                      # column high nibble 0
        self._bus.writeto(self._addr, c, end=4)
        self._data(p, p)

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

    def invert(self, on=True):
        self.command(_SET_NORM_INV | (1 if on else 0))

    def flip(self, on=True):
        """Turn the picture 180 degrees (a module mounted upside down); redraws it all."""
        r = 0 if on else 1     # the driver's rotate(not on)
        self.command(_SET_COM_OUT_DIR | (r << 3), _SET_SEG_REMAP | r)
        self.show(full=True)
