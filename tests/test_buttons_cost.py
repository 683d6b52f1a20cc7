# What the buttons' sampling costs on the real MicroPython VM: nothing allocated per sample
# (the timer runs every 5 ms for hours, while the loop may be busy; garbage would mean GC
# pauses) nor per event taken from the queue, and the time per call.
# Prints the figures: pytest -s tests/test_buttons_cost.py
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")

SCRIPT = """
import gc, time
from firmware.edges.buttons import Buttons
b = Buttons()
b.sample(0, 0)
def bits(i):   # OK held long, UP held and repeating, DOWN joining it (HELP)
    return (16 if i % 1500 < 900 else 0) | (1 if i % 700 < 600 else 0) | (2 if i % 700 > 500 else 0)
m0 = grown = 0
for i in range(6000):  # warm up every path twice: presses, long OK, repeats, HELP, the queue
    b.sample(bits(i), i)
    b.get()
gc.collect()
m0 = gc.mem_alloc()
for i in range(6000, 9000):
    b.sample(bits(i), i)
    b.get()
grown = gc.mem_alloc() - m0
n = 20000
t0 = time.ticks_us()
for i in range(n):
    b.sample(0, 10000 + i)
t1 = time.ticks_us()
for i in range(n):
    b.sample(1 if i % 700 < 600 else 0, 40000 + i)
    b.get()
t2 = time.ticks_us()
print(grown, time.ticks_diff(t1, t0) / n, time.ticks_diff(t2, t1) / n)
"""


def test_sampling_allocates_nothing_on_micropython(tmp_path):
    script = tmp_path / "cost.py"
    script.write_text(SCRIPT)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=64K", str(script)], env=dict(os.environ, MICROPYPATH=ROOT),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    grown, idle_us, busy_us = r.stdout.split()
    print("\nButtons.sample on the unix port: %s us idle, %s us with a key held "
          "(an RP2040 is ~116x slower)" % (idle_us, busy_us))
    assert int(grown) == 0
