# The memory policy, the heap's rules in one module (every part of the device loads it at
# start, and on the .mpy install a module loaded costs about 7 ms of an RP2040's start):
# - whether this heap is small for the firmware (small_heap), decided once at start-up;
# - which modules may leave RAM, and when: the table (every module the device drops or
#   keeps by name, a group a purpose);
# - the app's Memory, which applies that table between keys: the closed screens' code kept
#   while the heap has room, the code loaded ahead, the loop's collections and the heap's
#   gaps filled after them, the free heap About shows, and what running short says on the
#   console. The screens' stack (firmware/stack.py) tells it when a screen's code is used
#   or no longer used; App.step gives it the polls without a key (Memory.work).
import gc
import sys

from engine_mpy.modules import forget


def small_heap():
    """Whether this heap is small for the firmware: under twice what it needs (make bench's
    min_heap_kb on the 64-bit unix port; a 32-bit board needs about 0.9 of that, as
    make bench measures on MicroPython's 32-bit WebAssembly port: an ESP32's 56-110 KB
    is small, a Pico's 200 KB is not). On a small heap the
    garbage is collected before a screen's code loads or a game is saved, so the code
    loads into one tidy stretch (collecting only when an allocation fails leaves the heap
    in pieces), and a closed screen's module is dropped at once. With room to spare the
    collection waits for the next poll without a key, after the new frame (here it would
    cost a few milliseconds between the key and the screen), and modules stay loaded
    (Memory.cached, firmware/memory/policy.py). Decided once, by the first call. The caller collects
    itself: a collection from deeper down the stack finds stale pointers there and keeps
    their garbage. Start-up asks first (firmware/main.py), and collects soon after."""
    if not _small:
        if getattr(gc, "mem_free", None) is None:
            _small.append(False)     # CPython: its own collector, memory to spare
        else:
            need2 = 2 * (112 * 1024 if sys.maxsize > 0xFFFFFFFF else 84 * 1024)
            # Asked at start-up, while the heap is in one piece: whether that much can
            # be had in one allocation is whether it is free. (gc.mem_free() walks the
            # whole heap: 10 ms of an RP2040's start-up. The allocation is garbage at
            # once, and start-up's next collection frees it.)
            try:
                bytearray(need2)
                _small.append(False)
            except MemoryError:
                _small.append(True)
    return _small[0]


_small = []


# --- the table ---------------------------------------------------------------------------
# Each name is a module's (tests/test_module_table.py holds every one to a module of this
# device: a module renamed cannot leave a stale name here). The app's Memory
# (firmware/memory/policy.py) applies most of it. RULES, START_ONLY and
# START_DRAWS are matched as the start of a name ("engine_mpy." every engine module).

# What a finish loads, in the order it does: loaded ahead once the game is over
# (Memory.prefetch), so that the finish loads nothing from the flash
FINISH = ("firmware.game.pending", "firmware.game.endgame", "engine_mpy.summary", "engine_mpy.lines",
          "firmware.files.roster", "firmware.files.storeread", "firmware.history.entries",
          "firmware.history.histfind", "firmware.history.histadd", "firmware.history.histroom",
          "firmware.game.journal")

# Helpers a screen pulled in (reading a file, the roster, the history, the random source;
# the engine's are loaded by a function when needed, never held by another module; the
# hand entry's rules: loaded with the hand screen, and leave with it): dropped by
# Memory.sweep, loaded again by the next screen that needs one
HELPERS = ("firmware.edges.rng", "firmware.files.storeread", "firmware.files.roster", "firmware.game.endgame",
           "firmware.history.entries", "firmware.history.histadd", "firmware.history.histmend",
           "firmware.history.history_v1", "firmware.history.histbrowse", "firmware.history.histfind",
           "firmware.files.settings_file", "firmware.game.hand_entry", "engine_mpy.lines", "engine_mpy.savefile",
           "engine_mpy.summary", "engine_mpy.twist_cards", "engine_mpy.ident")

# The history's writing code a finish ran: dropped once the finish is done or given up
# (firmware/game/journal.py)
HISTORY_WRITERS = ("firmware.history.histadd", "firmware.history.histmend", "firmware.history.histroom",
                   "firmware.history.histfind", "firmware.history.entries", "engine_mpy.ident")

# The code that reads a save: saves are read only at start (Session.load), then it leaves
# RAM until the next start
SAVE_READERS = ("firmware.game.gameload", "firmware.files.storeread", "engine_mpy.saveload",
                "engine_mpy.saveload_v1", "engine_mpy.savefile", "engine_mpy.lines")

# What start-up's reading of the files leaves loaded (firmware/main.py): a screen that
# reads loads it again
READ_AT_START = ("firmware.files.storeread", "engine_mpy.lines")

# A game's rules and the save's code: every engine module but ALWAYS's, and the game's
# file; dropped with the game so that the next game loads its own (Session's rules)
RULES = ("engine_mpy.", "firmware.game.gamefile")

# Never dropped with a group above: the dropping itself, and what every screen uses
ALWAYS = ("engine_mpy.modules", "firmware.screens.base")

# Code only start-up runs: the board detection, the board files and firmware/main.py
# (the Board object keeps its values), dropped once start-up has used them
START_ONLY = ("firmware.boards", "firmware.edges.board", "firmware.main")

# What start-up draws its out-of-memory page with (main.cannot_start): kept while the
# rest goes (the drawing's machine code, fastdraw_<arch>, included)
START_DRAWS = ("firmware.draw.display", "firmware.draw.gfx", "firmware.draw.gfx_py", "firmware.draw.fonts",
               "firmware.files.store", "firmware.draw.fastdraw_", "engine_mpy.modules")

# The screens' modules and Help's texts (a module a screen): kept or dropped by Memory
SCREENS = "firmware.screens."
HELP_TEXTS = "firmware.helptext."


# --- the heap's figures ------------------------------------------------------------------
_ON_MPY = hasattr(gc, "mem_free") and sys.implementation.name == "micropython"

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


def report_short(e, stack):
    """Running out of memory, said on the board's USB console (the player reads the note
    on the display): the screens open (stack, the bottom first), the error and its place
    when the code that caught it holds it (e; None from a key's own path, whose frame has
    no room for it), then the heap: free in all and its largest free piece ("max free
    sz", in 16-byte blocks), which tells a heap too small from one cut into small pieces.
    What a maker sends with a report; make bench-board reads it. (MicroPython only: the
    simulator has no board's console.)"""
    if not _ON_MPY:
        return
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


def free_heap():
    """(About) the free heap: the figure the loop read after its last collection, on the
    poll after the key before: a collection and a walk of the heap less (18 ms on an
    RP2040) between the key and the page. -1 where there is no heap to read (CPython)."""
    if _SEEN:
        return _SEEN[0]
    f = getattr(gc, "mem_free", None)
    if f is None:
        return -1
    gc.collect()
    return f()


class Memory:
    """The app's memory policy (App.memory, one), between the keys.

    On a heap with room (policy.small_heap), a screen's module that no screen on the stack
    uses any more stays loaded (cached, the oldest first), so going back to it does not
    load its code from flash again (about 12 ms on an RP2040); once half the heap is taken
    they are all dropped, at the next poll without a key. A small heap keeps none, and
    collects before a screen is built (room)."""

    def __init__(self, app):
        self.app = app         # (its session, for a finish's code; its random source, for sweep)
        self.small = small_heap()
        self.cached = []       # closed screens' modules kept loaded, the oldest first
        self.ahead_of = None   # the screen whose next screens' code is loaded (prefetch)
        # A screen came or went: its garbage is collected at the next poll without a key,
        # after the new frame is on the panel (a small heap collects before loading too,
        # see room). The GC also runs by itself whenever an allocation finds no room.
        self.tidy = False
        self.litter = False    # a key was handled since the last collection
        self.gaps = False      # the heap was collected and its gaps are not filled yet

    def room(self):
        """Make room before a screen is built: on a small heap, collect (here, not
        deeper: see policy.small_heap)."""
        if self.small:
            gc.collect()

    def used(self, name):
        """A screen is built from module name: no longer kept for a closed one."""
        if name in self.cached:
            self.cached.remove(name)

    def unused(self, name):
        """No live screen uses module name any more: it leaves RAM at once on a small
        heap, else it is kept (cached) until half the heap is taken."""
        if self.small:
            forget(SCREENS + name, True)
        elif name not in self.cached:
            self.cached.append(name)

    def evict(self):
        """Unload every kept screen module, and Help's texts loaded ahead."""
        for name in self.cached:
            forget(SCREENS + name, True)
        self.cached = []
        for m in list(sys.modules):
            if m.startswith(HELP_TEXTS):
                forget(m, True)

    def drop_screens(self):
        """Every screen's module leaves RAM, kept or not (but what every screen uses):
        running short of memory, with only the first screen left open."""
        self.evict()
        for m in list(sys.modules):
            if m.startswith(SCREENS) and m not in ALWAYS:
                forget(m, m[0] == "f")

    def sweep(self):
        """Helpers a screen pulled in (HELPERS: reading a file, the roster, the history,
        the random source) leave RAM: the next screen that needs one loads it again. Then
        collect (here, not deeper: see policy.small_heap)."""
        self.app.let_rng_go()
        for m in HELPERS:
            forget(m, m[0] == "f")
        gc.collect()

    def work(self, scr, buttons):
        """A poll without a key (scr the screen on top): collect, load code ahead or fill
        the heap's gaps, whichever is due. True when it did some work (the loop then polls
        again soon). (Its every piece here, not in a call of its own: a collection is made
        from no deeper than before, see policy.small_heap, and prefetch, whose frame is too
        big for the C stack, is called only when there is something to load: a heap
        allocation every poll otherwise.)"""
        if (self.tidy or self.litter) and not buttons.pending():
            if self.tidy:
                self.tidy = self.litter = False
                if self.small:
                    self.sweep()
                gc.collect()
                del _SEEN[:]
                if self.cached and _half_taken(True):
                    self.evict()
                    gc.collect()
                    del _SEEN[:]
            else:
                # Every key's garbage goes at the next poll without one: left to pile up
                # between collections, it lies between the start of the heap's free
                # search and the free space, and MicroPython's allocator walks all of it
                # for each allocation of more than one block (0.5 ms each on an RP2040
                # after a few dozen keys without a collection).
                self.litter = False
                gc.collect()
            self.gaps = True
            return True
        if not self.small and scr is not self.ahead_of and not scr.parked:
            self.prefetch(scr)
            return True
        if self.gaps:
            # once the code ahead is loaded (into a heap with its gaps still free)
            self.gaps = False
            fill_gaps()
            return True
        return False

    def prefetch(self, scr):
        """On a heap with room, code is loaded ahead while the table reads the screen on
        top, one module a poll without a key (a key waits for one at most), so that the
        next key loads nothing from the flash: a game that is over has the code a finish
        runs (FINISH: on an RP2040 the .mpy install spent 270 ms of a finish loading it),
        and the screens the one on top opens next (its ahead(), where it has one: their
        modules' names; 20 to 40 ms a screen) are kept with the closed screens (cached,
        dropped once half the heap is taken; nothing is loaded then), and the helpers it
        names (History's reader) stay as that screen's own loading leaves them. Short of
        memory for one, or one not on this device: nothing more ahead for this screen (the
        key that needs it loads it, or says so)."""
        s = self.app.session
        g = s.game if s is not None else None
        m = screen = None
        if g is not None and getattr(g, "over", g.state.over):
            for name in FINISH:
                if name not in sys.modules:
                    m = name
                    break
        if m is None:
            f = getattr(scr, "ahead", None)
            for name in (f() if f is not None else ()):
                # (a screen's name, or a helper's full name: the code that screen loads
                # as it opens)
                full = name if "." in name else SCREENS + name
                if full not in sys.modules:
                    screen = name
                    m = full
                    break
        if m is None:
            # Help's text for this screen, last (firmware/helptext/): on the .mpy install
            # its file's loading made Help over a Dice turn 28 ms slower (to 122 ms). A
            # screen whose text is another's (About) has none of its own: ImportError.
            m = HELP_TEXTS + scr.module
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
