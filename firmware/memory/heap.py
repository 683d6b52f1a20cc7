# The heap's rules that the saves, the drawing and the screens share: whether this heap is
# small for the firmware (small_heap), decided once at start-up; and which modules may
# leave RAM, and when (the table below: every module the device drops or keeps by name).
# (Here, in the module everything loads at start, rather than in one of its own: a module
# loaded costs about 7 ms of an RP2040's start on the .mpy install, and the saves' code
# that drops by it loads no more than it did.)
import gc
import sys


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
          "firmware.history.histadd", "firmware.history.histroom", "firmware.game.journal")

# Helpers a screen pulled in (reading a file, the roster, the history, the random source;
# the engine's are loaded by a function when needed, never held by another module; the
# hand entry's rules: loaded with the hand screen, and leave with it): dropped by
# Memory.sweep, loaded again by the next screen that needs one
HELPERS = ("firmware.edges.rng", "firmware.files.storeread", "firmware.files.roster", "firmware.game.endgame",
           "firmware.history.entries", "firmware.history.histadd", "firmware.history.histmend",
           "firmware.history.history_v1", "firmware.history.histbrowse", "firmware.files.settings_file",
           "firmware.game.hand_entry", "engine_mpy.lines", "engine_mpy.savefile", "engine_mpy.summary",
           "engine_mpy.twist_cards")

# The history's writing code a finish ran: dropped once the finish is done or given up
# (firmware/game/journal.py)
HISTORY_WRITERS = ("firmware.history.histadd", "firmware.history.histmend", "firmware.history.histroom",
                   "firmware.history.entries")

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
