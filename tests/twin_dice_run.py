# The twin side of tests/test_sim_dice.py: under the micropython binary, build the device,
# open a screen (as the new-game screens or Continue would), play key chunks separated by
# lines of KEYS_FILE (a long argument does not fit the capped heap) and print the panel after each chunk, so the CPython run can be compared screen by
# screen.  micropython twin_dice_run.py STATE SCREEN ARG_JSON KEYS_FILE
import json
import sys

import script


def main(argv):
    state, name, arg, keys = argv
    dev = script.Device(state=state, mem_free=40000)
    if name:
        dev.app.push(name, json.loads(arg))
    with open(keys) as f:
        for chunk in f:
            dev.play(script.parse(chunk))
            for r in dev.rows():
                print(r)
            print("=")


main(sys.argv[1:])
