# The twin side of the simulator session tests (tests/test_sim_*.py): under the micropython
# binary, build the device on STATE, open SCREEN with ARG_JSON if given (as New game or
# Continue would), play the key chunks (one per line of KEYS_FILE: a long argument does not
# fit the capped heap) and after each chunk show the panel, so the CPython run can be
# compared screen by screen:
# - with TWIN_WIRE=PATH in the environment, the display is a wire: its bus traffic goes to
#   PATH with a mark after each chunk, and the controller emulator replays it in the
#   CPython process (tests/test_twin.py play()), so the capped heap holds the firmware
#   and this small runner only, as a board's heap would;
# - without it, the emulator runs here and each panel is printed (64 rows, then "=").
#   micropython twin_play.py STATE KEYS_FILE [SCREEN [ARG_JSON]]
import json
import os
import sys

import script


def _play_line(dev, f):
    """Play the keys of the next line of f, read a character at a time; None at the end
    of the file, else True."""
    tok = ""
    seen = False
    while True:
        c = f.read(1)
        if c and c not in " ,\n":
            tok += c
            seen = True
            continue
        if tok:
            dev.play(script.parse(tok))
            tok = ""
        if not c:
            return True if seen else None
        if c == "\n":
            return True


def main(argv):
    state, keys = argv[0], argv[1]
    wire = os.getenv("TWIN_WIRE")
    if wire:
        raw = line = None
        dev = script.Device(state=state, mem_free=40000, panel="wire:" + wire)
    else:
        raw = bytearray(1024)
        line = bytearray(128)
        dev = script.Device(state=state, mem_free=40000)
    if len(argv) > 2 and argv[2]:
        dev.app.push(argv[2], json.loads(argv[3]) if len(argv) > 3 else None)
    with open(keys) as f:
        while True:
            # One key at a time off the line: a whole line (hundreds of keys) parsed at
            # once would take KBs of the heap under test that the board never spends.
            end = _play_line(dev, f)
            if end is None:
                break
            # Row by row from one buffer taken at the start: the panel read out takes
            # nothing from the heap under test but a row's line at a time.
            panel = dev.panel()
            if wire:
                panel.mark()
                continue
            panel.raw(raw)
            for y in range(64):
                o = (y >> 3) * 128
                bit = 1 << (y & 7)
                for x in range(128):
                    line[x] = 35 if raw[o + x] & bit else 46   # '#' or '.'
                print(line.decode())
            print("=")
    if wire:
        dev.panel().close()


main(sys.argv[1:])
