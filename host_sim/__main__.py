"""python -m host_sim [options] | python -m host_sim COMMAND ...

With no command (or with simulator options such as --headless) it starts the simulator;
`python -m host_sim --help` lists its options and the commands, and every command takes
--help too. The commands (each in its own module with main(argv) -> exit status) are
listed in host_sim/sim.py's COMMANDS.
"""
import os
import sys

# The device code imports engine_mpy/ and firmware/ as top-level packages, as on the board.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from host_sim import hostio, sim  # noqa: E402


def main(argv):
    if argv and argv[0] in sim.COMMANDS:
        mod = __import__(sim.COMMANDS[argv[0]][0], None, None, ["main"])
        return mod.main(argv[1:])
    return sim.main(argv)


if __name__ == "__main__":
    sys.exit(hostio.run(main, sys.argv[1:]))
