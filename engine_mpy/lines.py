# Reading a file a little at a time. MicroPython's read(n) and readline(n) set aside n bytes

try:
    from micropython import const
except ImportError:
    const = lambda x: x
# before they read anything: asking for "up to 8 KB" to read a 300-byte file takes an 8 KB
# block, which a heap in pieces may not have even with plenty free. These take what the
# file holds, a small piece at a time, and stop past the limit (the caller refuses it).

_PIECE = const(64)


def read_upto(f, limit):
    """The rest of the open binary file f, or its first limit + 1 bytes if it is longer
    (so len() > limit says too long; a runaway file, /dev/zero, is never read whole)."""
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


def _pieces(f, limit):
    line = f.readline(_PIECE)
    while line and line[-1] != 10 and len(line) < limit:
        b = f.readline(_PIECE if limit - len(line) > _PIECE else limit - len(line))
        if not b:
            break
        line += b
    return line
