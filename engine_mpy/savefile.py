# The save format of every game (version 3): a header line, then one line per record,
#   {"format":"phase10","v":3,"game":KIND,"id":"3f09c2a41b7e5d68","start":1795896000,"settings":{...}}
#   {"out":0,"left":[null,[7,2,0,1]]}
#   ...
# each line compact JSON ending in a newline. The device adds a line for each committed
# hand (an append: littlefs commits it whole or not at all) and writes the file whole only
# for a new game, an undo or a correction. Reading one is in saveload.py: a record at a
# time, each replayed through the game's rules, so a file that is malformed or tells an
# impossible story is refused whole, never half-loaded, and a long game never sits in RAM.
# The id (engine_mpy/ident.py) is the game's for good; start (seconds, the table's clock) is
# there only when the device knew the time. Version 2 was the same without them; version 1
# (earlier firmware) was one JSON object {"format", "v": 1, "game", "settings", "records":
# [...]}; saveload_v1.py reads it (what both readers share is below). A save of an earlier
# version is given the id derived from its bytes when the device converts it
# (firmware/game/gameload.py, engine_mpy/ident.py save_id).

from engine_mpy.game import SAVE_FORMAT, SAVE_VERSION, RuleError
from engine_mpy.lines import parse, is_id

# kind -> (module, class). Imported on demand so a board only loads the game it plays.
KINDS = {
    "classic": ("engine_mpy.classic", "Classic"),
    "masters": ("engine_mpy.masters", "Masters"),
    "twist": ("engine_mpy.twist", "Twist"),
    "dice": ("engine_mpy.dice", "DiceGame"),
}


class SaveError(ValueError):
    """A save file that cannot be loaded; args[0] says why, in words. A ValueError: what
    the store calls damaged (anything else, short of memory say, leaves the file alone)."""


def game_class(kind):
    if not isinstance(kind, str) or kind not in KINDS:   # {} or [] in a damaged file
        raise SaveError("unknown game %r" % (kind,))
    mod_name, cls_name = KINDS[kind]
    mod = __import__(mod_name, None, None, [cls_name])
    return getattr(mod, cls_name)


def header(game):
    """The save's first line (with its newline)."""
    return game.header()


def write(game, put):
    """The save of game as text, handed to put(str) a line at a time: the header, then one
    record after another (the records' own kept text where they keep it)."""
    put(header(game))
    recs = game.records
    for i in range(len(recs)):
        put(recs.text(i))
        put("\n")


def dumps(game):
    parts = []
    write(game, parts.append)
    return "".join(parts)


# --- what both readers share (saveload.py, saveload_v1.py) ---------------------------------
HEAD_MAX = 2048   # the header line: settings (a Twist board of 64 spaces, six names)


def value(b, i):
    """The JSON value of b (bytes), read for record i (-1: the header): SaveError when it is
    not JSON a save of ours holds (engine_mpy/lines.py, parse)."""
    try:
        return parse(b)
    except ValueError:
        if i < 0:
            raise SaveError("not valid JSON (the file is damaged)")
        raise SaveError("hand %d: not valid JSON (the file is damaged)" % (i + 1))


def version(d):
    """The save version d's header says, checked."""
    if d.get("format") != SAVE_FORMAT:
        raise SaveError("not a Phase 10 save (no \"format\": \"phase10\")")
    v = d.get("v")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise SaveError("save version missing or invalid")
    if v > SAVE_VERSION:
        raise SaveError("save version %d is newer than this firmware reads (%d)" % (v, SAVE_VERSION))
    return v


def new_game(d, keep):
    """The game the header d sets up, with no record yet (keep: its records' home)."""
    cls = game_class(d.get("game"))
    settings = d.get("settings")
    if not isinstance(settings, dict):
        raise SaveError("settings missing or not an object")
    try:
        g = cls(settings, keep=keep)
    except RuleError as e:
        raise SaveError("settings: %s" % e.args[0])
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        raise SaveError("settings are malformed (%s)" % type(e).__name__)
    g.torn = 0
    gid = d.get("id")
    t = d.get("start")
    if gid is not None and not is_id(gid):
        raise SaveError("the game's id is not 16 hex digits")
    if t is not None and (type(t) is not int or t < 0):
        raise SaveError("the game's start is not a time")
    g.id = gid
    g.started = t
    # (an earlier version's save: the device writes it out as this one, with an id; a save
    # of this version without one, made by hand or by a tool, is read as it is)
    g.earlier = d.get("v") != SAVE_VERSION
    return g


def feed(game, rec, i):
    """Record i replayed through the game's rules: its normal form, or SaveError naming
    the hand and the rule."""
    try:
        return game.feed(rec, i)
    except RuleError as e:
        raise SaveError("hand %d: %s" % (e.hand or i + 1, e.args[0]))


def keep_record(game, sink, i, norm, start, line):
    """Record i read: kept in RAM (no sink) or handed to sink (see saveload.load)."""
    if sink is None:
        game.records.append(norm)
    else:
        sink(game, i, norm, start, line)
