# The app shell with hand-written fakes at the edges (display, buttons, store), so the
# screen stack, navigation, idle handling and "write flash only on a committed change" are
# checked on both runtimes without the display or button drivers.
# (on the micropython binary the module runs with the heap below: its fakes, the screens
# loaded ahead and the games of earlier tests share it; at 176K the last test's save found
# no room; at 208K, once History's reader grew by about 200 bytes (issue 42: the names it
# leaves alone), the screens loaded ahead after it found none: it passes from 212K)
# micropython heap: 224K
import sys

from firmware.app import App
from firmware.files.store import Store
from fakeflash import FakeFlash
from fakepins import BITS, FakeReader, press
from firmware.edges.buttons import Buttons
from firmware.files.settings_file import check_settings, DEFAULTS
from host_sim.vclock import VirtualClock
from firmware.edges.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, REPEAT


class FakeCanvas:
    def __init__(self):
        self.texts = []
        self.inverted = []

    def clear(self):
        self.texts = []
        self.inverted = []

    def text(self, s, x, y, c=1):
        self.texts.append((s, x, y))
        return x + 6 * len(s)

    def text_width(self, s):
        return 6 * len(s)

    def invert_rect(self, x, y, w, h):
        self.inverted.append((x, y, w, h))

    def fill_rect(self, x, y, w, h, c):
        pass

    def vline(self, x, y, h, c):
        pass

    def hline(self, x, y, w, c):
        pass

    def rect(self, x, y, w, h, c):
        pass

    def glyph(self, name, x, y):
        pass

    def words(self):
        return [t[0] for t in self.texts]

    def line(self, y):
        return " ".join([t[0] for t in self.texts if t[2] == y])


class FakeDisplay:
    def __init__(self):
        self.canvas = FakeCanvas()
        self.shows = 0
        self.dimmed = False
        self.on = True
        self.level = None

    def show(self):
        self.shows += 1

    def contrast(self, v):
        self.level = v

    def dim(self, d):
        self.dimmed = d

    def power(self, p):
        self.on = p


class FakeStore(Store):
    """The device's own store on a fake flash. files: the flash's files by name, as text;
    starved: every read runs short of memory (the file is kept as it is)."""

    def __init__(self, files=None, starved=False):
        self.flash = FakeFlash(dict(("/" + k, v.encode()) for k, v in (files or {}).items()))
        self.starved = starved
        Store.__init__(self, "/", self.flash, self.open_file)

    def open_file(self, p, mode="r"):
        if self.starved and "r" in mode:
            raise MemoryError()
        return self.flash.open(p, mode)

    @property
    def files(self):
        return dict((k[1:], v.decode()) for k, v in self.flash.files.items())


class FakeHeap:
    """The heap as the memory policy reads it (its gc: mem_free, mem_alloc, collect), with
    the figures a test sets: the policy's threshold (more than half the heap taken) meets
    the same figures on CPython, which has no such heap, as on MicroPython."""

    def __init__(self, size=100000, free=60000):
        self.size = size
        self.free = free
        self.collections = 0

    def mem_free(self):
        return self.free

    def mem_alloc(self):
        return self.size - self.free

    def collect(self):
        self.collections += 1


class NoHeap:
    """A runtime without a heap to read (CPython's gc: a collector, no figures)."""

    def collect(self):
        pass


def use_heap(heap):
    """The memory policy reads heap from now on (None: the runtime's own gc again), and
    finds its size afresh."""
    import gc
    from firmware.memory import policy
    policy.gc = gc if heap is None else heap
    del policy._HEAP[:]
    del policy._SEEN[:]


class Board:
    NAME = "Test board"


def make(files=None, start=0):
    d = FakeDisplay()
    r = FakeReader()
    store = FakeStore(files)
    app = App(d, r, Buttons(), VirtualClock(start), store, Board, mem_free=lambda: 12345)
    app.start()
    app.run_for(20)
    return app


def long_ok(app):
    press(app, "OK", 1000)


def test_menu_first_and_moves():
    app = make()
    c = app.canvas
    assert c.line(0) == "Phase 10"
    # Nothing to continue on a new device: no Continue line, the menu opens on New game.
    m = app.top()
    assert m.sel == 0 and m.label(0) == "New game" and "Continue" not in c.words()
    press(app, "DOWN")
    assert m.sel == 1 and m.label(1) == "Dice roller"
    # The selected row is the one inverted under the title line.
    assert (0, 8 * 2) == c.inverted[-1][:2] or (0, 8 * 2) in [i[:2] for i in c.inverted]


def test_menu_wraps_and_scrolls():
    app = make()
    m = app.top()
    # no game: 7 entries, 7 rows under the title: UP from the first goes to About
    press(app, "UP")
    assert m.sel == 6 and m.top == 0 and m.label(6) == "About"
    assert "About" in app.canvas.words()
    assert "Continue" not in app.canvas.words()
    press(app, "DOWN")
    assert m.sel == 0 and m.top == 0


def test_redraw_only_on_change():
    app = make()
    n = app.display.shows
    app.run_for(5000)
    assert app.display.shows == n
    press(app, "DOWN")
    assert app.display.shows == n + 1


def test_screens_load_and_unload():
    app = make()
    for _ in range(4):
        press(app, "DOWN")
    press(app, "OK")
    assert app.top().module == "settings"
    assert "firmware.screens.settings" in sys.modules
    long_ok(app)
    assert app.top().module == "menu"
    assert closed_module_gone_or_kept(app, "settings")
    # The menu keeps its place; LEFT goes back too; BACK on the first screen does nothing.
    assert app.top().sel == 4 and app.top().label(4) == "Settings"
    press(app, "UP")
    press(app, "OK")  # Players
    assert app.top().module == "players"
    press(app, "LEFT")
    assert app.top().module == "menu" and len(app.stack) == 1
    long_ok(app)
    assert len(app.stack) == 1


def closed_module_gone_or_kept(app, name):
    """A closed screen's module is unloaded, or kept loaded in app.memory.cached for the next
    visit (while the heap has room): one of the two, never left behind untracked."""
    return ("firmware.screens." + name not in sys.modules) != (name in app.memory.cached)


def test_closed_screens_stay_loaded_while_the_heap_has_room_and_go_when_it_fills():
    heap = FakeHeap(100000, 60000)
    use_heap(heap)
    try:
        app = make()
        app.memory.small = False       # a heap with room, whatever this test runs on
        app.memory.prefetch = lambda scr: None     # (nothing loaded ahead: the test after this one)
        open_settings(app)
        # the menu is parked under it: its object goes, its module is kept
        assert app.memory.cached == ["menu"]
        mod = sys.modules["firmware.screens.settings"]
        long_ok(app)
        # kept, and the next visit uses the loaded module (no load from flash)
        assert app.memory.cached == ["settings"] and sys.modules["firmware.screens.settings"] is mod
        press(app, "OK")  # the menu kept its place: Settings again
        assert app.top().module == "settings"
        assert app.memory.cached == ["menu"] and sys.modules["firmware.screens.settings"] is mod
        long_ok(app)
        press(app, "UP")
        press(app, "OK")  # Players
        assert app.top().module == "players"
        assert app.memory.cached == ["settings", "menu"]
        press(app, "LEFT")
        assert app.memory.cached == ["settings", "players"]
        # half the heap taken, to the byte: still kept
        heap.free = 50000
        press(app, "OK")
        assert app.top().module == "players" and app.memory.cached == ["settings", "menu"]
        press(app, "LEFT")
        assert app.memory.cached == ["settings", "players"]
        # more than half taken: the poll without a key after the next screen change drops
        # every kept module
        heap.free = 49999
        press(app, "OK")
        assert app.top().module == "players"
        assert app.memory.cached == [] and "firmware.screens.settings" not in sys.modules
        assert "firmware.screens.menu" not in sys.modules
        press(app, "LEFT")
        assert app.top().module == "menu" and app.top().sel == 3     # Players
    finally:
        use_heap(None)


def test_a_small_heap_drops_a_closed_screens_module_at_once():
    app = make()
    app.memory.small = True
    open_settings(app)
    assert app.memory.cached == [] and "firmware.screens.menu" not in sys.modules
    long_ok(app)
    assert app.memory.cached == [] and "firmware.screens.settings" not in sys.modules


def open_settings(app):
    for _ in range(4):
        press(app, "DOWN")
    press(app, "OK")
    assert app.top().module == "settings"
    return app.top()


def test_settings_browsing_writes_nothing():
    app = make()
    s = open_settings(app)
    for k in ("DOWN", "DOWN", "UP", "UP", "UP", "DOWN"):
        press(app, k)
    long_ok(app)
    assert app.store.writes == 0


def test_setting_written_once_when_changed_and_confirmed():
    app = make()
    s = open_settings(app)
    press(app, "DOWN")  # Dim after (10 min)
    press(app, "OK")  # change it
    assert s.editing
    press(app, "UP")  # 20 min
    assert app.store.writes == 0
    press(app, "OK")
    assert app.store.writes == 1
    assert app.settings["dim_s"] == 1200
    assert '"dim_s":1200' in app.store.files["settings.json"]
    # Confirming the value already saved writes nothing.
    press(app, "OK")
    press(app, "OK")
    assert app.store.writes == 1
    # Changing then backing out writes nothing and keeps the saved value.
    press(app, "OK")
    press(app, "UP")
    press(app, "LEFT")
    assert not s.editing
    assert app.store.writes == 1 and app.settings["dim_s"] == 1200


def test_contrast_previews_then_restores_on_cancel():
    app = make()
    s = open_settings(app)
    assert app.display.level == 128
    press(app, "OK")
    press(app, "UP")
    assert app.display.level == 160
    long_ok(app)
    assert app.display.level == 128 and app.store.writes == 0
    assert app.top() is s  # the long press ended the change, not the screen


def test_saved_settings_are_used_at_start():
    app = make({"settings.json": '{"contrast": 255, "off_s": 0, "dim_s": 15}'})
    assert app.settings["contrast"] == 255 and app.display.level == 255
    assert app.settings["three_button"] is False  # missing: default
    app.run_for(16000)
    assert app.display.dimmed


def test_check_settings_falls_back_per_value():
    s = check_settings({"contrast": 300, "dim_s": True, "entry": "points", "junk": 1})
    assert s["contrast"] == DEFAULTS["contrast"]
    assert s["dim_s"] == DEFAULTS["dim_s"]
    assert s["entry"] == "points"
    assert "junk" not in s
    assert check_settings([1, 2]) is None


def test_idle_dims_then_off_the_dimmed_wake_acts_the_dark_one_does_not():
    app = make()
    d = app.display
    # Default dim after 10 minutes of no key: a hand at the table takes less.
    app.run_for(599000)
    assert not d.dimmed
    app.run_for(1100)
    assert d.dimmed and d.on
    # A key while dimmed wakes the screen and acts: the selection moves.
    press(app, "DOWN")
    assert not d.dimmed and app.top().sel == 1
    press(app, "UP")
    assert app.top().sel == 0
    # OK, acting on its release, wakes and acts too.
    app.run_for(600 * 1000 + 100)
    assert d.dimmed
    press(app, "OK")
    assert not d.dimmed and app.top().module == "newgame"
    long_ok(app)
    assert app.top().module == "menu" and app.top().sel == 0
    # Default off after 30 minutes of no key: the press that lights the dark screen does
    # nothing else (the player could not see what it would do).
    app.run_for(1800 * 1000 + 100)
    assert not d.on
    press(app, "OK")
    assert d.on and not d.dimmed
    assert app.top().module == "menu" and app.top().sel == 0
    # A long press that lights it does not go back either.
    press(app, "OK")
    assert app.top().module == "newgame"
    app.run_for(1800 * 1000 + 100)
    assert not d.on
    long_ok(app)
    assert d.on and app.top().module == "newgame"


class _VTimer:
    """A machine.Timer on the app's virtual clock."""
    PERIODIC = 1

    def __init__(self, clock):
        self.clock = clock

    def init(self, mode, period, callback):
        self.clock.add_timer(period, callback, self)

    def deinit(self):
        self.clock.remove_timer(self)


def _count_steps(app):
    n = [0]
    step = app.step

    def counted():
        n[0] += 1
        step()
    app.step = counted
    return n


def test_an_idle_loop_rests_ten_times_longer_and_a_key_still_acts_at_once():
    # With the pins sampled on a timer, a poll that did nothing rests IDLE_MS (the loop's
    # frame is a heap allocation on MicroPython); the key the timer queues wakes it.
    app = make()
    assert app.sampler.start(_VTimer(app.clock))
    app.run_for(500)
    n = _count_steps(app)
    app.run_for(1000)
    assert n[0] <= 11
    sel = app.top().sel
    app.reader.bits = BITS["DOWN"]
    app.run_for(12)             # the next sample (5 ms) queues it; the rest ends on it
    assert app.top().sel == sel + 1
    app.reader.bits = 0
    # the idle dimming still comes on time
    app.run_for(600 * 1000 + 150)
    assert app.display.dimmed


def test_a_loop_that_samples_the_pins_itself_never_rests_longer_than_a_poll():
    app = make()
    app.run_for(500)
    n = _count_steps(app)
    app.run_for(1000)
    assert n[0] >= 1000 // app.POLL_MS - 1


def test_idle_across_tick_wrap():
    # The millisecond counter wraps at 2**30; idle time must still be measured right.
    app = make(start=(1 << 30) - 30000)
    app.run_for(599000)
    assert not app.display.dimmed
    app.run_for(1100)
    assert app.display.dimmed


def test_about_shows_version_board_and_memory():
    app = make()
    press(app, "UP")  # About is last (no game: UP from New game, the first line)
    press(app, "OK")
    assert app.top().module == "about"
    w = app.canvas.words()
    assert "0.1.0" in w
    assert "Test board" in w
    assert "12345 B" in w
    press(app, "OK")
    assert app.top().module == "menu"


def test_about_shows_the_free_heap_read_after_the_loops_last_collection():
    # With closed screens' code kept (a heap with room), the loop reads the free heap
    # after the collection it makes on the poll after a key; About shows that figure
    # instead of collecting again between its key and its page. Where there is none to
    # read, About collects and reads it then; where the runtime has no heap to read, "n/a".
    from firmware.memory import policy
    heap = FakeHeap(100000, 60000)
    use_heap(heap)

    def about():
        """OK on About's line: the collections made from the key to About's page."""
        n = heap.collections
        app.reader.bits = BITS["OK"]
        app.run_for(50)
        app.reader.bits = 0
        while app.top().module != "about":
            app.step()
        n = heap.collections - n
        app.run_for(250)
        return n

    try:
        app = App(FakeDisplay(), FakeReader(), Buttons(), VirtualClock(), FakeStore(), Board)
        app.start()
        app.memory.small = False
        app.run_for(20)
        press(app, "UP")   # About is last (no game: UP from New game, the first line)
        press(app, "OK")
        press(app, "OK")   # About opened and closed: the loop collects after
        assert app.top().module == "menu"
        assert app.memory.cached and policy._SEEN == [60000], (app.memory.cached, policy._SEEN)
        heap.free = 61234  # (what a collection now would find)
        assert about() == 0 and "60000 B" in app.canvas.words(), app.canvas.words()
        press(app, "OK")
        del policy._SEEN[:]     # none read (as on a small heap, whose loop reads none)
        heap.free = 62000
        assert about() == 1 and "62000 B" in app.canvas.words(), app.canvas.words()
        press(app, "OK")
        use_heap(NoHeap())
        about()
        assert "n/a" in app.canvas.words(), app.canvas.words()
    finally:
        use_heap(None)


def test_a_damaged_settings_file_is_said_once_over_the_menu():
    d = FakeDisplay()
    store = FakeStore({"settings.json": '{"contrast":'})
    app = App(d, FakeReader(), Buttons(), VirtualClock(), store, Board)
    assert app.settings == DEFAULTS
    app.say("game.json was damaged (hand 2: Bob holds 5 cards), kept as game.json.bad1; starting without it.")
    app.start()
    app.run_for(20)
    # every message found at start, one after another
    assert app.top().module == "note"
    text = " ".join(app.canvas.words())
    assert "damaged" in text and "settings.json.bad1" in text
    press(app, "OK")
    assert app.top().module == "note"
    text = " ".join(app.canvas.words())
    assert "game.json" in text and "hand 2" in text
    press(app, "OK")
    assert app.top().module == "menu" and len(app.stack) == 1


def test_settings_that_could_not_be_read_are_never_written_over():
    d = FakeDisplay()
    store = FakeStore({"settings.json": '{"contrast": 40}'}, starved=True)
    app = App(d, FakeReader(), Buttons(), VirtualClock(), store, Board)
    app.start()
    app.run_for(20)
    press(app, "OK")
    open_settings(app)
    press(app, "OK")
    press(app, "UP")
    press(app, "OK")
    # the change holds for now and the player is told it is not saved
    assert app.settings["contrast"] == 160 and store.writes == 0
    assert store.files == {"settings.json": '{"contrast": 40}'}
    assert "not saved" in " ".join(app.canvas.words())


def test_a_refused_save_is_said_and_the_setting_still_applies():
    app = make()
    app.store.write_atomic = lambda name, text: "Could not save settings.json (flash full)."
    open_settings(app)
    press(app, "OK")
    press(app, "UP")
    press(app, "OK")
    assert app.settings["contrast"] == 160 and app.display.level == 160
    assert app.top().module == "note"
    assert "(flash full)." in " ".join(app.canvas.words())
    press(app, "OK")
    assert app.top().module == "settings"


def test_note_wraps_at_spaces():
    from firmware.screens.base import wrap
    assert wrap("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_display_type_change_says_it_waits_for_a_restart():
    app = make()
    open_settings(app)
    for _ in range(5):
        press(app, "DOWN")  # SH1106, the last setting
    press(app, "OK")
    press(app, "UP")
    press(app, "OK")
    assert app.settings["sh1106"] is True and app.store.writes == 1
    assert app.top().module == "note"
    assert "next start" in " ".join(app.canvas.words())


def test_a_board_whose_panel_is_fixed_offers_no_display_type():
    # the browser's (firmware/boards/web.py PANEL): its panel is an SSD1306 whatever
    # settings.json says, so Settings has no SH1106 line and About names the board's panel
    from firmware.app import BoardName
    app = make({"settings.json": '{"sh1106":true}'})
    assert app.settings["sh1106"] is True
    s = open_settings(app)
    assert "SH1106" in [s.label(i) for i in range(s.count)]
    long_ok(app)
    app.board = BoardName("Web browser", None, "ssd1306")
    press(app, "OK")           # (the menu is on Settings still)
    s = app.top()
    assert s.module == "settings"
    labels = [s.label(i) for i in range(s.count)]
    assert "SH1106" not in labels and labels[:5] == ["Contrast", "Dim after", "Off after", "3 buttons", "Hands by"]
    long_ok(app)
    press(app, "DOWN")         # (from Settings) Rules, About
    press(app, "DOWN")
    press(app, "OK")
    assert app.top().module == "about"
    assert "SSD1306" in app.canvas.words() and "SH1106" not in app.canvas.words()


def test_opening_and_closing_a_screen_does_not_keep_memory():
    import gc
    app = make()
    open_settings(app)
    long_ok(app)
    if not hasattr(gc, "mem_alloc"):  # CPython: nothing left behind untracked
        assert closed_module_gone_or_kept(app, "settings")
        return
    gc.collect()
    base = gc.mem_alloc()
    for _ in range(5):
        press(app, "OK")
        assert app.top().module == "settings"
        long_ok(app)
    gc.collect()
    # Each visit imports the module again (several KB) or uses the one kept loaded; none
    # of it may stay behind.
    assert gc.mem_alloc() - base < 1024, gc.mem_alloc() - base


def _game_over_save():
    import json
    return json.dumps({"format": "phase10", "v": 1, "game": "classic",
                       "settings": {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1},
                       "records": [{"out": 0, "left": [None, [10, 0, 0, 0]]}]})


def _running_save():
    import json
    return json.dumps({"format": "phase10", "v": 1, "game": "classic",
                       "settings": {"players": ["Ann", "Bob"], "dealer": 0},
                       "records": [{"out": 0, "left": [None, [10, 0, 0, 0]]}]})


def _unload(names):
    for m in names:
        sys.modules.pop(m, None)


def _restore(before, names, saved):
    """What a test loaded goes (the game's rules...) and names with it; the modules saved
    (name: module, loaded before the test) are put back, in their packages too."""
    _unload([m for m in list(sys.modules) if m not in before or m in names])
    for m, mod in saved.items():
        sys.modules[m] = mod
        i = m.rfind(".")
        setattr(sys.modules[m[:i]], m[i + 1:], mod)


def test_a_game_that_is_over_has_the_finish_code_loaded_while_the_table_reads_its_end():
    # On a heap with room a finish loads nothing from the flash: the code it runs is
    # loaded ahead, one module a poll without a key, once the game is over; on a small
    # heap, or while the game runs, nothing is loaded ahead.
    from firmware.memory.policy import FINISH
    from firmware.game.session import Session
    code = FINISH
    saved = dict((m, sys.modules[m]) for m in code if m in sys.modules)
    before = list(sys.modules)
    try:
        for save, small, loaded in ((_game_over_save(), False, True), (_game_over_save(), True, False),
                                    (_running_save(), False, False)):
            app = make({"game.json": save})
            s = Session(app.store)
            s.load()
            app.session = s
            app.memory.small = small
            _unload(code)
            app.run_for(len(code) * 60)
            # (History's reader, which the menu loads ahead on a heap with room, takes
            # the history's own module and the lines' reader with it)
            mine = [m for m in code if m not in ("firmware.history.entries", "engine_mpy.lines")]
            assert [m for m in (code if loaded or small else mine) if (m in sys.modules) != loaded] == [], (small, loaded)
    finally:
        _restore(before, code, saved)


def test_a_game_ended_under_the_screen_on_top_has_the_finish_code_loaded_too():
    # The screen's own look-ahead done, a change committed on it ends the game (the last
    # hand, or a tie-break decided on the game-over screen): the finish's code is loaded
    # then, before the key that finishes.
    import json
    from firmware.memory.policy import FINISH
    from firmware.game.session import Session
    code = FINISH
    saved = dict((m, sys.modules[m]) for m in code if m in sys.modules)
    before = list(sys.modules)
    try:
        last = json.loads(_game_over_save())
        rec = last["records"].pop()
        app = make({"game.json": json.dumps(last)})
        s = Session(app.store)
        s.load()
        app.session = s
        app.memory.small = False
        _unload(code)
        app.run_for(300)
        assert app.memory.ahead_of is app.top() and not s.game.state.over
        # (but History's reader, which the menu loads ahead, and what it takes)
        reader = ("engine_mpy.lines", "firmware.history.entries")
        assert [m for m in code if m in sys.modules and m not in reader] == []
        assert s.apply("add", rec) is None
        app.run_for(len(code) * 60)
        assert s.game.state.over and not s.changed
        assert [m for m in code if m not in sys.modules] == []
    finally:
        _restore(before, code, saved)


def test_the_screens_a_screen_opens_next_have_their_code_loaded_while_the_table_reads_it():
    # On a heap with room the menu of a running game loads its home's code ahead, and
    # the home its hand's and score sheet's, one module a poll without a key, kept with
    # the closed screens (Memory.cached); opening one loads nothing. On a small heap, or
    # with half the heap taken, nothing is loaded ahead.
    from firmware.memory import policy
    from firmware.game.session import Session
    from engine_mpy.modules import forget
    mods = ["firmware.screens." + n for n in ("cards_home", "hand", "sheet", "newgame", "history", "about")]
    helpers = ["firmware.history.histbrowse", "firmware.history.entries"]
    mods += helpers
    saved = dict((m, sys.modules[m]) for m in mods if m in sys.modules)
    before = list(sys.modules)
    try:
        for small, full in ((False, False), (True, False), (False, True)):
            use_heap(FakeHeap(100000, 49999 if full else 50000))
            _unload(mods)
            app = make({"game.json": _running_save()})
            s = Session(app.store)
            s.load()
            assert s.game is not None      # (short of memory for it: the heap below)
            app.session = s
            app.memory.small = small
            app.run_for(200)
            ahead = not small and not full
            # the menu, now on Continue: its home's code
            assert app.top().module == "menu" and app.top().sel == 0
            assert ("firmware.screens.cards_home" in sys.modules) == ahead, (small, full)
            assert ("cards_home" in app.memory.cached) == ahead
            # then History, with the reader it opens with, and About; the reader is no
            # closed screen's code (History's own closing drops it)
            for m in mods[4:]:
                assert (m in sys.modules) == ahead, (m, small, full)
            assert ("history" in app.memory.cached) == ahead and "firmware.history.histbrowse" not in app.memory.cached
            press(app, "OK")
            assert app.top().module == "cards_home" and "cards_home" not in app.memory.cached
            app.run_for(200)
            # the home's: "End of hand" and "Score sheet"
            for m in mods[1:3]:
                assert (m in sys.modules) == ahead, (m, small, full)
            app = s = None      # (the next round's device gets the heap back)
            for m in mods:
                forget(m, True)
            import gc
            gc.collect()
    finally:
        use_heap(None)
        _restore(before, mods, saved)


def test_short_of_memory_while_loading_ahead_loads_nothing_more_for_that_screen():
    # a module that cannot be loaded ahead (no room, or not on this device) is left to the
    # key that opens it; the loop goes on, and the next screen loads ahead again
    from firmware.memory import policy
    from engine_mpy.modules import forget
    m = "firmware.screens.newgame"
    saved = sys.modules.get(m)
    use_heap(FakeHeap())      # (room, whatever this test runs on)
    try:
        forget(m, True)
        app = make()
        app.memory.small = False
        tries = []

        def starved(name, *a):
            if name == m:
                tries.append(name)
                raise MemoryError()
            return __import__(name, *a)
        policy.__import__ = starved
        forget(m, True)       # (as the device starts: loaded by nothing yet)
        app.memory.ahead_of = None
        app.run_for(200)
        assert tries == [m] and app.memory.ahead_of is app.top() and m not in sys.modules
        del policy.__import__
        press(app, "OK")      # New game, loaded by its key
        assert app.top().module == "newgame"
    finally:
        use_heap(None)
        if "__import__" in policy.__dict__:
            del policy.__import__
        if saved is not None:
            sys.modules[m] = saved


def test_the_hand_entrys_rules_leave_ram_with_the_hand_screen():
    # firmware/game/hand_entry.py is loaded with the hand screen; on a small heap it is
    # one of the helpers that leave RAM once the screen is gone (Memory.sweep), and running
    # short of memory drops it too
    from firmware.game.session import Session
    name = "firmware.game.hand_entry"
    # (from a clean start: a test before this one in the same process may have left the
    # hand screen's module loaded without its entry's, and a push would import neither)
    from engine_mpy.modules import forget
    forget("firmware.screens.hand", True)
    forget(name, True)
    app = make({"game.json": _running_save()})
    s = Session(app.store)
    s.load()
    app.session = s
    app.memory.small = True
    for short in (False, True):
        app.push("hand")
        assert name in sys.modules and app.top().module == "hand"
        if short:
            app.short_of_memory(None)
        else:
            app.pop()
            app.run_for(200)
        assert name not in sys.modules and "firmware.screens.hand" not in sys.modules, short
