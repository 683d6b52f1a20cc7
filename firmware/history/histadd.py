# Adding a finished game to the history (firmware/history/entries.py reads its files; a line's
# format is there too): its number, after every game the history holds; its line
# appended, never the history rewritten (but for a damaged last line, below); a full file
# moved aside as history.K.json. Loaded by a finish only (firmware/game/journal.py).
#
# A damaged line is never rewritten away: a last line that is a whole game but lacks its
# newline (a cut that took one byte) is a game; one cut short or damaged is mended by
# firmware/history/histmend.py. A new game is numbered after every game the history holds, a
# damaged line's number counted when it can be read.
from firmware.history.entries import HEAD, SEGMENT, files, archives, index_of, names, number, read_line as game_at
from firmware.files.store import HISTORY, errname, is_full

ARCHIVES = 9     # history.K.json kept (of SEGMENT games each): about 1,000 games in all


def newest(store, name, ix, tail=True):
    """((n, after), None, False): the highest number of a game in a history file whose
    line can be read (the device numbers them in order; a file out of order is damaged,
    and every game it holds still counts), and how many unreadable lines follow that line
    (damaged ones, counted as games); (-1, len(ix)) when none can be read. tail: a damaged
    last line's number counts when its first bytes say it (to number a new game after it;
    not to tell whether a game is in the file). Reads each line's first bytes: at most
    SEGMENT. (None, message, True) when the file could not be read (a flash error, short
    of memory): nothing may be written."""
    f = None
    try:
        f = store.open(name, "rb")
        best = -1
        after = 0
        nums = ix.nums
        for k in range(len(ix)):
            # the number the index read off the line's first bytes, else read it here
            n = nums[k] if k < len(nums) and nums[k] >= 0 else number(f, ix.starts[k])
            if n is None:
                try:
                    n = game_at(f, ix.starts[k]).get("n")
                except ValueError:
                    n = None
            if n is not None and n > 0:
                if n > best:
                    best = n
                    after = 0
            else:
                after += 1
        t = ix.tail_n if tail else -1
        if best < 0:
            return (t, (0 if t > 0 else len(ix))), None, False
        n = best + after
        return ((n if n > t else t), 0), None, False
    except Exception as e:      # short of memory, a flash error: nothing may be written
        return None, "%s could not be read (%s); it is kept as it is." % (name, errname(e)), True
    finally:
        if f is not None:
            f.close()


def last_n(store, notes, kept=None):
    """(n, message, unread): the number of the newest game in the history (0 when there
    is none): every game it holds is numbered at most this. (None, message, True) when
    the history could not be read (nothing changed). notes gets what the reading met and
    went past (a damaged file set aside)."""
    unknown = 0          # lines in newer files whose numbers could not be read
    for name in files(store):
        ix, msg, unread = index_of(store, name)
        if unread:
            return None, msg, True
        if msg:
            notes.append(msg)
        if ix is None:
            continue
        if name == HISTORY and kept is not None:
            kept.append(ix)      # for add(): read again, 100 lines on the flash
        if ix.v1:
            from firmware.history.history_v1 import v1_games
            games, msg, unread = v1_games(store)
            if unread:
                return None, msg, True
            if msg:
                notes.append(msg)
            return unknown + len(games), None, False
        got, msg, unread = newest(store, name, ix)
        if unread:
            return None, msg, True
        n, after = got
        if n > 0:
            return n + after + unknown, None, False
        unknown += after
    return unknown, None, False


def add(store, e, notes, kept=None):
    """Add game e (with its "n") to the history unless it is there already (a finish cut
    short and completed again). None, or why not: the flash refused (nothing changed;
    store.full when for want of room), or the history could not be read. The line goes
    to the flash in pieces (write_entry): a long game's line is never built whole in
    RAM."""
    from firmware.history.entries import write_entry

    def line(put):
        write_entry(e, put)
        put("\n")

    def whole(put):
        put(HEAD)
        line(put)
    # last_n() just read it, and numbered e after every game in it: no need to look
    # for e in it (a finish completed again at start does)
    fresh = bool(kept)
    if fresh:
        ix = kept.pop()
    else:
        ix, msg, unread = index_of(store, HISTORY)
        if unread:
            store.full = False     # (not for want of room: none is made for it)
            return msg
        if msg:
            notes.append(msg)
    if ix is not None and ix.v1:
        from firmware.history.history_v1 import from_v1
        return from_v1(store, e, line, notes)
    if ix is None:
        # missing (or set aside as damaged): maybe it was just moved aside full
        ks = archives(store)
        if ks:
            last = "history.%d.json" % max(ks)
            aix, msg, unread = index_of(store, last)
            if unread:
                store.full = False
                return msg
            if msg:
                notes.append(msg)
            if aix is not None and not aix.v1:
                got, msg, unread = newest(store, last, aix, False)
                if unread:
                    store.full = False
                    return msg
                if got[0] >= e["n"]:
                    return None
        return store.write_atomic(HISTORY, whole)
    if not fresh:
        got, msg, unread = newest(store, HISTORY, ix, False)
        if unread:
            store.full = False
            return msg
        if got[0] >= e["n"]:
            return None
    if len(ix) >= SEGMENT:
        err = _rotate(store, notes)
        if err:
            return err
        return store.write_atomic(HISTORY, whole)
    if ix.torn:
        from firmware.history import histmend
        return histmend.past_torn(store, ix, e["n"], line, notes)
    if ix.open_end:
        # the last game lacks its newline: it stays, and the new line starts on a line
        # of its own
        def after(put):
            put("\n")
            line(put)
        return store.append(HISTORY, after)
    return store.append(HISTORY, line)


def foresee(store, ix):
    """What adding a game to history.json (ix: its Index) will say, known before anything
    is written: the oldest games that go when the full file is moved aside past ARCHIVES
    files (_rotate says the same words as it deletes them). A finish shows it with its
    result, before the flash work that follows (firmware/game/journal.py)."""
    if ix is None or ix.v1 or len(ix) < SEGMENT:
        return []
    ks = archives(store)
    ks.sort()
    from firmware.history.histroom import games_of
    return [KEPT % (SEGMENT * (ARCHIVES + 1), games_of(store, ks, i)) for i in range(len(ks) + 1 - ARCHIVES)]


def _rotate(store, notes):
    ks = archives(store)
    k = max(ks) + 1 if ks else 1
    to = "history.%d.json" % k
    try:
        store.os.rename(store.path(HISTORY), store.path(to))
    except OSError as e:
        store.full = is_full(e)
        return "Could not save %s (%s)." % (to, errname(e))
    store.writes += 1
    n = len(ks) + 1
    if n > ARCHIVES:
        # the oldest go, each said (firmware/history/histroom.py: the flash full does the same)
        from firmware.history.histroom import drop_oldest
        while n > ARCHIVES:
            msg = drop_oldest(store, KEPT % (SEGMENT * (ARCHIVES + 1), "%s"))
            if msg is None:
                break
            notes.append(msg)
            n -= 1
    return None


KEPT = "The history keeps %d games: the oldest (%s) were deleted."
