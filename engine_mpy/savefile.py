# The save format of every game (version 2): a header line, then one line per record,
#   {"format":"phase10","v":2,"game":KIND,"settings":{...}}
#   {"out":0,"left":[null,[7,2,0,1]]}
#   ...
# each line compact JSON ending in a newline. The device adds a line for each committed
# hand (an append: littlefs commits it whole or not at all) and writes the file whole only
# for a new game, an undo or a correction. Reading one is in saveload.py: a record at a
# time, each replayed through the game's rules, so a file that is malformed or tells an
# impossible story is refused whole, never half-loaded, and a long game never sits in RAM.
# Version 1 (earlier firmware) was one JSON object {"format", "v": 1, "game", "settings",
# "records": [...]}; saveload.py reads it too.

from engine_mpy.game import SAVE_FORMAT, SAVE_VERSION

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


def loads(text):
    """The game a save's text describes (either version); raises SaveError."""
    from engine_mpy.saveload import load
    import io
    return load(io.BytesIO(text.encode() if isinstance(text, str) else text))
