# The running game's records where they are kept: game.json on the flash, one line each
# (engine_mpy/savefile.py has the format). RAM holds only where each line starts, so a
# game of 55 hands takes no more RAM than one of 5; a record is read back when a screen or
# a replay (an undo, a correction) wants it, in order, through one open file.
#
# It is the game's list of records (engine_mpy/game.py): a change the game makes is kept
# here until save() puts it on the flash: a new hand as an appended line; an undo or a
# correction by writing the file whole (atomically, through the store); drop() forgets it
# when the flash refused. Reading a save at start is firmware/game/gameload.py (then dropped).
from engine_mpy.modules import builtin

json = builtin("json")
array = builtin("array").array



class GameFile:
    def __init__(self, store, name):
        self.store = store
        self.name = name
        self.starts = array("I")    # byte offset of each saved record's line
        self.end = 0                # the saved file's length: where the next line goes
        self.n = 0                  # records, with the change not saved yet
        self.new = None             # the text of an added or corrected record not saved yet
        self.at = -1                # its index
        self.whole = True           # the next save writes the file whole (new, cut, changed)
        self._f = None              # an open file being read, and the record it is at
        self._next = -1

    # --- what the game reads ---------------------------------------------------------------
    def __len__(self):
        return self.n

    def _line(self, i):
        if i == self.at:
            return self.new
        if not 0 <= i < len(self.starts):
            raise IndexError("no record %d" % i)
        f = self._f
        if f is None or i != self._next:
            if f is None:
                f = self._f = self.store.open(self.name, "rb")
            f.seek(self.starts[i])
        line = f.readline()
        while line and not line.strip():   # a blank line between two (the reading skipped it)
            line = f.readline()
        self._next = i + 1
        if i + 1 >= len(self.starts):
            self.close()            # read to the end: no file left open
        return line

    def __getitem__(self, i):
        if i < 0:
            i += self.n
        if i >= self.n:
            raise IndexError("no record %d" % i)
        return json.loads(self._line(i))

    def __iter__(self):
        for i in range(self.n):
            yield self[i]

    def text(self, i):
        t = self._line(i)
        if type(t) is not str:
            t = t.decode()
        return t.rstrip("\n")

    def close(self):
        f = self._f
        self._f = None
        self._next = -1
        if f is not None:
            f.close()

    # --- what the game changes -----------------------------------------------------------
    def append(self, rec):
        self.at = self.n
        self.new = json.dumps(rec, separators=(",", ":"))
        self.n += 1

    def truncate(self, n):
        self.n = n
        self.whole = True

    def put(self, i, rec):
        self.at = i
        self.new = json.dumps(rec, separators=(",", ":"))
        self.whole = True

    def changed(self):
        return self.whole or self.new is not None or self.n != len(self.starts)

    def drop(self):
        """Forget the change not saved (the flash refused it): back to what it holds."""
        self.close()
        self.n = len(self.starts)
        self.new = None
        self.at = -1

    def loaded(self, game, i, norm, start, line):
        """saveload's sink while the save is read: note where record i's line starts
        (version 1 has no lines to index: firmware/game/gameload.py copies it out after)."""
        if start is None:
            return
        self.starts.append(start)
        self.end = start + len(line)
        self.n = len(self.starts)

    # --- saving --------------------------------------------------------------------------
    def save(self, game):
        """Put the change on the flash. None, or why the flash refused (then the file is
        as it was: drop() and reload the game)."""
        self.close()
        if not self.changed():
            return None
        store = self.store
        if not self.whole and self.at == len(self.starts) and self.n == self.at + 1:
            line = self.new + "\n"
            err = store.append(self.name, line)
            if err:
                self.whole = True    # a failed append may have left a torn tail (FAT)
                return err
            self.starts.append(self.end)
            self.end += len(line.encode())
        else:
            starts = array("I")
            pos = [0]

            def writer(put):
                h = game.header()
                put(h)
                pos[0] = len(h.encode())
                for i in range(self.n):
                    t = self.new if i == self.at else self.text(i)
                    starts.append(pos[0])
                    put(t)
                    put("\n")
                    pos[0] += len(t.encode()) + 1
                self.close()
            err = store.write_atomic(self.name, writer)
            if err:
                self.close()
                return err
            self.starts = starts
            self.end = pos[0]
            self.whole = False
        self.new = None
        self.at = -1
        return None
