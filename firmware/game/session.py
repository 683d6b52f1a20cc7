# The running game on the device: loaded from game.json at start, saved on every committed
# record (a hand, a turn, a correction), moved to the history when it is over. Screens
# change a game only through apply()/commit(), so a refused entry or a flash that refuses
# the write leaves the saved game and the game in RAM exactly as they were. The game's
# records stay in the file (firmware/game/gamefile.py): RAM holds its state only.
#
# Finishing a game changes three files (roster.json, history.json, game.json gone), so it
# is journalled: the roster as it will be and the history's new line are first saved
# together as finish.json, the one commit point; then they are written from it and
# game.json and finish.json removed. A power cut before finish.json is complete leaves the
# game running and nothing counted; after it, the next start (load()) completes the finish
# from the journal. Each step is done again harmlessly (the history's line carries its
# number, and is not added twice): a game is never counted twice, nor lost.
import gc

from engine_mpy.modules import forget, builtin
from firmware.files.store import GAME as GAME_FILE, FINISH as FINISH_FILE
from firmware.memory.policy import ALWAYS, RULES, SAVE_READERS, small_heap


class Session:
    def __init__(self, store):
        self.store = store
        self.game = None
        self.messages = []    # what went wrong at load, for the app to show, in order
        self.unread = False   # a save is on flash that could not be read (not damaged)
        self.changed = False  # apply() changed the game; flush() saves it
        self.notes = []       # what a save that went through had to do (room made), to show
        self.finishing = None  # a journal written, applied after the frame (apply_journal())
        self.later = None     # the kind of the save read after the first frame (read_later)
        self.taken = 0        # games taken into RAM (loaded or started): the simulator's
        #                       time model charges each one (an id() can be reused)
        self.urandom = None   # n -> n random bytes, for a new game's id (None: os.urandom)
        self.now = None       # () -> the table's time in seconds, or None when unknown
        #                       (None: the device has no clock); firmware/main.py sets both

    @property
    def message(self):
        return self.messages[0] if self.messages else None

    def kind(self):
        """The running game's kind ("classic"...), None without one; before a save read
        later is read, the kind its first line names."""
        g = self.game
        return g.KIND if g is not None else self.later

    def read_later(self):
        """Whether the save can be read after the first frame, which then names its kind
        from the save's first line (kept in .later until load()): only a plain save (no
        finish journal, no .tmp left) whose kind is known. On the .mpy install reading
        the 55-hand save took half the start-up, most of it loading the rules' and the
        reader's code; the menu needs only the kind. A heap with room only: on a small
        one the game's code goes first, into a heap still in one piece."""
        store = self.store
        if store is None or small_heap():
            return False
        k = saved_kind(store)      # (no save: its open fails, and load() finds no game)
        if k not in KNOWN or store.exists(FINISH_FILE) or store.exists(GAME_FILE + ".tmp"):
            return False
        self.later = k
        return True

    def load(self):
        """Load the running game, if any. A damaged save is set aside by the store (as
        game.json.bad1...) and said in .messages; the device starts without it."""
        self.game = None
        kind = self.later     # (the kind read_later found: the save is not opened for it again)
        self.later = None
        self.messages = []
        self.changed = False
        if self.store is None:
            return None
        if self._complete_journal():
            return None       # the finish stays pending (the next start tries again)
        if not self.store.exists(GAME_FILE) and not self.store.exists(GAME_FILE + ".tmp"):
            return None       # no game: none of the game's code is loaded
        try:
            _rules_first(self.store, kind)
            from firmware.game import gameload
            game, msg, self.unread = gameload.load(self.store, GAME_FILE, self.messages)
        except Exception as e:     # short of memory for the reading code itself
            game = None
            self.unread = self.store.exists(GAME_FILE)
            msg = "%s could not be read (%s); it is kept as it is." % (
                GAME_FILE, "short of memory" if isinstance(e, MemoryError) else type(e).__name__)
        gameload = None
        if msg:
            self.messages.append(msg)
        self.game = game
        if game is not None:
            self.taken += 1
        game = None
        # Saves are read only at start: the reading code leaves RAM until the next start.
        for m in SAVE_READERS:
            forget(m)
        gc.collect()
        return self.game

    def start(self, kind, settings):
        """A new game. Returns None, or the message saying why it cannot start."""
        from firmware.game.gamefile import GameFile
        from engine_mpy import savefile
        from engine_mpy.game import RuleError
        if small_heap():
            gc.collect()      # the rules load next: into as few pieces as there can be
        try:
            game = savefile.game_class(kind)(settings, keep=GameFile(self.store, GAME_FILE))
        except (RuleError, savefile.SaveError) as e:
            return e.args[0]
        err = self._complete_journal()
        if err:
            # A finish still pending would remove game.json: not the new game's.
            return err
        if self.unread:
            # The unread save is kept as game.json.bad rather than overwritten.
            from firmware.files import storeread
            storeread.set_aside(self.store, self.store.path(GAME_FILE))
            storeread = None
            forget("firmware.files.storeread")
            self.unread = False
        # its identity: an id of 64 random bits (engine_mpy/ident.py hexid, done here
        # without loading that module) and, where the device knows it, the time
        game.id = builtin("binascii").hexlify((self.urandom or _urandom)(8)[:8]).decode()
        game.started = self.now() if self.now else None
        self.game = game
        self.taken += 1
        err = self._save()
        forget("engine_mpy.savefile")   # needed again for an undo or a correction
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
        from engine_mpy.game import RuleError
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
        # policy.small_heap)
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
        while True:
            err = self.game.records.save(self.game)
            if not err or not self.store.full:
                return err
            # the flash full: the oldest games of the history make room for the game
            # being played (said on a note: firmware/history/histroom.py), else the refusal
            from firmware.history.histroom import make_room
            room = make_room(self.store, self.notes)
            make_room = None
            forget("firmware.history.histroom")
            if not room:
                return err

    def write_journal(self, entry, roster_rows=None, later=False):
        """The game is over and its result is in: write the finish's journal, the one
        commit (firmware/game/journal.py), which adds entry (its history line,
        engine_mpy/summary.py, numbered here) to the history, saves roster_rows (the roster
        with this game counted, or None to leave it alone) and forgets the running game.
        The game may have left RAM already (drop_game: its save is what is finished).
        Returns None, or a message: if the flash refused the journal (or the history could
        not be read) nothing has changed (the game is read again from its save); if it
        refused a later step the game is over all the same and the next start (or new
        game) completes the finish.
        later: only the commit now (the journal); the roster and the history are written
        by apply_journal(), which the app calls once the frame that shows the result is
        out. Else the journal is applied now."""
        if self.game is not None:
            err = self.flush()     # the last change first: a finish records what the flash has
            if err:
                return err
            if self.store is not None:
                self.drop_game()
        if self.store is None:
            self.game = None
            return None
        from firmware.game import journal
        err = journal.write(self, entry, roster_rows, later)
        journal = None
        if self.finishing is None:
            forget("firmware.game.journal")
        return err

    def apply_journal(self):
        """The journal write_journal(later=True) wrote, applied: the roster, the history's
        new line, the save and the journal removed (firmware/game/journal.py apply()).
        None, or what that says beyond what write_journal() said. A power cut before it is
        done leaves the journal, and the next start completes it."""
        from firmware.game import journal
        err = journal.apply(self)
        journal = None
        forget("firmware.game.journal")
        return err

    def drop_game(self):
        """The game and its rules out of RAM (its save stays on the flash, as it is): a
        finish makes room for the roster, the history and its journal. load() reads it
        again."""
        g = self.game
        if g is not None:
            g.records.close()
        self.game = None
        g = None
        _drop_rules()
        gc.collect()

    def _complete_journal(self):
        """A finish cut short by a power cut: complete it from its journal (if there is
        one). Returns None, or the message when it could not be completed."""
        store = self.store
        if not store.exists(FINISH_FILE) and not store.exists(FINISH_FILE + ".tmp"):
            return None
        from firmware.game import journal
        err = journal.complete_at_start(self)
        journal = None
        forget("firmware.game.journal")
        return err


def _urandom(n):
    import os
    return os.urandom(n)


def saved_kind(store):
    """The kind of game the save names on its first line ("classic"...), or None. Anything
    wrong there is for the reading to say."""
    try:
        f = store.open(GAME_FILE, "rb")
    except OSError:
        return None
    try:
        head = f.read(96)    # "game" comes early in both versions' first line
    finally:
        f.close()
    # "game":"classic", or with spaces as json.dumps writes it (the first format)
    i = head.find(b'"game"')
    if i < 0:
        return None
    i += 6
    n = len(head)
    while i < n and head[i] in b' :':
        i += 1
    j = head.find(b'"', i + 1)
    if j < 0 or head[i] != 34:      # 34: '"'
        return None
    try:
        return head[i + 1:j].decode()
    except UnicodeError:
        return None


# The kinds a save can name (engine_mpy/savefile.py KINDS, which reads them; a test holds
# the two the same): a first frame names one only when the save's reader knows it.
KNOWN = ("classic", "masters", "twist", "dice")


def _rules_first(store, kind=None):
    """The save's game rules (kind, or the one its first line names) loaded before the
    code that reads the save, into a heap still in few pieces (the rules stay; the
    reading code leaves RAM after)."""
    if kind is None:
        kind = saved_kind(store)
    if kind is None:
        return
    from engine_mpy import savefile
    try:
        savefile.game_class(kind)
    except MemoryError:
        raise
    except Exception:
        pass
    savefile = None
    gc.collect()


def _drop_rules():
    """Drop the rules and the save's code: the next game loads its own.
    MicroPython only: CPython (the simulator, the tests) has RAM to spare, and code there
    holds the rules' classes."""
    import sys
    if sys.implementation.name != "micropython":
        return
    for k in list(sys.modules):
        if k.startswith(RULES) and k not in ALWAYS:
            forget(k)
