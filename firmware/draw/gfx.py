# The one drawing layer every screen uses: pure Python over a 1024-byte MONO_VLSB frame
# buffer (byte page*128 + x, bit 0 on top), with the project's own fonts, so a screen is
# pixel-identical on a board, under the micropython binary and under CPython.
#
# Text, big digits and icons are opaque: the whole cell (glyph plus its dark gap column,
# 8 or 16 rows) is written, in colour c with the rest of the cell in the other colour.
# At a y that is a multiple of 8 and fully on screen, a character is one slice copy; any
# other position costs a few byte operations per column, never a loop over pixels.
try:
    from micropython import const
except ImportError:
    const = lambda x: x

import sys

from firmware.draw import fonts

# The inner loops: native code where the runtime can run it (firmware/draw/fastdraw_src.py as
# machine code for this processor, loaded below), else the same four functions in plain
# Python (firmware/draw/gfx_py.py: the reference, CPython's path; tests/both/test_gfx_native.py
# checks they draw the same bytes). A board with native code never loads the Python ones.

# MicroPython's native architectures, in the order of their numbers (py/persistentcode.h)
_ARCH = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc")


class _Native:
    def __init__(self, ns):
        for k in ("cells", "rect", "diff_rows", "copy_rows", "newline_at", "text", "cols",
                  "glyph", "fill_rect", "invert_rect", "hline", "vline", "outline"):
            setattr(self, k, ns[k])


def arch_module():
    """The name `make deploy` gives the machine code for this processor's .mpy files."""
    a = (sys.implementation._mpy >> 10) & 15
    return "firmware.draw.fastdraw_" + (_ARCH[a] if a < len(_ARCH) else "none")


def _load_native(small):
    """The inner loops as machine code: from `make deploy` one .mpy per processor of the
    boards, fastdraw_<arch>, of which the board loads its own (sys.implementation._mpy
    names its native architecture), looked for first (a name not found in a folder of the
    filesystem costs three lookups there, a few ms on littlefs; in an image almost none);
    in an image, frozen as machine code (fastdraw_viper: where MicroPython's tools put it on
    a word, the Xtensa ESP32s) or as a .mpy's bytes (fastdraw_mpy: the RP2040 and the
    ESP32-C3, whose frozen machine code may land on a halfword, where the Cortex-M0+
    faults) loaded into RAM by firmware/draw/codeload.py; where none is there (a mip install
    from source, an image built without the project's tool) the source compiled here, once
    per start. Loaded here rather than by a module of its own: on the .mpy install each
    module imported costs ~10 ms of start-up on an RP2040. On a small heap (policy.small_heap:
    an ESP32's) only machine code that stays in flash is used: loaded into RAM, the machine
    code takes 8.4 KB of heap, where the Python that draws the same bytes
    (firmware/draw/gfx_py.py) takes 1.9 KB, on the emulated Pico's .mpy install."""
    name = arch_module()
    try:
        if not small:
            __import__(name)
            return sys.modules[name]
    except ImportError:
        pass
    try:
        from firmware.draw import fastdraw_viper
        return fastdraw_viper
    except ImportError:
        pass
    if small:
        return None
    try:
        from firmware.draw import fastdraw_mpy
    except ImportError:
        fastdraw_mpy = None
    if fastdraw_mpy is not None:
        from firmware.draw import codeload
        from engine_mpy.modules import forget
        try:
            return codeload.load(fastdraw_mpy.MPY, name)
        finally:
            # the bytes stay in the image's flash; the two modules leave RAM
            forget("firmware.draw.fastdraw_mpy", True)
            forget("firmware.draw.codeload", True)
    from firmware.draw import fastdraw_src
    ns = {}
    exec(fastdraw_src.SOURCE, ns)
    fastdraw_src = None
    # the 4 KB of source text leave RAM once compiled
    from engine_mpy.modules import forget
    forget("firmware.draw.fastdraw_src", True)
    return _Native(ns)


_native = None
if sys.implementation.name == "micropython":
    try:
        from firmware.memory.policy import small_heap
        _native = _load_native(small_heap())
    except Exception:
        # no machine code for this processor (a port without native code, a .mpy made
        # for another): the Python below draws the same bytes, slower
        _native = None
# The history's line search, in the same machine code (firmware/history/entries.py), or None
newline_at = getattr(_native, "newline_at", None)
# fastdraw's position packing, (x + _OFF) << 14 | (y + _OFF): a small int on a 32-bit
# board (past 2**30 it is a long int, built on the heap at every call)
_OFF = const(0x2000)
_TEXT = const(0x10000)  # fastdraw.cells: the cells are the characters of a str


def inner(native=True):
    """The module that draws: fastdraw (native) when it runs here and native is wanted,
    else gfx_py."""
    if native and _native is not None:
        return _native
    from firmware.draw import gfx_py
    return gfx_py


WIDTH = const(128)
HEIGHT = const(64)
LINE_H = const(8)    # text line pitch: eight lines on the screen
CHAR_W = const(6)    # every small character, its gap column included: 21 to a line
BIG_H = const(16)
ICON_W = const(8)

_SMALL = memoryview(fonts.SMALL)
_BIG = memoryview(fonts.BIG)
_ICONS = memoryview(fonts.ICONS)
# Sources for whole-byte fills (a page row or part of one, in one slice copy).
_ZEROS = memoryview(bytes(WIDTH))


class Canvas:
    def __init__(self, buf, native=True):
        self.buf = buf
        self.height = (len(buf) >> 7) << 3   # 64 for the 1024-byte screen
        self._pages = self.height >> 3
        # native=False: the Python reference even where native code runs (the tests)
        self._nat = inner(native)

    # --- areas ------------------------------------------------------------------------
    def clear(self):
        b = self.buf
        for p in range(self._pages):
            b[p << 7:(p + 1) << 7] = _ZEROS

    def fill_rect(self, x, y, w, h, c=1):
        self._rect_op(x, y, w, h, 1 if c else 0)

    def invert_rect(self, x, y, w, h):
        self._rect_op(x, y, w, h, 2)

    def hline(self, x, y, w, c=1):
        self._rect_op(x, y, w, 1, 1 if c else 0)

    def vline(self, x, y, h, c=1):
        self._rect_op(x, y, 1, h, 1 if c else 0)

    def rect(self, x, y, w, h, c=1):
        if w <= 0 or h <= 0:
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def pixel(self, x, y, c=1):
        if 0 <= x < WIDTH and 0 <= y < self.height:
            i = (y >> 3) * WIDTH + x
            if c:
                self.buf[i] |= 1 << (y & 7)
            else:
                self.buf[i] &= 0xFF ^ (1 << (y & 7))

    def get(self, x, y):
        if 0 <= x < WIDTH and 0 <= y < self.height:
            return (self.buf[(y >> 3) * WIDTH + x] >> (y & 7)) & 1
        return 0

    def _rect_op(self, x, y, w, h, op):
        # op 0 clear, 1 set, 2 invert; the inner loop clips it to the screen
        self._nat.rect(self.buf, x, y, w, h, op)

    # --- glyph columns ----------------------------------------------------------------
    def _cols(self, src, start, n, x, y, inv):
        """Write n glyph columns src[start:start+n] as an opaque 8-row strip at (x, y),
        bits flipped when inv is 0xFF; clipped at every edge."""
        if n < 256 and x < WIDTH and x + n > 0 and -8 < y < self.height:
            self._nat.cells(self.buf, src, src, start << 8 | n, (x + _OFF) << 14 | (y + _OFF),
                            self._pages << 8 | inv)

    # --- text -------------------------------------------------------------------------
    def text(self, s, x, y, c=1):
        """Draw s in the small font with its top-left at (x, y); return the x after it."""
        # c 0: dark text on a lit background, every bit of the cells flipped
        n = len(s)
        if x < WIDTH and x + n * CHAR_W > 0 and -8 < y < self.height and x > -_OFF:
            self._nat.cells(self.buf, _SMALL, s, n, (x + _OFF) << 14 | (y + _OFF),
                            _TEXT | self._pages << 8 | (0 if c else 0xFF))
        return x + n * CHAR_W

    def text_width(self, s):
        return len(s) * CHAR_W

    # --- big digits -------------------------------------------------------------------
    def big(self, s, x, y, c=1):
        """Draw s (digits and + - : . / space) 16 rows tall; return the x after it.
        Any other character draws as a blank the width of a digit."""
        inv = 0 if c else 0xFF
        chars = fonts.BIG_CHARS
        widths = fonts.BIG_W
        offs = fonts.BIG_OFF
        for ch in s:
            i = chars.find(ch)
            if i < 0:
                i = chars.find(" ")
                w = widths[0]
                self._rect_op(x, y, w, BIG_H, 0 if c else 1)
                x += w
                continue
            w = widths[i]
            if x < WIDTH and x + w > 0:
                self._cols(_BIG, offs[i], w, x, y, inv)
                self._cols(_BIG, offs[i] + w, w, x, y + 8, inv)
            x += w
        return x

    def big_width(self, s):
        chars = fonts.BIG_CHARS
        widths = fonts.BIG_W
        w = 0
        for ch in s:
            i = chars.find(ch)
            w += widths[i if i >= 0 else 0]
        return w

    # --- icons ------------------------------------------------------------------------
    def glyph(self, name, x, y, c=1):
        """Draw the icon called name (see fonts.ICON_NAMES) at (x, y); return the x after."""
        i = fonts.ICON_NAMES.index(name)   # ValueError names the unknown icon
        self._cols(_ICONS, i * ICON_W, ICON_W, x, y, 0 if c else 0xFF)
        return x + ICON_W


if _native is not None:
    class FastCanvas(Canvas):
        """The canvas a board draws with: the drawing methods in machine code
        (firmware/draw/fastdraw_src.py says why), the rest inherited."""
        text = _native.text
        _cols = _native.cols
        glyph = _native.glyph
        fill_rect = _native.fill_rect
        invert_rect = _native.invert_rect
        hline = _native.hline
        vline = _native.vline
        rect = _native.outline
else:
    FastCanvas = Canvas


def canvas(buf, native=True):
    """A canvas over buf: where native code runs and native is wanted, the FastCanvas;
    else the Python methods (CPython's, and the reference the tests compare with)."""
    if native and _native is not None:
        return FastCanvas(buf)
    return Canvas(buf, native)
