# One finished game as the history keeps it: a line of compact JSON (engine_mpy/summary.py
# has what it holds), its number first. What the history's files (firmware/history.py),
# the version 1 reader (firmware/history_v1.py), the History screen's browsing
# (firmware/histbrowse.py), the finish journal (firmware/finish.py) and the PC companion
# share: the header line, the check of a game, and writing and reading one line.
import json

from engine_mpy.lines import read_line as read_upto_newline, parse

HEAD = '{"format":"phase10-history","v":2}\n'
LINE_MAX = 2048           # the longest line: a Dice game of 300 turns, a long Twist game


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
    head = f.read(16)
    if head.startswith(b'{"n":'):
        j = head.find(b",")
        if j > 5 and head[5:j].isdigit():
            return int(head[5:j])
    return None


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
