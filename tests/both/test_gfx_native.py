# The drawing layer's native inner loops (firmware/draw/fastdraw_src.py, MicroPython's viper,
# loaded by firmware/draw/gfx.py) draw
# exactly the bytes of the Python reference (firmware/draw/gfx_py.py):
# the same seeded random operations, clipped at every edge, off the 8-row grid, inverted,
# with characters outside ASCII, go to a native and a Python canvas, compared after each.
# On MicroPython the native module must load (the build compiles it for this processor);
# CPython has no native emitter and runs the reference.
# micropython heap: 256K
import sys

import host_sim

_twin = host_sim.__file__.rsplit("/", 1)[0] + "/twin"
if _twin not in sys.path:
    sys.path.insert(0, _twin)

import machine  # noqa: E402  (the fake, from host_sim/twin)

from firmware.draw import gfx

from firmware.draw import gfx_py

from firmware.draw import fonts  # noqa: E402
from firmware.draw.display import Display  # noqa: E402
from lcg import Lcg  # noqa: E402

MPY = sys.implementation.name == "micropython"


_CHARS = "AZaz09 .:-+/!~" + "\u00e9\u20ac\x07\x7f"


def _word(r):
    return "".join(_CHARS[r.below(len(_CHARS))] for _ in range(r.below(30)))


def _op(r, c):
    k = r.below(8)
    x = r.between(-50, 140)
    y = r.between(-24, 80)
    w = r.between(-4, 140)
    h = r.between(-4, 70)
    col = r.below(2)
    if k == 0:
        return c.text(_word(r), x, y, col)
    if k == 1:
        return c.big("0123456789+-:./ x"[r.below(17):][:r.below(5)], x, y, col)
    if k == 2:
        return c.glyph(fonts.ICON_NAMES[r.below(len(fonts.ICON_NAMES))], x, y, col)
    if k == 3:
        return c.fill_rect(x, y, w, h, col)
    if k == 4:
        return c.invert_rect(x, y, w, h)
    if k == 5:
        return c.rect(x, y, w, h, col)
    if k == 6:
        return c.vline(x, y, h, col)
    return c.hline(x, y, w, col)


if MPY:   # (CPython loads no machine code at all)
    def test_a_small_heap_leaves_the_machine_code_out_of_ram():
        # On a small heap (an ESP32's, policy.small_heap) machine code that would be
        # loaded into RAM (8.4 KB of it on the emulated Pico) gives way to the Python
        # reference (1.9 KB); frozen machine code, in the flash, would still be used.
        # A stand-in for this processor's machine code from `make deploy`: found with
        # room, never on a small heap (this build also has fastdraw_viper as a .mpy,
        # standing in for the frozen module, which either heap may use)
        name = gfx.arch_module()
        stand_in = Lcg(1)                  # (any object: gfx takes it from sys.modules)
        sys.modules[name] = stand_in
        try:
            assert gfx._load_native(False) is stand_in
            got = gfx._load_native(True)
            assert got is not stand_in
            assert got is None or got is sys.modules.get("firmware.draw.fastdraw_viper")
        finally:
            del sys.modules[name]


def test_native_draws_the_reference_bytes():
    if not MPY:
        assert gfx._native is None      # CPython: the Python reference is what runs
        assert gfx.canvas(bytearray(1024))._nat is gfx_py
        assert type(gfx.canvas(bytearray(1024))) is gfx.Canvas
        return
    assert gfx._native is not None, "the native inner loops (firmware/draw/gfx.py) did not load on MicroPython"
    fast = gfx.canvas(bytearray(1024))
    ref = gfx.canvas(bytearray(1024), native=False)
    # the board's canvas: its drawing methods in machine code, over the native inner loops
    assert type(fast) is gfx.FastCanvas and fast.text is not ref.text
    assert fast._nat is gfx._native and ref._nat is gfx_py
    _draws_alike(fast, ref)


def _draws_alike(fast, ref):
    r1 = Lcg(7)
    r2 = Lcg(7)
    lit = 0
    for i in range(3000):
        if i % 200 == 0:
            fast.clear()
            ref.clear()
        a = _op(r1, fast)
        b = _op(r2, ref)
        assert a == b, (i, a, b)
        assert fast.buf == ref.buf, "op %d differs" % i
        lit += fast.buf != bytes(1024)
    assert lit > 2000      # the operations drew something most of the time


if MPY:
    def test_machine_code_carried_as_bytes_loads_into_ram_and_draws_the_reference_bytes():
        # An image for the RP2040 carries the machine code as a .mpy's bytes
        # (firmware/draw/fastdraw_mpy, frozen: in flash) and loads it into a heap block, always
        # word aligned (firmware/draw/codeload.py): the same functions, the same bytes drawn
        from firmware.draw import codeload
        from firmware.draw import fastdraw_mpy
        name = "firmware.fastdraw_from_bytes"
        loaded = codeload.load(fastdraw_mpy.MPY, name)
        real = gfx._native
        try:
            assert sys.modules[name] is loaded and loaded is not real
            assert "fastdraw_from_bytes" not in sys.modules     # only under its own name
            gfx._native = loaded
            fast = gfx.canvas(bytearray(1024))
            assert fast._nat is loaded
            _draws_alike(fast, gfx.canvas(bytearray(1024), native=False))
        finally:
            gfx._native = real
            del sys.modules[name]
        # the mount it was read through is gone, and a second load works the same
        import os
        assert "_codeload" not in os.listdir("/") and "/_codeload" not in sys.path
        assert codeload.load(fastdraw_mpy.MPY, name).fill_rect is not None
        del sys.modules[name]

    def test_bytes_made_for_another_processor_are_refused_not_run():
        from firmware.draw import codeload
        from firmware.draw import fastdraw_mpy
        other = bytearray(fastdraw_mpy.MPY)
        other[2] = (other[2] & 3) | ((4 if (other[2] >> 2) != 4 else 9) << 2)    # armv6m (or xtensa)
        try:
            codeload.load(bytes(other), "firmware.fastdraw_other")
            raise AssertionError("loaded machine code for another processor")
        except ValueError:
            pass
        assert "firmware.fastdraw_other" not in sys.modules


def test_native_scan_finds_the_changed_columns_as_the_reference_does():
    machine.reset_world("ssd1306")
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=400000)
    d = Display(i2c)
    if not MPY:
        assert d._nat is gfx_py
        return
    assert d._nat is gfx._native
    real = gfx._native
    gfx._native = None
    try:
        ref = Display(i2c)      # the Python scan and copy, on its own buffers
    finally:
        gfx._native = real
    assert ref._nat is gfx_py and ref.canvas._nat is gfx_py
    r1 = Lcg(3)
    r2 = Lcg(3)
    for i in range(300):
        k = r1.below(4)
        assert r2.below(4) == k
        for _ in range(k):
            _op(r1, d.canvas)
            _op(r2, ref.canvas)
        assert bytes(d._frame) == bytes(ref._frame), i
        n1 = ref.show()
        n2 = d.show()
        assert (n1, bytes(ref._lo), bytes(ref._hi)) == (n2, bytes(d._lo), bytes(d._hi)), i
        # what was sent is now what the panel holds, both ways
        assert d._sent == bytes(d._frame) and ref._sent == bytes(ref._frame)


class _Packed:
    """The inner loops, noting the least and the greatest int argument the canvas hands
    them, and how many."""

    def __init__(self, inner):
        self.inner = inner
        self.lo = self.hi = 0
        self.n = 0

    def _note(self, args):
        for a in args:
            if type(a) is int:
                self.lo = min(self.lo, a)
                self.hi = max(self.hi, a)
                self.n += 1

    def cells(self, *args):
        self._note(args)
        return self.inner.cells(*args)

    def rect(self, *args):
        self._note(args)
        return self.inner.rect(*args)


def test_every_packed_argument_is_a_small_int_on_a_32_bit_board():
    # A 32-bit MicroPython (RP2040, ESP32) keeps ints from -2**30 to 2**30 - 1 in the
    # object itself; a larger one is built on the heap, at every call: the drawing
    # layer's packed positions must stay in that range wherever the canvas draws.
    c = gfx.canvas(bytearray(1024), native=False)
    seen = _Packed(gfx_py)
    c._nat = seen
    r = Lcg(11)
    for i in range(3000):
        if i % 200 == 0:
            c.clear()
        _op(r, c)
    c.text("edge", 127, 63)
    c.text("edge", -23, -7)
    assert seen.n > 10000
    assert seen.lo >= -(1 << 30) and seen.hi < 1 << 30, (seen.lo, seen.hi)
