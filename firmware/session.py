# The running game on the device: loaded from game.json at start, saved on every committed
# record (a hand, a turn, a correction), moved to the history when it is over. Screens
# change a game only through apply()/commit(), so a refused entry or a flash that refuses
# the write leaves the saved game and the game in RAM exactly as they were. The game's
# records stay in the file (firmware/gamefile.py): RAM holds its state only.
#
# Finishing a game changes three files (roster.json, history.json, game.json gone), so it
# is journalled: the roster as it will be and the history's new line are first saved
# together as finish.json, the one commit point; then they are written from it and
# game.json and finish.json removed. A power cut before finish.json is complete leaves the
# game running and nothing counted; after it, the next start (load()) completes the finish
# from the journal. Each step is done again harmlessly (the history's line carries its
# number, and is not added twice): a game is never counted twice, nor lost.
import gc
import json

from engine_mpy import savefile
from engine_mpy.game import RuleError

from firmware.store import GAME as GAME_FILE, ROSTER, small_heap

FINISH_FILE = "finish.json"   # a finish under way (see above)


class Session:
    def __init__(self, store):
        self.store = store
        self.game = None
        self.messages = []    # what went wrong at load, for the app to show, in order
        self.unread = False   # a save is on flash that could not be read (not damaged)
        self.changed = False  # apply() changed the game; flush() saves it

    @property
    def message(self):
        return self.messages[0] if self.messages else None

    def load(self):
        """Load the running game, if any. A damaged save is set aside by the store (as
        game.json.bad1...) and said in .messages; the device starts without it."""
        self.game = None
        self.messages = []
        self.changed = False
        if self.store is None:
            return None
        if self._complete_finish():
            return None       # the finish stays pending (the next start tries again)
        try:
            from firmware import gamefile
            game, msg, self.unread = gamefile.load(self.store, GAME_FILE)
        except Exception as e:     # short of memory for the reading code itself
            game = None
            self.unread = self.store.exists(GAME_FILE)
            msg = "%s could not be read (%s); it is kept as it is." % (
                GAME_FILE, "short of memory" if isinstance(e, MemoryError) else type(e).__name__)
        gamefile = None
        if msg:
            self.messages.append(msg)
        self.game = game
        game = None
        # Saves are read only at start: the reading code leaves RAM until the next start.
        _unload("engine_mpy", "saveload")
        gc.collect()
        return self.game

    def start(self, kind, settings):
        """A new game. Returns None, or the message saying why it cannot start."""
        from firmware.gamefile import GameFile
        try:
            game = savefile.game_class(kind)(settings, keep=GameFile(self.store, GAME_FILE))
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
        self.game = game
        err = self._save()
        if err:
            self.game = None
            return err
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
        try:
            getattr(g, action)(*args)
        except RuleError as e:
            g.records.close()
            return e.args[0]
        g.records.close()
        self.changed = True
        return None

    def flush(self):
        """Save the change apply() made, if any. Returns None, or why the flash refused
        it: then the game in RAM is put back to what the flash holds (the old save)."""
        if not self.changed:
            return None
        self.changed = False
        # only a small heap needs room made first (collected here, not deeper: see
        # store.small_heap)
        if small_heap():
            gc.collect()
        err = self._save()
        if err:
            g = self.game
            g.records.drop()
            g.reload()
            g.records.close()
        return err

    def _save(self):
        if self.store is None:
            return None
        return self.game.records.save(self.game)

    def finish(self, finished, roster_rows=None):
        """The game is over and its result is in (finished; False: abandoned): add it to
        the history, save roster_rows (the roster with this game counted, or None to leave
        it alone), then forget the running game, as one commit (see the top of this file).
        Returns None, or a message: if the flash refused the journal (or the history could
        not be read) nothing has changed; if it refused a later step the game is over all
        the same and the next start (or new game) completes the finish."""
        err = self.flush()     # the last change first: a finish records what the flash has
        if err:
            return err
        st = self.store
        g = self.game
        if st is None or g is None:
            self.game = None
            return None
        from firmware import history
        said = []
        try:
            n = history.last_n(st, said) + 1
        except OSError as e:
            return e.args[0]
        from engine_mpy.summary import entry
        e = entry(g, finished, n)
        g.records.close()
        entry = history = None
        _unload("engine_mpy", "summary")

        def journal(put):
            put('{"n":%d,"roster":' % n)
            put(json.dumps(roster_rows, separators=(",", ":")))
            put(',"entry":')
            put(json.dumps(e, separators=(",", ":")))
            put("}")
        if not st.write_atomic(FINISH_FILE, journal):
            return st.error or "Could not save the finished game."
        # Committed: the game is over even if the flash refuses what follows (the next
        # start or the next new game completes it from the journal).
        self.game = None
        g = None
        gc.collect()
        err = self._apply_finish(roster_rows, e, said)
        e = None
        gc.collect()
        if said and not err:
            err = " ".join(said)
        return err

    def _apply_finish(self, roster_rows, e, said):
        st = self.store
        if roster_rows is not None and not st.write_atomic(ROSTER, json.dumps(roster_rows, separators=(",", ":"))):
            return st.error
        from firmware import history
        try:
            err = history.add(st, e, said)
        except OSError as x:
            return x.args[0]
        if err:
            return err
        st.remove(GAME_FILE)
        st.remove(FINISH_FILE)
        return None

    def _complete_finish(self):
        """A finish cut short by a power cut: complete it from its journal. Returns None,
        or the message when it could not be completed (also in .messages)."""
        j, msg, unread = self.store.load_json(FINISH_FILE, check_journal)
        if msg:
            self.messages.append(msg)
        if unread:
            return msg
        if j is None:
            return None
        said = []
        err = self._apply_finish(j["roster"], j["entry"], said)
        self.messages.extend(said)
        if err:
            self.messages.append(err)
        return err


def check_journal(text):
    """finish.json's contents as fully checked as the files it writes: the roster's rows
    as roster.json takes them, the history's line as history.json takes it."""
    j = json.loads(text)
    if not isinstance(j, dict):
        raise ValueError("not an object")
    n = j.get("n")
    e = j.get("entry")
    if not isinstance(n, int) or n is True or n is False or n < 1:
        raise ValueError("no game number")
    from firmware import history, roster
    history.check_entry(e)
    if e.get("n") != n or not isinstance(e.get("game"), str) or not e.get("players"):
        raise ValueError("the game does not match its number")
    if j.get("roster") is not None:
        roster.check_rows(j["roster"])
    return j


def _unload(pkg, leaf):
    """Drop a module needed only now (reading a save, summing up a game) from RAM."""
    import sys
    if sys.modules.pop(pkg + "." + leaf, None) is not None:
        try:
            delattr(sys.modules[pkg], leaf)
        except (AttributeError, TypeError, KeyError):
            pass
