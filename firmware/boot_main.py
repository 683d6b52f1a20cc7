# Copied to the board as /main.py by tools/deploy.py (MicroPython runs /main.py at start).
# All the code is in /firmware and /engine_mpy, compiled; this file stays one line so the
# board has nothing to compile at start.
from firmware import main; main.run()
