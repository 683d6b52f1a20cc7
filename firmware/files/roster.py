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

from engine_mpy.lines import parse
from firmware.files.store import ROSTER

MAX_NAMES = 20       # the roster on a board: a list screen's worth, a few hundred bytes
NAME_LEN = 12        # as the engines take names (engine_mpy.game.check_names)
# The longest roster.json: 20 rows of a 12-letter name and four counts (about 900 bytes
# with counts in the millions). Longer is damaged before it is read into RAM.
TEXT_LIMIT = 1536


def check_rows(v):
    """The roster's rows, else ValueError (a damaged roster.json, or journal). (type() is
    rather than isinstance: a JSON value is exactly a list, a str or an int, and a bool
    is no count; on an RP2040 this check took half of the roster's reading.)"""
    if type(v) is not list or len(v) > MAX_NAMES:
        raise ValueError("not a list of players")
    for r in v:
        if type(r) is not list or len(r) != 5 or type(r[0]) is not str or not r[0] or len(r[0]) > NAME_LEN:
            raise ValueError("a player is not a name and four numbers")
        # games, wins, points, hands: counted up and shown as numbers
        if not (type(r[1]) is int and type(r[2]) is int and type(r[3]) is int and type(r[4]) is int) or (
                r[1] < 0 or r[2] < 0 or r[3] < 0 or r[4] < 0):
            raise ValueError("a count is not a whole number")
    return v


def _check(text):
    return check_rows(parse(text))


def load(store):
    """(rows, message, unread) as firmware/files/storeread.py reads: the roster as a list
    of [name, games, wins, points, hands] (empty when there is none yet, when it was
    damaged: set aside and said, or when it could not be read: unread, and nothing may
    be written over it)."""
    if store is None:
        return [], None, False
    from firmware.files import storeread
    rows = []

    def check(text):
        # the rows as checked are the rows returned: the text is parsed once
        rows.append(_check(text))
        return True
    text, msg, unread = storeread.read(store, ROSTER, check, TEXT_LIMIT)
    if text is None:
        return [], msg, unread
    return rows[-1], msg, False


def _save(store, rows):
    if store is None:
        return None
    return store.write_atomic(ROSTER, json.dumps(rows, separators=(",", ":")))


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
    """Add a new player, last in the roster; returns None, or the message saying why not
    (nothing changed)."""
    rows, msg, unread = load(store)
    if unread:
        return msg
    try:
        name = check_name(rows, name)
    except ValueError as e:
        return e.args[0]
    if len(rows) >= MAX_NAMES:
        return "The roster is full (%d players)." % MAX_NAMES
    rows.append([name, 0, 0, 0, 0])
    return _save(store, rows)


def rename(store, i, name):
    """Rename roster player i; returns None or the message. Games already in the history
    keep the name they were played under."""
    rows, msg, unread = load(store)
    if unread:
        return msg
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
def counted(store, e, hands):
    """The roster rows with game e (its history line) counted: every player gets a game,
    each winner a win, and for Phase 10 and Masters (hands: the hands played, the
    tie-break hand not counted; None for the others) their points and hands. Players not
    in the roster are added while there is room. (rows, message, unread) as load() reads:
    unread when roster.json could not be read (rows None: nothing may be written over
    it); a damaged one is set aside and said in the message."""
    rows, msg, unread = load(store)
    if unread:
        return None, msg, True
    names = e["players"]
    won = e["winners"]
    for p in range(len(names)):
        i = find(rows, names[p])
        if i < 0:
            if len(rows) >= MAX_NAMES:
                continue
            rows.append([names[p], 0, 0, 0, 0])
            i = len(rows) - 1
        r = rows[i]
        r[1] += 1
        if names[p] in won:
            r[2] += 1
        if hands is not None:
            r[3] += e["totals"][p]
            r[4] += hands
    return rows, msg, False


def release():
    """Drop this module from RAM (screens call it when they close; a finish calls it when
    done): it is needed at a game's start and end, not in between."""
    from engine_mpy.modules import forget
    forget("firmware.files.roster", True)
