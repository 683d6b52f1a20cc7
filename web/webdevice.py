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


def start(seed, test_clock=False, note="", root="/data"):
    """Build the device on the files under root, its random source seeded by the page (from
    the browser's crypto), its flash the browser's storage (web/flash.py); the menu is
    drawn. test_clock: time passes only by advance(). note: what the page has to say at
    start (storage that keeps nothing, say), on the panel's notes with start-up's own."""
    import sys
    # a board starts with no module of the app loaded: so does the device here when the
    # page starts it again (a Load, a test's restart): an exception class kept from before
    # would not be the one the new modules raise
    for m in list(sys.modules):
        if m.startswith(("firmware", "engine_mpy")):
            del sys.modules[m]
    from firmware.edges.board import Board
    from firmware.boards import web
    from firmware import main
    import flash
    board = Board("web", web)
    board.message = note or None
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
    app = main.build(board, TestClock() if test_clock else PageClock(), root, None, seed,
                     urandom=_crypto, now=_now, flash=(flash, flash.open_file))
    _board[:] = [board.BUTTONS]
    _app[:] = [app]


def _crypto(n):
    """n random bytes from the browser's crypto (a new game's id)."""
    import pagejs
    return bytes(int(x) for x in pagejs.random_bytes(n).split(","))


def _now():
    """The table's time: the browser always knows it (seconds since 1970)."""
    return int(time.time())


def app():
    """The device's app, for the web build's other modules (web/webtable.py: the views,
    web/webdraft.py: the draft of an entry)."""
    return _app[0]


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


def running():
    """The game the device is playing, in a few words ("" when none): what Load would
    replace, named as the views name it (engine_mpy/standings.py TITLES) with the hands
    (turns) the engine counts."""
    s = _app[0].session
    g = s.game if s is not None else None
    if g is None:
        return ""
    from engine_mpy.standings import TITLES
    dice = g.KIND == "dice"
    n = g.state.turns if dice else g.state.hands
    return "the %s game of %s (%d %s)" % (TITLES[g.KIND], ", ".join(g.settings["players"]), n,
                                          "turns" if dice else "hands")


# Load: the files a player loads are put in CHECK by the page, each read here as the device
# reads its own, and said in Load's words (never start-up's: nothing is set aside or
# restarted by a check). None: it would be taken.
CHECK = "/check"


def check_file(name):
    """The file the page put at CHECK/<name> (one of the device's, its size and lines
    checked by the page): None when the device reads it, else one line why not."""
    try:
        if name == "game.json":
            return _check_game()
        with open(CHECK + "/" + name) as f:
            text = f.read()
        from engine_mpy.lines import parse
        if name == "settings.json":
            from firmware.files import settings_file
            d = parse(text)
            out = settings_file.check_settings(d)
            if out is None:
                return "settings.json holds no settings."
            for k in d:
                if k in out and out[k] != d[k]:
                    return "settings.json: %s is not a value the device takes (%r)." % (k, d[k])
            return None
        if name == "roster.json":
            from firmware.files import roster
            roster.check_rows(parse(text))
            return None
        return _check_history(name, text)
    except MemoryError:
        return "%s is too big to check here." % name
    except (ValueError, KeyError, TypeError, IndexError, UnicodeError) as e:
        return "%s is not one the device reads (%s)." % (name, e)


def _check_game():
    from engine_mpy import saveload
    with open(CHECK + "/game.json", "rb") as f:
        try:
            game = saveload.load(f)
        except ValueError as e:
            return "game.json: %s." % e
    if game.torn:
        return "game.json: the line of hand %d is cut short." % game.torn
    game = None
    # a game the history holds already is never loaded to be finished (and counted) again
    from firmware.game import gamecheck
    from firmware.files.store import Store
    with open(CHECK + "/game.json", "rb") as f:
        return gamecheck.finished_already(Store("/data"), f.read())


def _check_history(name, text):
    import json
    from firmware.history import entries
    lines = text.split("\n")
    if not lines or lines[0] + "\n" != entries.HEAD:
        return "%s line 1 is not a history's header." % name
    for i in range(1, len(lines)):
        line = lines[i]
        if not line.strip():
            if i == len(lines) - 1:
                break
            return "%s line %d is empty." % (name, i + 1)
        if i == len(lines) - 1:
            return "%s line %d is cut short." % (name, i + 1)
        try:
            entries.check_entry(json.loads(line))
        except (ValueError, KeyError, TypeError) as e:
            return "%s line %d is damaged (%s)." % (name, i + 1, e)
    return None


def merge_histories(loaded):
    """The history the device would hold with the loaded history files (names, comma
    separated, in CHECK) merged into its own by each game's id (firmware/history/
    histmerge.py: a game and a game number held once): a JSON line, {"error": why} when
    nothing is to be loaded, else {"message", "write": the new history's names, written to
    CHECK/merged/, "remove": the device's history files no longer part of it}."""
    import json
    from firmware.history import histmerge
    from firmware.files.store import Store
    got = {}
    for n in [n for n in loaded.split(",") if n]:
        with open(CHECK + "/" + n, "rb") as f:
            got[n] = f.read()
    msg, files, remove = histmerge.merge(Store("/data"), got)
    got = None
    if files is None:
        if msg.startswith("Nothing loaded: "):
            msg = msg[len("Nothing loaded: "):]
        return json.dumps({"error": msg})
    for n in files:      # (the page made the folder, empty)
        with open(CHECK + "/merged/" + n, "wb") as f:
            f.write(files[n])
    return json.dumps({"message": msg, "write": list(files), "remove": remove})
