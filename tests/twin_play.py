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
from vclock import VirtualClock, Cost

PRESS_MS = 80    # host_sim/script.py's timings (tests/test_twin.py checks they agree)
GAP_MS = 150
LONG_MS = 1000
BOOT_MS = 100
AHEAD_MS = 1000
_BITS = {"UP": 1, "DOWN": 2, "LEFT": 4, "RIGHT": 8, "OK": 16}


def _run(app, ms):
    app.run_for(ms)


def _set(pins, bits):
    held = machine.held
    for i in range(len(pins)):
        g = pins[i]
        if g is not None:
            if bits & (1 << i):
                held[g] = 1
            else:
                held.pop(g, None)


class _Keys:
    """The presses at fixed times on the clock (as host_sim/script.py plays them): a press
    comes when its time comes, busy firmware or not. Each key is put on the clock a second
    before its time, so only a second's presses wait there (the heap)."""

    def __init__(self, app, pins, each=False):
        self.app = app
        self.pins = pins
        self.clock = app.clock
        self.t = self.clock.t
        # each: every key played out and caught up with on its own, as a script that plays
        # one key per call does (tools/checks/mash.py); else a line's keys run on one timeline
        self.each = each

    def _press(self, bits, hold, then):
        # as host_sim/script.py's play(): on the clock a second (AHEAD_MS) before its time
        c = self.clock
        self._until(self.t - AHEAD_MS)
        if self.t < c.t:
            self.t = c.t
        if bits:
            pins = self.pins
            c.at(self.t, lambda: _set(pins, bits))
            c.at(self.t + hold, lambda: _set(pins, 0))
        self.t += hold + then

    def _until(self, t):
        app = self.app
        c = self.clock
        while c.t < t:
            app.step()

    def key(self, tok):
        u = tok.upper()
        if u in _BITS:
            self._press(_BITS[u], PRESS_MS, GAP_MS)
        elif u == "LONG_OK":
            self._press(16, LONG_MS, GAP_MS)
        elif u.startswith("WAIT:"):
            self._press(0, 0, int(u[5:]))
        elif u.startswith("HOLD_"):
            name, _, t = u[5:].partition(":")
            self._press(_BITS[name], int(t), GAP_MS)
        elif u == "HELP":
            self._press(17, PRESS_MS, GAP_MS)   # OK held, UP pressed
        elif u.startswith("TAP_"):
            name, hold, gap = u[4:].split(":")
            self._press(_BITS[name], int(hold), int(gap))
        else:
            raise ValueError("unknown key " + tok)
        if self.each:
            self.run()

    def run(self):
        """The last key played out, then the loop on until no key waits in the queue."""
        app = self.app
        c = self.clock
        self._until(self.t)
        end = c.t + 60000
        while app.buttons.pending() and c.t < end:
            app.step()
        if self.t < c.t:
            self.t = c.t


def start(argv):
    """The device built on STATE, as the twin runs it: (app, pins, keys file, screen arg)."""
    state = argv[0]
    # (the WebAssembly VM of tools/bench/heap32/heap32.mjs has no environment: its wire is a local file)
    machine.wire((os.getenv("TWIN_WIRE") if hasattr(os, "getenv") else None) or "wire.bin")
    from firmware.edges.board import Board
    board = Board("pico")
    pins = board.BUTTONS
    from firmware import main as fw
    clock = VirtualClock(0)
    machine.use_clock(clock)
    app = fw.build(board, clock, state, lambda: 40000, 1)
    fw = board = None
    app.charge = Cost(app)       # time passing while the firmware works (vclock.py)
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
    keys = _Keys(app, pins, (os.getenv("TWIN_EACH") if hasattr(os, "getenv") else None) == "1")
    with open(argv[1]) as f:
        for tok in tokens(f):
            if tok:
                keys.key(tok)
            else:
                keys.run()
                machine.mark()
    keys.run()
    machine.close()


if __name__ == "__main__":
    main(sys.argv[1:])
