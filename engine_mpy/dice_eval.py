# Phase 10 Dice: the ten dice as one data table, and the phase evaluator that runs on the
# board after every roll (exact, allocation-free). Split from dice.py so each module stays
# small to load: a board loads bytecode into RAM and needs a multiple of its size to do it.
from engine_mpy.game import RuleError

# --- the dice ------------------------------------------------------------------------------
# THE one table of the physical set (RULINGS.md): each die's six faces in order, a face
# written as its number (W = Wild) and colour letter. Correct it here against another set.
DICE_TABLE = (
    ("L1", "1b 2g 3o 4g Wr Wo"),
    ("L2", "1r 2b 3g 4o Wb Wo"),
    ("L3", "1o 2r 3r 4b Wg Wb"),
    ("L4", "1g 2o 3b 4r Wr Wg"),
    ("H1", "5r 6o 7b 8g 9o 10g"),
    ("H2", "5g 6r 7g 8o 9b 10r"),
    ("H3", "5o 6b 7r 8b 9g 10o"),
    ("H4", "5r 6g 7o 8b 9r 10b"),
    ("H5", "5b 6b 7r 8o 9r 10g"),
    ("H6", "5b 6o 7g 8r 9g 10o"),
)
COLOURS = "robg"
COLOUR_NAMES = ("red", "orange", "blue", "green")
N_DICE = 10
N_LOW = 4  # dice 0-3 are the low dice (1-4 and Wild), dice 4-9 the high dice (5-10)
WILD = 0  # a Wild's number: it scores 0


def parse_die(text):
    """'10o' -> (10, 1); 'Wg' -> (0, 3). Raises RuleError for text that is no die face."""
    t = text.strip() if isinstance(text, str) else ""
    bad = "%s is not a die: write its number (1-10) or W, then its colour r, o, b or g (e.g. 10o, Wg)." % (text,)
    if len(t) < 2:
        raise RuleError(bad)
    col = COLOURS.find(t[-1].lower())
    n = t[:-1]
    if col < 0:
        raise RuleError(bad)
    if n in ("W", "w"):
        return WILD, col
    if not n.isdigit() or len(n) > 2:
        raise RuleError(bad)
    v = int(n)
    if not 1 <= v <= 10:
        raise RuleError(bad)
    return v, col


def die_text(num, col):
    return ("W" if num == WILD else str(num)) + COLOURS[col]


def _build_faces():
    nums = bytearray(60)
    cols = bytearray(60)
    for d in range(N_DICE):
        faces = DICE_TABLE[d][1].split()
        for f in range(6):
            nums[d * 6 + f], cols[d * 6 + f] = parse_die(faces[f])
    return bytes(nums), bytes(cols)


# FACE_NUM[die * 6 + face], FACE_COL[...]: 120 bytes, built once from DICE_TABLE.
FACE_NUM, FACE_COL = _build_faces()


def face_of(die, num, col):
    """The face index (0-5) of die showing num in colour col, or -1 when it has no such face."""
    for f in range(6):
        if FACE_NUM[die * 6 + f] == num and FACE_COL[die * 6 + f] == col:
            return f
    return -1


def faces_text(faces):
    return "".join([str(f) for f in faces])


def show_faces(faces, nums, cols):
    """Fill nums/cols (10 bytes each) with what the dice show for face indices faces."""
    for d in range(N_DICE):
        k = d * 6 + faces[d]
        nums[d] = FACE_NUM[k]
        cols[d] = FACE_COL[k]


# --- the evaluator ---------------------------------------------------------------------------
# Dice of one number are interchangeable for sets and runs, so a phase is a small search over
# numbers: for each choice of set numbers / run start, each number v gives
# min(dice showing v, dice of v the parts ask for) naturals, Wilds fill the rest. Using a
# natural never costs anything (it scores and frees a Wild), so this is exact.
# Shape per phase (index = phase): kind 0 = set A + set B, 1 = set A + run B, 2 = run A,
# 3 = A dice of one colour.
_KIND = b"\x00\x00\x01\x01\x02\x02\x02\x00\x03\x00\x00"
_A = b"\x00\x03\x03\x04\x07\x08\x09\x04\x07\x05\x05"
_B = b"\x00\x03\x04\x04\x00\x00\x00\x04\x00\x02\x03"
PHASE_LABEL = (
    "",
    "2 sets of 3",
    "1 set of 3 & 1 run of 4",
    "1 set of 4 & 1 run of 4",
    "1 run of 7",
    "1 run of 8",
    "1 run of 9",
    "2 sets of 4",
    "7 of all one colour",
    "1 set of 5 & 1 set of 2",
    "1 set of 5 & 1 set of 3",
)

# Reused work buffers (index = number, 0 = Wild): no allocation per evaluation.
_CNT = bytearray(11)
_USE = bytearray(11)


def best(phase, nums, cols):
    """The best way to make phase with ten dice (nums: 0 = Wild or 1-10; cols: 0-3).
    Returns (score, used): score -1 when the phase is not made; used has bit i set for each
    die position i in the phase. Highest score wins; then more natural dice (fewer Wilds);
    then the first choice in a fixed order, so the marking is deterministic."""
    c = _CNT
    u = _USE
    for v in range(11):
        c[v] = 0
        u[v] = 0
    for i in range(N_DICE):
        c[nums[i]] += 1
    w = c[0]
    kind = _KIND[phase]
    a = _A[phase]
    b = _B[phase]
    key = -1  # score * 16 + naturals used (at most 10)
    colour = -1
    if kind == 0:
        need = a + b
        bv1 = bu1 = bv2 = bu2 = 0
        for v1 in range(11):
            n1 = c[v1] if v1 else 0
            if v1 and not n1:
                continue
            # Equal sizes: the pair (v2, v1) is the pair (v1, v2) again.
            for v2 in range(v1 if a == b else 0, 11):
                n2 = c[v2] if v2 else 0
                if v2 and not n2:
                    continue
                if v1 == v2 and v1:
                    u1 = n1 if n1 < need else need
                    u2 = 0
                else:
                    u1 = n1 if n1 < a else a
                    u2 = n2 if n2 < b else b
                nat = u1 + u2
                if need - nat > w:
                    continue
                k = (v1 * u1 + v2 * u2) * 16 + nat
                if k > key:
                    key = k
                    bv1 = v1
                    bu1 = u1
                    bv2 = v2
                    bu2 = u2
        if key < 0:
            return -1, 0
        u[bv1] += bu1
        u[bv2] += bu2
        u[0] = need - bu1 - bu2
    elif kind == 1:
        need = a + b
        bs = bv = bu = 0
        for s in range(1, 12 - b):
            e = s + b  # the run is s .. e-1
            rn = rs = 0
            for v in range(s, e):
                if c[v]:
                    rn += 1
                    rs += v
            if need - rn - a > w:
                continue  # even a set of naturals would leave too few Wilds
            for v in range(11):
                n = c[v] if v else 0
                if v and not n:
                    continue
                if s <= v < e:
                    n -= 1  # the run has taken one die of v
                us = n if n < a else a
                nat = rn + us
                if need - nat > w:
                    continue
                k = (rs + v * us) * 16 + nat
                if k > key:
                    key = k
                    bs = s
                    bv = v
                    bu = us
        if key < 0:
            return -1, 0
        nat = bu
        for v in range(bs, bs + b):
            if c[v]:
                u[v] = 1
                nat += 1
        u[bv] += bu
        u[0] = need - nat
    elif kind == 2:
        bs = 0
        for s in range(1, 12 - a):
            rn = rs = 0
            for v in range(s, s + a):
                if c[v]:
                    rn += 1
                    rs += v
            if a - rn > w:
                continue
            k = rs * 16 + rn
            if k > key:
                key = k
                bs = s
        if key < 0:
            return -1, 0
        nat = 0
        for v in range(bs, bs + a):
            if c[v]:
                u[v] = 1
                nat += 1
        u[0] = a - nat
    else:
        # Seven of ten dice in one colour: at most one colour can have that many.
        for x in range(4):
            n = 0
            for i in range(N_DICE):
                if cols[i] == x:
                    n += 1
            if n >= a:
                colour = x
                break
        if colour < 0:
            return -1, 0
        for v in range(11):
            c[v] = 0
        for i in range(N_DICE):
            if cols[i] == colour:
                c[nums[i]] += 1
        left = a
        sc = 0
        for v in range(10, -1, -1):
            t = c[v] if c[v] < left else left
            u[v] = t
            left -= t
            sc += v * t
        key = sc * 16
    mask = 0
    for i in range(N_DICE):
        v = nums[i]
        if u[v] and (colour < 0 or cols[i] == colour):
            u[v] -= 1
            mask |= 1 << i
    return key >> 4, mask
