# The save format of every game: one JSON object,
#   {"format": "phase10", "v": 1, "game": KIND, "settings": {...}, "records": [...]}
# Loading checks the shape, then replays every record through the game's rules: a file
# that is malformed or tells an impossible story is refused whole, never half-loaded.
import json

from engine_mpy.game import SAVE_FORMAT, SAVE_VERSION, RuleError

# kind -> (module, class). Imported on demand so a board only loads the game it plays.
KINDS = {
    "classic": ("engine_mpy.cards", "Classic"),
    "masters": ("engine_mpy.cards", "Masters"),
    "twist": ("engine_mpy.twist", "Twist"),
    "dice": ("engine_mpy.dice", "DiceGame"),
}


class SaveError(Exception):
    """A save file that cannot be loaded; args[0] says why, in words."""


def game_class(kind):
    if kind not in KINDS:
        raise SaveError("unknown game %r" % (kind,))
    mod_name, cls_name = KINDS[kind]
    mod = __import__(mod_name, None, None, [cls_name])
    return getattr(mod, cls_name)


def from_dict(d):
    if not isinstance(d, dict):
        raise SaveError("not a Phase 10 save (expected a JSON object)")
    if d.get("format") != SAVE_FORMAT:
        raise SaveError("not a Phase 10 save (no \"format\": \"phase10\")")
    v = d.get("v")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise SaveError("save version missing or invalid")
    if v > SAVE_VERSION:
        raise SaveError("save version %d is newer than this firmware reads (%d)" % (v, SAVE_VERSION))
    cls = game_class(d.get("game"))
    settings = d.get("settings")
    records = d.get("records")
    if not isinstance(settings, dict):
        raise SaveError("settings missing or not an object")
    if not isinstance(records, list):
        raise SaveError("records missing or not a list")
    try:
        return cls(settings, records)
    except RuleError as e:
        if e.hand:
            raise SaveError("hand %d: %s" % (e.hand, e.args[0]))
        raise SaveError("settings: %s" % e.args[0])
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        raise SaveError("settings are malformed (%s)" % type(e).__name__)


def loads(text):
    try:
        d = json.loads(text)
    except ValueError:
        raise SaveError("not valid JSON (the file is damaged or truncated)")
    return from_dict(d)


def write(game, put):
    """The save of game as text, handed to put(str) a piece at a time: the head, the
    settings, then one record after another. The device streams it into the file, so a
    long game is never held in RAM as one string (nor the doubling buffer that building
    one takes). The text is exactly json.dumps(game.to_dict()) with compact separators
    (the file is written to flash on every committed hand)."""
    put('{"format":%s,"v":%d,"game":%s,"settings":' % (
        json.dumps(SAVE_FORMAT), SAVE_VERSION, json.dumps(game.KIND)))
    put(json.dumps(game.settings, separators=(",", ":")))
    put(',"records":[')
    first = True
    for r in game.records:
        if not first:
            put(",")
        put(json.dumps(r, separators=(",", ":")))
        first = False
    put("]}")


def dumps(game):
    parts = []
    write(game, parts.append)
    return "".join(parts)
