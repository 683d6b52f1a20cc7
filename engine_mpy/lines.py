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


def read_line(f, limit):
    """The next line of f with its newline (b"" at the end, no newline when the file ends
    without one), or its first limit bytes if it is longer."""
    line = f.readline(_PIECE)
    while line and line[-1] != 10 and len(line) < limit:
        b = f.readline(_PIECE if limit - len(line) > _PIECE else limit - len(line))
        if not b:
            break
        line += b
    return line
