# The OLED, an SSD1306 (or an SH1106) on I2C. What the device needs of it:
# - the chip's set-up, byte for byte what Adafruit's maintained driver
#   (adafruit-circuitpython-ssd1306, SSD1306_I2C) sends for a 128x64 panel: its device
#   probe, its command list, one command a transaction, then the panel cleared as its
#   fill(0) and show() do (tests/test_display_setup.py holds these bytes to the driver's).
#   Sent from here rather than by loading the driver: on the .mpy install the driver and
#   its bus_device modules took 63 ms of a 550 ms start on the emulated Pico, to be
#   dropped again at once;
# - show() that sends only what changed since the last show, since a full frame costs
#   23.5 ms of bus time at 400 kHz and a cursor move changes a few characters: each run of
#   changed page rows (8-pixel bands) goes out through one column window (21h/22h) that
#   spans the columns that changed in them, a page row per data transaction (the
#   controller's pointer runs on from one to the next); one full frame in a single
#   transaction when that is fewer bytes;
# - SH1106 1.3-inch modules: 132-column RAM with the glass on columns 2-129 and page
#   addressing only, so rows go out page by page from their first changed column (+2);
# - the few commands needed later (contrast, on/off), one [0x80, command] transaction
#   each, as the driver sends them.
# Every draw goes through self.canvas (firmware/draw/gfx.py) over the frame buffer.
try:
    from micropython import const
except ImportError:
    const = lambda x: x


from firmware.draw import gfx

_PAGE_W = const(128)
_CMD_BYTES = const(8)     # on the wire: address + 00h 21h lo hi 22h p0 p1
_DATA_BYTES = const(2)    # on the wire ahead of a data transaction's pixels: address + 40h
_DIM = const(1)           # contrast while dimmed: still readable in a dark room
_ENODEV = const(19)
_SET_CONTRAST = const(0x81)
_SET_DISP = const(0xAE)
_MEM_ADDR_MODE = const(3)   # in SETUP: the byte after 20h, the addressing mode
_PAGE_MODE = const(0x10)    # (00h: horizontal, what the SSD1306's show() needs)
# The driver's power-on (AFh) and init_display() list for a 128x64 panel, internal VCC
# (charge pump on), in its order: off; horizontal addressing; start line 0; segment remap;
# multiplex 63; COM scan reversed; offset 0; COM pins 12h; clock 80h; precharge F1h;
# VCOMH 30h; contrast FFh; RAM shown; not inverted; IREF 30h; charge pump 14h; on.
SETUP = bytes((0xAF, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
               0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D,
               0x14, 0xAF))
# The driver's page-by-page clear on an SH1106 sets each page's column to these two bytes
# (its page_column_start for a 128-pixel width), wrong for that chip: cleared again after.
_SH_COL = b"\x00\x14"


class _Bus:
    """machine.I2C, counting the bytes each transaction puts on the wire (address byte +
    payload), and writing a slice of a buffer without copying it."""

    def __init__(self, i2c):
        self.i2c = i2c
        self.bytes_sent = 0

    def writeto(self, addr, buf, start=0, end=None):
        if end is None:
            end = len(buf)
        if start or end != len(buf):
            buf = memoryview(buf)[start:end]
        self.bytes_sent += 1 + end - start
        self.i2c.writeto(addr, buf)

    def readfrom_into(self, addr, buf):
        self.bytes_sent += 1 + len(buf)
        self.i2c.readfrom_into(addr, buf)


def _cost(r):
    # the bytes a run (packed, see Display.show) takes on the wire
    w = (r >> 16) - (r >> 8 & 255) + 1
    if w == _PAGE_W:     # whole rows: one data transaction
        return _CMD_BYTES + _DATA_BYTES + ((r >> 4 & 15) - (r & 15) + 1) * _PAGE_W
    return _CMD_BYTES + ((r >> 4 & 15) - (r & 15) + 1) * (_DATA_BYTES + w)


class Display:

    def __init__(self, i2c, addr=0x3C, controller="ssd1306", width=128, height=64):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError("controller must be ssd1306 or sh1106")
        if width != _PAGE_W:
            raise ValueError("width must be 128")
        self._sh1106 = controller == "sh1106"
        self._bus = _Bus(i2c)
        self._addr = addr
        # byte 0 is the 0x40 data prefix of a frame sent whole (the driver's layout)
        self.buffer = bytearray(1 + (height // 8) * _PAGE_W)
        self.buffer[0] = 0x40
        self._pages = height // 8
        frame = self._mv = memoryview(self.buffer)
        self._frame = frame[1:]
        self._keep = 0             # the byte under a data prefix, while it is sent
        self._at = 0
        self.canvas = gfx.canvas(self._frame)
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
        self._setup()
        # The set-up cleared the panel at the SSD1306's columns; an SH1106 got that at
        # the wrong columns, so clear it properly once.
        if self._sh1106:
            self.show(full=True)

    def _setup(self):
        """Find the chip (OSError ENODEV when nothing answers), set it up and clear the
        panel, in the driver's bytes (see the top of this file)."""
        bus = self._bus
        addr = self._addr
        try:
            bus.writeto(addr, b"")
        except OSError:
            # some ports refuse an empty write: a one-byte read, as the driver retries
            try:
                bus.readfrom_into(addr, bytearray(1))
            except OSError:
                raise OSError(_ENODEV, "no display at 0x%02x" % addr)
        one = self._one
        for i in range(len(SETUP)):
            one[1] = _PAGE_MODE if i == _MEM_ADDR_MODE and self._sh1106 else SETUP[i]
            bus.writeto(addr, one)
        if self._sh1106:
            # page by page: B0h+page, the two column bytes, then the page's 128 zeros
            # (the frame buffer is still all zeros: its first page row, prefix included)
            for p in range(self._pages):
                self.command(0xB0 + p, _SH_COL[0], _SH_COL[1])
                bus.writeto(addr, self.buffer, 0, 1 + _PAGE_W)
        else:
            self.command(0x21, 0, _PAGE_W - 1, 0x22, 0, self._pages - 1)
            bus.writeto(addr, self.buffer)

    @property
    def bytes_sent(self):
        """Bytes handed to the bus so far: each transaction's address byte + payload."""
        return self._bus.bytes_sent

    # show() and what it calls run for every frame: each keeps its frame within the 11
    # words MicroPython holds on the C stack (a bigger one is a heap allocation per call,
    # 0.1 to 0.5 ms on an RP2040 as its heap fills), hence the small pieces and a run of
    # changed page rows passed around packed in one small int: first page | last page << 4
    # | first column << 8 | last column << 16.
    def show(self, full=False):
        """Send what changed since the last show (everything when full); return how many
        page rows changed."""
        try:
            return self._update(full)
        finally:
            if self._at:
                self._restore()

    def _restore(self):
        # a write that failed (the panel unplugged) leaves no data prefix in the frame
        self.buffer[self._at] = self._keep
        self._at = 0

    def _update(self, full):
        if full:
            self._all()
            n = self._pages
        else:
            n = self._nat.diff_rows(self._frame, self._sent, self._lo, self._hi, self._pages)
        if not n:
            return 0
        if self._sh1106:
            self._pages_sh1106()
        elif self._windows(False) >= _CMD_BYTES + _DATA_BYTES + self._pages * _PAGE_W:
            self.full_frames += 1
            self._send((self._pages - 1) << 4 | (_PAGE_W - 1) << 16)
        else:
            self._windows(True)
        self._nat.copy_rows(self._frame, self._sent, self._lo, self._hi, self._pages)
        return n

    def _all(self):
        for p in range(self._pages):
            self._lo[p] = 0
            self._hi[p] = _PAGE_W - 1

    def _run(self, p):
        """The run of changed page rows from page p on (packed, see above), -1 for none:
        consecutive changed rows, through the columns changed in any of them."""
        lo = self._lo
        hi = self._hi
        while p < self._pages and lo[p] > hi[p]:
            p += 1
        if p >= self._pages:
            return -1
        q = p
        a = lo[p]
        z = hi[p]
        while q + 1 < self._pages and lo[q + 1] <= hi[q + 1]:
            q += 1
            if lo[q] < a:
                a = lo[q]
            if hi[q] > z:
                z = hi[q]
        return p | q << 4 | a << 8 | z << 16

    def _windows(self, send):
        """The bytes that the runs of changed rows take, each through one column window
        over the columns changed in any of its rows; sent when send is True."""
        total = 0
        r = self._run(0)
        while r >= 0:
            total += _cost(r)
            if send:
                self._send(r)
            r = self._run((r >> 4 & 15) + 1)
        return total

    def _data(self, i, j):
        # Buffer bytes i..j-1 (frame bytes, after the prefix) straight out of the driver's
        # buffer: the byte just before them stands in for the 0x40 data prefix during the
        # write, then gets its pixels back (show() puts it back if the write fails).
        b = self.buffer
        at = i - 1
        self._keep = b[at]
        self._at = at
        b[at] = 0x40
        self._bus.writeto(self._addr, self._mv[at:j])
        b[at] = self._keep
        self._at = 0

    def _send(self, r):
        # one run (packed): its column and page window, then its rows
        c = self._cmd
        a = r >> 8 & 255
        c[0] = 0x00                      # a command stream: one transaction
        c[1] = 0x21                      # columns a..z
        c[2] = a
        c[3] = r >> 16
        c[4] = 0x22                      # pages p0..p1
        c[5] = r & 15
        c[6] = r >> 4 & 15
        self._bus.writeto(self._addr, c)
        if (r >> 16) - a + 1 == _PAGE_W:
            # whole rows lie end to end in the buffer: one transaction
            self._data(1 + (r & 15) * _PAGE_W, 1 + ((r >> 4 & 15) + 1) * _PAGE_W)
        else:
            self._rows(r)

    def _rows(self, r):
        # a run narrower than the glass: a data transaction per page row
        a = r >> 8 & 255
        n = (r >> 16) - a + 1
        p = r & 15
        while p <= r >> 4 & 15:
            i = 1 + p * _PAGE_W + a
            self._data(i, i + n)
            p += 1

    def _pages_sh1106(self):
        for p in range(self._pages):
            if self._lo[p] <= self._hi[p]:
                self._page_sh1106(p)

    def _page_sh1106(self, p):
        c = self._cmd
        a = self._lo[p]
        c[0] = 0x00
        c[1] = 0xB0 | p                  # page p
        c[2] = (a + 2) & 0x0F            # column, low nibble (the glass starts at RAM
        c[3] = 0x10 | ((a + 2) >> 4)     # column 2), high nibble
        self._bus.writeto(self._addr, c, 0, 4)
        i = 1 + p * _PAGE_W + a
        self._data(i, i + self._hi[p] - a + 1)

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
