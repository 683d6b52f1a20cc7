# The main menu: the first screen, the root of the stack (BACK here does nothing).
from firmware.screens.base import ListScreen

# (what the player reads, the screen module it opens). The game screens come in the next
# issue; until then those entries open the "coming soon" page.
ENTRIES = (
    ("Continue", "soon"),
    ("New game", "soon"),
    ("Dice roller", "soon"),
    ("History", "soon"),
    ("Players", "soon"),
    ("Settings", "settings"),
    ("Rules", "soon"),
    ("About", "about"),
)


class Menu(ListScreen):
    title = "Phase 10"

    def __init__(self, app):
        ListScreen.__init__(self, app, len(ENTRIES))

    def label(self, i):
        return ENTRIES[i][0]

    def choose(self, i):
        self.app.push(ENTRIES[i][1], ENTRIES[i][0])
        return True


def make(app, arg):
    return Menu(app)
