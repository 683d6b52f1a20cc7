# history.json ending in a line cut short or damaged, met as a game is added
# (firmware/history/histadd.py): loaded only then. A damaged line is never rewritten away: the whole
# file is set aside as history.json.badN (every byte kept) and that is said, then the file
# is written again with the games before that line and the new one. The one piece not kept
# is the very game being added, cut short as it was appended (a power cut on FAT, the
# finish then completed from its journal): its whole line follows.
from firmware.files.store import HISTORY, errname


def past_torn(store, ix, n, line, notes):
    """Add game n's line (line(put) hands it over) to a history.json whose last line is
    torn (ix: its history.Index). None, or why not: the flash refused, or the torn line
    could not be read (nothing changed either way)."""
    own, msg, unread = _cut_from(store, ix, n)
    if unread:
        store.full = False     # not for want of room: none is made for it
        return msg
    return _rewrite(store, ix, line, None if own else notes)


def _cut_from(store, ix, n):
    """(own, None, False): whether history.json's torn last line is the start of game
    n's own line (a cut as it was appended, then the finish completed again from its
    journal): it starts with that game's number, which the device writes first, or is a
    piece of that start. (None, message, True) when it could not be read."""
    k = ix.size - ix.end
    if k <= 0:
        return False, None, False
    try:
        f = store.open(HISTORY, "rb")
        try:
            f.seek(ix.end)
            tail = f.read(k if k < 16 else 16)
        finally:
            f.close()
    except OSError as e:     # a flash error (short of memory goes on up, as anywhere)
        return None, "%s could not be read (%s); it is kept as it is." % (HISTORY, errname(e)), True
    tail = tail.rstrip(b"\xff")      # erased flash after the cut (FAT): nothing written
    head = b'{"n":%d,' % n
    return (tail.startswith(head) or head.startswith(tail)), None, False


def _rewrite(store, ix, line, notes):
    """history.json ends in a line cut short or damaged: written again with the games
    before that line and the new one. notes: a damaged line, not this game's own: the file
    is first set aside whole (history.json.badN keeps every byte) and that is said; if the
    flash refuses, the file goes back as it was. notes None: the piece is this game's own
    line, cut short as it was added: nothing is lost, nothing is said."""
    p = store.path(HISTORY)
    kept = p
    if notes is not None:
        from firmware.files import storeread
        bad = storeread.set_aside(store, p)
        if not bad.startswith(HISTORY):
            return "history.json ends in a damaged line and could not be set aside: the game is not added."
        kept = store.path(bad.split(" ")[0])

    def writer(put):
        f = store.open_path(kept, "rb")
        try:
            left = ix.end
            while left > 0:
                b = f.read(256 if left > 256 else left)
                if not b:
                    break
                put(b)       # as they are: a damaged line before may not be UTF-8
                left -= len(b)
        finally:
            f.close()
        line(put)
    err = store.write_atomic(HISTORY, writer)
    if err:
        if kept != p:
            try:
                store.os.rename(kept, p)
            except OSError:
                pass
        return err
    if notes is None:
        return None
    notes.append("history.json ended in a damaged line; the file is kept as %s and its games before that line are kept." % bad)
    return None
