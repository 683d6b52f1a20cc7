"""make bench-table: what the table on phones costs the device, measured on the micropython
binary (the unix port, 64-bit) with real sockets on the loopback.

The device (tests/table_serve.py: the firmware's real app and server) holds the longest
Phase 10 game (6 players, 54 hands: the JSON is at its biggest just before the last hand).
Two phones ask for /state every second, as the page does; a key is pressed every 150 ms;
every 3 s a hand is committed, so each phone's next ask makes the JSON again. Printed:
- slice_max_us: the longest slice of making the JSON between two looks at the keys, and
  request_max_us: the longest a request took from its connection to its close (I/O waits
  on the loopback included: an upper bound of its work): a key queued meanwhile waits for
  the slice under way, never for the whole (the buttons are sampled on a timer: kept,
  never lost);
- late_max_ms: the longest the loop's rest ran past its time (the real clock, on a shared
  PC: scheduling noise included);
- json_bytes; the least heap (64-bit) with which the device serves all this (found by
  trying HEAP_STEPS) and its free heap at the end; keys the runner pressed and the app
  handled.
Then the same work measured quietly (tools/bench/bench_table_work.py): the least of 30 timings of
each, which is the work without the shared PC's noise; *_slice_us is the longest stretch of
work between two points where the server lets the keys in (each includes entering and
leaving asyncio's loop once: an upper bound), the wait a key queued meanwhile may have.
A slice in which the heap's garbage was collected is kept apart: json_gc_slice_us is the
collection the server makes before the JSON when the heap is short of room for it (started
only while no key is queued), gc_us one collection timed alone (with little garbage).
The quiet slices are scaled to an RP2040 at 125 MHz by make bench's calibration
(rp2040_factor: the published RP2040 pystone pass over the same pass timed here, the least
of 3 runs): an estimate, not a board measurement.
"""
import json
import os
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from table_device import Device  # noqa: E402
from worst import card_game, FAIL, SIX  # noqa: E402

SECONDS = 12
HEAP_STEPS = ("176K", "192K", "208K", "224K", "256K", "288K")


def phone(dev, stop, out):
    etag = None
    while not stop.is_set():
        req = urllib.request.Request(dev.url + "state")
        if etag:
            req.add_header("If-None-Match", etag)
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                body = r.read()
                etag = r.headers.get("ETag")
                out["bytes"] = max(out.get("bytes", 0), len(body))
                out["ok"] = out.get("ok", 0) + 1
        except urllib.error.HTTPError as e:
            out["304" if e.code == 304 else "err"] = out.get("304" if e.code == 304 else "err", 0) + 1
        except OSError:
            out["err"] = out.get("err", 0) + 1
        stop.wait(1.0)


def session(heap):
    g = card_game("classic", 54)
    dev = Device(g, heap=heap)
    stop = threading.Event()
    phones = [{}, {}]
    ts = [threading.Thread(target=phone, args=(dev, stop, p)) for p in phones]
    for t in ts:
        t.start()
    t0 = time.monotonic()
    hands = 0
    keys = 0
    try:
        while time.monotonic() - t0 < SECONDS:
            time.sleep(0.15)
            dev.key("DOWN" if keys % 2 else "UP")
            keys += 1
            if keys % 20 == 0 and hands < 1:
                # the 55th hand (worst.card_game's): Ann out on phase 10, Bob keeps one card
                left = [None if p == 0 else list(FAIL) for p in range(6)]
                left[1] = [1, 0, 0, 0]
                dev.commit({"out": 0, "left": left})
                hands += 1
        stop.set()
        for t in ts:
            t.join()
        fig = dev.stop()
    finally:
        stop.set()
        if dev.alive():
            dev.proc.kill()
    from phones_load import p95_max
    fig["key_to_frame_ms_p95"], fig["key_to_frame_ms_max"] = p95_max(fig.pop("key_ms"))
    fig["keys_sent"] = keys
    fig["json_bytes"] = max(p.get("bytes", 0) for p in phones)
    fig["phone_errors"] = sum(p.get("err", 0) for p in phones)
    fig["answers_200_304"] = [sum(p.get("ok", 0) for p in phones), sum(p.get("304", 0) for p in phones)]
    return fig


def main():
    least = None
    fig = None
    for heap in HEAP_STEPS:
        try:
            f = session(heap)
        except AssertionError as e:
            print("heap %s: does not serve (%s)" % (heap, str(e).splitlines()[0][:100]))
            continue
        if f["phone_errors"] == 0:
            least, fig = heap, f
            break
        print("heap %s: %d phone errors" % (heap, f["phone_errors"]))
    if fig is None:
        print("no heap tried serves the table")
        return 1
    fig["least_heap_64bit"] = least
    # the work in its slices, measured quietly (tools/bench/bench_table_work.py)
    import subprocess
    import tempfile
    from engine_mpy import savefile
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(savefile.dumps(card_game("classic", 54)))
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", os.path.join(ROOT, "build", "mpy"),
                                                 os.path.join(ROOT, "build", "mpy", "lib"),
                                                 os.path.join(ROOT, "host_sim", "twin")]))
    r = subprocess.run([os.path.join(os.path.dirname(sys.executable), "micropython"), "-X", "heapsize=" + least,
                        os.path.join(ROOT, "tools", "bench", "bench_table_work.py"), f.name],
                       capture_output=True, text=True, env=env, timeout=300)
    os.unlink(f.name)
    work = json.loads(r.stdout)
    fig.update(work)
    sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
    from bench import RP2040_US_PER_PASS, host_pystone
    factor = RP2040_US_PER_PASS / min(host_pystone() for _ in range(3))
    fig["rp2040_factor"] = round(factor, 1)
    for k in ("standings_us", "rows4_us", "request_us", "request_304_us", "json_slice_us",
              "request_slice_us", "request_304_slice_us", "json_gc_slice_us", "gc_us"):
        fig[k[:-3] + "_ms_rp2040_est"] = round(work[k] * factor / 1000, 1)
    print(json.dumps(fig, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
