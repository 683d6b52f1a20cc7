# The twin side of tests/test_sim_twist.py: under the micropython binary, build the device on
# STATE (a Twist game just started in it), play the key chunks (one per line of KEYS_FILE:
# a long argument does not fit the capped heap) and print the panel after each chunk, so
# the CPython run can be compared screen by screen.
#   micropython twin_twist_run.py STATE KEYS_FILE
import sys

import script


def main(argv):
    state, keys = argv
    dev = script.Device(state=state)
    with open(keys) as f:
        for chunk in f:
            dev.play(script.parse(chunk))
            # Row by row: the 64 rows at once would take ~10 KB of the heap under test.
            panel = dev.panel()
            raw = panel.raw()
            for y in range(64):
                print(panel.row(y, raw))
            raw = None
            print("=")


main(sys.argv[1:])
