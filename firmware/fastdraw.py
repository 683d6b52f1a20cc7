# The drawing layer's inner loops as native code (MicroPython's viper emitter), for the
# board: a character, a column strip or a rectangle is a handful of machine instructions
# per byte here, where the same loop in bytecode costs microseconds per byte on an RP2040
# (a line of text off the 8-row grid took ~12 ms; here it takes tens of microseconds).
#
# MicroPython only: firmware/gfx.py and firmware/display.py keep the same operations in
# plain Python (the reference, and what CPython runs) and use these when this module loads.
# tests/both/test_gfx_native.py draws the same random operations both ways and compares
# every byte. A board whose MicroPython cannot compile native code fails to import this
# module and simply runs the Python versions.
#
# Native code is made for one processor, while this file is compiled to .mpy (or frozen)
# like every other, for any board. So the viper source is a string (firmware/
# fastdraw_src.py) that the board's own compiler turns into machine code for its own
# processor when this module is first imported: once, at start-up, on an RP2040, an ESP32,
# an ESP32-C3 or the PC's micropython binary alike. tests/test_deploy.py compiles the same
# source for each board's processor.
def _compile():
    from firmware import fastdraw_src
    ns = {}
    exec(fastdraw_src.SOURCE, ns)
    # A module keeps its constants while it is loaded: dropping it gives the 4 KB of
    # source text back once compiled.
    fastdraw_src = None
    from engine_mpy.modules import forget
    forget("firmware.fastdraw_src", True)
    return ns


_ns = _compile()
cells = _ns["cells"]
rect = _ns["rect"]
diff_rows = _ns["diff_rows"]
copy_rows = _ns["copy_rows"]
_ns = None
