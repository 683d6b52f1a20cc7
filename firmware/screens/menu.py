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

# The home screen of a running game, by the engine's KIND.
HOME = {"classic": "cards_home", "masters": "cards_home", "twist": "twist_home",
        "dice": "dice_home"}


def open_screen(app, name, arg=None):
    """Push screen name; a screen missing from this device (a partial deploy) is said on
    a note instead (any other import error is a real fault and is raised)."""
    try:
        return app.push(name, arg)
    except ImportError as e:
        if name not in str(e):
            raise
        return app.push("note", "The %s screen is not on this device: deploy again." % name)


def open_home(app):
    """The running game's home screen, or a note saying there is none."""
    s = getattr(app, "session", None)
    g = s.game if s is not None else None
    if g is None:
        return app.push("note", "No game is running. Start one with New game.")
    return open_screen(app, HOME[g.KIND])


def start_pending(app):
    """Finish the game (app.pending "finish", left by a game's Finish game), or start the
    game New game left in app.pending = (kind, settings), with those screens gone from
    RAM: a running game (its abandoning was confirmed there) goes to History unfinished,
    then the session starts the new one and its home screen opens. Dice goes on to its
    turn-order roll ("dice_order"), which starts the game."""
    p = app.pending
    app.pending = None
    if app.small:
        app.sweep()       # what New game or the game's screens left: room for the engine
    if p == "finish":
        from firmware import roster
        app.say(roster.finish(app))
        return app.tell()
    kind, settings = p
    p = None
    if app.session.game is not None:
        from firmware import roster
        msg = roster.abandon(app)
        if msg:
            return app.push("note", msg)
    if kind == "dice":
        return open_screen(app, "dice_order", settings)
    msg = app.session.start(kind, settings)
    if msg:
        return app.push("note", msg)
    open_screen(app, HOME[kind])
    app.tell()   # a Twist layout file that could not be used, a damaged roster


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

    def tick(self, now):
        if getattr(self.app, "pending", None):
            start_pending(self.app)

    def choose(self, i):
        name = ENTRIES[i][1]
        if name is None:
            open_home(self.app)
        else:
            open_screen(self.app, name, ENTRIES[i][0])
        return True


def make(app, arg):
    return Menu(app)
