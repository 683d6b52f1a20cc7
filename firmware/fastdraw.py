# The drawing layer's native inner loops (firmware/fastdraw_viper.py), as machine code for
# this processor: frozen into the image (or installed as source, compiled by the board at
# its first import) as fastdraw_viper; from `make deploy`, one .mpy per processor of the
# boards, fastdraw_<arch>, of which the board loads its own (sys.implementation._mpy names
# its native architecture). firmware/gfx.py imports this module on MicroPython only; if
# none of them loads (a port with no native code), gfx draws with firmware/gfx_py.py.
import sys

# MicroPython's native architectures, in the order of their numbers (py/persistentcode.h)
_ARCH = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc")


def _load():
    try:
        from firmware import fastdraw_viper
        return fastdraw_viper
    except ImportError:
        pass
    a = (sys.implementation._mpy >> 10) & 15
    name = "firmware.fastdraw_" + (_ARCH[a] if a < len(_ARCH) else "none")
    __import__(name)
    return sys.modules[name]


_m = _load()
cells = _m.cells
rect = _m.rect
diff_rows = _m.diff_rows
copy_rows = _m.copy_rows
_m = None
