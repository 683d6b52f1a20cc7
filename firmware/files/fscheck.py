# Whether the flash holding the device's files is FAT, checked once at start (then this
# module leaves RAM). MicroPython's FAT rewrites its directory and allocation table in
# place: the board's flash erases a 4 KB sector, then programs it again, and a power cut
# between the two loses every file in it, games, players and history, with nothing left to
# tell at the next start (tests/test_blockcut.py shows it). littlefs, what MicroPython puts
# on an RP2040 or an ESP32 by default, never overwrites what it has not yet replaced, and
# the saves count on that. A FAT flash is a board set up long ago or by hand: the device
# says so at every start until it is moved to littlefs (hardware/README.md, "FAT flash").
import os

from engine_mpy.modules import forget

# For a note on the screen: 20 characters a line, at most 6 lines.
MESSAGE = "Flash is FAT: a power cut can lose every game, player and score. Fix: hardware/README.md, FAT flash."


def check(root="/"):
    """MESSAGE when the files under root are on FAT, else None. Reads only; then drops
    this module from RAM."""
    try:
        fat = is_fat(root)
    except Exception:   # never stop the device over a warning
        fat = False
    forget("firmware.files.fscheck", True)
    return MESSAGE if fat else None


def is_fat(path="/"):
    """True when the filesystem that holds path (absolute) is MicroPython's VfsFat."""
    fat = _fat_class()
    if fat is None:     # no FAT in this build (or CPython, the simulator): nothing to fear
        return False
    try:
        mounts = os.mount()   # MicroPython 1.25 and later: [(filesystem, mount point), ...]
    except Exception:         # before: mount() needs its arguments
        mounts = None
    if mounts:
        best = None
        n = -1
        for fs, at in mounts:
            if (at == "/" or path == at or path.startswith(at + "/")) and len(at) > n:
                best = fs
                n = len(at)
        return isinstance(best, fat)
    return case_blind(path)


def case_blind(path="/"):
    """True when path's filesystem finds a file under its name in the other case, as FAT
    does and littlefs does not: an older MicroPython cannot list its mounts. A lookup, no
    write. False when path holds no name with a letter (nothing saved there yet)."""
    try:
        names = os.listdir(path)
    except OSError:
        return False
    base = path.rstrip("/") + "/"
    for n in names:
        other = n.upper()
        if other == n:
            other = n.lower()
        if other == n or other in names:
            continue
        try:
            os.stat(base + other)
            return True
        except OSError:
            return False
    return False


def _fat_class():
    try:
        import vfs   # MicroPython 1.23 and later
        return getattr(vfs, "VfsFat", None)
    except ImportError:
        return getattr(os, "VfsFat", None)
