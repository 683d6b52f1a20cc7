# New game, one question per page: (a game is running: abandon it?), the game, for Phase 10
# the variation (and N for "First N phases"), the players in seating order from the
# roster (a new one through the picker), the first dealer (chosen or random). Then the
# session starts the game and the game's home screen opens; Dice goes on to its turn-order
# roll instead (the "dice_order" screen starts that game). LEFT or long OK: the page before.
# The game is started once this screen is closed (firmware/game/pending.py).
# Nothing is written before the last answer, except a new name added to the roster.
from firmware.screens.base import ListScreen, title_bar, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_LEFT = const(3)
_OK = const(5)
_BACK = const(6)
_KEY_MASK = const(0x7F)

_ASK = const(0)
_GAME = const(1)
_VAR = const(2)
_N = const(3)
_WHO = const(4)
_DEALER = const(5)

# The Phase 10 variations as engine_mpy.classic names them (VARIATIONS, VARIATION_NAMES; a
# test checks they agree): copied so the page does not load the whole card engine.
VARIATIONS = ("standard", "ten_hands", "first_n", "even")
VARIATION_NAMES = ("Standard", "Ten hands", "First N phases", "Even phases")
# Players each game takes (min, max), as the engines check them; a test compares.
_LIMITS = ((2, 6), (2, 6), (2, 6), (1, 8))
_GAMES = (("Phase 10", "classic"), ("Masters", "masters"), ("Twist", "twist"), ("Dice", "dice"))
_TITLES = ("New game", "New game", "Variation", "First N phases", "Players", "First dealer")
_ASK_ROWS = ("No, keep playing", "Yes, new game")
_ASK_TEXT = ("A game is running.", "A new game puts it", "in History, marked", "unfinished.")
_ASK_Y = const(44)


class NewGame(ListScreen):
    def __init__(self, app):
        ListScreen.__init__(self, app, 0)
        self.kind = "classic"
        self.var = 0         # index into VARIATIONS
        self.n = 5           # First N phases: N
        self.picked = []     # roster indices in seating order
        self.names = None    # roster names (loaded at the players page)
        self.roster_msg = None   # what reading the roster found wrong, to say there
        s = getattr(app, "session", None)
        self.go(_ASK if s is not None and s.game is not None else _GAME)

    # --- pages ---------------------------------------------------------------------------
    def go(self, step, sel=0):
        self.step = step
        self.title = _TITLES[step]
        if step == _ASK:
            n = 2
        elif step == _GAME:
            n = len(_GAMES)
        elif step == _VAR:
            n = len(VARIATIONS)
        elif step == _N:
            n = 1
        elif step == _WHO:
            if self.names is None:
                self._read_names()
            self._say_roster()
            n = len(self.names) + 2
        else:
            n = len(self.picked) + 1
        self.count = n
        self.sel = sel
        self.top = 0
        self.move(0)
        self.dirty = True

    def closed(self):
        import sys
        r = sys.modules.get("firmware.files.roster")
        if r is not None:
            r.release()

    def load_names(self):
        """Read the roster's names again (a name was added) and say what was wrong."""
        self._read_names()
        self._say_roster()

    def _read_names(self):
        # The roster is read only for the players page: on a small heap when it opens, on
        # one with room while the page before it is read (tick()).
        from firmware.files import roster
        rows, self.roster_msg, unread = roster.load(self.app.store)
        self.names = [r[0] for r in rows]

    def _say_roster(self):
        msg = self.roster_msg
        if msg:     # a damaged roster set aside, or one that could not be read
            self.roster_msg = None
            self.app.say(msg)
            self.app.tell()

    def ahead(self):
        # the players page's code (Memory.prefetch, a heap with room)
        return ("firmware.files.roster",) if self.names is None else ()

    def tick(self, now):
        # On a heap with room, the roster is read once the page before the players is on
        # the panel and no key waits: on an RP2040 reading and checking it took 15 ms of
        # the 47 ms from OK to the players page. A damaged roster is set aside as it is
        # read, so that is said at once (the player may never open the players page).
        app = self.app
        if self.names is None and not self.dirty and self.step != _WHO and not app.memory.small and not app.buttons.pending():
            self._read_names()
            self._say_roster()
            return True
        return False

    def back(self):
        s = self.step
        if s == _VAR:
            self.go(_GAME, 0)
        elif s == _N:
            self.go(_VAR, self.var)
        elif s == _WHO:
            if self.kind != "classic":
                self.go(_GAME, self._game_index())
            elif self.var == 2:
                self.go(_N)
            else:
                self.go(_VAR, self.var)
        elif s == _DEALER:
            self.go(_WHO, len(self.names) + 1)
        else:
            return False
        return True

    def _game_index(self):
        for i in range(len(_GAMES)):
            if _GAMES[i][1] == self.kind:
                return i
        return 0

    # --- rows ----------------------------------------------------------------------------
    def label(self, i):
        s = self.step
        if s == _GAME:
            return _GAMES[i][0]
        if s == _VAR:
            return VARIATION_NAMES[i]
        if s == _WHO:
            k = len(self.names)
            if i < k:
                return self.names[i]
            return "+ New player" if i == k else ("Next: 1 player" if len(self.picked) == 1 else "Next: %d players" % len(self.picked))
        if s == _DEALER:
            return "Random" if i == 0 else self.names[self.picked[i - 1]]
        return ""

    def value(self, i):
        if self.step == _WHO and i < len(self.names) and i in self.picked:
            return "seat %d" % (self.picked.index(i) + 1)
        return None

    def key(self, k):
        base = k & _KEY_MASK
        if base == _BACK or base == _LEFT:
            return self.back()
        if self.step == _N and (base == _UP or base == _DOWN):
            n = self.n + (1 if base == _UP else -1)
            if 1 <= n <= 10:
                self.n = n
                self.dirty = True
            return True
        if self.step == _N and base == _OK:
            self.go(_WHO)
            return True
        return ListScreen.key(self, k)

    def choose(self, i):
        s = self.step
        if s == _ASK:
            if i == 0:
                self.app.pop()
            else:
                self.go(_GAME)
        elif s == _GAME:
            self.kind = _GAMES[i][1]
            self.go(_VAR, self.var) if self.kind == "classic" else self.go(_WHO)
        elif s == _VAR:
            self.var = i
            self.go(_N) if i == 2 else self.go(_WHO)
        elif s == _WHO:
            k = len(self.names)
            if i < k:
                if i in self.picked:
                    self.picked.remove(i)
                else:
                    self.picked.append(i)
                self.dirty = True
            elif i == k:
                self.app.push("picker", ("New player", "", self._added))
            else:
                self.players_done()
        elif s == _DEALER:
            n = len(self.picked)
            self.start(self.app.rng.randrange(n) if i == 0 else i - 1)
        return True

    def _added(self, name):
        from firmware.files import roster
        msg = roster.add(self.app.store, name)
        if msg:
            return msg
        self.load_names()
        i = len(self.names) - 1     # (added last)
        self.picked.append(i)
        self.count = len(self.names) + 2
        self.sel = i
        self.move(0)
        return None

    def seated(self):
        return [self.names[i] for i in self.picked]

    def players_done(self):
        # The engine's own check of the names, with this game's limits (a test checks
        # they are the engines'): the card engine itself is not loaded here.
        from engine_mpy.game import check_names, RuleError
        lo, hi = _LIMITS[self._game_index()]
        try:
            check_names(self.seated(), lo, hi)
        except RuleError as e:
            self.app.push("note", e.args[0])
            return
        if self.kind == "dice":
            self.finish({"players": self.seated()})
        else:
            self.go(_DEALER)

    def start(self, dealer):
        s = {"players": self.seated(), "dealer": dealer}
        if self.kind == "classic":
            s["variation"] = VARIATIONS[self.var]
            if self.var == 2:
                s["phases"] = self.n
        elif self.kind == "twist":
            s["layout"] = " ".join(_layout(self.app))
        self.finish(s)

    def finish(self, settings):
        # The game starts once this screen is gone (firmware/game/pending.py): the
        # engine and the home screen then have the heap this one took.
        self.app.pending = (self.kind, settings)
        self.app.pop()

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, c):
        s = self.step
        if s == _N:
            title_bar(c, self.title)
            t = str(self.n)
            x = (W - c.big_width(t)) // 2
            c.big(t, x, 20)
            if self.n < 10:
                c.glyph("up", x - 14, 20)
            if self.n > 1:
                c.glyph("down", x - 14, 28)
            c.text("phases 1 to %d" % self.n if self.n > 1 else "phase 1 only", 4, 40)
            c.text("OK: next", 4, 56)
            return
        if s == _ASK:
            title_bar(c, self.title)
            y = LINE_H + 2
            for t in _ASK_TEXT:
                c.text(t, 2, y)
                y += LINE_H
            for i in range(2):
                y = _ASK_Y + i * LINE_H
                c.text(_ASK_ROWS[i], 2, y)
                if i == self.sel:
                    c.invert_rect(0, y, W, LINE_H)
            return
        ListScreen.draw(self, c)


def _layout(app):
    """The owner's board (/twist_layout.txt) if there is one and it can be used, else the
    default board, with a message saying why. The file is only read, never changed."""
    from engine_mpy import board_layout
    from engine_mpy.game import RuleError
    try:
        f = app.store.open("twist_layout.txt", "rb")
    except OSError:
        return board_layout.default_layout()
    try:
        return board_layout.read_layout(f)
    except RuleError as e:
        app.say("twist_layout.txt: %s The default board is used." % e.args[0])
    except Exception as e:     # short of memory, a flash error
        app.say("twist_layout.txt could not be read (%s): the default board is used; the file is kept as it is." % _why(e))
    finally:
        f.close()
    return board_layout.default_layout()


def _why(e):
    return "short of memory" if isinstance(e, MemoryError) else type(e).__name__


def make(app, arg):
    return NewGame(app)
