# Make the project root and tests/both importable, the same way MICROPYPATH does for the
# MicroPython run, so one test module serves both runtimes.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tests", "both")):
    if p not in sys.path:
        sys.path.insert(0, p)


def pytest_terminal_summary(terminalreporter):
    # The counts the fault and endurance tests ran (tests/both/soak.py): short forms in
    # make test, the long ones with SOAK=1 (make soak).
    soak = sys.modules.get("soak")
    if soak is None or not soak.RAN:
        return
    tr = terminalreporter
    tr.section("soak counts (%s form)" % ("long" if soak.LONG else "short"))
    for n, what in soak.RAN:
        tr.write_line("%7d %s" % (n, what))
