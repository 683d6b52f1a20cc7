# The twin side of the simulator session tests (tests/test_sim_*.py): under the micropython
# binary, build the device on STATE, open SCREEN with ARG_JSON if given (as New game or
# Continue would), play the key chunks (one per line of KEYS_FILE: a long argument does not
# fit the capped heap) and print the panel after each chunk, then "=", so the CPython run
# can be compared screen by screen.
#   micropython twin_play.py STATE KEYS_FILE [SCREEN [ARG_JSON]]
import json
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
            # Row by row: the 64 rows at once would take ~10 KB of the heap under test.
            panel = dev.panel()
            raw = panel.raw()
            for y in range(64):
                print(panel.row(y, raw))
            raw = None
            print("=")


main(sys.argv[1:])
