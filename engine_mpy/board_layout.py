# The Phase 10 Twist game board (not the circuit board: that is firmware/) as data
# (RULINGS.md, "Twist": the layout is not in the rulebook, so it is never code).
# A layout is a list of space codes, first to last:
#   1S      the "1/Start" space (phase 1), only as the first space
#   1 .. 9  a numbered space: the phase a pawn standing on it attempts
#   T       a Twist space: the phase before it, the phase after it, or a Twist card
#   10R     the red Phase 10 space, exactly once, as the last space
# A layout file is text: codes separated by spaces or newlines, "#" starts a comment.
# On the device the file is /twist_layout.txt; when present it replaces the default.
from engine_mpy.game import RuleError

try:
    from micropython import const
except ImportError:
    const = lambda x: x

MAX_SPACES = const(64)
MAX_FILE = const(4096)   # bytes of a layout file: 64 codes and plenty of comments
TWIST = const(0)  # phase number stored for a Twist space in space_phases()

DEFAULT_LAYOUT = "1S 1 T 2 2 T 3 3 T 4 4 T 5 5 T 6 6 T 7 7 T 8 8 T 9 9 10R"
LAYOUT_FILE = "/twist_layout.txt"

_CODES = "1S, 1-9, T or 10R"


def default_layout():
    return DEFAULT_LAYOUT.split()


def _code(tok):
    """The phase number of one code (TWIST for T, 10 for 10R), or -1 if unknown."""
    t = tok.upper()
    if t == "T":
        return TWIST
    if t == "1S":
        return 1
    if t == "10R":
        return 10
    if len(t) == 1 and "1" <= t <= "9":
        return ord(t) - 48
    return -1


def check_codes(codes):
    """Validate a list of space codes; return them normalised (upper case) or raise
    RuleError with a message that names the space (1-based) at fault."""
    if not isinstance(codes, (list, tuple)):
        raise RuleError("A layout is a list of space codes.")
    n = len(codes)
    if n == 0:
        raise RuleError("The layout is empty: it needs spaces from 1S to 10R.")
    if n > MAX_SPACES:
        raise RuleError("The layout has %d spaces; a board has at most %d." % (n, MAX_SPACES))
    out = []
    for i in range(n):
        c = codes[i]
        if not isinstance(c, str) or _code(c) < 0:
            raise RuleError("Space %d: %r is not a space code (use %s)." % (i + 1, c, _CODES))
        out.append(c.upper())
    if out[0] not in ("1S", "1"):
        raise RuleError("Space 1 is %s: a board starts on a phase-1 space (1S)." % out[0])
    for i in range(1, n):
        if out[i] == "1S":
            raise RuleError("Space %d: 1S (the start) can only be the first space." % (i + 1))
        if out[i] == "10R" and i != n - 1:
            raise RuleError("Space %d: the red Phase 10 space (10R) must be the last space." % (i + 1))
    if out[n - 1] != "10R":
        raise RuleError("The last space is %s: a board ends on the red Phase 10 space (10R)." % out[n - 1])
    # The first space is a phase-1 space and the last the red one, so a Twist space
    # always has a space on each side; it must be a numbered one (the red space is
    # numbered: it is Phase 10).
    for i in range(1, n - 1):
        if out[i] == "T":
            for j in (i - 1, i + 1):
                if out[j] == "T":
                    raise RuleError(
                        "Space %d: a Twist space needs a numbered space on each side; space %d is a Twist space."
                        % (i + 1, j + 1)
                    )
    return out


def parse_layout(text):
    """The codes of a layout file's text, validated. Raises RuleError with the message."""
    if not isinstance(text, str):
        raise RuleError("A layout is text.")
    codes = []
    for line in text.split("\n"):
        h = line.find("#")
        if h >= 0:
            line = line[:h]
        for tok in line.split():
            codes.append(tok)
            if len(codes) > MAX_SPACES:
                # Stop reading a runaway file early; the count shown is "more than".
                raise RuleError("The layout has more than %d spaces; a board has at most %d." % (MAX_SPACES, MAX_SPACES))
    return check_codes(codes)


def load_layout(path=LAYOUT_FILE):
    """The layout of the file at path, the default when there is no such file (the host
    commands and tests; the device opens the file through its store and calls
    read_layout)."""
    try:
        f = open(path, "rb")
    except OSError:
        return default_layout()
    try:
        return read_layout(f)
    finally:
        f.close()


def read_layout(f):
    """The layout in the open binary file f. A file that is invalid raises RuleError (the
    device says why, it does not silently play on another board)."""
    # A layout is a few lines: a runaway file (or /dev/zero) is refused, not read whole.
    from engine_mpy.lines import read_upto
    data = read_upto(f, MAX_FILE)
    if len(data) > MAX_FILE:
        raise RuleError("The layout file is over %d bytes; a layout is a few lines." % MAX_FILE)
    try:
        text = data.decode()
    except (UnicodeError, ValueError):
        raise RuleError("The layout file is not plain text (UTF-8).")
    data = None
    return parse_layout(text)


def space_phases(codes):
    """bytes: per space its phase number (1-10), TWIST (0) for a Twist space."""
    b = bytearray(len(codes))
    for i in range(len(codes)):
        b[i] = _code(codes[i])
    return bytes(b)
