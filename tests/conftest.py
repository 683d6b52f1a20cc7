# Make the project root and tests/both importable, the same way MICROPYPATH does for the
# MicroPython run, so one test module serves both runtimes.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tests", "both")):
    if p not in sys.path:
        sys.path.insert(0, p)
