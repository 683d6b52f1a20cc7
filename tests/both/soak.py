# The one knob of the fault and endurance tests (issue 7). `make test` runs each of them in
# its short form; `make soak` sets SOAK=1 and they run the long form (10,000
# presses, files, games...). Each test says what it ran through ran(): the pytest session
# prints the list at the end (tests/conftest.py) and the MicroPython runner passes the
# "soak:" lines through (tools/checks/mpy_test.py), so the soak log shows the counts.
import os

try:
    LONG = os.getenv("SOAK", "") not in ("", "0")
except AttributeError:  # a port without getenv: always the short form
    LONG = False

RAN = []


def count(short, long):
    """The number of cases a test runs: short in make test, long in make soak."""
    return long if LONG else short


def ran(n, what):
    """Note that a test ran n cases of what ("presses", "fuzzed save files"...)."""
    RAN.append((n, what))
    print("soak: %d %s" % (n, what))
