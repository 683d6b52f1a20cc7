# Reading a save (engine_mpy/savefile.py has the format): a record at a time, each replayed
# through the game's rules as it is read, so RAM does not grow with the game's length and
# a file that is malformed or tells an impossible story is refused whole (SaveError).
# A module of its own because the device reads a save only at start: it is dropped from
# RAM after that.
import json

from engine_mpy.game import SAVE_FORMAT, SAVE_VERSION, RuleError
from engine_mpy.savefile import SaveError, game_class
from engine_mpy.lines import read_line

try:
    from micropython import const
except ImportError:
    const = lambda x: x

HEAD_MAX = 2048   # the header line: settings (a Twist board of 64 spaces, six names)
LINE_MAX = 1024   # a record's line (a Twist hand of six players is under 200)
_CHUNK = const(256)      # version 1 is read this much at a time
_V1_VALUE_MAX = const(4096)   # a setting or a record inside a version 1 save


def load(f, sink=None, keep=None):
    """The game the save in the open binary file f describes. After each record is
    replayed, sink(game, i, norm, start, line) is called: start and line are the record's
    byte offset and its line (version 2), or None (version 1). Without a sink the records
    are kept in RAM (game.records). keep: the records' home, handed to the game. The game
    comes back with .torn: the number of a hand whose line was cut short at the end of
    the file (a save the power cut; it is not part of the game), else 0, and (version 2)
    .size: the bytes of its whole lines."""
    head = read_line(f, HEAD_MAX)
    d = None
    try:
        d = json.loads(head)
    except (ValueError, RuntimeError):   # RuntimeError: nested too deep (CPython)
        pass
    if not isinstance(d, dict):
        # not a header line: a version 1 save (one long line, or spread over lines), or
        # damage, which the version 1 reader names
        f.seek(0)
        return _load_v1(f, sink, keep)
    v = _version(d)
    if v == 1:
        # a short version 1 save: the whole file was that first line
        recs = d.get("records")
        if not isinstance(recs, list):
            raise SaveError("records missing or not a list")
        game = _game(d, keep)
        for i in range(len(recs)):
            norm = _feed(game, recs[i], i)
            recs[i] = None
            _keep(game, sink, i, norm, None, None)
        return game
    if "records" in d:
        raise SaveError("not a Phase 10 save (a version 2 header holds no records)")
    game = _game(d, keep)
    d = None
    pos = len(head)
    i = 0
    while True:
        line = read_line(f, LINE_MAX)
        if not line:
            break
        start = pos
        pos += len(line)
        if not line.endswith(b"\n"):
            if len(line) == LINE_MAX:
                raise SaveError("hand %d: the line is too long" % (i + 1))
            game.torn = i + 1      # the power went while this line was added
            pos = start
            break
        if not line.strip():
            continue
        rec = _json(line, i)
        norm = _feed(game, rec, i)
        rec = None
        _keep(game, sink, i, norm, start, line)
        i += 1
    game.size = pos        # the bytes of whole lines: where the next line goes
    return game


def _json(b, i):
    try:
        return json.loads(b)
    except (ValueError, RuntimeError):   # RuntimeError: nested too deep (CPython)
        if i < 0:
            raise SaveError("not valid JSON (the file is damaged)")
        raise SaveError("hand %d: not valid JSON (the file is damaged)" % (i + 1))


def _keep(game, sink, i, norm, start, line):
    if sink is None:
        game.records.append(norm)
    else:
        sink(game, i, norm, start, line)


def _version(d):
    if d.get("format") != SAVE_FORMAT:
        raise SaveError("not a Phase 10 save (no \"format\": \"phase10\")")
    v = d.get("v")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise SaveError("save version missing or invalid")
    if v > SAVE_VERSION:
        raise SaveError("save version %d is newer than this firmware reads (%d)" % (v, SAVE_VERSION))
    return v


def _game(d, keep):
    cls = game_class(d.get("game"))
    settings = d.get("settings")
    if not isinstance(settings, dict):
        raise SaveError("settings missing or not an object")
    try:
        g = cls(settings, keep=keep)
    except RuleError as e:
        raise SaveError("settings: %s" % e.args[0])
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        raise SaveError("settings are malformed (%s)" % type(e).__name__)
    g.torn = 0
    return g


def _feed(game, rec, i):
    try:
        return game.feed(rec, i)
    except RuleError as e:
        raise SaveError("hand %d: %s" % (e.hand or i + 1, e.args[0]))


# --- version 1: one JSON object, its records read one at a time --------------------------
class _Scan:
    """A JSON text read from a file _CHUNK bytes at a time; finds where each value ends
    without parsing it, so one record at a time is handed to json.loads."""

    def __init__(self, f):
        self.f = f
        self.buf = b""
        self.i = 0

    def peek(self):
        """The next byte that is not white space (not taken), or -1 at the end."""
        while True:
            if self.i >= len(self.buf):
                self.buf = self.f.read(_CHUNK)
                self.i = 0
                if not self.buf:
                    return -1
            c = self.buf[self.i]
            if c not in b" \t\r\n":
                return c
            self.i += 1

    def take(self, want=-1):
        c = self.peek()
        if c < 0 or (want >= 0 and c != want):
            raise SaveError("not valid JSON (the file is damaged or truncated)")
        self.i += 1
        return c

    def value(self, keep):
        """The next JSON value's text (bytes) when keep, else skip it."""
        out = bytearray() if keep else None
        depth = 0
        instr = esc = False
        c = self.peek()
        if c < 0:
            raise SaveError("not valid JSON (the file is damaged or truncated)")
        scalar = c not in b"[{\""
        buf = self.buf
        i = self.i
        at = i                      # where the part of buf still to keep starts
        while True:
            if i >= len(buf):
                if out is not None:
                    out.extend(buf[at:])
                    if len(out) > _V1_VALUE_MAX:
                        raise SaveError("a value in the save is too long")
                buf = self.buf = self.f.read(_CHUNK)
                i = at = self.i = 0
                if not buf:
                    if scalar and depth == 0:
                        return bytes(out) if keep else None
                    raise SaveError("not valid JSON (the file is damaged or truncated)")
            c = buf[i]
            if scalar and c in b",]} \t\r\n":
                break
            i += 1
            if instr:
                if esc:
                    esc = False
                elif c == 92:          # backslash
                    esc = True
                elif c == 34:          # the closing quote
                    instr = False
                    if depth == 0:
                        break
            elif c == 34:
                instr = True
            elif c == 91 or c == 123:   # [ {
                depth += 1
            elif c == 93 or c == 125:   # ] }
                depth -= 1
                if depth == 0:
                    break
        self.i = i
        if out is None:
            return None
        out.extend(buf[at:i])
        if len(out) > _V1_VALUE_MAX:
            raise SaveError("a value in the save is too long")
        return bytes(out)


def records_v1(f, each):
    """each(record) for every record of the version 1 save in f, in order (parsed, not
    replayed: the device copies a save it has read once into version 2)."""
    d = None
    try:
        d = json.loads(read_line(f, HEAD_MAX))
    except (ValueError, RuntimeError):
        pass
    if isinstance(d, dict):          # the whole save was its first line
        for r in d.get("records") or ():
            each(r)
        return
    f.seek(0)
    s = _Scan(f)
    s.take(123)
    while True:
        key = _json(s.value(True), -1)
        s.take(58)
        if key != "records":
            s.value(False)
            s.take()
            continue
        s.take(91)
        if s.peek() == 93:
            return
        i = 0
        while True:
            each(_json(s.value(True), i))
            i += 1
            if s.take() == 93:
                return


def _load_v1(f, sink, keep):
    # Two passes: the keys around the records first (they may come in any order), then the
    # records, one at a time.
    s = _Scan(f)
    if s.peek() != 123:
        raise SaveError("not a Phase 10 save (expected a JSON object)")
    s.take(123)
    head = {}
    found = False
    while True:
        key = _json(s.value(True), -1)
        s.take(58)                           # :
        if key == "records":
            if s.peek() != 91:
                raise SaveError("records missing or not a list")
            s.value(False)
            found = True
        else:
            head[key] = _json(s.value(True), -1)
        c = s.take()
        if c == 125:
            break
        if c != 44:
            raise SaveError("not valid JSON (the file is damaged or truncated)")
    if s.peek() >= 0:
        raise SaveError("not valid JSON (more after the save)")
    if _version(head) != 1 or not found:
        raise SaveError("records missing or not a list")
    game = _game(head, keep)
    head = None
    f.seek(0)
    s = _Scan(f)
    s.take(123)
    i = -1
    while i < 0:
        key = _json(s.value(True), -1)
        s.take(58)
        if key != "records":
            s.value(False)
            s.take()
            continue
        s.take(91)
        i = 0
        if s.peek() == 93:
            break
        while True:
            norm = _feed(game, _json(s.value(True), i), i)
            _keep(game, sink, i, norm, None, None)
            i += 1
            c = s.take()
            if c == 93:
                break
            if c != 44:
                raise SaveError("not valid JSON (the file is damaged or truncated)")
    return game
