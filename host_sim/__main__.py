"""python -m host_sim [COMMAND ...]

Commands (each lives in its own module with main(argv) -> exit code):
  show FILE [--json]        read a saved game (e.g. copied off the board)
  dice score PHASE D1..D10  score ten dice for a phase (real dice, or checking)
  dice advise PHASE ROLLS_LEFT D1..D10  which dice to hold: exact chance and expected score
  board check FILE          check a Twist board layout file and draw it
With no command (or with simulator options such as --headless) it starts the simulator.
"""
import os
import sys

# The device code imports engine_mpy/ and firmware/ as top-level packages, as on the board.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

COMMANDS = {
    "show": "host_sim.cli_show",
    "dice": "host_sim.cli_dice",
    "board": "host_sim.cli_board",
}


def main(argv):
    if argv and argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0
    name = "host_sim.sim"
    if argv and argv[0] in COMMANDS:
        name = COMMANDS[argv[0]]
        argv = argv[1:]
    mod = __import__(name, None, None, ["main"])
    return mod.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
