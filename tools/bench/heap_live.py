# The live heap of a session: the largest gc.mem_alloc() after a collection between keys,
# as the twin plays the session (tests/twin_play.py). Run under a MicroPython whose heap is
# roomy or grows: the 64-bit unix binary, or the 32-bit WebAssembly VM (tools/heap32.mjs),
# so the two can be compared for the same firmware and keys. The WebAssembly port collects
# garbage only between calls from JavaScript, so the session is played a key per call:
# start(argv), then step() until it returns False, measure() after each.
#   micropython -m heap_live STATE KEYS_FILE [SCREEN [ARG_JSON]]   (from a build's runner/)
# Prints "live PEAK_BYTES BASE_BYTES" (BASE: after start-up, before any key).
import gc
import sys

import twin_play

_s = []
_peak = [0, 0]


def start(argv):
    # The behaviour of a small heap (an ESP32's), whatever this one's size: screens'
    # modules dropped when closed, garbage collected before they load (policy.small_heap).
    from firmware.memory import policy
    policy._small[:] = [True]
    app, pins = twin_play.start(argv)
    f = open(argv[1])
    _s[:] = [twin_play._Keys(app, pins), f, twin_play.tokens(f)]


def step():
    """Play the next key; False at the end."""
    keys, f, toks = _s
    for tok in toks:
        if tok:
            keys.key(tok)
            keys.run()
            return True
    f.close()
    return False


def measure():
    gc.collect()
    a = gc.mem_alloc()
    if not _peak[1]:
        _peak[1] = a
    if a > _peak[0]:
        _peak[0] = a


def report():
    print("live %d %d" % (_peak[0], _peak[1]))


if __name__ == "__main__":
    start(sys.argv[1:])
    measure()
    while step():
        measure()
    report()
