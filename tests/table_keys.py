# The keys a table presses, for the simulator session tests (tests/test_sim_*.py) and the
# worst cases (tests/worst.py): a game started from the main menu of a device with an
# empty roster (New game, the game and its variation, each player typed on the character
# picker, Next, the first dealer), a hand entered, a Twist space's choice, real dice
# entered. One place, so a change to a screen's keys changes them everywhere.
from firmware.screens.picker import WHEEL, _FIRST
from engine_mpy.dice import FACE_NUM, FACE_COL, parse_die

# The New game pages' rows (firmware/screens/newgame.py): the games, then the variations.
GAME = {"classic": "OK", "masters": "DOWN OK", "twist": "DOWN DOWN OK", "dice": "UP OK"}
VARIATION = {"standard": "OK", "ten_hands": "DOWN OK", "first_n": "DOWN DOWN OK",
             "even": "UP OK"}
_N0 = 5   # where the First N phases stepper starts


def _turn(frm, to, n):
    """The wheel's shorter way from frm to to: UP presses, or DOWN presses."""
    up = (to - frm) % n
    return ["UP"] * up if up <= n - up else ["DOWN"] * (n - up)


def type_name(name):
    """On an open picker: each letter (the wheel starts on "A", then on done right before
    "a"), then done."""
    k = []
    pos = _FIRST
    for ch in name:
        k += _turn(pos, WHEEL.index(ch), len(WHEEL))
        k.append("OK")
        pos = 0
    k.append("OK")   # the wheel is back on done
    return " ".join(k)


def seat(names):
    """On the players page of an empty roster: each name added through "+ New player"
    (it is seated, and the cursor lands on it), then Next."""
    k = []
    for i in range(len(names)):
        k.append("OK" if i == 0 else "DOWN OK")   # "+ New player" is just below
        k.append(type_name(names[i]))
    k.append("DOWN DOWN OK")   # Next
    return " ".join(k)


# The main menu's rows (firmware/screens/menu.py; Continue only with a game running): it
# opens on its first line, Continue or New game.
MENU = ("continue", "new game", "dice roller", "history", "players", "settings", "rules", "about")


def menu(entry, game=False):
    """From the menu as it opens (on its first line), to entry: the shorter way round,
    then OK. Without a game there is no Continue line."""
    rows = MENU if game else MENU[1:]
    return " ".join(_turn_down(0, rows.index(entry), len(rows)) + ["OK"])


def _turn_down(frm, to, n):
    down = (to - frm) % n
    return ["DOWN"] * down if down <= n - down else ["UP"] * (n - down)


def new_game(kind, names, dealer=None, variation="standard", phases=None):
    """From the main menu as a device with no game opens it (on New game) to the game's
    home (the Dice turn-order roll for Dice)."""
    k = ["OK", GAME[kind]]
    if kind == "classic":
        k.append(VARIATION[variation])
        if variation == "first_n":
            d = phases - _N0
            k.append(" ".join(["UP"] * d if d > 0 else ["DOWN"] * -d) + " OK")
    k.append(seat(names))
    if kind != "dice":
        k.append(" ".join(["DOWN"] * (dealer + 1)) + " OK")   # below "Random"
    return " ".join([s.strip() for s in k if s.strip()])


# --- a card hand (Phase 10 and Masters) -----------------------------------------------------
def ups(n):
    return " ".join(["UP"] * n)


def counts(c, most=4):
    """A player's cards left on the hand page (firmware/screens/hand.py), which starts at
    ten 1-9 cards: LEFT to the cards held (10 -> most, what one who completed keeps at most
    (phase 1: 4), then one fewer each), then one UP per 10-12, one DOWN per Wild, one RIGHT
    per Skip, and OK."""
    low, high, skip, wild = c
    t = low + high + skip + wild
    k = ["LEFT"] * (1 + most - t) if t < 10 else []
    k += ["UP"] * high + ["DOWN"] * wild + ["RIGHT"] * skip + ["OK"]
    return " ".join(k)


def counts3(c, most=4):
    """The same with three buttons: a column cursor from the 1-9 column, where DOWN takes
    the cards held down (10 -> most, then one fewer each); OK the next column, UP one more
    of its kind; the player ends with OK on the last column (Wld) or a long OK on another
    (on the first column a long OK goes back: OK first)."""
    low, high, skip, wild = c
    t = low + high + skip + wild
    k = ["DOWN"] * (1 + most - t) if t < 10 else []
    last = 3 if wild else (2 if skip else (1 if high else 0))
    for f, n in ((1, high), (2, skip), (3, wild)):
        if f <= last:
            k += ["OK"] + ["UP"] * n
    k += ["OK"] if last == 3 else (["OK", "LONG_OK"] if last == 0 else ["LONG_OK"])
    return " ".join(k)


POINTS0 = 60   # where the hand page's points stepper starts (firmware/screens/hand.py)


def points(v, three=False):
    """Points left on the hand page by points: from POINTS0, RIGHT/LEFT 25 more or fewer,
    UP/DOWN 5, the fewest presses, then OK (three buttons: UP/DOWN only)."""
    d = v - POINTS0
    if three:
        return " ".join((["UP"] * (d // 5) if d > 0 else ["DOWN"] * (-d // 5)) + ["OK"])
    best = None
    for n25 in range(-10, 11):
        r = (d - 25 * n25) // 5
        if best is None or abs(n25) + abs(r) < abs(best[0]) + abs(best[1]):
            best = (n25, r)
    n25, r = best
    k = (["RIGHT"] * n25 if n25 > 0 else ["LEFT"] * -n25) + (["UP"] * r if r > 0 else ["DOWN"] * -r)
    return " ".join(k + ["OK"])


def hand(out, entries, masters="", check=""):
    """From the standings on "End of hand": who went out (DOWN from the first player),
    then per other player in seat order their entry keys; OK on the check page saves.
    masters: the keys naming the phase of who went out (Masters: asked right after them).
    check: keys on the check page before its save (answers changed: see check())."""
    k = ["OK", " ".join(["DOWN"] * out), "OK", masters]
    for p in range(len(entries)):
        if p != out:
            k.append(entries[p])
    k += [check, "OK"]
    return " ".join([s for s in k if s])


def check(g, out, left, done=None, phase=None):
    """The check page's keys before its save, where the answer it filled in is not the
    table's. g: the game before the hand; left: each player's entry as saved (counts or
    points; None: who went out); the table's answers: done (Phase 10: completed?) or
    phase (Masters: the phase each completed, 0 none). The page fills in the likelier
    answer where the entries leave it open (Masters: none where it fits, else the lowest
    phase left that fits; by points: not completed); the cursor starts on the save line,
    UP goes to the open rows from the bottom up, OK opens the player's question (the
    phases that fit, upward with UP; or Yes/No, on No) and OK there takes it, the cursor
    back on the save line."""
    st = g.before(None)
    n = len(left)
    opened = []
    fixes = []
    for p in range(n):
        e = left[p]
        if p == out:
            continue
        if phase is not None:
            chosen = [0] * n
            opts = []
            for v in [0] + g.remaining(p, st):
                chosen[p] = v
                if g.fits(st, p, e, chosen):
                    opts.append(v)
            if len(opts) < 2:
                continue
            opened.append(p)
            d = opts.index(phase[p]) - 0      # filled in: the first that fits
            if d:
                fixes.append((p, " ".join(["UP"] * d + ["OK"])))
        elif not isinstance(e, list) and g.points_open(st, p, e, None):
            opened.append(p)
            if done[p]:
                fixes.append((p, "UP OK"))     # filled in: No
    k = []
    for p, keys in fixes:
        k += ["UP"] * len([r for r in opened if r >= p]) + ["OK", keys]
    return " ".join(k)


FAIL = counts([10, 0, 0, 0])   # did not complete: 10 cards of 1-9, 50 points (just OK)


# --- Twist ----------------------------------------------------------------------------------
def k(*parts):
    return " ".join(p for p in parts if p)


def down(n):
    return " ".join(["DOWN"] * n)


def up(n):
    return " ".join(["UP"] * n)


def count(v):
    """A Twist cards-left page: the stepper starts at 10; set v and go on."""
    return k(down(10 - v), "OK")


# The options of a Twist space, in the order twist_before lists them.
BEFORE, AFTER, DRAW, BY_HAND = 0, 1, 2, 3


def choose(opt, card=0):
    """A Twist space's choice: the page opens with nothing picked; DOWN picks the first."""
    if opt == DRAW:
        return k(down(DRAW + 1), "OK", "OK", "OK")           # draw, reveal, hide
    if opt == BY_HAND:
        return k(down(BY_HAND + 1), "OK", up(card - 1), "OK")  # the card steps from 1
    return k(down(opt + 1), "OK")


# --- Dice -----------------------------------------------------------------------------------
def steps(frm, to, n):
    """UP presses (positive) or DOWN presses (negative), the shorter way round a cycle."""
    up = (to - frm) % n
    return up if up <= n - up else up - n


def presses(steps):
    return " ".join(["UP"] * steps if steps > 0 else ["DOWN"] * -steps)


_LOW = (1, 2, 3, 4, 0)


_ORDER = {1: 0, 2: 1, 3: 2, 4: 3, 0: 4}    # a low die's numbers as UP steps them (W last)


def dice_path(sel, target, actions):
    """Arrow keys that take the Dice turn's frame from sel to target (dice 0-9, then the
    buttons actions), the fewest, on the layout as the screen moves it (five buttons)."""
    from firmware.screens.dice_turn import move
    from firmware.edges.keys import UP, DOWN, LEFT, RIGHT
    names = {UP: "UP", DOWN: "DOWN", LEFT: "LEFT", RIGHT: "RIGHT"}
    seen = {sel: []}
    todo = [sel]
    while todo:
        s = todo.pop(0)
        if s == target:
            return " ".join(seen[s])
        for b in (UP, DOWN, LEFT, RIGHT):
            t = move(s, b, actions)
            if t not in seen:
                seen[t] = seen[s] + [names[b]]
                todo.append(t)
    raise ValueError("the frame cannot reach %d from %d" % (target, sel))


def set_dice(dice):
    """On the first die of a real-dice entry (the screen's Real dice pressed): the keys
    that set the ten dice (texts; 4 low then 6 high, any order within a row), entered
    lowest first in each row, each die the shorter way: UP/DOWN its number, LEFT/RIGHT its
    colour, OK (the frame moves on by itself, the next die starting on this number)."""
    from firmware.screens import dice_turn as T
    pairs = [parse_die(t) for t in dice]
    low = sorted(pairs[:4], key=lambda p: (_ORDER[p[0]], p[1]))
    high = sorted(pairs[4:], key=lambda p: p)
    nums = bytearray([FACE_NUM[d * 6] for d in range(10)])
    cols = bytearray([FACE_COL[d * 6] for d in range(10)])
    fresh = 0x3FF
    out = []
    col_set = False
    for d, (num, col) in enumerate(low + high):
        k = []
        n = 5 if d < 4 else 6
        up = 0
        x = nums[d]
        while x != num:
            x = T.step_number(d, x, 1)
            up += 1
        for _ in range(up if up <= n - up else n - up):
            nums[d] = T.step_number(d, nums[d], 1 if up <= n - up else -1)
            cols[d] = T.likely_colour(nums, cols, fresh, d)
            k.append("UP" if up <= n - up else "DOWN")
        right = []
        left = []
        c = cols[d]
        while c != col and len(right) < 4:
            c = T.step_colour(d, num, c, 1)
            right.append("RIGHT")
        c = cols[d]
        while c != col and len(left) < 4:
            c = T.step_colour(d, num, c, -1)
            left.append("LEFT")
        k += right if len(right) <= len(left) else left
        cols[d] = col
        k.append("OK")
        fresh = T.taken(nums, cols, fresh, d)
        out.append(" ".join(k))
    return " ".join(out)


def entry_keys(dice):
    """Keys on a fresh turn screen that enter ten real dice (texts, 4 low then 6 high),
    score them and save the turn: Real dice (right of Roll), the dice, then Score (the
    frame is on it after the last die), Stop, yes: saved."""
    return "RIGHT OK " + set_dice(dice) + " OK OK OK"
