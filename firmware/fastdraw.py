# The drawing layer's native inner loops (firmware/fastdraw_src.py), as machine code for
# this processor: frozen into the image as fastdraw_viper, or from `make deploy` one .mpy
# per processor of the boards, fastdraw_<arch>, of which the board loads its own
# (sys.implementation._mpy names its native architecture). Where neither is there (a mip
# install from source) the board compiles the source here, once per start. firmware/gfx.py
# imports this module on MicroPython only; if nothing loads (a port with no native code),
# gfx draws with firmware/gfx_py.py.
import sys

# MicroPython's native architectures, in the order of their numbers (py/persistentcode.h)
_ARCH = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc")


def _load():
    # the deployed file first: a name looked for and not found in a folder of the
    # filesystem costs three lookups there (a few ms on littlefs), in the image almost none
    a = (sys.implementation._mpy >> 10) & 15
    name = "firmware.fastdraw_" + (_ARCH[a] if a < len(_ARCH) else "none")
    try:
        __import__(name)
        return sys.modules[name]
    except ImportError:
        pass
    try:
        from firmware import fastdraw_viper
        return fastdraw_viper
    except ImportError:
        pass
    from firmware import fastdraw_src
    ns = {}
    exec(fastdraw_src.SOURCE, ns)
    fastdraw_src = None
    # the 4 KB of source text leave RAM once compiled
    from engine_mpy.modules import forget
    forget("firmware.fastdraw_src", True)
    return _Native(ns)


class _Native:
    def __init__(self, ns):
        self.cells = ns["cells"]
        self.rect = ns["rect"]
        self.diff_rows = ns["diff_rows"]
        self.copy_rows = ns["copy_rows"]


_m = _load()
cells = _m.cells
rect = _m.rect
diff_rows = _m.diff_rows
copy_rows = _m.copy_rows
_m = None
