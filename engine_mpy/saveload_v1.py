# Reading a version 1 save (one JSON object, the firmware before saves went a record a
# line): its records read one at a time, as engine_mpy/saveload.py reads version 2. A
# module of its own: only a device holding a save of the earlier firmware loads it, once.

from engine_mpy.lines import read_line, parse
from engine_mpy.savefile import SaveError, HEAD_MAX, value, version, new_game, feed, keep_record

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_CHUNK = const(256)      # read this much at a time
_V1_VALUE_MAX = const(4096)   # a setting or a record inside the save


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


def _key(s):
    """The next object key: text, else the save is damaged (a list as a key, {[]:1})."""
    k = value(s.value(True), -1)
    if type(k) is not str:
        raise SaveError("not valid JSON (the file is damaged: a key is not text)")
    return k


def records_v1(f, each):
    """each(record) for every record of the version 1 save in f, in order (parsed, not
    replayed: the device copies a save it has read once into version 2)."""
    d = None
    try:
        d = parse(read_line(f, HEAD_MAX))
    except ValueError:
        pass
    if isinstance(d, dict):          # the whole save was its first line
        for r in d.get("records") or ():
            each(r)
        return
    f.seek(0)
    s = _Scan(f)
    s.take(123)
    while True:
        key = _key(s)
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
            each(value(s.value(True), i))
            i += 1
            if s.take() == 93:
                return


def load_v1(f, sink, keep):
    # Two passes: the keys around the records first (they may come in any order), then the
    # records, one at a time.
    s = _Scan(f)
    if s.peek() != 123:
        raise SaveError("not a Phase 10 save (expected a JSON object)")
    s.take(123)
    head = {}
    found = False
    while True:
        key = _key(s)
        s.take(58)                           # :
        if key == "records":
            if s.peek() != 91:
                raise SaveError("records missing or not a list")
            s.value(False)
            found = True
        else:
            head[key] = value(s.value(True), -1)
        c = s.take()
        if c == 125:
            break
        if c != 44:
            raise SaveError("not valid JSON (the file is damaged or truncated)")
    if s.peek() >= 0:
        raise SaveError("not valid JSON (more after the save)")
    if version(head) != 1 or not found:
        raise SaveError("records missing or not a list")
    game = new_game(head, keep)
    head = None
    f.seek(0)
    s = _Scan(f)
    s.take(123)
    i = -1
    while i < 0:
        key = _key(s)
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
            norm = feed(game, value(s.value(True), i), i)
            keep_record(game, sink, i, norm, None, None)
            i += 1
            c = s.take()
            if c == 93:
                break
            if c != 44:
                raise SaveError("not valid JSON (the file is damaged or truncated)")
    return game
