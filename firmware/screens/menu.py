# The main menu: the first screen, the root of the stack (BACK here does nothing). It opens
# on Continue, which names the running game, when there is one, else on New game.
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

_THEN = ("history", "firmware.histbrowse", "firmware.history", "about")

_KINDS = {"classic": "Phase 10", "masters": "Masters", "twist": "Twist", "dice": "Dice"}


class Menu(ListScreen):
    title = "Phase 10"

    def __init__(self, app):
        ListScreen.__init__(self, app, len(ENTRIES))
        s = app.session
        self.game = s.kind() if s is not None else None
        if self.game is None:
            self.sel = 1

    def park(self):
        return (self.sel, self.top, self.game)

    def resume(self, s):
        # its place kept, unless a game started or ended meanwhile: then Continue with a
        # game, New game without one, as when the device starts
        if s[2] == self.game:
            self.resume_place(s)

    def label(self, i):
        if i == 0 and self.game:
            return "Continue " + _KINDS.get(self.game, "")
        return ENTRIES[i][0]

    def tick(self, now):
        # a game started or finished under the menu: Continue says so
        s = self.app.session
        g = s.kind() if s is not None else None
        if g != self.game:
            self.game = g
            self.move((0 if g else 1) - self.sel, True)
            self.app.ahead_of = None     # what it opens next changed too

    def ahead(self):
        # Continue with a game, New game without one: where the menu opens (the game
        # as it is now: tick() may not have seen it yet); then History with the reader it
        # opens with (its longest opening after a game: 93 ms on the .mpy install, 45 of
        # them loading code), then About.
        s = self.app.session
        g = s.kind() if s is not None else None
        return ((HOME[g],) if g in HOME else ("newgame",)) + _THEN

    def choose(self, i):
        name = ENTRIES[i][1]
        if name is None:
            self.app.open_home()
        else:
            self.app.open(name, ENTRIES[i][0])
        return True


def make(app, arg):
    return Menu(app)
