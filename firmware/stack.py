# The screens open, as a stack: the top one takes the keys and draws. Screens live in
# firmware/screens/ and are imported when pushed (make(app, arg) builds one); whether a
# closed screen's module then leaves RAM or stays loaded is the memory policy's
# (firmware/memory/policy.py, Memory.used/unused), told here.
#
# A screen below the top that can come back from a few values (its park() says which) is
# parked: its object and, when no other screen uses it, its module are dropped, and it is
# rebuilt (make(), then resume()) when it is on top again. Only the screens the player is
# using take RAM: the menu and a game's home under a hand entry take none.
import sys

from firmware.memory.policy import SCREENS

# Screens whose opening reads the flash or loads much code: the busy mark first
_SLOW = ("history", "help", "newgame", "rules")


class Screens:
    """The app's screens (App.screens, one): push, pop, top."""

    def __init__(self, app, memory):
        self.app = app          # what each screen is made with; its busy mark (App.busy)
        self.memory = memory    # (App.memory) told which screens' modules are in use
        self.stack = []         # the screens open, the bottom first (App.stack: this list)
        self.made = 0           # screens built (the simulator's time model charges each)
        # A screen to open once the key being handled is done (App.handle pushes it): the
        # screen that asked, closed meanwhile, and its module have left RAM by then, so the
        # new screen's code loads into the room they took. A hand that ends a game opens
        # the game-over screen so: opened from the hand's own key method, its code loaded
        # while the hand entry's (about 10 KB of code and data on the emulated Pico's .mpy
        # install) was still held by that method running, and a 96 KB heap ran out there.
        self.after = None

    def top(self):
        scr = self.stack[-1]
        if scr.parked:
            self.memory.room()
            p = scr
            scr = self._make(p.module, p.arg)
            scr.resume(p.state)
            self.stack[-1] = scr
        return scr

    def _make(self, name, arg):
        self.memory.used(name)
        mod = __import__(SCREENS + name, None, None, ("make",))
        scr = mod.make(self.app, arg)
        self.made += 1
        scr.module = name
        scr.arg = arg
        scr.dirty = True
        return scr

    def push(self, name, arg=None):
        """Open screen module firmware/screens/<name>.py; its make(app, arg) builds it."""
        self.after = None
        if self.stack:
            self.park_top()
        self.memory.tidy = True
        self.memory.room()
        # (History's own page for one game, arg a game, reads nothing more)
        if name in _SLOW and (type(arg) is not dict if name == "history" else SCREENS + name not in sys.modules):
            self.app.busy()
        scr = self._make(name, arg)
        self.stack.append(scr)
        return scr

    def park_top(self):
        """Park the screen on top if it can be (see the top of this file)."""
        below = self.stack[-1]
        state = None if below.parked else below.park()
        if state is not None:
            self.stack[-1] = _Parked(below.module, below.arg, state)
            self._drop(below.module)

    def pop(self):
        """Close the top screen (never the first one) and unload its module if no screen
        below uses it. The screen below is rebuilt only when it is wanted (top()), so
        popping several at once builds none of those in between."""
        if len(self.stack) < 2:
            return False
        scr = self.stack.pop()
        if not scr.parked:
            scr.closed()
        self._drop(scr.module)
        del scr
        below = self.stack[-1]
        if not below.parked:
            below.dirty = True
        m = self.memory
        m.tidy = True
        m.ahead_of = None       # (its game may have ended meanwhile: the finish's code)
        m.room()
        return True

    def _drop(self, name):
        # A screen's module is unused once no live screen on the stack uses it
        for s in self.stack:
            if s.module == name and not s.parked:
                return
        self.memory.unused(name)

    def open(self, name, arg=None):
        """Push screen name; a screen missing from this device (a partial deploy) is said
        on a note instead (any other import error is a real fault and is raised)."""
        try:
            return self.push(name, arg)
        except ImportError as e:
            if name not in str(e):
                raise
            return self.push("note", "The %s screen is not on this device: deploy again." % name)

    def open_home(self):
        """The running game's home screen, or a note saying there is none."""
        s = self.app.session
        g = s.game if s is not None else None
        if g is None:
            return self.push("note", "No game is running. Start one with New game.")
        from firmware.screens.base import HOME     # (loaded with the first screen)
        return self.open(HOME[g.KIND])


class _Parked:
    """A parked screen's place on the stack: what rebuilds it."""
    parked = True

    def __init__(self, module, arg, state):
        self.module = module
        self.arg = arg
        self.state = state
