# What the button poll costs on the real MicroPython VM: nothing allocated per update (the
# loop runs every 10 ms for hours; garbage would mean GC pauses), and the time per call.
# Prints the figures: pytest -s tests/test_buttons_cost.py
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")

SCRIPT = """
import gc, time
from firmware.buttons import Buttons
b = Buttons()
b.update(0, 0)
for i in range(3000):  # warm up every path once: presses, long OK, repeats
    b.update((16 if i % 1500 < 900 else 0) | (1 if i % 700 < 600 else 0), i)
gc.collect()
m0 = gc.mem_alloc()
for i in range(3000, 6000):
    b.update((16 if i % 1500 < 900 else 0) | (1 if i % 700 < 600 else 0), i)
grown = gc.mem_alloc() - m0
n = 20000
t0 = time.ticks_us()
for i in range(n):
    b.update(0, 10000 + i)
t1 = time.ticks_us()
for i in range(n):
    b.update(1 if i % 700 < 600 else 0, 40000 + i)
t2 = time.ticks_us()
print(grown, time.ticks_diff(t1, t0) / n, time.ticks_diff(t2, t1) / n)
"""


def test_update_allocates_nothing_on_micropython(tmp_path):
    script = tmp_path / "cost.py"
    script.write_text(SCRIPT)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=64K", str(script)], env=dict(os.environ, MICROPYPATH=ROOT),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    grown, idle_us, busy_us = r.stdout.split()
    print("\nButtons.update on the unix port: %s us idle, %s us with a key held "
          "(an RP2040 is ~116x slower)" % (idle_us, busy_us))
    assert int(grown) == 0
