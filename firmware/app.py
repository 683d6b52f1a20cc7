# The app shell: the loop, idle handling, the notes and the saved settings, tying together
# the screens open (firmware/stack.py, App.screens) and the memory policy
# (firmware/memory/policy.py, App.memory).
# The buttons are sampled by a timer into a queue of key events (firmware/edges/buttons.py); the
# loop takes the next event as soon as it is free (waiting at most POLL_MS between looks),
# hands it to the top screen, redraws only when a screen says it changed, dims the display
# after a while and switches it off later. Screens live in firmware/screens/ and are
# imported when pushed and dropped when popped, so only the screens on the stack take RAM.
import gc

from engine_mpy.modules import forget
from firmware.memory.policy import Memory, free_heap, report_short
from firmware.stack import Screens

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
# A poll that did nothing (no key, nothing drawn, loaded or saved) pauses this long before
# the next: a key still wakes it within a millisecond (Clock.wait), and nothing a screen
# shows waits on a finer time than the dimming's seconds. So an idle device runs the loop
# ten times a second, not a hundred (App.step's frame is a heap allocation each time).
_IDLE_MS = const(100)
_BUSY_X = const(112)       # the busy mark's left edge (App.busy)


class BoardName:
    """What the app keeps of the board after start-up, its name (About): the Board object's
    class would keep the whole board module (detection, pin maps) in RAM."""

    def __init__(self, name, wifi=None, panel=None):
        self.NAME = name
        self.WIFI = wifi
        self.PANEL = panel      # the panel's controller where the board fixes it (Settings)


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
        # the free heap About shows (the simulator's own figure, or the board's)
        self.mem_free = mem_free or free_heap
        # The memory policy (the closed screens' code kept, the code loaded ahead, the
        # collections) and the screens open, which tells it what they use
        self.memory = Memory(self)
        self.screens = s = Screens(self, self.memory)
        self.stack = s.stack    # (the same list: the screens open, the bottom first)
        # What the screens call to move between screens (app.push, app.pop, app.top,
        # app.open, app.open_home): the stack's own methods, bound once here, so that no
        # frame of the app's stands between a screen and the stack: the collection a small
        # heap makes before a screen is built (Memory.room) runs no deeper than before
        # (policy.small_heap: a deeper one keeps more garbage).
        self.push = s.push
        self.pop = s.pop
        self.top = s.top
        self.open = s.open
        self.open_home = s.open_home
        s = None
        # 0 awake, 1 dimmed, 2 display off
        self.asleep = 0
        self.last = clock.ticks_ms()
        self.redraws = 0       # frames drawn
        # The random source (firmware/edges/rng.py) is made when a screen first asks for it
        # (app.rng) and, on a small heap, leaves RAM with the other helpers, keeping its
        # state: a game that never draws (Phase 10 after its first dealer) does not hold it.
        self.seed = None       # the seed (None: the hardware's), then the kept state
        self._rng = None
        # The table on phones (firmware/phones/control.py switches it): the page's server
        # while the setting is on (firmware/phones/server.py), and the commits the page shows
        # (one more each time a change is saved).
        self.server = None
        self.server_mode = None   # how it runs: True the device's own network, "join" another
        self.server_url = None    # the page's address, once known (the Phones screen shows it)
        self.server_fail = None   # why the last join failed ("timeout"...: control.reason)
        self.server_host = "0.0.0.0"   # where it listens: every interface on a board...
        self.server_port = 80          # ...port 80 (the simulator and the tests set their own)
        # the network to join, set from the PC (wifi.json: {"ssid", "pw"}), set by main.build
        # on a board with Wi-Fi that has one
        self.wifi_net = None
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
        # idle device would spend its pauses collecting it). What the pause asks, "is a key
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

    def let_rng_go(self):
        """The random source leaves RAM (with the other helpers, Memory.sweep), its state
        kept: the next one made goes on with the sequence where it was."""
        r = self._rng
        if r is not None:
            self.seed = r.state
            self._rng = None

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
        if self.memory.small:
            if len(self.stack) == 1:
                self.screens.park_top()
            # the helpers the screens that left pulled in (the roster, a reader) go too
            self.memory.sweep()
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
        self.memory.litter = True
        screens = self.screens
        if key & _KEY_MASK == _HELP:
            if screens.top().module != "help":
                screens.open("help", screens.top().module)
            return
        scr = screens.top()
        if not scr.key(key):
            k = key & _KEY_MASK
            if k == _BACK or k == _LEFT:
                screens.pop()
        # a screen the key asked for once it is done (Screens.after): the screen that asked
        # is no longer held here when its successor's code loads
        scr = None
        if screens.after is not None:
            screens.push(screens.after)

    def step(self):
        """Take the next key event (if any) to the top screen, idle, redraw, save what a
        key committed, then wait for the next event (a pause of at most POLL_MS, or
        IDLE_MS after a poll that did nothing). (In pieces, each with a frame small enough
        for the C stack: MicroPython takes a bigger one from the heap at every call, and
        this runs every poll.)"""
        now = self.clock.ticks_ms()
        key = self._input(now)
        # (where the loop samples the pins itself, it never pauses longer than a poll)
        pause_ms = _POLL_MS if key or self.sampler.timer is None else _IDLE_MS
        if key:
            self._key(key)
        elif self._idle_work(now):
            pause_ms = _POLL_MS
        if self._show(now):
            pause_ms = _POLL_MS
        s = self.session
        if s is not None and (s.finishing is not None or s.changed or s.notes):
            pause_ms = _POLL_MS
            self._commit(s)
        s = None
        if self.charge is not None:
            self.charge()
        if self.buttons.pending():
            return                 # the next key is waiting: no pause
        self._pause(now, pause_ms)

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
        # A poll without a key: dim or switch off, then the memory's work (collect, load
        # code ahead, fill the heap's gaps: Memory.work). True when it did some work (the
        # loop then polls again soon).
        self._idle(now)
        return self.memory.work(self.stack[-1], self.buttons)

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
        # again soon rather than pausing)
        scr = self.screens.top()
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
                self.memory.ahead_of = None
            for m in s.notes:      # room made on a full flash for a save: said first
                self.say(m)
            s.notes = []
            self.say(msg)
            if self.messages:
                self.tell()

    def _pause(self, now, pause_ms):
        clk = self.clock
        spent = clk.ticks_diff(clk.ticks_ms(), now)
        # the pause goes to the table on phones' server when it runs (firmware/phones/server.py)
        w = self._wait if self.server is None else self.server.wait
        w(pause_ms - spent if spent < pause_ms else 1, self.key_waiting)

    def short_of_memory(self, e):
        """A key's work ran out of memory (e: the error, or None). Nothing half done is
        kept: a save commits only once its work is complete (and a finish through its
        journal), so the screens are closed down to the menu, every module they loaded
        leaves RAM and the game is read again from the flash (completing a finish its
        journal holds), then a note says what happened. The device never stops over it.
        Where it ran short goes to the board's USB console (report_short)."""
        report_short(e, self.stack)
        self.pending = None
        while len(self.stack) > 1:
            scr = self.stack.pop()
            scr = None
        self.messages = []
        self.memory.drop_screens()
        self.memory.sweep()
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
        scr = self.screens.top()
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
