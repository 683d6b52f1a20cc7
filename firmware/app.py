# The app shell: a stack of screens, the loop, idle handling and the saved settings.
# The buttons are sampled by a timer into a queue of key events (firmware/edges/buttons.py); the
# loop takes the next event as soon as it is free (waiting at most POLL_MS between looks),
# hands it to the top screen, redraws only when a screen says it changed, dims the display
# after a while and switches it off later. Screens live in firmware/screens/ and are
# imported when pushed and dropped when popped, so only the screens on the stack take RAM.
import gc
import sys

from engine_mpy.modules import forget
from firmware.memory.heap import small_heap

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_LEFT = const(3)
_BACK = const(6)
_HELP = const(7)
_KEY_MASK = const(0x7F)

VERSION = "0.1.0"

_POLL_MS = const(10)
# A poll that did nothing (no key, nothing drawn, loaded or saved) rests this long before
# the next: a key still wakes it within a millisecond (Clock.wait), and nothing a screen
# shows waits on a finer time than the dimming's seconds. So an idle device runs the loop
# ten times a second, not a hundred (App.step's frame is a heap allocation each time).
_IDLE_MS = const(100)
_BUSY_X = const(112)       # the busy mark's left edge (App.busy)
# Screens whose opening reads the flash or loads much code: the busy mark first
_SLOW = ("history", "help", "newgame", "rules")


_HEAP = []    # the heap's size, free + allocated (it never changes), found once


_SEEN = []    # the free heap right after the loop's last collection, when it was read


def fill_gaps():
    """Right after a collection, fill the heap's small gaps with garbage, so that the next
    key's allocations find room at once. MicroPython's allocator looks for room from the
    first free block it knows of (the start of the heap after a collection), and one that
    needs more than a block steps over every gap too small for it on the way: with the
    code, the fonts and the game held low in the heap, that was 0.1 ms an allocation on an
    RP2040, 2 ms or more a key. Only a one-block allocation moves that start (past the
    block it takes). So: one allocation of a kilobyte finds where the large free space
    begins, then one-block ones fill every gap below it, which moves the start there.
    (All garbage: the next collection frees it, and the allocator collects by itself
    before it would ever run short.)"""
    if not _ON_MPY:
        return
    n = 0
    try:
        room = id((n,) * 250)    # a tuple of 250 items: a kilobyte
    except MemoryError:          # no kilobyte in one piece: nothing to gain here
        return
    while n < 1000 and id((n, n)) < room:     # a 2-tuple: one block
        n += 1


_ON_MPY = hasattr(gc, "mem_free") and sys.implementation.name == "micropython"


def report_short(e, stack):
    """Running out of memory, said on the board's USB console (the player reads the note
    on the display): the screens open (stack, the bottom first), the error and its place
    when the code that caught it holds it (e; None from a key's own path, whose frame has
    no room for it), then the heap: free in all and its largest free piece ("max free
    sz", in 16-byte blocks), which tells a heap too small from one cut into small pieces.
    What a maker sends with a report; make bench-board reads it."""
    try:
        print("Short of memory, nothing lost (%s):" % ">".join([getattr(x, "module", "?") for x in stack]))
        if e is not None:
            sys.print_exception(e)
        __import__("micropython").mem_info()
    except MemoryError:
        pass


def _half_taken(collected=False):
    # One walk of the heap: each of gc.mem_free() and gc.mem_alloc() walks all of it (on
    # the emulated Pico the two took a quarter of the 200 ms after Help's frame).
    f = getattr(gc, "mem_free", None)
    if f is None:
        return False
    free = f()
    if collected:
        _SEEN.append(free)
    if not _HEAP:
        _HEAP.append(free + gc.mem_alloc())
    return 2 * free < _HEAP[0]


def _mem_free():
    # (About) the figure the loop read after its last collection, on the poll after the
    # key before: a collection and a walk of the heap less (18 ms on an RP2040) between
    # the key and the page
    if _SEEN:
        return _SEEN[0]
    f = getattr(gc, "mem_free", None)
    if f is None:
        return -1
    gc.collect()
    return f()


class BoardName:
    """What the app keeps of the board after start-up, its name (About): the Board object's
    class would keep the whole board module (detection, pin maps) in RAM."""

    def __init__(self, name, wifi=None):
        self.NAME = name
        self.WIFI = wifi


class App:
    POLL_MS = _POLL_MS
    VERSION = VERSION      # (About reads it off the app: a screen imports nothing above it)

    def __init__(self, display, reader, buttons, clock, store=None, board=None,
                 settings=None, mem_free=None):
        self.display = display
        self.canvas = display.canvas
        self.clock = clock
        self.reader = reader
        self.buttons = buttons
        self.sampler = None
        if buttons is not None:
            self.use_buttons(reader, buttons)
        self.handled = 0       # key events handed to screens
        self.made = 0          # screens built
        # The simulator's stand-in for time passing while the processor works (on a board
        # it passes by itself): called at the end of each step's work (host_sim/vclock.py, Cost).
        self.charge = None
        self.store = store
        self.board = board
        self.messages = []     # what the player must read, in order (tell() shows them)
        self.pending = None    # what a closed screen asked for (firmware/game/pending.py)
        self.session = None    # the running game (firmware.game.session), set by main.build
        self.settings_unread = False   # settings.json there but not read: never written
        if settings is None:
            from firmware.files.settings_file import load
            settings, msg, self.settings_unread = load(store)
            self.say(msg)
        self.settings = settings
        self.mem_free = mem_free or _mem_free
        self.stack = []
        # 0 awake, 1 dimmed, 2 display off
        self.asleep = 0
        self.last = clock.ticks_ms()
        self.redraws = 0
        # A screen came or went: its garbage is collected at the next poll without a key,
        # after the new frame is on the panel (a small heap collects before loading too,
        # see _room). The GC also runs by itself whenever an allocation finds no room.
        self.tidy = False
        self.litter = False      # a key was handled since the last collection
        self.gaps = False        # the heap was collected and its gaps are not filled yet
        self.small = small_heap()
        self.cached = []
        self.ahead_of = None     # the screen whose next screens' code is loaded (_prefetch)
        # The random source (firmware/edges/rng.py) is made when a screen first asks for it
        # (app.rng) and, on a small heap, leaves RAM with the other helpers, keeping its
        # state: a game that never draws (Phase 10 after its first dealer) does not hold it.
        self.seed = None       # the seed (None: the hardware's), then the kept state
        self._rng = None
        # The table on phones (firmware/phones/control.py): its server while the setting is on, and
        # the commits it shows (one more each time a change is saved).
        self.table = None
        self.commits = 0
        display.contrast(settings["contrast"])

    def use_buttons(self, reader, buttons):
        """The pins (reader) and the buttons they feed. At start-up they come after the
        first frame (firmware/main.py): nothing reads a key before the loop runs."""
        self.reader = reader
        self.buttons = buttons
        from firmware.edges.buttons import Sampler
        # sampling the pins: on a timer once main starts one (Sampler.start), else here
        self.sampler = Sampler(reader, buttons, self.clock)
        # (bound once: a bound method made at every poll is garbage every 10 ms, and an
        # idle device would spend its rest collecting it). What the rest asks, "is a key
        # waiting?": the simulator adds the PC's own keys to it (host_sim.live_view.Live).
        self.key_waiting = buttons.pending
        self._wait = self.clock.wait

    @property
    def rng(self):
        r = self._rng
        if r is None:
            from firmware.edges.rng import Rng
            r = self._rng = Rng(self.seed)
        return r

    # --- screens ---------------------------------------------------------------------------
    # A screen below the top that can come back from a few values (its park() says which)
    # is parked: its object and, when no other screen uses it, its module are dropped, and
    # it is rebuilt (make(), then resume()) when it is on top again. Only the screens the
    # player is using take RAM: the menu and a game's home under a hand entry take none.
    # On a heap with room (heap.small_heap), a screen's module that no screen on the stack
    # uses any more stays loaded (App.cached, the oldest first), so going back to it does
    # not load its code from flash again (about 12 ms on an RP2040); once half the heap is
    # taken they are all dropped, at the next poll without a key. A small heap keeps none.
    def _room(self):
        """Make room before a screen is built: on a small heap, collect (here, not
        deeper: see heap.small_heap)."""
        if self.small:
            gc.collect()

    def _evict(self):
        """Unload every kept screen module, and Help's texts loaded ahead."""
        for name in self.cached:
            forget("firmware.screens." + name, True)
        self.cached = []
        for m in list(sys.modules):
            if m.startswith("firmware.helptext."):
                forget(m, True)

    def top(self):
        scr = self.stack[-1]
        if scr.parked:
            self._room()
            p = scr
            scr = self._make(p.module, p.arg)
            scr.resume(p.state)
            self.stack[-1] = scr
        return scr

    def _make(self, name, arg):
        if name in self.cached:
            self.cached.remove(name)
        mod = __import__("firmware.screens." + name, None, None, ("make",))
        scr = mod.make(self, arg)
        self.made += 1
        scr.module = name
        scr.arg = arg
        scr.dirty = True
        return scr

    def push(self, name, arg=None):
        """Open screen module firmware/screens/<name>.py; its make(app, arg) builds it."""
        if self.stack:
            below = self.stack[-1]
            state = None if below.parked else below.park()
            if state is not None:
                self.stack[-1] = _Parked(below.module, below.arg, state)
                self._drop(below.module)
            below = None
        self.tidy = True
        self._room()
        # (History's own page for one game, arg a game, reads nothing more)
        if name in _SLOW and (type(arg) is not dict if name == "history" else "firmware.screens." + name not in sys.modules):
            self.busy()
        scr = self._make(name, arg)
        self.stack.append(scr)
        return scr

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
        self.tidy = True
        self.ahead_of = None       # (its game may have ended meanwhile: the finish's code)
        self._room()
        return True

    def _drop(self, name):
        # Unload a screen's module (or keep it, see above) unless a live screen on the
        # stack still uses it.
        for s in self.stack:
            if s.module == name and not s.parked:
                return
        if self.small:
            forget("firmware.screens." + name, True)
        elif name not in self.cached:
            self.cached.append(name)

    def sweep(self):
        """Helpers a screen pulled in (reading a file, the roster, the history, the random
        source) leave RAM: the next screen that needs one loads it again. Then collect
        (here, not deeper: see heap.small_heap)."""
        r = self._rng
        if r is not None:
            self.seed = r.state      # the sequence goes on where it was
            self._rng = r = None
        for m in _HELPERS:
            forget(m, m[0] == "f")
        gc.collect()

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
        s = self.session
        g = s.game if s is not None else None
        if g is None:
            return self.push("note", "No game is running. Start one with New game.")
        from firmware.screens.base import HOME     # (loaded with the first screen)
        return self.open(HOME[g.KIND])

    def busy(self):
        """A long moment starts (a finish, a game started, History, a screen's code loaded
        from the flash): a mark in the top right corner at once, so the table sees the
        device is working. A few bytes on the bus (under a millisecond); the next frame,
        the result, replaces it."""
        if self.asleep == 2:
            return
        c = self.canvas
        c.fill_rect(_BUSY_X, 0, 128 - _BUSY_X, 10, 1)      # a light frame around...
        c.fill_rect(_BUSY_X + 1, 1, 126 - _BUSY_X, 8, 0)   # ...a dark box with three dots
        for x in (_BUSY_X + 3, _BUSY_X + 7, _BUSY_X + 11):
            c.fill_rect(x, 4, 2, 2, 1)
        self.display.show()

    def _run_pending(self):
        # Only the menu is left: parked (and its module dropped) while the pending work
        # loads a game's rules (firmware/game/pending.py).
        p = self.pending
        self.pending = None
        self.busy()
        m = self.stack[-1]
        if self.small:
            if not m.parked and len(self.stack) == 1:
                state = m.park()
                if state is not None:
                    self.stack[-1] = _Parked(m.module, m.arg, state)
                    self._drop(m.module)
            m = None
            # the helpers the screens that left pulled in (the roster, a reader) go too
            self.sweep()
        from firmware.game import pending
        pending.run(self, p)
        pending = None
        forget("firmware.game.pending", True)

    def apply_setting(self, key):
        """A setting just changed (firmware/files/settings_file.save): the part of the device
        it is about follows it at once. (dim_s / off_s are read live by the loop.)"""
        if key == "contrast":
            self.display.contrast(self.settings["contrast"])
        elif key == "three_button":
            # at once, on the buttons the timer samples into (the OK that chose it is let go)
            self.buttons.use_three(self.settings["three_button"])
        elif key == "sh1106":
            # The display driver is set up once, at start-up.
            self.say("The display type takes effect at the next start.")
        elif key == "table":
            # the access point and the page's server start or stop at once
            from firmware.phones import control
            control.switch(self)

    def start(self, name="menu"):
        self.push(name)
        self.tell()

    def say(self, msg):
        """Keep msg (None: nothing) to be shown on a note by tell(), after any before it."""
        if msg:
            self.messages.append(msg)

    def tell(self):
        """Show the messages kept by say() on notes over the current screen, the first on
        top: each OK shows the next."""
        msgs = self.messages
        self.messages = []
        for i in range(len(msgs) - 1, -1, -1):
            self.push("note", msgs[i])

    # --- the loop ------------------------------------------------------------------------
    def wake(self):
        if self.asleep == 2:
            self.display.power(True)
        if self.asleep:
            self.display.dim(False)
        self.asleep = 0

    def _idle(self, now):
        idle = self.clock.ticks_diff(now, self.last)
        s = self.settings
        off = s["off_s"] * 1000
        if self.asleep < 2 and off and idle >= off:
            self.display.power(False)
            self.asleep = 2
        elif self.asleep < 1 and s["dim_s"] and idle >= s["dim_s"] * 1000:
            self.display.dim(True)
            self.asleep = 1

    def handle(self, key):
        self.handled += 1
        self.litter = True
        if key & _KEY_MASK == _HELP:
            if self.top().module != "help":
                self.open("help", self.top().module)
            return
        scr = self.top()
        if not scr.key(key):
            k = key & _KEY_MASK
            if k == _BACK or k == _LEFT:
                self.pop()

    def step(self):
        """Take the next key event (if any) to the top screen, idle, redraw, save what a
        key committed, then wait for the next event (at most POLL_MS, or IDLE_MS after a
        poll that did nothing). (In pieces, each with a frame small enough for the C
        stack: MicroPython takes a bigger one from the heap at every call, and this runs
        every poll.)"""
        now = self.clock.ticks_ms()
        key = self._input(now)
        # (where the loop samples the pins itself, it never rests longer than a poll)
        rest = _POLL_MS if key or self.sampler.timer is None else _IDLE_MS
        if key:
            self._key(key)
        elif self._idle_work(now):
            rest = _POLL_MS
        if self._show(now):
            rest = _POLL_MS
        s = self.session
        if s is not None and (s.finishing is not None or s.changed or s.notes):
            rest = _POLL_MS
            self._commit(s)
        s = None
        if self.charge is not None:
            self.charge()
        if self.buttons.pending():
            return                 # the next key is waiting: no rest
        self._rest(now, rest)

    def _input(self, now):
        # The next key event, 0 for none (or for the press that only wakes a dark screen)
        b = self.buttons
        self.sampler.poll()        # (only where no timer samples the pins)
        key = b.get()
        if key or b.state:
            self.last = now
            if self.asleep:
                # A dimmed screen can still be read, so the press that wakes it acts too;
                # a dark one cannot, so its waking press does only that.
                dark = self.asleep == 2
                self.wake()
                if dark:
                    b.cancel()
                    key = 0
        return key

    def _key(self, key):
        try:
            self.handle(key)
            if self.pending is not None:
                self._run_pending()
        except MemoryError:
            # (no `as e` here: its cleanup would take this frame, on every key's path,
            # over the C stack's limit: a heap allocation per key; tests/test_frames.py)
            self.short_of_memory(None)

    def _idle_work(self, now):
        # A poll without a key: dim or switch off, collect, or load code ahead. True when
        # it did some work (the loop then polls again soon).
        self._idle(now)
        if (self.tidy or self.litter) and not self.buttons.pending():
            self._collect()
            return True
        if not self.small:
            scr = self.stack[-1]
            # (checked here: a call to _prefetch, whose frame is too big for the C
            # stack, would be a heap allocation every poll)
            if scr is not self.ahead_of and not scr.parked:
                self._prefetch(scr)
                return True
        if self.gaps:
            # once the code ahead is loaded (into a heap with its gaps still free)
            self.gaps = False
            fill_gaps()
            return True
        return False

    def _collect(self):
        if self.tidy:
            self.tidy = self.litter = False
            if self.small:
                self.sweep()
            gc.collect()
            del _SEEN[:]
            if self.cached and _half_taken(True):
                self._evict()
                gc.collect()
                del _SEEN[:]
            self.gaps = True
        else:
            # Every key's garbage goes at the next poll without one: left to pile up
            # between collections, it lies between the start of the heap's free
            # search and the free space, and MicroPython's allocator walks all of it
            # for each allocation of more than one block (0.5 ms each on an RP2040
            # after a few dozen keys without a collection).
            self.litter = False
            gc.collect()
            self.gaps = True

    def _show(self, now):
        # The top screen's tick, and its frame when it changed: True when one was drawn
        try:
            return self._tick(now)
        except MemoryError:
            self.short_of_memory(None)
            self.redraw()
        return False

    def _tick(self, now):
        # (a screen's tick() returns True when it did some work ahead: the loop polls
        # again soon rather than resting)
        scr = self.top()
        worked = scr.tick(now)
        if scr.dirty and self.asleep < 2:
            self.redraw()
            return True
        return bool(worked)

    def _commit(self, s):
        if s.finishing is not None:
            # a finish committed (its journal saved) and its result on the panel: now the
            # roster and the history (keys pressed meanwhile wait: the pins keep them)
            try:
                self.say(s.apply_journal())
            except MemoryError as e:     # the journal stays: reading the game again completes it
                s.finishing = None
                self.short_of_memory(e)
            if self.messages:
                self.tell()
        if s.changed or s.notes:
            # the change this key made, on the panel now, goes to the flash (Session.apply)
            msg = None
            if s.changed:
                msg = s.flush()
                self.commits += 1      # the table on phones shows the game anew
                # what comes next may have changed with the game (a tie-break decided
                # on the same screen ends it: the finish's code to load)
                self.ahead_of = None
            for m in s.notes:      # room made on a full flash for a save: said first
                self.say(m)
            s.notes = []
            self.say(msg)
            if self.messages:
                self.tell()

    def _rest(self, now, rest):
        clk = self.clock
        spent = clk.ticks_diff(clk.ticks_ms(), now)
        # the rest goes to the table on phones' server when it runs (firmware/phones/server.py)
        w = self._wait if self.table is None else self.table.wait
        w(rest - spent if spent < rest else 1, self.key_waiting)

    def _prefetch(self, scr):
        """On a heap with room, code is loaded ahead while the table reads the screen on
        top, one module a poll without a key (a key waits for one at most), so that the
        next key loads nothing from the flash: a game that is over has the code a finish
        runs (on an RP2040 the .mpy install spent 270 ms of a finish loading it), and the
        screens the one on top opens next (its ahead(), where it has one: their modules'
        names; 20 to 40 ms a screen) are kept with the closed screens (App.cached, dropped
        once half the heap is taken; nothing is loaded then), and the helpers it names
        (History's reader) stay as that screen's own loading leaves them. Short of memory
        for one, or one not on this device: nothing more ahead for this screen (the key
        that needs it loads it, or says so)."""
        s = self.session
        g = s.game if s is not None else None
        m = screen = None
        if g is not None and getattr(g, "over", g.state.over):
            for name in FINISH_CODE:
                if name not in sys.modules:
                    m = name
                    break
        if m is None:
            f = getattr(scr, "ahead", None)
            for name in (f() if f is not None else ()):
                # (a screen's name, or a helper's full name: the code that screen loads
                # as it opens)
                full = name if "." in name else "firmware.screens." + name
                if full not in sys.modules:
                    screen = name
                    m = full
                    break
        if m is None:
            # Help's text for this screen, last (firmware/helptext/): on the .mpy install
            # its file's loading made Help over a Dice turn 28 ms slower (to 122 ms). A
            # screen whose text is another's (About) has none of its own: ImportError.
            m = "firmware.helptext." + scr.module
            if m in sys.modules:
                m = None
        if m is None or (screen is not None and _half_taken()):
            self.ahead_of = scr      # all loaded (or no room): nothing more for this screen
            return
        try:
            __import__(m)
        except (MemoryError, ImportError):
            forget(m, True)
            self.ahead_of = scr
            return
        if screen is not None and "." not in screen and screen not in self.cached:
            self.cached.append(screen)

    def short_of_memory(self, e):
        """A key's work ran out of memory (e: the error, or None). Nothing half done is
        kept: a save commits only once its work is complete (and a finish through its
        journal), so the screens are closed down to the menu, every module they loaded
        leaves RAM and the game is read again from the flash (completing a finish its
        journal holds), then a note says what happened. The device never stops over it.
        Where it ran short goes to the board's USB console (report_short)."""
        if _ON_MPY:
            report_short(e, self.stack)
        self.pending = None
        while len(self.stack) > 1:
            scr = self.stack.pop()
            scr = None
        self.messages = []
        self._evict()
        for m in list(sys.modules):
            if m.startswith("firmware.screens.") and m != "firmware.screens.base":
                forget(m, m[0] == "f")
        self.sweep()
        s = self.session
        if s is not None and s.store is not None:
            try:
                s.drop_game()
                s.changed = False
                s.load()
            except MemoryError:
                s.game = None
        gc.collect()
        self.say("Not enough memory for that: nothing was lost (the game is as last saved). "
                 "If it happens again, restart the device.")
        if s is not None:
            for m in s.messages:
                self.say(m)
        self.tell()

    def redraw(self):
        scr = self.top()
        scr.dirty = False
        self.canvas.clear()
        scr.draw(self.canvas)
        self.display.show()
        self.redraws += 1

    def run_for(self, ms):
        """Run the loop for ms of the clock's time (the simulator's way in)."""
        clk = self.clock
        t0 = clk.ticks_ms()
        while clk.ticks_diff(clk.ticks_ms(), t0) < ms:
            self.step()

    def run(self):
        while True:
            self.step()


class _Parked:
    """A parked screen's place on the stack: what rebuilds it."""
    parked = True

    def __init__(self, module, arg, state):
        self.module = module
        self.arg = arg
        self.state = state


# What a finish loads (App._prefetch), in the order it does
FINISH_CODE = ("firmware.game.pending", "firmware.game.endgame", "engine_mpy.summary", "engine_mpy.lines",
                "firmware.files.roster", "firmware.files.storeread", "firmware.history.entries", "firmware.history.histadd",
                "firmware.history.histroom", "firmware.game.journal")

# (the engine's: loaded by a function when needed, never held by another module; the hand
# entry's rules: loaded with the hand screen, and leave with it)
_HELPERS = ("firmware.edges.rng", "firmware.files.storeread", "firmware.files.roster", "firmware.game.endgame", "firmware.history.entries",
            "firmware.history.histadd", "firmware.history.histmend", "firmware.history.history_v1", "firmware.history.histbrowse", "firmware.files.settings_file",
            "firmware.game.hand_entry", "engine_mpy.lines",
            "engine_mpy.savefile", "engine_mpy.summary", "engine_mpy.twist_cards")
