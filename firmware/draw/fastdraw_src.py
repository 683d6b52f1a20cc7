# The drawing layer's inner loops as native code (MicroPython's viper emitter), for the
# board (and the history's search for line ends, newline_at, the only other loop over
# every byte): a character, a column strip or a rectangle is a handful of machine instructions
# per byte here, where the same loop in bytecode costs microseconds per byte on an RP2040
# (a line of text off the 8-row grid took ~12 ms; here it takes tens of microseconds).
#
# Native code is made for one processor, and the app's files compile for any (mpy-cross
# with no processor named refuses viper), so the viper source is this string. It becomes
# machine code before it reaches a board: the frozen image's firmware/draw/fastdraw_viper
# (tools/build/native.py writes it out for the port's own mpy-cross), `make deploy`'s
# firmware/draw/fastdraw_armv6m.mpy, _xtensawin, _rv32imc (firmware/draw/gfx.py loads the
# board's own), `make mpy`'s for this machine. Only where none is there (a mip install
# from source) does the board compile it at start: that made the import seven times as
# long and needed a 24 KB heap against under 8 KB (the unix port).
# MicroPython only: firmware/draw/gfx_py.py keeps the same operations in plain Python (the
# reference, and what CPython runs); tests/both/test_gfx_native.py draws the same random
# operations both ways and compares every byte.
SOURCE = r'''
import micropython
from micropython import const

# Positions come packed, x and y each offset by _OFF into 14 bits (viper takes few
# arguments): xy = (x + _OFF) << 14 | (y + _OFF), under 2**28 so a small int on a 32-bit
# board (a packing past 2**30 made each call build two long ints: four heap blocks).
_OFF = const(0x2000)
_W = const(128)


_TEXT = const(0x10000)    # mode bit: s is a str of small-font characters


@micropython.viper
def cells(buf, src, s, sn: int, xy: int, mode: int):
    """Opaque 8-row glyph cells at (x, y), bits flipped by inv, clipped at every edge;
    mode = _TEXT (or 0) | pages << 8 | inv.
    Text: the sn characters of the str s, each a 6-column cell of the small font src. A
    str is UTF-8 inside: a character outside ASCII 32..126 is the missing-char box (cell
    95), once per character (continuation bytes 80..BF belong to the one before).
    Otherwise one strip: the n columns src[start:start+n], sn = start << 8 | n."""
    x = (xy >> 14) - _OFF
    y = (xy & 0x3FFF) - _OFF
    pages = (mode >> 8) & 0xFF
    inv = mode & 0xFF
    if y <= -8 or y >= pages * 8:
        return
    p = ((y + 8) >> 3) - 1        # floor(y / 8) for y > -8
    sh = y & 7
    top = p >= 0
    bot = sh != 0 and p + 1 < pages
    keep_top = (1 << sh) - 1      # rows above the strip in page p
    keep_bot = 0xFF ^ keep_top    # rows below it in page p + 1
    o1 = p * _W
    o2 = o1 + _W
    b = ptr8(buf)
    g8 = ptr8(src)
    text = mode & _TEXT
    t = ptr8(s)
    n = sn                        # cells to draw
    w = 6
    k = 0
    if not text:
        n = 1
        w = sn & 0xFF
        k = sn >> 8
    i = 0
    while n > 0 and x < _W:
        if text:
            ch = t[i]
            i += 1
            if ch >= 0x80 and ch < 0xC0:
                continue
            k = ch - 32
            if k < 0 or k > 94:
                k = 95
            k *= 6
        n -= 1
        j = 0
        while j < w:
            xx = x + j
            if xx >= 0 and xx < _W:
                g = g8[k + j] ^ inv
                if top:
                    b[o1 + xx] = (b[o1 + xx] & keep_top) | ((g << sh) & 0xFF)
                if bot:
                    b[o2 + xx] = (b[o2 + xx] & keep_bot) | (g >> (8 - sh))
            j += 1
        x += w


@micropython.viper
def rect(buf, x: int, y: int, w: int, h: int, op: int):
    """Clear (op 0), set (1) or invert (2) the w x h rectangle at (x, y), clipped to the
    screen (buf's 128-byte page rows)."""
    # clipped by its corners: x..x2-1, y..y2-1 within the screen
    x2 = x + w
    y2 = y + h
    bottom = (int(len(buf)) >> 7) << 3
    x = 0 if x < 0 else x
    y = 0 if y < 0 else y
    x2 = _W if x2 > _W else x2
    y2 = bottom if y2 > bottom else y2
    if x2 <= x or y2 <= y:
        return
    w = x2 - x
    b = ptr8(buf)
    p = y >> 3
    last = (y2 - 1) >> 3
    while p <= last:
        t = p << 3
        m = 0xFF
        if y > t:
            m &= (0xFF << (y - t)) & 0xFF
        if y2 < t + 8:
            m &= (1 << (y2 - t)) - 1
        o = p * _W + x
        e = o + w
        if op == 1:
            while o < e:
                b[o] |= m
                o += 1
        elif op == 0:
            k = 0xFF ^ m
            while o < e:
                b[o] &= k
                o += 1
        else:
            while o < e:
                b[o] ^= m
                o += 1
        p += 1


# The canvas's drawing methods (firmware/draw/gfx.py FastCanvas binds them): the same
# arguments, clipping and results as gfx.Canvas's Python methods, in machine code. A
# bytecode method whose locals and stack pass 11 words gets its frame from the heap at
# every call (MicroPython's fun_bc_call), and a screen draws with dozens of these calls;
# native code keeps its frame on the C stack, so drawing allocates nothing.
from firmware.draw import fonts
_SMALL = memoryview(fonts.SMALL)
_ICONS = memoryview(fonts.ICONS)
_ICON_NAMES = fonts.ICON_NAMES


@micropython.native
def text(self, s, x, y, c=1):
    n = len(s)
    if x < _W and x + n * 6 > 0 and -8 < y < self.height and x > -_OFF:
        cells(self.buf, _SMALL, s, n, (x + _OFF) << 14 | (y + _OFF),
              _TEXT | self._pages << 8 | (0 if c else 0xFF))
    return x + n * 6


@micropython.native
def cols(self, src, start, n, x, y, inv):
    if n < 256 and x < _W and x + n > 0 and -8 < y < self.height:
        cells(self.buf, src, src, start << 8 | n, (x + _OFF) << 14 | (y + _OFF),
              self._pages << 8 | inv)


@micropython.native
def glyph(self, name, x, y, c=1):
    i = _ICON_NAMES.index(name)   # ValueError names the unknown icon
    if x < _W and x + 8 > 0 and -8 < y < self.height:
        cells(self.buf, _ICONS, _ICONS, i << 11 | 8, (x + _OFF) << 14 | (y + _OFF),
              self._pages << 8 | (0 if c else 0xFF))
    return x + 8


@micropython.native
def fill_rect(self, x, y, w, h, c=1):
    rect(self.buf, x, y, w, h, 1 if c else 0)


@micropython.native
def invert_rect(self, x, y, w, h):
    rect(self.buf, x, y, w, h, 2)


@micropython.native
def hline(self, x, y, w, c=1):
    rect(self.buf, x, y, w, 1, 1 if c else 0)


@micropython.native
def vline(self, x, y, h, c=1):
    rect(self.buf, x, y, 1, h, 1 if c else 0)


@micropython.native
def outline(self, x, y, w, h, c=1):
    if w > 0 and h > 0:
        b = self.buf
        op = 1 if c else 0
        rect(b, x, y, w, 1, op)
        rect(b, x, y + h - 1, w, 1, op)
        rect(b, x, y, 1, h, op)
        rect(b, x + w - 1, y, 1, h, op)


@micropython.viper
def diff_rows(frame, sent, lo, hi, pages: int) -> int:
    """Per 128-byte page row, the first and last column where frame and sent differ, into
    lo[p] and hi[p] (lo 1, hi 0 for a row that did not change); returns how many changed."""
    a = ptr8(frame)
    b = ptr8(sent)
    l8 = ptr8(lo)
    h8 = ptr8(hi)
    n = 0
    p = 0
    while p < pages:
        o = p * _W
        i = 0
        while i < _W and a[o + i] == b[o + i]:
            i += 1
        if i == _W:
            l8[p] = 1
            h8[p] = 0
        else:
            j = _W - 1
            while a[o + j] == b[o + j]:
                j -= 1
            l8[p] = i
            h8[p] = j
            n += 1
        p += 1
    return n


@micropython.viper
def copy_rows(frame, sent, lo, hi, pages: int):
    """What was sent is what the panel holds now: frame's columns lo[p]..hi[p] of each page
    row p into sent."""
    a = ptr8(frame)
    b = ptr8(sent)
    l8 = ptr8(lo)
    h8 = ptr8(hi)
    p = 0
    while p < pages:
        o = p * _W
        i = o + int(l8[p])
        e = o + int(h8[p])
        while i <= e:
            b[i] = a[i]
            i += 1
        p += 1


@micropython.viper
def newline_at(buf, k: int, n: int) -> int:
    """The first position from k below n where buf (a bytearray: word-aligned) holds a
    newline (10), or -1. Not drawing, but the one other loop over every byte the device
    runs: indexing a history file (firmware/history/entries.py). bytes.find compares byte by byte
    through memcmp, 55 cycles a byte on an RP2040; a byte loop here still took 35. So four
    bytes at a time: a word XOR "\\n\\n\\n\\n" has a zero byte where a newline is, and
    (v - 0x01010101) & ~v & 0x80808080 is not 0 exactly when v has a zero byte."""
    b = ptr8(buf)
    w = ptr32(buf)
    while k < n and (k & 3):
        if b[k] == 10:
            return k
        k += 1
    if k >= n:
        return -1
    # Made from small numbers at run time: mpy-cross's armv6m code (the frozen image) got
    # these words wrong as literals (the board's own compiler did not); 0x80808080 is no
    # small int at all.
    lo = 1
    lo |= lo << 8
    lo |= lo << 16          # 0x01010101
    nl = lo * 10            # 0x0A0A0A0A: "\\n" in every byte
    hi = lo << 7            # 0x80808080
    i = k >> 2
    e = n >> 2
    while i < e:
        v = w[i] ^ nl
        if (v - lo) & (v ^ -1) & hi:
            break
        i += 1
    k = i << 2              # k was word-aligned: never before where it was
    while k < n:
        if b[k] == 10:
            return k
        k += 1
    return -1
'''
