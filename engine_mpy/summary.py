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

A = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"
FORMAT = "phase10-history"
VERSION = 2


def winners(game):
    """Seats of the winners the engine derived (empty while the game runs)."""
    f = getattr(game, "winners", None)
    if callable(f):            # Dice: the grand totals decide once the game is over
        return f()
    st = game.state
    over = getattr(game, "over", st.over)
    return list(st.winners) if over else []


def entry(game, finished, n):
    """The history's line for game as a dict: n (its number in the history), game,
    players, winners (names), done, hands (records), totals per player (penalty points;
    Twist: the space reached; Dice: the grand total), first (the first dealer; Dice: the
    turn order), sheet (above); Phase 10 adds variation (and phases), Twist its layout."""
    s = game.settings
    names = s["players"]
    kind = game.KIND
    won = winners(game) if finished else []
    e = {"n": n, "game": kind, "players": list(names), "winners": [names[p] for p in won],
         "done": bool(finished), "hands": len(game.records)}
    if "variation" in s:
        e["variation"] = s["variation"]
        if "phases" in s:
            e["phases"] = s["phases"]
    out = []
    if kind == "twist":
        e["first"] = s["dealer"]
        e["layout"] = s["layout"]
        e["totals"] = [game.space(p) for p in range(len(names))]
        _twist(game, out)
    elif kind == "dice":
        e["first"] = list(s["order"])
        e["totals"] = [game.total(p) for p in range(len(names))]
        _dice(game, out)
    else:
        e["first"] = s["dealer"]
        st = game.state
        e["totals"] = list(st.total)
        e["made"] = [game.phases_done(st, p) for p in range(st.n)]
        _cards(game, out)
    e["sheet"] = ",".join(out)
    return e


def _cards(game, out):
    rows = game.state.rows
    n = game.state.n
    for h in range(len(rows)):
        o, pts, ok, phs, tot = rows[h]
        c = [A[o]]
        for p in range(n):
            c.append(A[pts[p] // 5])
            c.append(A[phs[p] * 2 + (1 if ok[p] else 0)])
        out.append("".join(c))
    if game.state.tiebreak_winner >= 0:
        out.append("T" + A[game.state.tiebreak_winner])


def _twist(game, out):
    n = game.state.n
    st = game.start()
    recs = game.records
    for i in range(len(recs)):
        r = recs[i]
        game.step(st, r, i)
        pick = r.get("pick")
        c = []
        for p in range(n):
            c.append(A[st.moves[p] + 1])
            k = pick[p] if pick else None
            c.append("." if k is None else ("b" if k == "before" else ("a" if k == "after" else A[k])))
        out.append("".join(c))


def _dice(game, out):
    st = game.start()
    recs = game.records
    for i in range(len(recs)):
        game.step(st, recs[i], i)
        p, ph, score = st.last
        out.append(A[p] + A[ph] + (A[score] if score >= 0 else "-"))
