# The device in the page: firmware/main.py's build() on the page's edges (its board file
# firmware/boards/web.py, web/machine.py's pins and bus, a clock that never sleeps), stepped
# by web/device.mjs from the page's event loop: MicroPython's WebAssembly port runs in the
# page's only thread, where a sleep would freeze the page.
import time

import machine

_app = []
_board = []
_said = []


class PageClock:
    """MicroPython's milliseconds; wait() does not sleep but notes how long the app would
    pause, for the page to come back then (or sooner, at a button change)."""

    def __init__(self):
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.pause_ms = 0

    def sleep_ms(self, ms):
        self.pause_ms += ms

    def wait(self, ms, ready):
        self.pause_ms = ms


class TestClock(PageClock):
    """Time that passes only when the page's test hook says so (device.advance(ms)): the
    same keys give the same screens however fast the machine runs them, as the
    simulator's virtual clock does. Wraps as MicroPython's counter does."""

    def __init__(self):
        PageClock.__init__(self)
        self.t = 0
        self.ticks_ms = self._now

    def _now(self):
        return self.t

    def advance(self, ms):
        self.t = (self.t + ms) & 0x3FFFFFFF


def start(seed, test_clock=False, root="/data"):
    """Build the device on the files under root, its random source seeded by the page (from
    the browser's crypto); the menu is drawn. test_clock: time passes only by advance()."""
    import sys
    # a board starts with no module of the app loaded: so does the device here when the
    # page starts it again (a test's restart): an exception class kept from before would
    # not be the one the new modules raise
    for m in list(sys.modules):
        if m.startswith(("firmware", "engine_mpy")):
            del sys.modules[m]
    from firmware.edges.board import Board
    from firmware.boards import web
    from firmware import main
    board = Board("web", web)
    # what the device says on its notes, start-up's included, kept for the page (its status
    # line, read out by a screen reader) as the app says it
    del _said[:]
    from firmware.app import App
    say = App.say

    def said_too(app, msg):
        if msg:
            _said.append(msg)
        say(app, msg)
    App.say = said_too
    app = main.build(board, TestClock() if test_clock else PageClock(), root, None, seed)
    _board[:] = [board.BUTTONS]
    _app[:] = [app]


def step():
    """One pass of the app's loop: the ms it would now pause (0: a key waits already)."""
    app = _app[0]
    clk = app.clock
    clk.pause_ms = 0
    app.step()
    return clk.pause_ms


def advance(ms):
    """The test clock moved on ms, the loop run through it as a board's would (each step,
    then its pause, cut short where the time is up)."""
    app = _app[0]
    clk = app.clock
    end = clk.t + ms
    while clk.t < end:
        clk.pause_ms = 0
        app.step()
        clk.advance(max(1, min(clk.pause_ms, end - clk.t)))


def buttons(bits):
    """The page's buttons held now (bit 0 UP, 1 DOWN, 2 LEFT, 3 RIGHT, 4 OK)."""
    machine.set_buttons(bits, _board[0])


def said():
    """What the device has said on its notes since it started, oldest first."""
    return list(_said)


def said_count():
    return len(_said)


def three_button():
    """Whether the device's three-button setting is on (the page then shows three)."""
    return bool(_app[0].settings.get("three_button"))


# The files a player may load back into the page (the ones the device keeps)
KEPT = ("game.json", "settings.json", "roster.json", "history.json")
CHECK = "/check"


def _history_name(name):
    return name.startswith("history.") and name.endswith(".json") and name[8:-5].isdigit() \
        and name[8:-5] == str(int(name[8:-5]))


def check_file(name):
    """The file the page put at /check/<name>, read as the device reads its own: None when
    it would be taken, else one line why not (nothing is changed either way)."""
    if name not in KEPT and not _history_name(name):
        return "%s is not one of the device's files (game.json, settings.json, roster.json, history.json, history.N.json)." % name
    from firmware.files.store import Store
    store = Store(CHECK)
    try:
        if name == "game.json":
            from firmware.game import gameload
            game, msg, unread = gameload.load(store, name, [])
            if game is None:
                return msg or "%s holds no game." % name
            return msg
        if name == "settings.json":
            from firmware.files import settings_file
            return settings_file.load(store)[1]
        if name == "roster.json":
            from firmware.files import roster
            return roster.load(store)[1]
        import json
        from firmware.history import entries
        with open(CHECK + "/" + name, "rb") as f:
            entries.index(f)
        with open(CHECK + "/" + name) as f:
            for line in f:
                if line.strip():
                    entries.check_entry(json.loads(line))
        return None
    except (ValueError, KeyError, TypeError, OSError, UnicodeError) as e:
        return "%s is not a history the device can read (%s)." % (name, e)
