# The running game on the device: loaded from game.json at start, saved atomically on
# every committed record (a hand, a turn, a correction), moved to history.json when it is
# over. Screens change a game only through commit(), so a refused entry or a flash that
# refuses the write leaves the saved game and the game in RAM exactly as they were.
import gc

from engine_mpy import savefile
from engine_mpy.game import RuleError

from firmware.store import GAME as GAME_FILE


def _check(found):
    # store.read() calls the returned function to tell a good file from a damaged one; the
    # game it loads is kept in found, so the file is replayed once, not twice.
    def check(text):
        try:
            game = savefile.loads(text)
        except savefile.SaveError:
            return False
        found[:] = [game]
        return True
    return check


class Session:
    def __init__(self, store):
        self.store = store
        self.game = None
        self.message = None   # what went wrong at load, for the app to show once
        self.unread = False   # a save is on flash that could not be read (not damaged)

    def load(self):
        """Load the running game, if any. A damaged save is set aside by the store (as
        game.json.bad) and said in .message; the device starts without it."""
        self.game = None
        if self.store is None:
            return None
        found = []
        text, msg = self.store.read(GAME_FILE, _check(found))
        self.message = msg
        # read() sets a damaged file aside itself; a file it left in place but could not
        # read (short of memory, say) is still the player's game: never write over it.
        self.unread = text is None and msg is not None and self.store.exists(GAME_FILE)
        if text is not None and found:
            self.game = found[0]
        text = None
        found = None
        # Saves are read only at start: the reading code leaves RAM until the next start.
        from firmware.app import _unload
        _unload("engine_mpy.saveload")
        gc.collect()
        return self.game

    def start(self, kind, settings):
        """A new game. Returns None, or the message saying why it cannot start."""
        try:
            game = savefile.game_class(kind)(settings)
        except (RuleError, savefile.SaveError) as e:
            return e.args[0]
        if self.unread:
            # The unread save is kept as game.json.bad rather than overwritten.
            self.store.set_aside(GAME_FILE)
            self.unread = False
        err = self._save(game)
        if err:
            return err
        self.game = game
        return None

    def commit(self, action, *args):
        """Apply one change to the game: action is "add", "undo" or "replace" with the
        engine method's arguments. Returns None when applied and saved, else the message
        (a rule broken, or the flash refused the write); then nothing has changed."""
        g = self.game
        if g is None:
            return "No game is running."
        before = g.records[:]
        try:
            getattr(g, action)(*args)
        except RuleError as e:
            return e.args[0]
        gc.collect()
        err = self._save(g)
        if err:
            # The flash kept the old save: put the game in RAM back to match it.
            g._commit(before)
            return err
        return None

    def _save(self, game):
        if self.store is None:
            return None
        if self.store.write_atomic(GAME_FILE, lambda put: savefile.write(game, put)):
            return None
        return self.store.error or "Could not save the game."

    def finish(self, entry):
        """The game is over and its result is in: add entry (a small JSON summary) to the
        history, then forget the running game. Returns a message or None."""
        if self.store is not None:
            written, msg = self.store.add_history(entry)
            if not written and self.store.error:
                return self.store.error
            self.store.remove(GAME_FILE)
        self.game = None
        gc.collect()
        return None
