# A game looked for in the history by its id (engine_mpy/ident.py): before a finish adds
# it (firmware/game/journal.py: a game is never counted twice), and before the page loads
# a game.json back (firmware/game/gamecheck.py). Each history file is searched for the
# bytes '"id":"<id>"' a chunk at a time (no line is parsed but the one found): a game's
# line is written by firmware/history/entries.py write_entry, compact, so those are the
# bytes; nothing else in a line can hold them (a name is at most 12 characters, a sheet's
# alphabet has no quote). Loaded for a finish or a load, then dropped.
from firmware.history.entries import files, index, read_line
from firmware.files.store import errname

_CHUNK = 512


def find(store, gid):
    """(game, message, unread): the line of the history whose id is gid, as a dict ({}
    when that line is damaged), or None when no line has it. (None, message, True) when a
    history file could not be read now (nothing may be decided without it)."""
    pat = b'"id":"' + gid.encode() + b'"'
    for name in files(store):
        try:
            f = store.open(name, "rb")
        except OSError:
            continue         # (no such file: history.json after a move aside)
        try:
            at = _search(f, pat)
            if at < 0:
                continue
            try:
                f.seek(0)
                ix = index(f)
                k = len(ix) - 1
                while k > 0 and ix.starts[k] > at:
                    k -= 1
                return read_line(f, ix.starts[k]), None, False
            except (ValueError, IndexError):     # a damaged line (or file) holds it
                return {}, None, False
        except Exception as e:       # a flash error, short of memory: nothing decided
            return None, "%s could not be read (%s); it is kept as it is." % (name, errname(e)), True
        finally:
            f.close()
    return None, None, False


def _search(f, pat):
    """Where pat starts in the open file f, or -1: read _CHUNK bytes at a time into one
    buffer, each after the last bytes of the one before (a match across two)."""
    keep = len(pat) - 1
    buf = bytearray(_CHUNK + keep)
    mv = memoryview(buf)
    have = 0         # bytes in buf
    pos = 0          # the file offset of buf[0]
    while True:
        n = f.readinto(mv[have:])
        if not n:
            return -1
        have += n
        i = buf.find(pat, 0, have)
        if i >= 0:
            return pos + i
        if have > keep:
            buf[0:keep] = mv[have - keep:have]
            pos += have - keep
            have = keep


def already(e):
    """The one line that refuses a game the history holds already (e: its line, {} when
    that line is damaged), with its date where the line has one."""
    t = e.get("end", e.get("start"))
    on = ""
    if isinstance(t, int) and t > 0:
        from engine_mpy.ident import when
        on = " on " + when(t)
    if e.get("done", True):
        return "Finished already%s: it is in History." % on
    return "Abandoned%s: it is in History." % on
