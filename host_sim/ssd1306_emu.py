"""An SSD1306 (or SH1106) controller emulator: it decodes the bytes a driver really sends
over I2C into display RAM, and shows the panel as the glass would.

Runs under CPython and the micropython binary (the twin), so only plain Python here;
Pillow is imported lazily by png() on the host.

Modelled (Solomon Systech SSD1306 datasheet rev 1.5, sections 8-10; Sino Wealth SH1106 1.0):
- control bytes: 0x80 one command then another control byte, 0x00 commands to the end,
  0x40 data to the end, 0xC0 one data byte then another control byte. Commands and their
  arguments may come in separate writes (both common drivers do that), so the parser keeps
  its state between writes.
- SSD1306 addressing: horizontal (20h 00), vertical (01) and page (02) modes, column (21h)
  and page (22h) windows with wrap, page-mode pointers (B0-B7, 00-0F, 10-1F).
  SH1106: page addressing only, 132-column RAM with the glass on columns 2-129.
- segment remap A0/A1 applies as RAM is written (as on the chip); COM scan C0/C8, start
  line 40h-7Fh, display offset D3h and multiplex A8h apply as the panel is read. The
  emulated module is the common one: with A1 and C8 (what every driver sends) column 0 is
  on the left and page 0 at the top.
- AE/AF on/off, 81h contrast, A4/A5 RAM or all-on, A6/A7 normal or inverse; ADh and the
  timing commands are accepted and ignored; scrolling commands are accepted, not animated.
Problems never raise: a malformed write goes to .errors, an unknown command to .unknown.
"""

SSD1306 = "ssd1306"
SH1106 = "sh1106"

# Commands with arguments: opcode -> number of argument bytes.
_ARGS_SSD1306 = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
    0xD9: 1, 0xDA: 1, 0xDB: 1, 0xD6: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
}
_ARGS_SH1106 = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Controller:
    def __init__(self, kind=SSD1306, width=128, height=64):
        if kind not in (SSD1306, SH1106):
            raise ValueError("controller must be ssd1306 or sh1106")
        self.kind = kind
        self.width = width
        self.height = height
        self.pages = height // 8
        self.ram_w = 132 if kind == SH1106 else 128
        self._offset = 2 if kind == SH1106 else 0     # first RAM column on the glass
        self._args_for = _ARGS_SH1106 if kind == SH1106 else _ARGS_SSD1306
        self.ram = bytearray(self.pages * self.ram_w)
        self.errors = []      # malformed writes: (write number, message)
        self.unknown = []     # opcodes this controller does not know, in order seen
        self.writes = 0       # transactions received
        self.data_bytes = 0   # bytes written into RAM
        self.reset()

    def reset(self):
        """Power-on state of the chip (datasheet reset values)."""
        self.on = False
        self.contrast = 0x7F
        self.inverse = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.offset = 0
        self.mux = self.height - 1
        self.mode = 2                     # page addressing after reset
        self.col_start, self.col_end = 0, self.ram_w - 1
        self.page_start, self.page_end = 0, self.pages - 1
        self.col = 0
        self.page = 0
        self.settings = {}                # timing/charge-pump values, kept for inspection
        self._cmd = -1                    # command waiting for arguments
        self._args = []
        self._need = 0

    # --- the bus side -----------------------------------------------------------------
    def write(self, buf):
        """One I2C write transaction (the bytes after the address)."""
        self.writes += 1
        n = len(buf)
        i = 0
        while i < n:
            ctrl = buf[i]
            i += 1
            if ctrl & 0x3F:
                self._error("control byte 0x%02x has low bits set" % ctrl)
                return
            dc = ctrl & 0x40
            if ctrl & 0x80:                   # Co=1: one byte, then another control byte
                if i >= n:
                    self._error("control byte 0x%02x with nothing after it" % ctrl)
                    return
                if dc:
                    self._data(buf[i])
                else:
                    self._command(buf[i])
                i += 1
            else:                             # Co=0: the rest is one stream
                if i >= n:
                    self._error("control byte 0x%02x with nothing after it" % ctrl)
                if dc:
                    while i < n:
                        self._data(buf[i])
                        i += 1
                else:
                    while i < n:
                        self._command(buf[i])
                        i += 1

    def read(self):
        """The status byte a read returns: bit 6 set while the display is off."""
        return 0 if self.on else 0x40

    def _error(self, msg):
        self.errors.append((self.writes, msg))

    # --- commands ---------------------------------------------------------------------
    def _command(self, b):
        if self._need:
            self._args.append(b)
            self._need -= 1
            if not self._need:
                self._apply(self._cmd, self._args)
            return
        n = self._args_for.get(b, 0)
        if n:
            self._cmd = b
            self._args = []
            self._need = n
            return
        self._single(b)

    def _single(self, b):
        sh = self.kind == SH1106
        if b < 0x10:
            if self.mode == 2 or sh:
                self.col = (self.col & 0xF0) | b
        elif b < 0x20:
            if self.mode == 2 or sh:
                self.col = (self.col & 0x0F) | ((b & 0x0F) << 4)
        elif 0x40 <= b <= 0x7F:
            self.start_line = b & 0x3F
        elif b in (0xA0, 0xA1):
            self.seg_remap = b == 0xA1
        elif b in (0xA4, 0xA5):
            self.entire_on = b == 0xA5
        elif b in (0xA6, 0xA7):
            self.inverse = b == 0xA7
        elif b in (0xAE, 0xAF):
            self.on = b == 0xAF
        elif 0xB0 <= b <= 0xB7:
            if self.mode == 2 or sh:
                self.page = b & 0x07
        elif b in (0xC0, 0xC8) or (sh and 0xC0 <= b <= 0xCF):
            self.com_remap = bool(b & 0x08)
        elif b == 0xE3:
            pass                                # NOP
        elif not sh and b in (0x2E, 0x2F):
            self.settings["scroll"] = b == 0x2F
        elif sh and (0x30 <= b <= 0x33 or b in (0xE0, 0xEE)):
            self.settings[b] = True             # pump voltage, read-modify-write
        else:
            self.unknown.append(b)

    def _apply(self, cmd, a):
        if cmd == 0x20:
            self.mode = a[0] & 0x03
            if self.mode == 3:
                self._error("addressing mode 3 is invalid")
                self.mode = 2
        elif cmd == 0x21:
            self.col_start, self.col_end = a[0] & 0x7F, a[1] & 0x7F
            self.col = self.col_start
        elif cmd == 0x22:
            self.page_start, self.page_end = a[0] & 0x07, a[1] & 0x07
            self.page = self.page_start
        elif cmd == 0x81:
            self.contrast = a[0]
        elif cmd == 0xA8:
            self.mux = max(15, a[0] & 0x3F)
        elif cmd == 0xD3:
            self.offset = a[0] & 0x3F
        else:
            self.settings[cmd] = a[0] if len(a) == 1 else tuple(a)

    # --- RAM writes -------------------------------------------------------------------
    def _data(self, b):
        self.data_bytes += 1
        col = self.col
        if col < self.ram_w and self.page < self.pages:
            seg = (self.ram_w - 1 - col) if self.seg_remap else col
            self.ram[self.page * self.ram_w + seg] = b
        if self.kind == SH1106 or self.mode == 2:
            # Page mode: the column moves on within the page (SH1106: stops at its end).
            if col < self.ram_w - 1:
                self.col = col + 1
            elif self.kind != SH1106:
                self.col = 0
            else:
                self.col = self.ram_w
        elif self.mode == 0:
            if col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col = col + 1
        else:                                   # vertical
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if col >= self.col_end else col + 1
            else:
                self.page += 1

    # --- the glass side ---------------------------------------------------------------
    def _ram_row(self, y):
        """RAM row shown on panel row y (top = 0), or -1 when the row is not driven."""
        i = y if self.com_remap else self.height - 1 - y
        i = (i + self.offset) % 64
        if i > self.mux:
            return -1
        return (i + self.start_line) % 64

    def _seg(self, x):
        # The glass's left edge is the last segment; with A1 that is RAM column 0 (+offset).
        return self.ram_w - 1 - self._offset - x

    def pixel(self, x, y):
        """1 if panel pixel (x, y) is lit, as the viewer sees it."""
        if not self.on:
            return 0
        if self.entire_on:
            return 1
        r = self._ram_row(y)
        if r < 0:
            return 0
        v = (self.ram[(r >> 3) * self.ram_w + self._seg(x)] >> (r & 7)) & 1
        return v ^ 1 if self.inverse else v

    def raw(self, into=None):
        """The panel as 1024 MONO_VLSB bytes (page*128 + x, bit 0 on top): comparable
        byte for byte with the frame buffer the firmware drew. into: a bytearray of that
        size to fill and return instead (the twin keeps one, so reading the panel takes
        none of the heap under test)."""
        out = into if into is not None else bytearray(self.pages * self.width)
        if not self.on or self.entire_on:
            v = 0xFF if self.on else 0
            for i in range(len(out)):
                out[i] = v
            return out if into is not None else bytes(out)
        w = self.ram_w
        ram = self.ram
        upright = (self.com_remap and self.start_line == 0 and self.offset == 0
                   and self.mux == self.height - 1)
        flip = 0xFF if self.inverse else 0
        for p in range(self.pages):
            o = p * self.width
            if upright:
                base = p * w
                for x in range(self.width):
                    out[o + x] = ram[base + self._seg(x)] ^ flip
            else:
                for x in range(self.width):
                    v = 0
                    for k in range(8):
                        v |= self.pixel(x, p * 8 + k) << k
                    out[o + x] = v
        return out if into is not None else bytes(out)

    def row(self, y, raw=None):
        """Pixel row y as a string of 128 characters, '#' lit, '.' dark (raw: self.raw(),
        passed in when printing row by row, so the twin never holds all 64 at once)."""
        if raw is None:
            raw = self.raw()
        o = (y >> 3) * self.width
        bit = 1 << (y & 7)
        b = bytearray(self.width)
        for x in range(self.width):
            b[x] = 35 if raw[o + x] & bit else 46   # '#' or '.'
        return b.decode()

    def rows(self):
        """The panel as a list of 64 strings of 128 characters: '#' lit, '.' dark."""
        raw = self.raw()
        return [self.row(y, raw) for y in range(self.height)]

    def text(self):
        return "\n".join(self.rows()) + "\n"

    def png(self, path, scale=4):
        """Write the panel as a PNG to path (a file name or a binary file) (host only). Lit
        pixels are as bright as the contrast."""
        from PIL import Image   # Pillow only where a PNG is wanted

        raw = self.raw()
        lit = 64 + (191 * self.contrast) // 255
        img = Image.new("L", (self.width, self.height), 0)
        px = img.load()
        for y in range(self.height):
            o = (y >> 3) * self.width
            bit = 1 << (y & 7)
            for x in range(self.width):
                if raw[o + x] & bit:
                    px[x, y] = lit
        if scale != 1:
            img = img.resize((self.width * scale, self.height * scale), Image.NEAREST)
        img.save(path, format="PNG")
        return img
