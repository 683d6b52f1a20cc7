# Reading the store's files (firmware/files/store.py, "Reading never stops the device and never
# loses a file"): a save cut short completed or undone, a damaged file set aside as
# NAME.bad1..3 with a message, one that could not be read left as it is. Loaded when a
# file is read (at start, a finish, the roster, the history), dropped after.
#
# Damaged or not now: a loader that refuses the contents (ValueError), or that trips on
# them in any other way (a TypeError, a KeyError: content no file of the device's holds),
# means the file is damaged: it is set aside, its bytes kept, and the device goes on
# without it. Only the flash (OSError) or the heap (MemoryError) failing is "not now": the
# file is left as it is for a later start. The loaders bound what they parse
# (engine_mpy/lines.py, parse), so content never needs more than a few KB of heap, and the
# same bytes get the same verdict on the board, under the unix port and in the simulator.
from engine_mpy.lines import read_upto, size_left, parse
from firmware.files.store import BAD_KEEP, TEXT_MAX, errname

_MISSING = "missing"


def recover(store, name, load):
    """(value, message, unread), the shape every read of the store's files returns
    (firmware/files/README.md): load(f) read from name, opened in binary. A save cut
    short is completed or undone first (NAME.tmp, see firmware/files/store.py). A file
    load refuses (ValueError) is set aside as damaged; a file that could not be read
    for another reason (MemoryError...) is left as it is with unread True. value is
    None when there is nothing usable; message is None or says what happened."""
    p = store.path(name)
    tmp = p + ".tmp"
    v, why = _try(store, p, load)
    if why is None:
        store.discard(tmp)  # a save that was cut short: the main file stands
        return v, None, False
    if why is not _MISSING and why[0] == "unread":
        return None, "%s could not be read (%s); it is kept as it is." % (name, why[1]), True
    tv, twhy = _try(store, tmp, load)
    if twhy is not None and twhy is not _MISSING and twhy[0] == "unread":
        return None, "%s could not be read (%s); it is kept as it is." % (name, twhy[1]), True
    if why is _MISSING:
        if twhy is not None:
            store.discard(tmp)
            return None, None, False
        msg = None     # cut between removing the old file and renaming the new one (FAT)
    else:
        bad = set_aside(store, p)
        if twhy is not None:
            store.discard(tmp)
            return None, "%s was damaged (%s), kept as %s; starting without it." % (name, why[1], bad), False
        msg = "%s was damaged (%s), kept as %s; its last save is used." % (name, why[1], bad)
    try:
        store.os.rename(tmp, p)      # NAME.tmp, read whole, is the file now
    except OSError as e:             # (the next read takes it back)
        return None, "%s could not be read (%s); it is kept as it is." % (name, errname(e)), True
    return tv, msg, False


def _try(store, p, load):
    """(value, None), (None, _MISSING), (None, ("damaged", why)) or (None, ("unread",
    why))."""
    try:
        f = store.open_path(p, "rb")
    except OSError as e:
        if (e.args and e.args[0] == 2) or not store.exists_path(p):
            return None, _MISSING
        if e.args and e.args[0] == 21:       # a folder under the file's name: set aside
            return None, ("damaged", "it is a folder")
        return None, ("unread", errname(e))
    except Exception as e:   # a driver fault, short of memory: never stop the device
        return None, ("unread", errname(e))
    try:
        return load(f), None
    except ValueError as e:
        return None, ("damaged", _why(e))
    except (OSError, MemoryError) as e:      # the flash or the heap, not the contents
        return None, ("unread", errname(e))
    except Exception as e:   # the contents tripped the loader: not a file of ours
        return None, ("damaged", "%s in its contents" % type(e).__name__)
    finally:
        f.close()


def read(store, name, check=None, limit=TEXT_MAX):
    """(text, message, unread) for a small file read whole (at most limit bytes):
    check(text) judges the contents (raise ValueError, or return None or False, for
    damaged; default: the text must be JSON a file of ours could hold, lines.parse).
    See recover()."""
    def load(f):
        if size_left(f) > limit:
            raise ValueError("too long")      # damaged, before any of it is in RAM
        data = read_upto(f, limit)
        if len(data) > limit:
            raise ValueError("too long")
        if not data.strip():
            raise ValueError("empty")
        text = data.decode()      # UnicodeError is a ValueError: damaged
        data = None
        ok = (check or parse)(text)
        if ok is None or ok is False:
            raise ValueError("truncated or invalid")
        return text
    return recover(store, name, load)


def set_aside(store, p):
    # Numbered copies, the newest highest; when BAD_KEEP are kept, the oldest goes
    # (said in the text returned, which ends up on the screen).
    dropped = ""
    n = 1
    while n <= BAD_KEEP and store.exists_path("%s.bad%d" % (p, n)):
        n += 1
    if n > BAD_KEEP:
        store.discard(p + ".bad1")
        for k in range(2, BAD_KEEP + 1):
            try:
                store.os.rename("%s.bad%d" % (p, k), "%s.bad%d" % (p, k - 1))
            except OSError:
                pass
        n = BAD_KEEP
        dropped = " (the oldest damaged copy was deleted: %d are kept)" % BAD_KEEP
    bad = "%s.bad%d" % (p, n)
    try:
        store.os.rename(p, bad)
    except OSError:
        store.discard(p)
        return "nothing (it could not be moved)"
    store.writes += 1
    return bad.rsplit("/", 1)[-1] + dropped


def _why(e):
    return str(e.args[0]) if e.args else "truncated or invalid"
