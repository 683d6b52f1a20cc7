# What the history keeps of a game that is over (or abandoned): a summary the History
# screen shows, and the game hand by hand in a compact text (the sheet), from which the PC
# companion prints its score sheets and statistics. Loaded when a game ends, then dropped.
#
# The sheet: items separated by commas, one a hand (a turn for Dice), each a few
# characters of the alphabet A below, the character A[v] standing for the number v (0-63):
# - Phase 10 and Masters, a hand: A[who went out], then per player A[points / 5] and
#   A[phase attempted * 2 + 1 if completed] (Masters: the phase the player named, 0 for
#   none). The tie-break hand: "T" and A[who went out first in it].
# - Twist, a hand: per player A[move + 1] (move -1 a failed Twist card, 1, 2, 3, 4 or 6)
#   and what was chosen on a Twist space: "." nothing, "b" the phase before it, "a" the
#   phase after it, A[card] a Twist card (1-10).
# - Dice, a turn: A[player], A[phase], and A[score] when the phase was made, "-" when not.
# A game too long for a history line keeps its first hands only, "cut" saying how many.

A = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"
FORMAT = "phase10-history"
VERSION = 2
# The longest sheet kept (characters): its history line stays under the device's limit
# for a line (firmware/history/entries.py LINE_MAX, 2,048 bytes) with the names and totals of 8
# players beside it. A longer game (a Dice game of over 425 turns, a Twist game of over
# 130 hands) keeps its first hands and says how many: "cut".
SHEET_MAX = 1700
_COMMA = 44
_DOT = 46


def winners(game):
    """Seats of the winners the engine derived (empty while the game runs)."""
    f = getattr(game, "winners", None)
    if callable(f):            # Dice: the grand totals decide once the game is over
        return f()
    st = game.state
    over = getattr(game, "over", st.over)
    return list(st.winners) if over else []


def entry(game, finished, n, end=None):
    """The history's line for game as a dict: n (its number in the history), game,
    players, winners (names), done, hands (records), totals per player (penalty points;
    Twist: the space reached; Dice: the grand total), first (the first dealer; Dice: the
    turn order), sheet (above); Phase 10 adds variation (and phases), Twist its layout.
    The game's id, its start and its end (end: the time it is finished or abandoned; the
    times where the table's clock knew them, engine_mpy/ident.py) where it has them."""
    s = game.settings
    names = s["players"]
    kind = game.KIND
    won = winners(game) if finished else []
    e = {"n": n, "game": kind, "players": list(names), "winners": [names[p] for p in won],
         "done": bool(finished), "hands": len(game.records)}
    if game.id:
        e["id"] = game.id
    if game.started is not None:
        e["start"] = game.started
    if end is not None:
        e["end"] = end
    if "variation" in s:
        e["variation"] = s["variation"]
        if "phases" in s:
            e["phases"] = s["phases"]
    if kind == "twist":
        e["first"] = s["dealer"]
        e["layout"] = s["layout"]
        e["totals"] = [game.space(p) for p in range(len(names))]
        fill, w, items, extra = _twist, 2 * len(names), len(game.records), 0
    elif kind == "dice":
        e["first"] = list(s["order"])
        e["totals"] = [game.total(p) for p in range(len(names))]
        fill, w, items, extra = _dice, 3, len(game.records), 0
    else:
        e["first"] = s["dealer"]
        st = game.state
        e["totals"] = list(st.total)
        e["made"] = [game.phases_done(st, p) for p in range(st.n)]
        # the tie-break hand: "T" and who went out first, after the hands
        fill, w, items = _cards, 1 + 2 * st.n, len(st.rows)
        extra = 3 if st.tiebreak_winner >= 0 else 0
    keep = items
    if keep * (w + 1) + extra > SHEET_MAX + 1:
        keep = (SHEET_MAX + 1 - extra) // (w + 1)
        e["cut"] = keep
    # The whole sheet in one block made before the replay: the replay's garbage then
    # cannot leave a small string every hand across the heap (a long Dice game's 300
    # would split it).
    size = keep * (w + 1) + extra - 1
    buf = bytearray(size if size > 0 else 0)
    fill(game, buf, keep)
    e["sheet"] = buf.decode()
    return e


def _cards(game, buf, keep):
    st = game.state
    rows = st.rows
    n = st.n
    k = 0
    for h in range(keep):
        o, pts, ok, phs, tot = rows[h]
        if h:
            buf[k] = _COMMA
            k += 1
        buf[k] = A[o]
        k += 1
        for p in range(n):
            buf[k] = A[pts[p] // 5]
            buf[k + 1] = A[phs[p] * 2 + (1 if ok[p] else 0)]
            k += 2
    if st.tiebreak_winner >= 0:
        if k:
            buf[k] = _COMMA
            k += 1
        buf[k] = 84     # "T"
        buf[k + 1] = A[st.tiebreak_winner]


def _twist(game, buf, keep):
    # each hand as the game's state logged it when it was played (TwistState.log)
    from engine_mpy.twist import PICK_NONE, PICK_BEFORE, PICK_AFTER
    log = game.state.log
    n = game.state.n
    k = 0
    j = 0
    for i in range(keep):
        if i:
            buf[k] = _COMMA
            k += 1
        for p in range(n):
            buf[k] = A[log[j]]
            c = log[j + 1]
            buf[k + 1] = _DOT if c == PICK_NONE else (98 if c == PICK_BEFORE else (97 if c == PICK_AFTER else A[c]))
            j += 2
            k += 2


def _dice(game, buf, keep):
    # each turn as the game's state logged it when it was played (DiceState.log)
    log = game.state.log
    k = 0
    for i in range(keep):
        j = 3 * i
        p = log[j]
        ph = log[j + 1]
        score = log[j + 2] - 1
        if i:
            buf[k] = _COMMA
            k += 1
        buf[k] = A[p]
        buf[k + 1] = A[ph]
        buf[k + 2] = A[score] if score >= 0 else 45    # "-"
        k += 3
