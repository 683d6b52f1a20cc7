# The history newest first, a game at a time, for the History screen and the host
# commands (firmware/history/entries.py holds the files' format). Loaded with the History screen.
from firmware.history.entries import SEGMENT, files, index_of, read_line

ODD = "%s is not a name the device gives its history: it is left as it is and not read."


class Browser:
    """The history newest first, a game at a time (the History screen; host commands):
    in RAM the number of games in each file and the index of the one file being read,
    never the games themselves.
    lazy: only history.json is read now; each older file (history.K.json, moved aside
    when it held SEGMENT games, never changed after) counts SEGMENT games until it is
    read, when the list reaches it (count is then made exact). Opening History reads 100
    games, not 1,000 (on a Pico most of a second)."""

    def __init__(self, store, notes, lazy=False):
        self.store = store
        self.notes = notes
        odd = []
        self.files = files(store, odd)
        for name in odd:
            notes.append(ODD % name)
        self.counts = []
        self.known = []         # whether counts[k] was read off the file
        self.v1 = None
        self._at = -1           # which file self._ix indexes
        self._ix = None
        for name in self.files:
            if lazy and name != self.files[0]:
                self.counts.append(SEGMENT)
                self.known.append(False)
                continue
            self.known.append(True)
            ix = index_of(store, name, notes)
            if ix is not None and ix.v1:
                from firmware.history.history_v1 import v1_games
                self.v1 = v1_games(store, notes)
                self.v1.reverse()
                ix = None
            self.counts.append(0 if ix is None else len(ix))
            ix = None
        self.count = sum(self.counts) + len(self.v1 or ())

    def game(self, i):
        """Game number i, newest first (a dict), or None when its line is damaged."""
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
                self._ix = index_of(self.store, self.files[k], self.notes)
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
            f = self.store.open(self.files[k], "rb")
            try:
                return read_line(f, ix.starts[len(ix) - 1 - i])
            except ValueError:
                return None
            finally:
                f.close()
        return None
