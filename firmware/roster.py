# The player roster (roster.json) and the finished games (history.json): the names a new
# game picks from, and per player the games, wins, points and hands behind the Players
# screen. Flash is written only when something is committed: a name added or renamed on
# the picker's OK, a game over, a game abandoned on an explicit yes.
#
# roster.json is a list of [name, games, wins, points, hands] (compact: it is read at every
# new game). Points and hands count only the card games (Phase 10, Masters), where a hand's
# points are penalty points; Twist has no points and Dice scores run the other way, so
# they count towards games and wins only.
import json

from firmware.store import ROSTER

MAX_NAMES = 20       # the roster on a board: a list screen's worth, a few hundred bytes
NAME_LEN = 12        # as the engines take names (engine_mpy.game.check_names)
_POINTS_KINDS = ("classic", "masters")


def _check(text):
    try:
        v = json.loads(text)
    except ValueError:
        return None
    if not isinstance(v, list):
        return None
    for r in v:
        if not isinstance(r, list) or len(r) != 5 or not isinstance(r[0], str):
            return None
        for x in r[1:]:   # games, wins, points, hands: counted up and shown as numbers
            if not isinstance(x, int) or x is True or x is False or x < 0:
                return None
    return v


def load(store):
    """(rows, message): the roster as a list of [name, games, wins, points, hands] (empty
    when there is none yet) and what was wrong with a damaged file, if anything."""
    if store is None:
        return [], None
    text, msg = store.read(ROSTER, _check)
    if text is None:
        return [], msg
    return json.loads(text), msg


def _save(store, rows):
    if store is None:
        return None
    if store.write_atomic(ROSTER, json.dumps(rows, separators=(",", ":"))):
        return None
    return store.error or "Could not save the players."


def find(rows, name):
    for i in range(len(rows)):
        if rows[i][0] == name:
            return i
    return -1


def check_name(rows, name, skip=-1):
    """The name as it will be kept, or raise ValueError with the message to show."""
    name = name.strip()
    if not name:
        raise ValueError("A name needs at least one letter.")
    if len(name) > NAME_LEN:
        raise ValueError("A name has at most %d characters." % NAME_LEN)
    i = find(rows, name)
    if i >= 0 and i != skip:
        raise ValueError("There is already a player called %s." % name)
    return name


def add(store, name):
    """Add a new player; returns (index in the roster, None) or (-1, message)."""
    rows, _ = load(store)
    try:
        name = check_name(rows, name)
    except ValueError as e:
        return -1, e.args[0]
    if len(rows) >= MAX_NAMES:
        return -1, "The roster is full (%d players)." % MAX_NAMES
    rows.append([name, 0, 0, 0, 0])
    msg = _save(store, rows)
    if msg:
        return -1, msg
    return len(rows) - 1, None


def rename(store, i, name):
    """Rename roster player i; returns None or the message. Games already in the history
    keep the name they were played under."""
    rows, _ = load(store)
    if not 0 <= i < len(rows):
        return "No such player."
    try:
        name = check_name(rows, name, i)
    except ValueError as e:
        return e.args[0]
    if rows[i][0] == name:
        return None
    rows[i][0] = name
    return _save(store, rows)


def average(row):
    """Average points per hand as text with one decimal ("-" before any hand)."""
    pts, hands = row[3], row[4]
    if not hands:
        return "-"
    tenths = (pts * 10 + hands // 2) // hands
    return "%d.%d" % (tenths // 10, tenths % 10)


# --- the end of a game -------------------------------------------------------------------
def winners(game):
    """Seats of the winners the engine derived (empty while the game runs)."""
    f = getattr(game, "winners", None)
    if callable(f):            # Dice: the grand totals decide once the game is over
        return f()
    st = game.state
    over = getattr(game, "over", st.over)
    return list(st.winners) if over else []


def history_entry(game, finished=True):
    """The small summary history.json keeps of a game: {"game": kind, "players": names,
    "winners": names, "hands": records, "done": finished}, plus "variation" (and
    "phases") for Phase 10."""
    names = game.settings["players"]
    e = {"game": game.KIND, "players": list(names),
         "winners": [names[p] for p in winners(game)] if finished else [],
         "hands": len(game.records), "done": bool(finished)}
    s = game.settings
    if "variation" in s:
        e["variation"] = s["variation"]
        if "phases" in s:
            e["phases"] = s["phases"]
    return e


def record_game(store, game):
    """Add a game that is over to the roster and save it. Returns None or a message.
    finish() counts the game with counted() and saves it with the history in one commit;
    call this only when not using finish()."""
    return _save(store, counted(store, game))


def counted(store, game):
    """The roster rows with a game that is over counted: every player gets a game, each
    winner a win, and for Phase 10 and Masters their points and hands (the tie-break
    hand not counted). Players not in the roster are added while there is room."""
    rows, _ = load(store)
    names = game.settings["players"]
    won = winners(game)
    st = game.state if game.KIND in _POINTS_KINDS else None
    for p in range(len(names)):
        i = find(rows, names[p])
        if i < 0:
            if len(rows) >= MAX_NAMES:
                continue
            rows.append([names[p], 0, 0, 0, 0])
            i = len(rows) - 1
        r = rows[i]
        r[1] += 1
        if p in won:
            r[2] += 1
        if st is not None:
            r[3] += st.total[p]
            r[4] += st.hands
    return rows


def finish(app):
    """THE call for a game screen when the game is over and the table has seen the result
    (engineers B, C, D: call this once, on the OK that leaves the game-over screen):
    updates the roster's stats, adds the game to the history with its winners, and
    forgets the running game (game.json is removed), all as one commit (a power cut never
    counts a game twice: firmware/session.py). Returns None or a message to show
    (app.push("note", msg)); then nothing has changed."""
    s = app.session
    g = s.game
    if g is None:
        return None
    rows = counted(app.store, g) if app.store is not None else None
    msg = s.finish(history_entry(g, True), rows)
    release()
    return msg


def finish_and_leave(app):
    """finish(), then back to the main menu, with its message (if any) on a note: what
    every game's Finish game does."""
    msg = finish(app)
    while app.pop():
        pass
    if msg:
        app.push("note", msg)


def release():
    """Drop this module from RAM (screens call it when they close; finish() and abandon()
    call it when done): it is needed at a game's start and end, not in between."""
    import sys
    sys.modules.pop("firmware.roster", None)
    pkg = sys.modules.get("firmware")
    if pkg is not None:
        try:
            delattr(pkg, "roster")
        except (AttributeError, TypeError, KeyError):   # MicroPython: KeyError
            pass


def abandon(app):
    """Put the running game in the history marked unfinished (no roster stats) and forget
    it. Only on a player's explicit yes (New game while a game runs)."""
    s = app.session
    if s.game is None:
        return None
    msg = s.finish(history_entry(s.game, False))
    release()
    return msg
