# The main menu: the first screen, the root of the stack (BACK here does nothing). It opens
# on Continue, which names the running game, when there is one, else on New game: without a
# game there is no Continue line (it led only to "No game is running.").
from firmware.screens.base import ListScreen, HOME

# (what the player reads, the screen module it opens)
ENTRIES = (
    ("Continue", None),
    ("New game", "newgame"),
    ("Dice roller", "dice_roller"),
    ("History", "history"),
    ("Players", "players"),
    ("Settings", "settings"),
    ("Rules", "rules"),
    ("About", "about"),
)

_THEN = ("history", "firmware.history.histbrowse", "firmware.history.entries", "about")

_KINDS = {"classic": "Phase 10", "masters": "Masters", "twist": "Twist", "dice": "Dice"}


class Menu(ListScreen):
    title = "Phase 10"

    def __init__(self, app):
        s = app.session
        self.game = s.kind() if s is not None else None
        # the rows are ENTRIES from self.first: 1 without a game (no Continue)
        self.first = 0 if self.game else 1
        ListScreen.__init__(self, app, len(ENTRIES) - self.first)

    def park(self):
        return (self.sel, self.top, self.game)

    def resume(self, s):
        # its place kept, unless a game started or ended meanwhile: then Continue with a
        # game, New game without one, as when the device starts
        if s[2] == self.game:
            self.resume_place(s)

    def label(self, i):
        i += self.first
        if i == 0:
            return "Continue " + _KINDS.get(self.game, "")
        return ENTRIES[i][0]

    def tick(self, now):
        # a game started or finished under the menu: Continue comes or goes, and the
        # menu is on its first line (Continue, or New game), as when the device starts
        s = self.app.session
        g = s.kind() if s is not None else None
        if g != self.game:
            self.game = g
            self.first = 0 if g else 1
            self.count = len(ENTRIES) - self.first
            self.move(-self.sel, True)
            self.app.memory.ahead_of = None     # what it opens next changed too

    def ahead(self):
        # Continue with a game, New game without one: where the menu opens (the game
        # as it is now: tick() may not have seen it yet); then History with the reader it
        # opens with (its longest opening after a game: 93 ms on the .mpy install, 45 of
        # them loading code), then About.
        s = self.app.session
        g = s.kind() if s is not None else None
        return ((HOME[g],) if g in HOME else ("newgame",)) + _THEN

    def choose(self, i):
        i += self.first
        name = ENTRIES[i][1]
        if name is None:
            self.app.open_home()
        else:
            self.app.open(name, ENTRIES[i][0])
        return True


def make(app, arg):
    return Menu(app)
