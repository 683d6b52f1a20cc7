# QR codes for the OLED (the table on phones: the Wi-Fi to join, then the page's address),
# written for this device after ISO/IEC 18004 and Project Nayuki's reference encoder:
# byte mode, error correction level L, versions 1 to 5 (one block each: up to 106 bytes,
# 21 to 37 modules a side), the mask of least penalty (rules 1, 2 and 4 of the standard;
# any mask decodes). encode() returns (size, modules): a bytearray of size*size, 1 dark.
try:
    from micropython import const
except ImportError:
    const = lambda x: x

# per version 1-5 (index 0 unused): data codewords and error-correction codewords, level L
_DATA = b"\x00\x13\x22\x37\x50\x6c"
_ECC = b"\x00\x07\x0a\x0f\x14\x1a"
_ALIGN = b"\x00\x00\x12\x16\x1a\x1e"    # the one alignment pattern's centre (version 2+)
MAX_BYTES = const(106)

_EXP = bytearray(512)
_LOG = bytearray(256)
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _mul(a, b):
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _ecc(data, n):
    """The n Reed-Solomon codewords of data."""
    gen = bytearray(n)       # generator polynomial (x - a^0)...(x - a^(n-1)), leading 1 left out
    gen[n - 1] = 1
    root = 1
    for _ in range(n):
        for j in range(n):
            gen[j] = _mul(gen[j], root) ^ (gen[j + 1] if j + 1 < n else 0)
        root = _mul(root, 2)
    rem = bytearray(n)
    for b in data:
        f = b ^ rem[0]
        for j in range(n - 1):
            rem[j] = rem[j + 1] ^ _mul(gen[j], f)
        rem[n - 1] = _mul(gen[n - 1], f)
    return rem


def _codewords(data, v):
    cap = _DATA[v]
    bits = bytearray(cap)
    pos = [0]

    def put(val, n):
        for i in range(n - 1, -1, -1):
            if (val >> i) & 1:
                p = pos[0]
                bits[p >> 3] |= 0x80 >> (p & 7)
            pos[0] += 1
    put(4, 4)                 # byte mode
    put(len(data), 8)
    for b in data:
        put(b, 8)
    put(0, min(4, cap * 8 - pos[0]))
    k = (pos[0] + 7) >> 3
    pad = 0xEC
    while k < cap:
        bits[k] = pad
        pad ^= 0xEC ^ 0x11
        k += 1
    return bits + _ecc(bits, _ECC[v])


def version_for(n):
    """The smallest version holding n bytes, or 0 when none here does."""
    for v in range(1, 6):
        if n <= _DATA[v] - 2:
            return v
    return 0


def encode(data):
    """(size, modules) for data (bytes or str). Raises ValueError when it is too long."""
    if isinstance(data, str):
        data = data.encode()
    v = version_for(len(data))
    if not v:
        raise ValueError("too long for a QR code here (%d bytes, at most %d)" % (len(data), MAX_BYTES))
    size = 17 + 4 * v
    m = bytearray(size * size)
    fn = bytearray(size * size)   # function modules: not data, never masked

    def setf(x, y, dark):
        m[y * size + x] = dark
        fn[y * size + x] = 1
    for i in range(size):         # timing patterns
        setf(6, i, i % 2 == 0)
        setf(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):    # finders and separators
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < size and 0 <= y < size:
                    d = max(abs(dx), abs(dy))
                    setf(x, y, d != 2 and d != 4)
    if v > 1:
        a = _ALIGN[v]
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                setf(a + dx, a + dy, max(abs(dx), abs(dy)) != 1)
    _format(setf, size, 0)        # reserve the format areas (written again below)
    words = _codewords(data, v)
    i = 0
    n = len(words) * 8
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        up = ((right + 1) & 2) == 0
        for vert in range(size):
            y = size - 1 - vert if up else vert
            for j in range(2):
                x = right - j
                if not fn[y * size + x] and i < n:
                    m[y * size + x] = (words[i >> 3] >> (7 - (i & 7))) & 1
                    i += 1
        right -= 2
    best = -1
    low = 0
    for mask in range(8):
        _mask(m, fn, size, mask)
        _format(setf, size, mask)
        p = _penalty(m, size)
        if best < 0 or p < low:
            best, low = mask, p
        _mask(m, fn, size, mask)      # XOR again: undone
    _mask(m, fn, size, best)
    _format(setf, size, best)
    return size, m


def _format(setf, size, mask):
    data = (1 << 3) | mask            # level L is 01
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    bits = ((data << 10) | rem) ^ 0x5412
    for i in range(6):
        setf(8, i, (bits >> i) & 1)
    setf(8, 7, (bits >> 6) & 1)
    setf(8, 8, (bits >> 7) & 1)
    setf(7, 8, (bits >> 8) & 1)
    for i in range(9, 15):
        setf(14 - i, 8, (bits >> i) & 1)
    for i in range(8):
        setf(size - 1 - i, 8, (bits >> i) & 1)
    for i in range(8, 15):
        setf(8, size - 15 + i, (bits >> i) & 1)
    setf(8, size - 8, 1)              # the dark module


def _mask(m, fn, size, k):
    for y in range(size):
        for x in range(size):
            if fn[y * size + x]:
                continue
            if k == 0:
                f = (x + y) % 2 == 0
            elif k == 1:
                f = y % 2 == 0
            elif k == 2:
                f = x % 3 == 0
            elif k == 3:
                f = (x + y) % 3 == 0
            elif k == 4:
                f = (x // 3 + y // 2) % 2 == 0
            elif k == 5:
                f = x * y % 2 + x * y % 3 == 0
            elif k == 6:
                f = (x * y % 2 + x * y % 3) % 2 == 0
            else:
                f = ((x + y) % 2 + x * y % 3) % 2 == 0
            if f:
                m[y * size + x] ^= 1


def _penalty(m, size):
    p = 0
    dark = 0
    for a in range(size):
        for horiz in (0, 1):
            run = 0
            last = 2
            for b in range(size):
                c = m[a * size + b] if horiz else m[b * size + a]
                if c == last:
                    run += 1
                    if run == 5:
                        p += 3
                    elif run > 5:
                        p += 1
                else:
                    last = c
                    run = 1
        for b in range(size):
            c = m[a * size + b]
            dark += c
            if a < size - 1 and b < size - 1 and c == m[a * size + b + 1] == m[(a + 1) * size + b] \
                    == m[(a + 1) * size + b + 1]:
                p += 3
    total = size * size
    k = (abs(dark * 20 - total * 10) + total - 1) // total - 1
    return p + (k if k > 0 else 0) * 10
