# A game.json from elsewhere (a copy downloaded earlier, loaded back into the page) checked
# against the device's history before it may become the running game: a game the history
# holds already is refused, so it is never finished and counted twice. Loaded only for that
# (the web page's Load: web/webdevice.py), then dropped.
from engine_mpy.modules import builtin


def finished_already(store, data):
    """None, or the one line that refuses to load data (a game.json's bytes) on the device
    whose files store holds: "Finished already on 28 Nov 2026: it is in History." (without
    " on <date>" when its line has no time; "Abandoned ..." when the history holds it
    abandoned), or why it could not be told (a history file that could not be read now, a
    save that cannot be read at all). The game's id is its own, or for a save of an
    earlier version the one the device gives it when it converts it (engine_mpy/ident.py
    save_id), so a copy made before this firmware is recognised too. Nothing is written."""
    from engine_mpy import saveload, savefile, ident
    f = builtin("io").BytesIO(data)
    try:
        game = saveload.load(f, _drop)
        gid = ident.save_id(game, f)
    except (savefile.SaveError, ValueError, TypeError, KeyError, IndexError) as e:
        return "game.json is not a save the device can read (%s)." % (e.args[0] if e.args else type(e).__name__)
    game = f = None
    from firmware.history import histfind
    got, msg, unread = histfind.find(store, gid)
    if got is not None:
        return histfind.already(got)
    return msg


def _drop(game, i, norm, start, line):
    """The records read and let go: only the game's id and size are wanted."""
