# Start-up: find the board, bring up the display first (so its frame buffer is allocated
# while the heap is still in one piece), load the settings and the running game, draw the
# first frame (the menu), then the buttons, the filesystem's check and the notes, and hand
# over to the app loop.
# /main.py on the board is just:  from firmware import main; main.run()
import gc
import sys

from engine_mpy.modules import forget, keep_builtins


def build(board=None, clock=None, root="/", mem_free=None, seed=None, urandom=None, now=None, flash=None):
    """Wire the board's edges to a ready App showing its first screen. The simulator calls
    this with a virtual clock and a host folder as root; the board with nothing.
    urandom: n -> n random bytes, the source of a new game's id (64 bits); None: the
    port's os.urandom (a board's hardware source), or with a seed (the simulator) a
    source of its own seeded from it, so a script's games get the same ids on every run
    and both runtimes. A port with neither (MicroPython's WebAssembly port, when the page
    passes no source: it passes the browser's crypto) falls back, as a last resort said on
    the console, to one seeded as the dice's are (firmware/edges/rng.py).
    now: () -> the table's time, seconds since 1970-01-01 00:00 as its clock shows it, or
    None while unknown; None: the clock's own (clock.wall: a board's real-time clock,
    known once it was set, firmware/edges/clock.py).
    flash: (os module, open function) for the store where the flash is not the
    filesystem's own (the browser's: web/flash.py keeps every change in the browser's
    storage as it is made, and refuses what the browser refused, as a full flash does)."""
    keep_builtins()
    # whether the heap is small, judged while it is in one piece (one allocation of what
    # it takes to be big: collected here at once, or every allocation until the next
    # collection would step over it)
    from firmware.files.store import Store
    from firmware.memory.policy import small_heap
    small_heap()
    gc.collect()
    from firmware.edges import board as boards
    if board is None:
        board = boards.detect()
    from firmware.app import App
    store = Store(root, *flash) if flash else Store(root)
    from firmware.files import settings_file
    settings, message, unread = settings_file.load(store)
    settings_file = None
    forget("firmware.files.settings_file")
    # The network the table on phones may join, set from the PC (boards with Wi-Fi only)
    wifi_net = wifi_msg = None
    if getattr(board, "WIFI", None):
        from firmware.files import wifi_file
        wifi_net, wifi_msg, _ = wifi_file.load(store)
        wifi_file = None
        forget("firmware.files.wifi_file")
    i2c = boards.make_i2c(board)
    pins = boards.make_pins(board)
    timer = boards.make_timer(board)
    # The display first: its frame buffer (1 KB in one piece) while the heap is still
    # whole.
    gc.collect()
    from firmware.draw.display import Display
    # (a board that fixes its panel's controller, the browser's, offers no SH1106 setting)
    display = Display(i2c, controller=getattr(board, "PANEL", None) or ("sh1106" if settings["sh1106"] else "ssd1306"))
    _shown[:] = [display]
    boards = None
    _drop_startup_modules()
    # The running game (game.json) next, while the heap is still in few pieces: its rules
    # module and records are the biggest things that stay. On a heap with room it is read
    # after the first frame, which names its kind (Session.read_later): a key pressed
    # meanwhile waits for it (the pins keep it).
    from firmware.game.session import Session
    session = Session(store)
    if not session.read_later():
        _load(session)
    if clock is None:
        from firmware.edges.clock import Clock
        clock = Clock()
    if now is None:
        now = getattr(clock, "wall", None)
        if now is None:      # a clock of the caller's that knows no time (the page's)
            from firmware.edges.clock import wall as now
    app = App(display, None, None, clock, store, board, settings, mem_free)
    app.settings_unread = unread
    app.wifi_net = wifi_net
    app.session = session
    # The random source for dealers, Twist cards and dice (made on first use, app.rng):
    # seeded from the hardware on the board, from `seed` in the simulator.
    app.seed = seed
    # A new game's id and times (firmware/game/session.py start)
    if urandom is None:
        import os
        urandom = getattr(os, "urandom", None) if seed is None else None
        if urandom is None:
            if seed is None:
                print("No os.urandom on this port: game ids come from a source seeded as the dice's.")
            # (a method of its own, not a function of this module's: that would keep
            # start-up's code in RAM once start-up has let it go)
            from firmware.edges.rng import Rng
            urandom = Rng(None if seed is None else seed ^ 0x1D5EED).draw
    session.urandom = urandom
    session.now = now
    # The first frame, the menu, as soon as it can be drawn; what start-up does after it
    # (the buttons, the filesystem's check, the notes) no key could act on sooner: on the
    # emulated Pico's .mpy install the first frame came 34 ms sooner.
    app.push("menu")
    app.redraw()
    from firmware.edges.buttons import Buttons, PinReader
    reader = PinReader(pins)
    # Pin interrupts beside the timer: a tap made while a save writes the flash (no code
    # runs then) is latched by the chip and counted after, in its place.
    reader.catch_edges()
    app.use_buttons(reader, Buttons(three_button=settings["three_button"]))
    # The buttons sampled on a timer from now on: a press is caught however long a step
    # takes (the loop samples them itself where there is no timer to have).
    app.sampler.start(timer or _NoTimer)
    if session.later is not None:
        _load(session)
    # FAT loses every file to a power cut at the wrong moment: said at every start
    from firmware.files.fscheck import check
    fat = check(root)
    check = None
    # Everything found at start (a board.json that could not be honoured, damaged or
    # unreadable files): said one after another, over the menu.
    app.say(fat)
    app.say(getattr(board, "message", None))
    app.say(message)
    app.say(wifi_msg)
    for m in session.messages:
        app.say(m)
    app.tell()
    if sys.implementation.name == "micropython":
        # the board module leaves RAM with its object (MicroPython: CPython keeps both)
        from firmware.app import BoardName
        app.board = BoardName(getattr(board, "NAME", None), getattr(board, "WIFI", None),
                              getattr(board, "PANEL", None))
    return app


# The display, once start-up has made it: what says so when start-up runs out of memory
_shown = []


def cannot_start():
    """Start-up ran out of memory: this install does not fit this board's heap (the .mpy
    install, whose code is loaded into the heap, on an ESP32's first 56-64 KB). Everything
    start-up loaded is let go and the display says so, rather than leave a first frame up
    that no key moves. The files are as a power cut at that moment would leave them,
    which every save is made to survive."""
    if not _shown:
        return
    display = _shown.pop()
    from firmware.memory.policy import START_DRAWS
    for m in list(sys.modules):
        if m.startswith(("firmware.", "engine_mpy.")) and not m.startswith(START_DRAWS):
            forget(m)
    gc.collect()
    total = gc.mem_free() + gc.mem_alloc() if hasattr(gc, "mem_free") else 0
    from firmware.screens.base import wrap
    c = display.canvas
    c.clear()
    y = 0
    for line in wrap(OUT_OF_MEMORY % (total // 1024)):
        c.text(line, 0, y)
        y += 8
    display.show()


# (eight lines of 21 characters: the whole screen)
OUT_OF_MEMORY = ("Out of memory at start: %d KB of heap, and this install loads its code "
                 "into it. Flash the firmware image for this board: see hardware/README.md")


def _load(session):
    session.load()
    # files are read at start; a screen that reads loads the reader again
    from firmware.memory.policy import READ_AT_START
    for m in READ_AT_START:
        forget(m)


def table_on(app):
    """Start the table on phones when its setting is on (firmware/phones/control.py): the server's
    code is loaded only then."""
    if app.settings.get("table"):
        from firmware.phones import control
        control.switch(app)
        if app.server_fail:
            app.say(control.failure(app))
        control = None
        app.tell()


class _NoTimer:
    """No timer: Sampler.start refuses it and the loop samples the buttons."""
    PERIODIC = 1

    @staticmethod
    def init(**kw):
        raise OSError("no timer")


# Code that only start-up runs (heap.START_ONLY): the board detection and board files (the
# Board object keeps its values), and this file. On MicroPython, dropping them from
# sys.modules gives their RAM back to the game screens; CPython (the simulator, tests) keeps
# them.
def _drop_startup_modules():
    from firmware.memory.policy import START_ONLY
    for m in list(sys.modules):
        if m.startswith(START_ONLY):
            forget(m)
    gc.collect()


def run(board=None):
    app = None
    try:
        app = build(board)
        table_on(app)        # (the table on phones: its server's code, its network)
    except MemoryError:
        app = None
        cannot_start()
        raise
    app.run()
