# The twin: the firmware app as compiled .mpy on the real micropython binary with a capped
# heap, the fake machine standing in for the board. Run by tests/test_twin.py as
#   MICROPYPATH=<build dir>:<build dir>/lib:host_sim/twin \
#     micropython -X heapsize=... host_sim/twin_run.py --keys "..." --state DIR
# and prints the panel exactly as `python -m host_sim --headless` does, so the two can be
# compared byte for byte.
import gc
import sys

try:
    from host_sim import script
except ImportError:      # micropython puts this folder, not the project root, on the path
    import script

def _ticks():
    import time
    return time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)


_VALUES = ("--keys", "--state", "--board", "--mem-free", "--bounce", "--panel")


def main(argv):
    o = {"--keys": "", "--state": "/tmp/phase10-twin", "--board": "pico",
         "--mem-free": None, "--bounce": "0", "--panel": "ssd1306"}
    stats = False
    i = 0
    try:
        while i < len(argv):
            a = argv[i]
            if a == "--stats":
                stats = True
            elif a in _VALUES and i + 1 < len(argv):
                o[a] = argv[i + 1]
                i += 1
            else:
                raise script.ScriptError("unknown option %r" % a)
            i += 1
        steps = script.parse(o["--keys"])
        mf = o["--mem-free"]
        t0 = _ticks()
        dev = script.Device(board=o["--board"], state=o["--state"],
                            mem_free=None if mf is None else int(mf),
                            bounce=int(o["--bounce"]), panel=o["--panel"])
        boot_ms = _ticks() - t0
    except (script.ScriptError, ValueError) as e:
        sys.stderr.write("twin_run: %s\n" % (e.args[0] if e.args else e,))
        return 2
    dev.play(steps)
    # Row by row: the 64 rows at once would take ~10 KB of the heap the firmware is tested in.
    panel = dev.panel()
    raw = panel.raw()
    for y in range(panel.height):
        print(panel.row(y, raw))
    raw = None
    if stats:
        gc.collect()
        n, us = dev.bus()
        sys.stderr.write("start-up to first screen %d ms (emulator included); bus: %d bytes, "
                         "%d us; heap free %d, used %d\n" % (boot_ms, n, us, gc.mem_free(), gc.mem_alloc()))
    return 0


sys.exit(main(sys.argv[1:]))
