# Dropping a module from RAM once its work is done: the one way the device does it (the
# next import loads the module again); and keeping the built-in modules found once. On a board a module's code sits in the heap (from a
# .mpy file) and its names stay interned, so what is needed only now (reading a save, a
# finish, a screen that closed) leaves as soon as it is done.
import sys

_MPY = sys.implementation.name == "micropython"


def forget(name, everywhere=False):
    """Drop module name ("firmware.finish") from sys.modules and from its package. On
    MicroPython only, unless everywhere: CPython (the simulator, the tests) has RAM to
    spare, and code there may hold the module's classes (an exception class imported again
    would be another class). Screens pass everywhere, so the simulator opens each screen
    fresh as the board does."""
    if not (_MPY or everywhere) or sys.modules.pop(name, None) is None:
        return
    i = name.rfind(".")
    if i < 0:
        return
    pkg = sys.modules.get(name[:i])
    if pkg is not None:
        try:
            delattr(pkg, name[i + 1:])
        except (AttributeError, TypeError, KeyError):   # MicroPython: KeyError
            pass


# MicroPython's built-ins a file may extend: an import of one searches every sys.path
# folder for a file of its name first, every time, since a built-in is not kept in
# sys.modules (py/builtinimport.c). On littlefs that search costs about 4 ms a time on an
# RP2040 (on the emulated Pico, an `import time` took 4.2-4.4 ms) and start-up alone made
# twelve of them.
_BUILTINS = ("time", "os", "json", "machine")


def keep_builtins():
    """Put the built-ins the device imports again and again into sys.modules once, so each
    later import of one is a dictionary look-up (MicroPython only: CPython keeps them)."""
    if not _MPY:
        return
    m = sys.modules
    for n in _BUILTINS:
        if n not in m:
            try:
                m[n] = __import__(n)
            except ImportError:
                pass
