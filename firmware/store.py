# Files on the board's flash: the settings, the player roster, the running game and the
# finished games. Only os and open, so the same code runs on the board (root "/"), under
# the unix port and on the PC (a host folder).
#
# A save is atomic: the new text goes to NAME.tmp, which is closed, then renamed over NAME.
# On littlefs (ESP32 and RP2040 MicroPython) that rename replaces the file atomically. On FAT
# rename onto an existing file fails, so the old file is removed first; a power cut between
# the two leaves only NAME.tmp, complete, and read() takes it back. So after a cut at any
# moment, read() gives the old text or the new one, never a torn one.
#
# read() never raises and never stops the device: a damaged file is renamed aside to
# NAME.bad (kept for the owner to look at) and a message says so.
#
# small_heap() is here too: the one heap rule that the saves and the screens share.
import gc
import os
import sys

try:
    import json
except ImportError:  # pragma: no cover - every MicroPython build the project targets has json
    json = None

SETTINGS = "settings.json"
ROSTER = "roster.json"
GAME = "game.json"        # the game being played, saved on every committed hand
HISTORY = "history.json"  # finished games, newest last

_MISSING = "missing"


def _json_check(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


class Store:
    HISTORY_KEEP = 20  # finished games kept; the oldest drop off

    def __init__(self, root="/", os_mod=None, open_fn=None):
        """root: "/" on the board, a folder on the PC. os_mod/open_fn replace os and open
        (tests pass a fake flash that can lose power at any step)."""
        self._os = os_mod if os_mod is not None else os
        self._open = open_fn if open_fn is not None else open
        self.root = root
        self.writes = 0         # saves and removals done: flash wear, and a check on how often
        self.bytes_written = 0
        self.error = None       # why the last save failed (flash full...), for the screen
        self._sig = {}          # name -> (length, hash) of the text last read or written
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
            if not seg or self._exists(part):
                continue
            try:
                self._os.mkdir(part)
            except OSError:
                pass

    def exists(self, name):
        return self._exists(self.path(name))

    def _exists(self, p):
        try:
            self._os.stat(p)
            return True
        except OSError:
            return False

    # --- writing -------------------------------------------------------------------------
    def write_atomic(self, name, text):
        """Save text (str or bytes) as name. Returns True, or False with .error set when the
        flash refused (full, read-only): the previous save is then still in place.
        text may also be a function writer(put) that hands the text to put(str) in pieces
        (the running game, see engine_mpy/savefile.write): it goes to the file as it
        comes, so the whole text never sits in RAM."""
        p = self.path(name)
        tmp = p + ".tmp"
        data = None
        if not callable(text):
            data = text.encode() if isinstance(text, str) else bytes(text)
        try:
            f = self._open(tmp, "wb")
            try:
                if data is None:
                    size = [0]

                    def put(s):
                        b = s.encode()
                        f.write(b)
                        size[0] += len(b)

                    text(put)
                    size = size[0]
                else:
                    f.write(data)
                    size = len(data)
            finally:
                f.close()
            self._replace(tmp, p)
        except OSError as e:
            self.error = "Could not save %s (%s)." % (name, _errname(e))
            if self._exists(p):
                self._discard(tmp)  # free the space; never the only copy left
            return False
        self.writes += 1
        self.bytes_written += size
        if data is None:
            self._sig.pop(name, None)   # no copy of a streamed text to compare with
        else:
            self._sig[name] = (size, hash(data))
        self.error = None
        return True

    def save(self, name, text):
        """write_atomic only when text differs from what the file already holds (as last
        read or written here): a write only when something changed. True if written."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        if self._sig.get(name) == (len(data), hash(data)):
            return False
        return self.write_atomic(name, data)

    def _replace(self, src, dst):
        try:
            self._os.rename(src, dst)
        except OSError:
            # FAT refuses to rename onto an existing file. Until the second rename, only
            # the complete src exists, and read() recovers from it.
            if not self._exists(dst):
                raise
            self._os.remove(dst)
            self._os.rename(src, dst)

    def remove(self, name):
        """Delete a file and any leftover of a save of it (the finished game, say)."""
        p = self.path(name)
        gone = False
        for q in (p, p + ".tmp"):
            if self._exists(q):
                try:
                    self._os.remove(q)
                    gone = True
                except OSError:
                    pass
        if gone:
            self.writes += 1
        self._sig.pop(name, None)
        return gone

    def _discard(self, p):
        try:
            self._os.remove(p)
        except OSError:
            pass

    # --- reading -------------------------------------------------------------------------
    def read(self, name, check=None):
        """(text, message). text is None when there is nothing usable (a first start, or a
        damaged file with no complete save beside it). message is None, or says in words
        what was wrong and where the damaged copy was kept. check(text) judges the contents:
        None, False or an exception means damaged (default: the text must parse as JSON).
        Never raises."""
        p = self.path(name)
        tmp = p + ".tmp"
        try:
            text, why = self._load(p, check)
            if why is None:
                self._discard(tmp)  # a save that was cut short: the main file stands
                self._remember(name, text)
                return text, None
            ttext, twhy = self._load(tmp, check)
            if why == _MISSING:
                if twhy is None:
                    # cut between removing the old file and renaming the new one (FAT)
                    self._os.rename(tmp, p)
                    self._remember(name, ttext)
                    return ttext, None
                self._discard(tmp)
                return None, None
            bad = self._set_aside(p)
            if twhy is None:
                self._os.rename(tmp, p)
                self._remember(name, ttext)
                return ttext, "%s was damaged (%s), kept as %s; its last save is used." % (name, why, bad)
            self._discard(tmp)
            return None, "%s was damaged (%s), kept as %s; starting without it." % (name, why, bad)
        except Exception as e:  # never stop the device over a file
            return None, "%s could not be read (%s)." % (name, _errname(e))

    def _remember(self, name, text):
        data = text.encode()
        self._sig[name] = (len(data), hash(data))

    def set_aside(self, name):
        """Keep a file as NAME.bad (the latest only) and free its name."""
        return self._set_aside(self.path(name))

    def _set_aside(self, p):
        bad = p + ".bad"
        self._discard(bad)  # keep the latest damaged copy only: the flash is small
        try:
            self._os.rename(p, bad)
        except OSError:
            self._discard(p)
            return "nothing (it could not be moved)"
        return bad.rsplit("/", 1)[-1]

    def _load(self, p, check):
        """(text, None) when the file is there and good, else (None, why)."""
        try:
            f = self._open(p, "rb")
        except OSError:
            return None, _MISSING
        try:
            data = f.read()
        except OSError:
            return None, "unreadable"
        finally:
            f.close()
        if not data or not data.strip():
            return None, "empty"
        try:
            text = data.decode()
        except (UnicodeError, ValueError):
            return None, "not text"
        data = None     # the bytes as read: only the text is needed now (a long save's RAM)
        try:
            ok = (check or _json_check)(text)
        except MemoryError:
            # Too little heap to judge it says nothing about the file: never call a good
            # save damaged for that (read() reports it and leaves the file alone).
            raise
        except Exception:
            ok = None
        if ok is None or ok is False:
            return None, "truncated or invalid"
        return text, None

    # --- the layout ----------------------------------------------------------------------
    def load_json(self, name, check=None):
        """(value, message): the parsed file, or None; see read()."""
        text, msg = self.read(name, check)
        if text is None:
            return None, msg
        return json.loads(text), msg

    def save_json(self, name, value):
        """Save value as compact JSON if it changed. True if written."""
        return self.save(name, json.dumps(value, separators=(",", ":")))

    def add_history(self, entry):
        """Append a finished game (any JSON value) to history.json, keeping the newest
        HISTORY_KEEP. Returns (written, message about a damaged history, if any)."""
        games, msg = self.load_json(HISTORY, _list_check)
        games = games or []
        games.append(entry)
        if len(games) > self.HISTORY_KEEP:
            games = games[len(games) - self.HISTORY_KEEP:]
        return self.save_json(HISTORY, games), msg


def small_heap():
    """Whether this heap is small for the firmware: under twice what it needs (make bench's
    min_heap_kb, 128 KB on the 64-bit unix port, about 64 KB on a 32-bit board: an ESP32's
    56-110 KB is small, a Pico's 200 KB is not). On a small heap the garbage is collected
    before a screen's code loads or a game is saved, so the code loads into one tidy
    stretch (collecting only when an allocation fails leaves the heap in pieces), and a
    closed screen's module is dropped at once. With room to spare the collection waits
    for the next poll without a key, after the new frame (here it would cost a few
    milliseconds between the key and the screen), and modules stay loaded (App.cached).
    Measured once: gc.mem_free() walks the whole heap. The caller collects itself: a
    collection from deeper down the stack finds stale pointers there and keeps their
    garbage."""
    if not _small:
        f = getattr(gc, "mem_free", None)
        if f is None:
            _small.append(False)     # CPython: its own collector, memory to spare
        else:
            need = 128 * 1024 if sys.maxsize > 0xFFFFFFFF else 64 * 1024
            _small.append(f() + gc.mem_alloc() < 2 * need)
    return _small[0]


_small = []


def _list_check(text):
    v = _json_check(text)
    return v if isinstance(v, list) else None


def _errname(e):
    if isinstance(e, OSError) and e.args:
        code = e.args[0]
        return {2: "not found", 5: "I/O error", 28: "flash full", 30: "read-only"}.get(code, "error %s" % (code,))
    return type(e).__name__
