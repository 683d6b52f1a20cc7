# Dropping a module from RAM once its work is done: the one way the device does it (the
# next import loads the module again); and the built-in modules taken without a search of
# the flash (builtin, keep_builtins). On a board a module's code sits in the heap (from a
# .mpy file) and its names stay interned, so what is needed only now (reading a save, a
# finish, a screen that closed) leaves as soon as it is done.
import sys

_MPY = sys.implementation.name == "micropython"


def forget(name, everywhere=False):
    """Drop module name ("firmware.game.journal") from sys.modules and from its package. On
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


def builtin(name):
    """MicroPython's built-in module name ("json", "array"), what `import name` gives. A
    plain `import json` there first looks for json.py and json.mpy in every folder of
    sys.path on the filesystem (a file may stand in for a built-in module), at every import
    statement run: 4.4 ms each on the emulated Pico with a game's files on its flash. Its
    "u" name is the built-in itself, found without looking. CPython: the standard module."""
    return __import__("u" + name if _MPY else name)


# The built-ins the device imports again and again (above): start-up puts each into
# sys.modules under its plain name once (keep_builtins), so a plain `import time` anywhere
# after is a dictionary look-up; start-up alone made twelve such imports.
_BUILTINS = ("time", "os", "json", "machine", "array")


# The ports a board runs: no file stands in for machine there
_BOARD_PORTS = ("rp2", "esp32")


def keep_builtins(platform=None):
    """Put _BUILTINS into sys.modules once (MicroPython only: CPython keeps them): the
    built-in itself (its "u" name, found without a search: 4.4 ms saved each at start).
    machine too on a board's port (platform: sys.platform's); elsewhere as a plain import
    finds it, searched for this once, so that a file standing in for it stays the one
    used (the simulator's on the micropython binary, the page's on the WebAssembly port).
    On the emulated Pico that search was 4.2 ms of the .mpy install's start."""
    if not _MPY:
        return
    board = (platform or sys.platform) in _BOARD_PORTS
    m = sys.modules
    for n in _BUILTINS:
        if n not in m:
            try:
                m[n] = __import__(n if n == "machine" and not board else "u" + n)
            except ImportError:
                pass
