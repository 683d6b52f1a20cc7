# The finished games (history.json): a header line, then one line per game, newest last
# (engine_mpy/summary.py has what a line holds). A finished game is added as one appended
# line, never by reading and writing the history whole, and the History screen reads a
# page of lines at a time: RAM does not grow with the history.
#
# The file holds SEGMENT games; the next finished game first moves it aside as
# history.K.json (K counting up) and starts a new one, and the oldest archived files go
# beyond ARCHIVES: at most about 1,000 games, and no finish ever rewrites the history.
# Version 1 (earlier firmware) was one JSON list of at most 20 games: the first finish
# writes it out as version 2 (firmware/history_v1.py). The History screen reads through
# firmware/histbrowse.py. A finish loads only this.
import json

try:
    from array import array
except ImportError:   # pragma: no cover
    array = None

from engine_mpy.lines import read_line as _line
from firmware.store import HISTORY

SEGMENT = 100
ARCHIVES = 9
LINE_MAX = 2048           # the longest line: a Dice game of 300 turns, a long Twist game
_HEAD = '{"format":"phase10-history","v":2}\n'


class Index:
    """Where each game's line starts in one history file (the header not counted); torn:
    the file ends in a line cut short (an append the power cut, on FAT), not counted."""

    def __init__(self):
        self.starts = array("I")
        self.v1 = False
        self.torn = False
        self.end = 0         # where the last whole line ends

    def __len__(self):
        return len(self.starts)


def index(f):
    """The Index of the open history file f: line starts found by reading f in chunks
    (no line is built). ValueError: not a history file."""
    ix = Index()
    buf = bytearray(256)
    pos = 0            # the file offset of buf[0]
    start = 0          # where the line being read started
    head = True        # reading the header line
    while True:
        n = f.readinto(buf)
        if not n:
            break
        if pos == 0 and buf[0] != 123:
            if buf[0] == 91:             # "[": version 1, one JSON list
                ix.v1 = True
                return ix
            raise ValueError("not a history file")
        k = 0
        while k < n:
            j = buf.find(b"\n", k, n)
            if j < 0:
                break
            if not head:
                ix.starts.append(start)
            head = False
            start = pos + j + 1
            k = j + 1
        pos += n
    if head:
        raise ValueError("no header line")
    ix.torn = start != pos
    ix.end = start
    f.seek(0)
    d = _json(_line(f, 256))
    if not isinstance(d, dict) or d.get("format") != "phase10-history" or d.get("v") != 2:
        raise ValueError("not a history file")
    return ix


def read_line(f, start):
    """The game (a dict) on the line starting at byte start of the open file f."""
    f.seek(start)
    line = _line(f, LINE_MAX)
    if not line.endswith(b"\n"):
        raise ValueError("a line is too long or cut short")
    return check_entry(_json(line))


def _json(b):
    try:
        return json.loads(b)
    except RuntimeError:      # RecursionError (CPython): nested deeper than any line
        raise ValueError("nested too deep")


def check_entry(e):
    """A game as the History screen and the PC companion read it, else ValueError."""
    if not isinstance(e, dict):
        raise ValueError("a game is not an object")
    for k in ("players", "winners"):
        v = e.get(k, [])
        if not isinstance(v, list):
            raise ValueError("%s is not a list" % k)
        for x in v:
            if not isinstance(x, str):
                raise ValueError("a name is not text")
    for k in ("hands", "phases", "n", "first", "cut"):
        v = e.get(k, 0)
        if k == "first" and isinstance(v, list):
            v = 0 if all(isinstance(x, int) for x in v) else None
        if not isinstance(v, int) or v is True or v is False:
            raise ValueError("%s is not a whole number" % k)
    for k in ("game", "variation", "sheet", "layout"):
        if not isinstance(e.get(k, ""), str):
            raise ValueError("%s is not text" % k)
    for k in ("totals", "made"):
        v = e.get(k, [])
        if not isinstance(v, list) or [x for x in v if not isinstance(x, int) or x is True or x is False]:
            raise ValueError("%s is not a list of numbers" % k)
    return e


def files(store):
    """The history's files, newest first: history.json, then history.K.json, K down."""
    ks = archives(store)
    ks.sort()
    ks.reverse()
    return [HISTORY] + ["history.%d.json" % k for k in ks]


def archives(store):
    ks = []
    for name in _names(store):
        if name.startswith("history.") and name.endswith(".json") and name != HISTORY:
            mid = name[8:-5]
            if mid.isdigit():
                ks.append(int(mid))
    return ks


def _index_of(store, name, said):
    """The Index of a history file, or None (missing, or damaged and set aside: said gets
    the message). MemoryError and the like: OSError with the message (nothing changed)."""
    ix, msg, unread = store.recover(name, index)
    if unread:
        raise OSError(msg)
    if msg:
        said.append(msg)
    return ix


def _last(store, name, ix):
    """The number of the newest game of a history file (-1: its last line is damaged)."""
    if not len(ix):
        return 0
    try:
        f = store.open(name, "rb")
    except Exception as e:
        from firmware.store import _errname
        raise OSError("%s could not be read (%s); it is kept as it is." % (name, _errname(e)))
    try:
        # the device writes "n" first: its digits are all a finish needs of the line
        f.seek(ix.starts[-1])
        head = f.read(16)
        if head.startswith(b'{"n":'):
            j = head.find(b",")
            if j > 5 and head[5:j].isdigit():
                return int(head[5:j])
        return read_line(f, ix.starts[-1]).get("n", 0)
    except ValueError:
        return -1
    except Exception as e:      # short of memory, a flash error: nothing may be written
        from firmware.store import _errname
        raise OSError("%s could not be read (%s); it is kept as it is." % (name, _errname(e)))
    finally:
        f.close()


def last_n(store, said):
    """The number of the newest game in the history (0 when there is none). OSError when
    the history could not be read (nothing changed)."""
    for name in files(store):
        ix = _index_of(store, name, said)
        if ix is None:
            continue
        if ix.v1:
            from firmware.history_v1 import v1_count
            return v1_count(store, said)
        n = _last(store, name, ix)
        if n > 0:
            return n
    return 0


def add(store, e, said):
    """Add game e (with its "n") to the history unless it is there already (a finish cut
    short and completed again). None, or why the flash refused (nothing changed); OSError
    when the history could not be read. The line goes to the flash in pieces
    (write_entry): a long game's line is never built whole in RAM."""
    def line(put):
        write_entry(e, put)
        put("\n")

    def whole(put):
        put(_HEAD)
        line(put)
    ix = _index_of(store, HISTORY, said)
    if ix is not None and ix.v1:
        from firmware.history_v1 import from_v1
        return from_v1(store, e, line, said)
    if ix is None:
        # missing (or set aside as damaged): maybe it was just moved aside full
        ks = archives(store)
        if ks:
            aix = _index_of(store, "history.%d.json" % max(ks), said)
            if aix is not None and not aix.v1 and _last(store, "history.%d.json" % max(ks), aix) >= e["n"]:
                return None
        return None if store.write_atomic(HISTORY, whole) else store.error
    if _last(store, HISTORY, ix) >= e["n"]:
        return None
    if len(ix) >= SEGMENT:
        err = _rotate(store)
        if err:
            return err
        return None if store.write_atomic(HISTORY, whole) else store.error
    if ix.torn:
        # a line cut short at the end (FAT): the file again without it
        def writer(put):
            f = store.open(HISTORY, "rb")
            try:
                left = ix.end
                while left > 0:
                    b = f.read(min(256, left))
                    if not b:
                        break
                    put(b.decode())
                    left -= len(b)
            finally:
                f.close()
            line(put)
        return None if store.write_atomic(HISTORY, writer) else store.error
    return None if store.append(HISTORY, line) else store.error


def write_entry(e, put):
    """Hand game e to put(str) as one JSON object in pieces, its number first
    (MicroPython's dicts keep no order; _last reads only that much of a line) and its
    sheet as it is (the sheet's alphabet needs no escaping: engine_mpy/summary.py)."""
    put('{"n":%d' % e["n"])
    for k in e:
        if k == "n":
            continue
        put(',"%s":' % k)
        v = e[k]
        if k == "sheet" and isinstance(v, str):
            put('"')
            put(v)
            put('"')
        else:
            put(json.dumps(v, separators=(",", ":")))
    put("}")


def _names(store):
    """The files in the store's folder (none when it cannot be listed: never raises)."""
    try:
        try:
            return [e[0] for e in store._os.ilistdir(store.root or ".") if type(e[0]) is str]
        except AttributeError:       # CPython's os
            return store._os.listdir(store.root or ".")
    except Exception:            # a garbled directory (FAT cut short), a flash error
        return []


def _rotate(store):
    ks = archives(store)
    k = max(ks) + 1 if ks else 1
    to = "history.%d.json" % k
    try:
        store._os.rename(store.path(HISTORY), store.path(to))
    except OSError as e:
        from firmware.store import _errname
        store.error = "Could not save %s (%s)." % (to, _errname(e))
        return store.error
    store.writes += 1
    ks.sort()
    while len(ks) >= ARCHIVES:
        store.remove("history.%d.json" % ks.pop(0))
    return None
