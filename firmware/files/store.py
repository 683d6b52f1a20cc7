# Files on the board's flash: the settings, the player roster, the running game and the
# finished games. Only os and open, so the same code runs on the board (root "/"), under
# the unix port and on the PC (a host folder).
#
# A whole-file save is atomic: the new text goes to NAME.tmp, which is closed, then renamed
# over NAME. On littlefs (ESP32 and RP2040 MicroPython) that rename replaces the file
# atomically, and an append (the running game's next hand, a finished game) is committed
# whole or not at all when the file is closed. On FAT rename onto an existing file fails,
# so the old file is removed first; a power cut between the two leaves only NAME.tmp,
# complete, and recover() takes it back (FAT is not safe for the saves otherwise: the
# device says so at start, see firmware/files/fscheck.py).
#
# Reading never stops the device and never loses a file:
# - a file whose contents are wrong (the loader raises ValueError) is damaged: it is
#   renamed aside to NAME.bad1 (up to BAD_KEEP numbered copies, the oldest dropped with a
#   word in the message) and a message says so;
# - a file that could not be read for any other reason (short of memory, a flash error) is
#   left exactly as it is, and the caller is told (unread), so it never writes over it
#   something built from a read that failed.
#
# Every failure is a value of one shape, never an OSError raised to the caller
# (firmware/files/README.md): a write returns None when done, else the message the player
# reads; a read returns (value, message, unread).
#
# The store is the floor: it knows bytes and file names, nothing of games. Reading with
# recovery is firmware/files/storeread.py, on top of it; above both, a module per kind of file
# (gamefile/gameload: the running game, history, roster, settings_file, journal: the finish
# journal) and the session on top (docs/architecture.md, "Storage").
import os
import sys

try:
    import json
except ImportError:  # pragma: no cover - every MicroPython build the project targets has json
    json = None

SETTINGS = "settings.json"
ROSTER = "roster.json"
GAME = "game.json"        # the game being played, a line added on every committed hand
HISTORY = "history.json"  # finished games, a line each, newest last (firmware/history/entries.py)
FINISH = "finish.json"    # a finish under way: its journal (firmware/game/journal.py)

BAD_KEEP = 3              # damaged copies kept of each file (NAME.bad1..3)
TEXT_MAX = 8192           # read() takes no more (settings, roster, journal are far smaller)


class Store:
    def __init__(self, root="/", os_mod=None, open_fn=None):
        """root: "/" on the board, a folder on the PC. os_mod/open_fn replace os and open
        (tests pass a fake flash that can lose power at any step)."""
        self.os = os_mod if os_mod is not None else os
        self.open_path = open_fn if open_fn is not None else open
        self.root = root
        self.writes = 0         # saves, appends and removals done: flash wear
        self.bytes_written = 0
        self.full = False       # the last refused write was refused for want of room
        #                         (what firmware/history/histroom.py makes)
        self._ensure_root()

    # --- paths ---------------------------------------------------------------------------
    def path(self, name):
        r = self.root
        if r == "":
            return name
        if r.endswith("/"):
            return r + name
        return r + "/" + name

    def _ensure_root(self):
        r = self.root.rstrip("/")
        if not r:
            return
        part = ""
        for seg in r.split("/"):
            part = part + "/" + seg if part or r.startswith("/") else seg
            if not seg or self.exists_path(part):
                continue
            try:
                self.os.mkdir(part)
            except OSError:
                pass

    def exists(self, name):
        return self.exists_path(self.path(name))

    def exists_path(self, p):
        try:
            self.os.stat(p)
            return True
        except OSError:
            return False

    def open(self, name, mode="rb"):
        return self.open_path(self.path(name), mode)

    def free(self):
        """Bytes the filesystem has free, or None when it cannot say (no statvfs)."""
        try:
            v = self.os.statvfs(self.root or ".")
            return v[0] * v[4]       # f_bsize * f_bavail (MicroPython's littlefs: its block)
        except Exception:
            return None

    # --- writing -------------------------------------------------------------------------
    def write_atomic(self, name, text):
        """Save text (str or bytes) as name. Returns None when saved, else the message
        saying why the flash refused (full, read-only; .full: for want of room): the
        previous save is then still in place.
        text may also be a function writer(put) that hands the text to put(str) in pieces
        (the running game, see engine_mpy/savefile.write): it goes to the file as it
        comes, so the whole text never sits in RAM."""
        p = self.path(name)
        tmp = p + ".tmp"
        whole = False
        try:
            f = self.open_path(tmp, "wb")
            try:
                size = _write(f, text)
            finally:
                f.close()
            whole = True
            self._replace(tmp, p)
        except OSError as e:
            self.full = is_full(e)
            if not whole or self.exists_path(p):
                # free the space: a copy cut short (the first roster on a full flash left
                # an empty roster.json.tmp), or one beside the save it would have
                # replaced; never the only copy left (FAT: the old one removed first)
                self.discard(tmp)
            return "Could not save %s (%s)." % (name, errname(e))
        self.writes += 1
        self.bytes_written += size
        self.full = False
        return None

    def append(self, name, text):
        """Add text (str, bytes, or a writer as write_atomic takes) at the end of name
        (created if missing). None when added, else the message saying why not (.full as
        for write_atomic): the file is then exactly as it was. littlefs commits an append
        when the file is closed, and never after a write that failed (the flash full); a
        PC's disk keeps what was written, so there the file is cut back to its length
        before (tests/test_full_flash.py)."""
        p = self.path(name)
        cut = getattr(self.os, "truncate", None)    # CPython's os; MicroPython has none
        before = -1
        if cut is not None:
            try:
                before = self.os.stat(p)[6]
            except OSError:
                pass
        try:
            f = self.open_path(p, "ab")
            try:
                size = _write(f, text)
            finally:
                f.close()
        except OSError as e:
            self.full = is_full(e)
            if before >= 0:
                try:
                    cut(p, before)
                except OSError:
                    pass
            return "Could not save %s (%s)." % (name, errname(e))
        self.writes += 1
        self.bytes_written += size
        self.full = False
        return None

    def _replace(self, src, dst):
        try:
            self.os.rename(src, dst)
        except OSError:
            # FAT refuses to rename onto an existing file. Until the second rename, only
            # the complete src exists, and recover() takes it back.
            if not self.exists_path(dst):
                raise
            self.os.remove(dst)
            self.os.rename(src, dst)

    def remove(self, name):
        """Delete a file and any leftover of a save of it (the finished game, say)."""
        p = self.path(name)
        gone = False
        for q in (p, p + ".tmp"):
            if self.exists_path(q):
                try:
                    self.os.remove(q)
                    gone = True
                except OSError:
                    pass
        if gone:
            self.writes += 1
        return gone

    def discard(self, p):
        """Remove the file at path p if it is there (never raises)."""
        try:
            self.os.remove(p)
        except OSError:
            pass


# MicroPython writes a str to a binary file as its UTF-8 bytes: no encoded copy in RAM.
_STR_WRITES = sys.implementation.name == "micropython"


def _write(f, text):
    """Write text (str, bytes, or a writer(put) handing str pieces to put) to the open
    binary file f; the bytes written."""
    if not callable(text):
        if isinstance(text, str) and not _STR_WRITES:
            text = text.encode()
        n = f.write(text)
        return n if n is not None else len(text)
    size = [0]

    def put(s):
        # str, or bytes copied as they are (a file's own bytes: never decoded, so a damaged
        # byte or a character split between two pieces passes through unchanged)
        n = f.write(s if _STR_WRITES or type(s) is not str else s.encode())
        size[0] += n if n is not None else len(s)
    text(put)
    return size[0]


_ENOSPC = 28


def is_full(e):
    """Whether OSError e says the flash (or the PC's disk) has no room left."""
    return bool(e.args) and e.args[0] == _ENOSPC


def errname(e):
    if isinstance(e, OSError) and e.args:
        code = e.args[0]
        return {2: "not found", 5: "I/O error", 20: "a folder is in the way", 21: "is a folder",
                _ENOSPC: "flash full", 30: "read-only"}.get(code, "error %s" % (code,))
    if isinstance(e, MemoryError):
        return "short of memory"
    return type(e).__name__
