# Reading the device's files a little at a time, and parsing what they hold.
#
# MicroPython's read(n) and readline(n) set aside n bytes before they read anything:
# asking for "up to 8 KB" to read a 300-byte file takes an 8 KB block, which a heap in
# pieces may not have even with plenty free. read_upto and read_line take what the file
# holds, a small piece at a time, and stop past the limit (the caller refuses it).
#
# parse() is the one way the device turns a file's text into values. When content is
# "damaged" and when it is "not now": JSON that holds more lists and objects, or more
# values, than any file of the device's ever does (LISTS_MAX, ITEMS_MAX; a reader that
# knows its file holds more passes its own bound) is damaged, decided by counting before
# anything is parsed, so the verdict is the same on every runtime and every heap (4,000
# nested "[" would otherwise exhaust a board's heap while parsed, and CPython's recursion).
# Within those bounds parsing needs a few KB at most: a MemoryError there is a heap short
# at that moment, the file is kept as it is and read again later.
from engine_mpy.modules import builtin

json = builtin("json")

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_PIECE = const(64)
# The most lists and objects, and commas, in one line or small file: a 6-player hand is
# 8 lists, a full roster 21 lists and 119 commas, a finish journal about 30 and 170.
_HALF_LO = const(0xD800)
_HALF_HI = const(0xDFFF)
LISTS_MAX = const(64)
ITEMS_MAX = const(512)


def parse(data, lists=LISTS_MAX, items=ITEMS_MAX):
    """The value the JSON text data (bytes or str) holds. ValueError (damaged) when it is
    not JSON or holds more than lists lists and objects or items commas (see above)."""
    n = len(data)
    if n > lists:        # (a text no longer than the bounds cannot pass them: no counting)
        if type(data) is str:
            o, c, k = "[", "{", ","
        else:
            o, c, k = b"[", b"{", b","
        if data.count(o) + data.count(c) > lists or (n > items and data.count(k) > items):
            raise ValueError("more values than the file ever holds")
    try:
        return json.loads(data)
    except RuntimeError:      # RecursionError (CPython): cannot happen within the bounds
        raise ValueError("nested too deep")


def half_char(s):
    """The first half of a character in str s (a UTF-16 surrogate, U+D800-DFFF, as a
    code point), or -1. JSON's escapes can put one in a string; MicroPython writes it as 3
    bytes that are not UTF-8 (a PC cannot read the file) and reads an escaped pair
    (U+10000 and up, as CPython writes it) as two halves, so no name holds one."""
    for c in s:
        o = ord(c)
        if _HALF_LO <= o <= _HALF_HI:
            return o
    return -1


def size_left(f):
    """The bytes from f's position to its end, or -1 when f cannot tell (a pipe)."""
    try:
        pos = f.tell()
        end = f.seek(0, 2)
        f.seek(pos)
    except (AttributeError, OSError, ValueError):
        return -1
    if end is None:          # a file object whose seek returns nothing
        end = f.tell()
        f.seek(pos)
    return end - pos


def read_upto(f, limit):
    """The rest of the open binary file f, or its first limit + 1 bytes if it is longer
    (so len() > limit says too long; a runaway file, /dev/zero, is never read whole).
    A file that tells its length is read in one block of exactly that (no trail of
    growing copies across a heap in pieces)."""
    n = size_left(f)
    if 0 <= n <= limit:
        return f.read(n) if n else b""
    out = b""
    while len(out) <= limit:
        b = f.read(_PIECE if limit - len(out) > _PIECE else limit + 1 - len(out))
        if not b:
            break
        out += b
    return out


_scan = bytearray(_PIECE)


def read_line(f, limit):
    """The next line of f with its newline (b"" at the end, no newline when the file ends
    without one), or its first limit bytes if it is longer. A file that can seek (the
    flash's) is scanned for the line's end first, then read in one block of exactly its
    length: a long line leaves no trail of growing copies across the heap."""
    try:
        pos = f.tell()
    except (AttributeError, OSError):
        pos = -1
    if pos < 0:
        return _pieces(f, limit)
    n = 0
    buf = _scan
    while n < limit:
        k = f.readinto(buf)
        if not k:
            break
        j = buf.find(b"\n", 0, k)
        if j >= 0:
            n += j + 1
            break
        n += k
    if n > limit:
        n = limit
    f.seek(pos)
    return f.read(n) if n else b""


class Lines:
    """The lines of f from its position on, one at a time (line(limit) as read_line's),
    read through one block of size bytes: a file read line by line this way costs one
    read call a block, where read_line costs five calls a line (on littlefs each call is
    dearer than the bytes it reads). A line longer than the block is pieced together."""

    def __init__(self, f, size=256):
        self.f = f
        self.buf = bytearray(size)
        self.mv = memoryview(self.buf)
        self.i = 0         # the next byte not yet handed out
        self.n = 0         # the bytes the block holds

    def line(self, limit):
        i = self.i
        j = self.buf.find(b"\n", i, self.n)
        if j >= 0 and j < i + limit:     # the common line: whole in the block
            self.i = j + 1
            return bytes(self.mv[i:j + 1])
        buf = self.buf
        out = b""
        while True:
            i = self.i
            j = buf.find(b"\n", i, self.n)
            end = self.n if j < 0 else j + 1
            if len(out) + end - i > limit:
                end = i + limit - len(out)
                j = 0
            self.i = end
            piece = bytes(self.mv[i:end])
            out = out + piece if out else piece
            if j >= 0:
                return out
            k = self.f.readinto(buf)
            self.i = 0
            self.n = k or 0
            if not k:
                return out


def _pieces(f, limit):
    line = f.readline(_PIECE)
    while line and line[-1] != 10 and len(line) < limit:
        b = f.readline(_PIECE if limit - len(line) > _PIECE else limit - len(line))
        if not b:
            break
        line += b
    return line


def is_id(v):
    """Whether v is a game's id as the files hold it: 16 lowercase hex digits
    (engine_mpy/ident.py makes them)."""
    return type(v) is str and len(v) == 16 and not v.strip("0123456789abcdef")
