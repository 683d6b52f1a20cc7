# The save format of every game: one JSON object,
#   {"format": "phase10", "v": 1, "game": KIND, "settings": {...}, "records": [...]}
# Writing it is here (the device saves on every committed hand); reading one is in
# saveload.py: it checks the shape, then replays every record through the game's rules, so
# a file that is malformed or tells an impossible story is refused whole, never half-loaded.
import json

from engine_mpy.game import SAVE_FORMAT, SAVE_VERSION

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
    if not isinstance(kind, str) or kind not in KINDS:   # {} or [] in a damaged file
        raise SaveError("unknown game %r" % (kind,))
    mod_name, cls_name = KINDS[kind]
    mod = __import__(mod_name, None, None, [cls_name])
    return getattr(mod, cls_name)


def from_dict(d):
    """The game a save's parsed JSON describes (engine_mpy/saveload.py: the checks of a save
    being read live there, loaded only while one is read)."""
    from engine_mpy.saveload import from_dict as f
    return f(d)


def loads(text):
    from engine_mpy.saveload import loads as f
    return f(text)


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
    recs = game.records
    # game.Packed keeps each record as this very text: written as it is
    text = getattr(recs, "text", None)
    for i in range(len(recs)):
        if i:
            put(",")
        put(text(i) if text else json.dumps(recs[i], separators=(",", ":")))
    put("]}")


def dumps(game):
    parts = []
    write(game, parts.append)
    return "".join(parts)
