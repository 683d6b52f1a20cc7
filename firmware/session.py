# The running game on the device: loaded from game.json at start, saved atomically on
# every committed record (a hand, a turn, a correction), moved to history.json when it is
# over. Screens change a game only through commit(), so a refused entry or a flash that
# refuses the write leaves the saved game and the game in RAM exactly as they were.
#
# Finishing a game changes three files (roster.json, history.json, game.json gone), so it
# is journalled: the roster and the history as they will be are first saved together as
# finish.json, the one commit point; then they are written from it and game.json and
# finish.json removed. A power cut before finish.json is complete leaves the game running
# and nothing counted; after it, the next start (load()) completes the finish from the
# journal. Each step writes whole files, so doing one again is harmless: a game is never
# counted twice, nor lost.
import gc
import json

from engine_mpy import savefile
from engine_mpy.game import RuleError

from firmware.store import GAME as GAME_FILE, HISTORY, ROSTER, small_heap

FINISH_FILE = "finish.json"   # a finish under way (see above)


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
        self.unsaved = None   # after apply(): the records the flash still holds

    def load(self):
        """Load the running game, if any. A damaged save is set aside by the store (as
        game.json.bad) and said in .message; the device starts without it."""
        self.game = None
        self.message = None
        self.unsaved = None
        if self.store is None:
            return None
        err = self._complete_finish()
        if err:
            # The finish stays pending (the next start tries again); its game is over.
            self.message = err
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
        err = self._complete_finish()
        if err:
            # A finish still pending would remove game.json: not the new game's.
            return err
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
        """Apply one change to the game and save it now: action is "add", "undo" or
        "replace" with the engine method's arguments. Returns None when applied and saved,
        else the message (a rule broken, or the flash refused the write); then nothing
        has changed."""
        return self.apply(action, *args) or self.flush()

    def apply(self, action, *args):
        """Apply one change to the game in RAM, as commit() does, and leave the save to
        flush(): the app calls it in the same poll, right after the frame that shows the
        change is on the panel, so a key never waits on the flash (tens of milliseconds
        on a board, where programming the flash also stalls an RP2040) before its screen.
        The new game is on the flash before any other key is read; a power cut before
        that loses the change as a cut before the key would. Returns None, or the rule the
        change breaks (then nothing has changed)."""
        g = self.game
        if g is None:
            return "No game is running."
        err = self.flush()         # a change not saved yet goes first (never two at once)
        if err:
            return err
        before = g.records[:]
        try:
            getattr(g, action)(*args)
        except RuleError as e:
            return e.args[0]
        self.unsaved = before
        return None

    def flush(self):
        """Save the change apply() made, if any. Returns None, or why the flash refused
        it: then the game in RAM is put back to what the flash holds (the old save)."""
        before = self.unsaved
        if before is None:
            return None
        self.unsaved = None
        # the save streams the game out a record at a time: only a small heap needs room
        # made first (collected here, not deeper: see store.small_heap)
        if small_heap():
            gc.collect()
        err = self._save(self.game)
        if err:
            self.game._commit(before)
        return err

    def _save(self, game):
        if self.store is None:
            return None
        if self.store.write_atomic(GAME_FILE, lambda put: savefile.write(game, put)):
            return None
        return self.store.error or "Could not save the game."

    def finish(self, entry, roster=None):
        """The game is over and its result is in: add entry (a small JSON summary) to the
        history, save roster (the roster rows with this game counted, or None to leave
        the roster alone), then forget the running game, as one commit (see the top of
        this file). Returns None, or a message: if the flash refused the journal nothing
        has changed; if it refused a later step the game is over all the same and the
        next start (or new game) completes the finish."""
        err = self.flush()     # the last change first: a finish records what the flash has
        if err:
            return err
        st = self.store
        if st is not None:
            games, msg = st.load_json(HISTORY, check_history)
            games = games or []
            games.append(entry)
            keep = st.HISTORY_KEEP
            if len(games) > keep:
                games = games[len(games) - keep:]

            def journal(put):
                put('{"roster":')
                put(json.dumps(roster, separators=(",", ":")))
                put(',"history":[')
                for i in range(len(games)):
                    put("," if i else "")
                    put(json.dumps(games[i], separators=(",", ":")))
                put("]}")
            if not st.write_atomic(FINISH_FILE, journal):
                return st.error or "Could not save the finished game."
            # Committed: the game is over even if the flash refuses what follows (the
            # next start or the next new game completes it from the journal).
            self.game = None
            err = self._apply_finish(roster, games)
            games = None
            gc.collect()
            return err
        self.game = None
        gc.collect()
        return None

    def _apply_finish(self, roster, games):
        st = self.store
        if roster is not None and not st.write_atomic(ROSTER, json.dumps(roster, separators=(",", ":"))):
            return st.error
        if not st.write_atomic(HISTORY, json.dumps(games, separators=(",", ":"))):
            return st.error
        st.remove(GAME_FILE)
        st.remove(FINISH_FILE)
        return None

    def _complete_finish(self):
        """A finish cut short by a power cut: complete it from its journal. Returns None,
        or the message when the flash refused."""
        text, msg = self.store.read(FINISH_FILE, _journal_check)
        if text is None:
            return None
        j = json.loads(text)
        text = None
        return self._apply_finish(j["roster"], j["history"])


def check_history(text):
    """history.json's contents, or None when it is not a list of games as the History
    screen shows them (names, game and variation are text, hands and phases whole
    numbers)."""
    v = json.loads(text)
    if not isinstance(v, list):
        return None
    for e in v:
        if not isinstance(e, dict):
            return None
        for k in ("players", "winners"):
            names = e.get(k, [])
            if not isinstance(names, list):
                return None
            for n in names:
                if not isinstance(n, str):
                    return None
        for k in ("hands", "phases"):
            if not isinstance(e.get(k, 0), int):
                return None
        for k in ("game", "variation"):
            if not isinstance(e.get(k, ""), str):
                return None
    return v


def _journal_check(text):
    j = json.loads(text)
    return isinstance(j, dict) and isinstance(j.get("history"), list) and \
        (j.get("roster") is None or isinstance(j["roster"], list))
