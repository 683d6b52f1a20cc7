"""What a player's key waits while Chromium holds the table on phones' page open (issue 41),
for minutes, on the micropython binary and in the simulator:

    make mpy && .venv/bin/python tools/bench/bench_phones.py [--minutes 3]

The page is open in two tabs of Debian's Chromium (Playwright; each polls /state every
second, asks for the favicon; one reloads every 20 s). The device: the firmware's real app and
server under micropython (tests/table_serve.py, the loop sampling the pins itself, a key
pressed at its own moment every 0.3 s, a hand committed every 7.5 s); the simulator: a Pico W
with --phones, its terminal loop (host_sim.live_view.Live), a key every 0.4 s. Printed: each one's
key to frame delay (from the press to the end of the first frame after it), p95 and max, in
ms, and the requests served.
"""
import argparse
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

import phones_load  # noqa: E402
from table_device import Device  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=3.0)
    a = p.parse_args(argv)
    seconds = a.minutes * 60
    from test_table_page import classic
    game, _ = classic()
    dev = Device(game)
    try:
        b = phones_load.Browsing(dev.url)
        try:
            # a hand every 7.5 s, 24 at most: the game runs to the end of a 3-minute run
            fig = phones_load.device_key_delays(dev, seconds, commit_every=7.5, first_hand=2)
        finally:
            b.stop()
    finally:
        if dev.alive():
            dev.proc.kill()
    p95, most = phones_load.p95_max(fig["key_ms"])
    print("micropython: %d keys, key to frame p95 %d ms, max %d ms; %d requests served, %d hands committed, "
          "server's longest slice %d us, rest past its time at most %d ms"
          % (len(fig["key_ms"]), p95, most, fig["served"], fig["commits"], fig["slice_max_us"], fig["late_max_ms"]))
    state = tempfile.mkdtemp(prefix="phase10-benchphones-")
    try:
        delays, served = phones_load.sim_session(state, seconds)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    p95, most = phones_load.p95_max(delays)
    print("simulator: %d keys, key to frame p95 %.0f ms, max %.0f ms; %d requests served"
          % (len(delays), p95 * 1000, most * 1000, served))
    return 0


if __name__ == "__main__":
    sys.exit(main())
