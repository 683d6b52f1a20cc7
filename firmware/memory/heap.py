# The heap's one rule that the saves, the drawing and the screens share: whether this heap
# is small for the firmware (small_heap), decided once at start-up.
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
