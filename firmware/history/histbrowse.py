# The history newest first, a game at a time, for the History screen and the host
# commands (firmware/history/entries.py holds the files' format). Loaded with the History screen.
from firmware.history.entries import SEGMENT, files, index_of, read_line
from firmware.files.store import errname

ODD = "%s is not a name the device gives its history: it is left as it is and not read."


def read(store, notes, lazy=False):
    """(Browser, message, unread): the history ready to be read newest first, a game at a
    time; (None, message, True) when a file it reads now could not be read (nothing was
    changed). notes gets what it met and went past: a damaged file set aside, a name the
    device does not give (ODD).
    lazy: only history.json is read now; each older file (history.K.json, moved aside
    when it held SEGMENT games, never changed after) counts SEGMENT games until it is
    read, when the list reaches it (count is then made exact). Opening History reads 100
    games, not 1,000 (on a Pico most of a second)."""
    b = Browser(store, notes)
    for name in b.files:
        if lazy and name != b.files[0]:
            b.counts.append(SEGMENT)
            b.known.append(False)
            continue
        b.known.append(True)
        ix, msg, unread = index_of(store, name)
        if unread:
            return None, msg, True
        if msg:
            notes.append(msg)
        if ix is not None and ix.v1:
            from firmware.history.history_v1 import v1_games
            v1, msg, unread = v1_games(store)
            if unread:
                return None, msg, True
            if msg:
                notes.append(msg)
            v1.reverse()
            b.v1 = v1
            v1 = ix = None
        b.counts.append(0 if ix is None else len(ix))
        ix = None
    b.count = sum(b.counts) + len(b.v1 or ())
    return b, None, False


class Browser:
    """The history newest first, a game at a time (the History screen; host commands):
    in RAM the number of games in each file and the index of the one file being read,
    never the games themselves. Made by read()."""

    def __init__(self, store, notes):
        self.store = store
        self.notes = notes
        odd = []
        self.files = files(store, odd)
        for name in odd:
            notes.append(ODD % name)
        self.counts = []
        self.known = []         # whether counts[k] was read off the file
        self.v1 = None
        self.count = 0
        self._at = -1           # which file self._ix indexes
        self._ix = None

    def game(self, i):
        """Game number i, newest first (a dict), or None when its line is damaged (or its
        file could not be read: said in notes)."""
        if self.v1:
            if i < len(self.v1):
                return self.v1[i]
            i -= len(self.v1)
        for k in range(len(self.files)):
            c = self.counts[k]
            if i >= c:
                i -= c
                continue
            if self._at != k:
                self._ix = None
                ix, msg, unread = index_of(self.store, self.files[k])
                if msg:
                    # damaged and set aside, or not read now (unread: its games are not
                    # listed this time, and it is left as it is): said by the screen
                    self.notes.append(msg)
                self._ix = ix
                ix = None
                self._at = k
            ix = self._ix
            if not self.known[k]:
                # counted SEGMENT till now: the list's length made exact
                self.known[k] = True
                n = 0 if ix is None or ix.v1 else len(ix)
                self.count += n - c
                self.counts[k] = n
                if i >= n:
                    return None
            if ix is None or i >= len(ix):
                return None
            try:
                f = self.store.open(self.files[k], "rb")
                try:
                    return read_line(f, ix.starts[len(ix) - 1 - i])
                finally:
                    f.close()
            except ValueError:
                return None
            except OSError as e:     # a flash error: the row left out, said
                self.notes.append("%s could not be read (%s); it is kept as it is." % (self.files[k], errname(e)))
                return None
        return None
