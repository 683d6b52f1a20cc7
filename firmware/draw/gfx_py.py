# The drawing layer's inner loops in plain Python: the reference for the native code of
# firmware/draw/fastdraw_src.py (the same four functions, the same arguments, the same bytes:
# tests/both/test_gfx_native.py compares them), and what CPython (the simulator) and a board
# that cannot compile native code draw with. A board with native code never loads this.
try:
    from micropython import const
except ImportError:
    const = lambda x: x

_OFF = const(0x2000)   # positions packed as (x + _OFF) << 14 | (y + _OFF)
_W = const(128)
_TEXT = const(0x10000)
_ZEROS = bytes(_W)
_ONES = b"\xff" * _W


def cells(buf, src, s, sn, xy, mode):
    """Opaque 8-row glyph cells at (x, y), bits flipped by inv, clipped at every edge;
    mode = _TEXT (or 0) | pages << 8 | inv. Text: the sn characters of the str s, each a
    6-column cell of the small font src (a character outside 32..126: the box, cell 95).
    Otherwise one strip: the n columns src[start:start+n], sn = start << 8 | n."""
    x = (xy >> 14) - _OFF
    y = (xy & 0x3FFF) - _OFF
    pages = (mode >> 8) & 0xFF
    inv = mode & 0xFF
    if y <= -8 or y >= pages * 8:
        return
    text = mode & _TEXT
    if text and not inv and not y & 7 and x >= 0 and x + sn * 6 <= _W:
        # each character one slice copy into its page row
        o = (y >> 3) * _W + x
        for ch in s:
            k = ord(ch) - 32
            if k < 0 or k > 94:
                k = 95
            buf[o:o + 6] = src[k * 6:k * 6 + 6]
            o += 6
        return
    if text:
        for ch in s:
            if x >= _W:
                return
            k = ord(ch) - 32
            if k < 0 or k > 94:
                k = 95
            _strip(buf, src, k * 6, 6, x, y, pages, inv)
            x += 6
        return
    _strip(buf, src, sn >> 8, sn & 0xFF, x, y, pages, inv)


def _strip(b, src, start, n, x, y, pages, inv):
    if not y & 7 and 0 <= y and x >= 0 and x + n <= _W and not inv:
        o = (y >> 3) * _W + x
        b[o:o + n] = src[start:start + n]
        return
    s = y & 7
    p = y >> 3   # floor, so a strip starting above the screen keeps its lower part
    top = 0 <= p < pages
    bot = s and 0 <= p + 1 < pages
    keep_top = (1 << s) - 1          # rows above the strip in page p
    keep_bot = 0xFF ^ keep_top       # rows below the strip in page p+1
    o1 = p * _W
    o2 = o1 + _W
    for j in range(n):
        xx = x + j
        if xx < 0 or xx >= _W:
            continue
        g = src[start + j] ^ inv
        if top:
            b[o1 + xx] = (b[o1 + xx] & keep_top) | ((g << s) & 0xFF)
        if bot:
            b[o2 + xx] = (b[o2 + xx] & keep_bot) | (g >> (8 - s))


def rect(b, x, y, w, h, op):
    """Clear (op 0), set (1) or invert (2) the w x h rectangle at (x, y), clipped to the
    screen (b's 128-byte page rows)."""
    if x < 0:
        w += x
        x = 0
    if y < 0:
        h += y
        y = 0
    if x + w > _W:
        w = _W - x
    hh = (len(b) >> 7) << 3
    if y + h > hh:
        h = hh - y
    if w <= 0 or h <= 0:
        return
    y2 = y + h   # one past the last row
    for p in range(y >> 3, ((y2 - 1) >> 3) + 1):
        top = p << 3
        m = 0xFF
        if y > top:
            m &= (0xFF << (y - top)) & 0xFF
        if y2 < top + 8:
            m &= (1 << (y2 - top)) - 1
        o = p * _W + x
        if m == 0xFF and op != 2:
            b[o:o + w] = (_ONES if op else _ZEROS)[:w]
        elif op == 1:
            for i in range(o, o + w):
                b[i] |= m
        elif op == 0:
            k = 0xFF ^ m
            for i in range(o, o + w):
                b[i] &= k
        else:
            for i in range(o, o + w):
                b[i] ^= m


def diff_rows(frame, sent, lo, hi, pages):
    """Per 128-byte page row, the first and last column where frame and sent differ, into
    lo[p] and hi[p] (lo 1, hi 0 for a row that did not change); returns how many changed.
    Found by halving: a few slice compares instead of a loop per byte."""
    n = 0
    for p in range(pages):
        o = p * _W
        a = frame[o:o + _W]
        b = sent[o:o + _W]
        if a == b:
            lo[p] = 1
            hi[p] = 0
            continue
        i = 0
        j = _W - 1
        while i < j:                      # the first difference
            mid = (i + j) >> 1
            if a[i:mid + 1] == b[i:mid + 1]:
                i = mid + 1
            else:
                j = mid
        lo[p] = i
        j = _W - 1
        while i < j:                      # the last one
            mid = (i + j + 1) >> 1
            if a[mid:j + 1] == b[mid:j + 1]:
                j = mid - 1
            else:
                i = mid
        hi[p] = i
        n += 1
    return n


def copy_rows(frame, sent, lo, hi, pages):
    """What was sent is what the panel holds now: frame's columns lo[p]..hi[p] of each page
    row p into sent."""
    for p in range(pages):
        if lo[p] <= hi[p]:
            o = p * _W
            sent[o + lo[p]:o + hi[p] + 1] = frame[o + lo[p]:o + hi[p] + 1]
