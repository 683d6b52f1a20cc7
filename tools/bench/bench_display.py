"""Display figures: render time of a full text screen and bytes on the bus per update.

On the micropython binary (the figure that matters; a board is slower by the factor in
PLATFORM.md, ~116x for an RP2040):
    make mpy BUILD=build/x   (plus the driver and twin, see docs/architecture.md, The display)
    MICROPYPATH=build/x:build/x/lib .venv/bin/micropython tools/bench/bench_display.py
Under CPython:  .venv/bin/python tools/bench/bench_display.py
"""
import sys

try:
    import time
    _us = time.ticks_us
    _diff = time.ticks_diff
except AttributeError:           # CPython
    import time
    _us = lambda: int(time.perf_counter() * 1000000)
    _diff = lambda a, b: a - b

# The repo root (two folders above this file's), after anything on MICROPYPATH (so
# compiled .mpy files win there).
_root = "/".join(__file__.split("/")[:-3]) or ("." if __file__.count("/") == 2 else "../..")
if _root not in sys.path:
    sys.path.append(_root)

import host_sim  # noqa: E402

_twin = host_sim.__file__.rsplit("/", 1)[0] + "/twin"
if _twin not in sys.path:
    sys.path.insert(0, _twin)

import machine  # noqa: E402
from firmware.draw import gfx  # noqa: E402
from firmware.draw.display import Display  # noqa: E402

LINES = (
    "Round 7   Dealer: Ann",
    "> Ann    P4   125  ok",
    "  Bob    P3    80    ",
    "  Cyd    P5   210    ",
    "  Dee    P2    45    ",
    "  Eve    P6   190    ",
    "  Fay    P1    15    ",
    "OK enter  hold: back ",
)


def render_time(n=200):
    c = gfx.canvas(bytearray(1024))
    best = None
    for _ in range(5):
        t = _us()
        for _ in range(n):
            for i in range(8):
                c.text(LINES[i], 0, i * 8)
        per = _diff(_us(), t) / n
        best = per if best is None or per < best else best
    return best


def bus_figures():
    machine.reset_world()
    i2c = machine.I2C(0, freq=400000)
    d = Display(i2c)
    c = d.canvas
    for i in range(8):
        c.text(LINES[i], 0, i * 8)
    b, k = d.bytes_sent, i2c.clocks
    d.show()
    full = (d.bytes_sent - b, (i2c.clocks - k) * 1000 // 400)       # bytes, us
    c.text(" ", 0, 8)                   # the menu cursor moves down one line
    c.text(">", 0, 16)
    b, k = d.bytes_sent, i2c.clocks
    d.show()
    cursor = (d.bytes_sent - b, (i2c.clocks - k) * 1000 // 400)
    c.text("Round 8", 0, 0)             # one text row
    b, k = d.bytes_sent, i2c.clocks
    d.show()
    row = (d.bytes_sent - b, (i2c.clocks - k) * 1000 // 400)
    ok = machine.panel().raw() == bytes(c.buf)
    return full, cursor, row, ok


def main():
    impl = sys.implementation.name
    us = render_time()
    print("%s: full text screen (8 lines x 21 chars, page-aligned): %d us" % (impl, us))
    full, cursor, row, ok = bus_figures()
    print("bus at 400 kHz (address byte + payload, 9 clocks a byte):")
    print("  full screen      %5d bytes  %6d us" % full)
    print("  cursor move      %5d bytes  %6d us  (2 adjacent text rows)" % cursor)
    print("  one text row     %5d bytes  %6d us" % row)
    print("  panel matches the frame buffer:", ok)
    return 0 if ok else 1


main()
