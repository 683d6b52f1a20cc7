# The twin side of tests/test_sim_cards.py: under the micropython binary, build the device
# on STATE (a saved game in it), open the standings as Continue does, play the key chunks
# (one per line of KEYS_FILE: a long argument does not fit the capped heap) and print the
# panel after each chunk, so the CPython run can be compared screen by screen.
#   micropython twin_cards_run.py STATE KEYS_FILE
import sys

import script


def main(argv):
    state, keys = argv
    dev = script.Device(state=state, mem_free=40000)
    dev.app.push("cards_home")
    with open(keys) as f:
        for chunk in f:
            dev.play(script.parse(chunk))
            for r in dev.rows():
                print(r)
            print("=")


main(sys.argv[1:])
