# Reading the store's files (firmware/store.py, "Reading never stops the device and never
# loses a file"): a save cut short completed or undone, a damaged file set aside as
# NAME.bad1..3 with a message, one that could not be read left as it is. Loaded when a
# file is read (at start, a finish, the roster, the history), dropped after.
import json

from engine_mpy.lines import read_upto
from firmware.store import BAD_KEEP, TEXT_MAX, _MISSING, _errname


def recover(st, name, load):
    """(value, message, unread): load(f) read from name, opened in binary. A save cut
    short is completed or undone first (NAME.tmp, see firmware/store.py). A file
    load refuses (ValueError) is set aside as damaged; a file that could not be read
    for another reason (MemoryError...) is left as it is with unread True. value is
    None when there is nothing usable; message is None or says what happened."""
    p = st.path(name)
    tmp = p + ".tmp"
    v, why = _try(st, p, load)
    if why is None:
        st._discard(tmp)  # a save that was cut short: the main file stands
        return v, None, False
    if why is not _MISSING and why[0] == "unread":
        return None, "%s could not be read (%s); it is kept as it is." % (name, why[1]), True
    tv, twhy = _try(st, tmp, load)
    if twhy is not None and twhy is not _MISSING and twhy[0] == "unread":
        return None, "%s could not be read (%s); it is kept as it is." % (name, twhy[1]), True
    if why is _MISSING:
        if twhy is None:
            # cut between removing the old file and renaming the new one (FAT)
            st._os.rename(tmp, p)
            return tv, None, False
        st._discard(tmp)
        return None, None, False
    bad = set_aside(st, p)
    if twhy is None:
        st._os.rename(tmp, p)
        return tv, "%s was damaged (%s), kept as %s; its last save is used." % (name, why[1], bad), False
    st._discard(tmp)
    return None, "%s was damaged (%s), kept as %s; starting without it." % (name, why[1], bad), False


def _try(st, p, load):
    """(value, None), (None, _MISSING), (None, ("damaged", why)) or (None, ("unread",
    why))."""
    try:
        f = st._open(p, "rb")
    except OSError as e:
        if (e.args and e.args[0] == 2) or not st._exists(p):
            return None, _MISSING
        return None, ("unread", _errname(e))
    except Exception as e:   # a driver fault, short of memory: never stop the device
        return None, ("unread", _errname(e))
    try:
        return load(f), None
    except ValueError as e:
        return None, ("damaged", _why(e))
    except Exception as e:   # never stop the device over a file
        return None, ("unread", _errname(e))
    finally:
        f.close()


def read(st, name, check=None, limit=TEXT_MAX):
    """(text, message, unread) for a small file read whole (at most limit bytes):
    check(text) judges the contents (raise ValueError, or return None or False, for
    damaged; default: the text must be JSON). See recover()."""
    def load(f):
        data = read_upto(f, limit)
        if len(data) > limit:
            raise ValueError("too long")
        if not data.strip():
            raise ValueError("empty")
        text = data.decode()      # UnicodeError is a ValueError: damaged
        data = None
        try:
            ok = (check or json.loads)(text)
        except RuntimeError:      # RecursionError (CPython): nested deeper than any file
            raise ValueError("nested too deep")
        if ok is None or ok is False:
            raise ValueError("truncated or invalid")
        return text
    return recover(st, name, load)


def set_aside(st, p):
    # Numbered copies, the newest highest; when BAD_KEEP are kept, the oldest goes
    # (said in the text returned, which ends up on the screen).
    dropped = ""
    n = 1
    while n <= BAD_KEEP and st._exists("%s.bad%d" % (p, n)):
        n += 1
    if n > BAD_KEEP:
        st._discard(p + ".bad1")
        for k in range(2, BAD_KEEP + 1):
            try:
                st._os.rename("%s.bad%d" % (p, k), "%s.bad%d" % (p, k - 1))
            except OSError:
                pass
        n = BAD_KEEP
        dropped = " (the oldest damaged copy was deleted: %d are kept)" % BAD_KEEP
    bad = "%s.bad%d" % (p, n)
    try:
        st._os.rename(p, bad)
    except OSError:
        st._discard(p)
        return "nothing (it could not be moved)"
    st.writes += 1
    return bad.rsplit("/", 1)[-1] + dropped


def _why(e):
    return str(e.args[0]) if e.args else "truncated or invalid"
