# The twin side of the simulator session tests (tests/test_sim_*.py) and of make bench's
# heap figures: under the micropython binary, build the device on STATE, open SCREEN with
# ARG_JSON if given (as New game or Continue would), play the key chunks (one per line of
# KEYS_FILE) and after each chunk mark the panel, so the CPython run can be compared
# screen by screen. The display is a wire (host_sim/wire/machine.py): its bus traffic goes
# to the file named by TWIN_WIRE with a mark after each chunk, and the controller emulator
# replays it in the CPython process (tests/test_twin.py play()).
#   micropython twin_play.py STATE KEYS_FILE [SCREEN [ARG_JSON]]
#
# Everything here is heap the firmware under test cannot use, as a board's heap would
# not hold it: so this runner is the least that drives the device (not host_sim/script.py,
# whose key script and timings it repeats: a test checks they are the same).
import os
import sys

import machine
from vclock import VirtualClock

PRESS_MS = 80    # host_sim/script.py's timings (tests/test_twin.py checks they agree)
GAP_MS = 150
LONG_MS = 1000
BOOT_MS = 100
_BITS = {"UP": 1, "DOWN": 2, "LEFT": 4, "RIGHT": 8, "OK": 16}


def _run(app, ms):
    app.run_for(ms)


def _press(app, pins, bits, hold, then):
    if bits:
        _set(pins, bits)
        _run(app, hold)
        _set(pins, 0)
    _run(app, then)


def _set(pins, bits):
    held = machine.held
    for i in range(len(pins)):
        g = pins[i]
        if g is not None:
            if bits & (1 << i):
                held[g] = 1
            else:
                held.pop(g, None)


def _key(app, pins, tok):
    u = tok.upper()
    if u in _BITS:
        _press(app, pins, _BITS[u], PRESS_MS, GAP_MS)
    elif u == "LONG_OK":
        _press(app, pins, 16, LONG_MS, GAP_MS)
    elif u.startswith("WAIT:"):
        _run(app, int(u[5:]))
    elif u.startswith("HOLD_"):
        name, _, t = u[5:].partition(":")
        _press(app, pins, _BITS[name], int(t), GAP_MS)
    else:
        raise ValueError("unknown key " + tok)


def start(argv):
    """The device built on STATE, as the twin runs it: (app, pins, keys file, screen arg)."""
    state = argv[0]
    # (the WebAssembly VM of tools/heap32.mjs has no environment: its wire is a local file)
    machine.wire((os.getenv("TWIN_WIRE") if hasattr(os, "getenv") else None) or "wire.bin")
    from firmware.board import Board
    board = Board("pico")
    pins = board.BUTTONS
    from firmware import main as fw
    app = fw.build(board, VirtualClock(0), state, lambda: 40000, 1)
    fw = board = None
    _run(app, BOOT_MS)
    if len(argv) > 2 and argv[2]:
        import json
        app.push(argv[2], json.loads(argv[3]) if len(argv) > 3 else None)
    return app, pins


def tokens(f):
    """The keys of f one at a time ("" at each line's end: a mark), a character at a time
    off the file: a whole line (hundreds of keys) at once would take KBs of the heap under
    test that the board never spends."""
    tok = ""
    while True:
        c = f.read(1)
        if c and c not in " ,\n":
            tok += c
            continue
        if tok:
            yield tok
            tok = ""
        if c == "\n":
            yield ""
        if not c:
            return


def main(argv):
    app, pins = start(argv)
    with open(argv[1]) as f:
        for tok in tokens(f):
            if tok:
                _key(app, pins, tok)
            else:
                machine.mark()
    machine.close()


if __name__ == "__main__":
    main(sys.argv[1:])
