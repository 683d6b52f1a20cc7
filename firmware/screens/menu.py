# The main menu: the first screen, the root of the stack (BACK here does nothing).
from firmware.screens.base import ListScreen

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

class Menu(ListScreen):
    title = "Phase 10"

    def __init__(self, app):
        ListScreen.__init__(self, app, len(ENTRIES))

    def park(self):
        return self.park_place()

    def resume(self, s):
        self.resume_place(s)

    def label(self, i):
        return ENTRIES[i][0]

    def choose(self, i):
        name = ENTRIES[i][1]
        if name is None:
            self.app.open_home()
        else:
            self.app.open(name, ENTRIES[i][0])
        return True


def make(app, arg):
    return Menu(app)
