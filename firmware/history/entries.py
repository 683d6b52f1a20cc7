# The finished games' files, as they are read: history.json (a header line, then one line
# per game, newest last) and the older history.K.json, found and indexed a line start at a
# time, so RAM does not grow with the history; and one game's line (engine_mpy/summary.py
# has what it holds), as the history, the finish journal and the PC companion write and
# read it. Adding a game is firmware/history/histadd.py (a finish loads it); the History screen
# reads through firmware/history/histbrowse.py; the earlier one-list format is
# firmware/history/history_v1.py.
import json
import sys

try:
    from array import array
except ImportError:   # pragma: no cover
    array = None

from engine_mpy.lines import half_char, read_line as read_upto_newline, parse, is_id
from firmware.files.store import HISTORY

# Finding line ends: native code where it runs (firmware/draw/fastdraw_src.py newline_at, loaded
# with the drawing's by firmware/draw/gfx.py, which the display loads at start), else bytes.find
# (CPython; a port with no native code; a tool that draws nothing). Looked up, never
# imported from here: the drawing's fonts would come with it.
def newline_search():
    """The native newline_at(buf, k, n), or None."""
    return getattr(sys.modules.get("firmware.draw.gfx"), "newline_at", None)


HEAD = '{"format":"phase10-history","v":2}\n'
N_MAX = 1000000000        # a game's number is below this (a billion finishes: never)
SEGMENT = 100            # games in history.json before it is moved aside (firmware/history/histadd.py)
LINE_MAX = 2048           # the longest line: a Dice game of 300 turns, a long Twist game


def plain(s):
    """Whether write_entry may write s as it is, between quotes: no quote, backslash or
    control character (MicroPython's json takes a raw newline in a string; a line must not),
    and no half of a character (engine_mpy/lines.py half_char). Checked on a finish
    journal's game only: the device's own lines are plain as made."""
    for c in s:
        if c < " " or c == '"' or c == "\\":
            return False
    return half_char(s) < 0


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
    for k in ("hands", "phases", "n", "first", "cut", "start", "end"):
        v = e.get(k, 0)
        if k == "first" and isinstance(v, list):
            v = 0 if all(isinstance(x, int) for x in v) else None
        if not isinstance(v, int) or v is True or v is False:
            raise ValueError("%s is not a whole number" % k)
        if k == "n" and not 0 <= v < N_MAX:
            raise ValueError("the game's number is out of range")
        if v < 0 and k in ("start", "end"):
            raise ValueError("%s is not a time" % k)
    if "id" in e and not is_id(e["id"]):
        raise ValueError("the game's id is not 16 hex digits")
    for k in ("game", "variation", "sheet", "layout"):
        if not isinstance(e.get(k, ""), str):
            raise ValueError("%s is not text" % k)
    for k in ("totals", "made"):
        v = e.get(k, [])
        if not isinstance(v, list) or [x for x in v if not isinstance(x, int) or x is True or x is False]:
            raise ValueError("%s is not a list of numbers" % k)
    return e


def read_line(f, start):
    """The game (a dict) on the line starting at byte start of the open file f. The last
    line may lack its newline (a cut that took only that byte): it is a game all the same
    when it is whole. ValueError when it is too long, cut short or not a game."""
    f.seek(start)
    line = read_upto_newline(f, LINE_MAX)
    if len(line) >= LINE_MAX and not line.endswith(b"\n"):
        raise ValueError("a line is too long")
    return check_entry(parse(line))


def number(f, start):
    """The number of the game on the line at start, read off its first bytes (the device
    writes "n" first), or None when they are not that (a damaged or foreign line)."""
    f.seek(start)
    return number_in(f.read(16))


def number_in(head):
    """number() of a line whose first bytes are head (bytes, 16 or more when the line is)."""
    v = _head_number(head, 0, len(head))
    return None if v < 0 else v


def write_entry(e, put):
    """Hand game e to put(str) as one JSON object in pieces, its number first
    (MicroPython's dicts keep no order; number() reads only that much of a line) and its
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


class Index:
    """Where each game's line starts in one history file (the header not counted), and
    its number as its first bytes say it (nums: -1 when they do not, or were not read).
    open_end: the last game's line lacks its newline (a game all the same). torn: the
    file ends in a line cut short or damaged, not counted (tail_n: its number if its first
    bytes say it, else -1). end: where the last whole line ends."""

    def __init__(self):
        self.starts = array("I")
        self.nums = array("i")
        self.v1 = False
        self.torn = False
        self.open_end = False
        self.tail_n = -1
        self.end = 0
        self.size = 0

    def __len__(self):
        return len(self.starts)


def _head_number(buf, k, n):
    """The number of the line starting at buf[k] ('{"n":', 1 to 9 digits, a comma: under
    N_MAX) when its first bytes up to that comma are in buf[:n]; -1 when they are not
    (cut by a chunk's end: read it later) or do not say it."""
    if k + 7 > n or buf[k] != 123 or buf[k + 1] != 34 or buf[k + 2] != 110 or buf[k + 3] != 34 or buf[k + 4] != 58:
        return -1
    e = k + 15 if k + 15 < n else n
    v = 0
    for j in range(k + 5, e):
        c = buf[j]
        if c == 44:               # ","
            return v if j > k + 5 else -1
        if not 48 <= c <= 57:
            return -1
        v = v * 10 + c - 48
    return -1


def index(f):
    """The Index of the open history file f: line starts found by reading f in chunks
    (no line is built), each line's number read off its first bytes while they are in
    the chunk. ValueError: not a history file."""
    ix = Index()
    starts = ix.starts
    nums = ix.nums
    nl = newline_search()
    buf = bytearray(512)
    pos = 0            # the file offset of buf[0]
    start = 0          # where the line being read started
    num = -1           # its number, when its first bytes said it (-2: in the next chunk)
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
        if num == -2:                    # the line starts at this chunk's first byte
            num = _head_number(buf, 0, n)
        k = 0
        while k < n:
            j = nl(buf, k, n) if nl else buf.find(b"\n", k, n)
            if j < 0:
                break
            if not head:
                starts.append(start)
                nums.append(num)
            head = False
            start = pos + j + 1
            num = _head_number(buf, j + 1, n) if j + 1 < n else -2
            k = j + 1
        pos += n
    if head:
        raise ValueError("no header line")
    ix.end = start
    ix.size = pos
    if start != pos:
        # the last line has no newline: a whole game, or a line cut short or damaged
        try:
            read_line(f, start)
            starts.append(start)
            nums.append(-1)
            ix.open_end = True
            ix.end = pos
        except ValueError:
            ix.torn = True
            n = number(f, start)
            ix.tail_n = -1 if n is None else n
    f.seek(0)
    d = parse(read_upto_newline(f, 256))
    if not isinstance(d, dict) or d.get("format") != "phase10-history" or d.get("v") != 2:
        raise ValueError("not a history file")
    return ix


def files(store, odd=None):
    """The history's files, newest first: history.json, then history.K.json, K down."""
    ks = archives(store, odd)
    ks.sort()
    ks.reverse()
    return [HISTORY] + ["history.%d.json" % k for k in ks]


# K of history.K.json as the device names it (K from 1, no leading 0); -1 for a name only a
# person gives (history.02.json copied by hand: read as history.2.json, its games were
# counted in place of that file's and the room-making never found it), left alone and
# said (firmware/history/histbrowse.py ODD); None for any other name. (Comments, not docstrings:
# this module is loaded ahead with History, where a few hundred bytes told.)
def archive_number(name):
    if not (name.startswith("history.") and name.endswith(".json")) or name == HISTORY:
        return None
    mid = name[8:-5]
    if not mid.isdigit():
        return None
    return -1 if mid[0] == "0" else int(mid)


# The K of each history.K.json; odd (a list) gets the names archive_number() calls a
# person's.
def archives(store, odd=None):
    ks = []
    for name in names(store):
        k = archive_number(name)
        if k is not None:
            if k > 0:
                ks.append(k)
            elif odd is not None:
                odd.append(name)
    return ks


def index_of(store, name):
    """(Index, message, unread) of a history file, as firmware/files/storeread.py reads
    one: the Index None when the file is missing, damaged (set aside, said in the message)
    or could not be read now (unread: nothing may be written over it)."""
    from firmware.files import storeread
    return storeread.recover(store, name, index)


def names(store):
    """The files in the store's folder (none when it cannot be listed: never raises)."""
    try:
        try:
            return [e[0] for e in store.os.ilistdir(store.root or ".") if type(e[0]) is str]
        except AttributeError:       # CPython's os
            return store.os.listdir(store.root or ".")
    except Exception:            # a garbled directory (FAT cut short), a flash error
        return []
