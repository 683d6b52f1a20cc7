# The timing side of `make bench`, on the micropython binary (run by tools/bench/bench.py with
# MICROPYPATH = build dir, its lib, host_sim/twin, host_sim; the same as tests/twin_play.py):
#
#   micropython bench_play.py keys STATE KEYS_FILE [SCREEN [ARG_JSON]]
#     plays a scripted session as tests/twin_play.py does and prints, for every key event
#     (the poll that hands a key to the app, with the redraw it causes), one line
#     "k US FAKE_US BYTES FROM TO same|new": the poll's time up to the end of its frame
#     (what it does after the frame, such as saving the change it shows, is not in it),
#     the part of that spent in the fake machine's I2C and the controller emulator (a
#     board's I2C is hardware), the bytes sent, and the screen before and after the key
#     (same: the same screen object).
#   micropython bench_play.py boot STATE
#     from `import firmware.main` to the first frame on the bus: "boot US FAKE_US BYTES".
# Both also print "cal US": a pystone pass timed in the same process (tools/bench/pystone.py).
# The fake part counts the time inside the host's stand-ins for hardware (bus, emulator,
# pins, the virtual clock) and, per call into them, what the timing wrapper itself adds
# beyond the built-in call a board makes (measured at start, "wrap US").
#
# Nothing in the firmware changes: the app's own step/handle are wrapped on the instance.
import sys
import time

import machine

_fake = [0]
_calls = [0]


def _timed(fn):
    def w(*a, **k):
        _calls[0] += 1
        t0 = time.ticks_us()
        try:
            return fn(*a, **k)
        finally:
            _fake[0] += time.ticks_diff(time.ticks_us(), t0)
    return w


# The fake bus and the emulator behind it, the fake pins and the virtual clock are host
# code; on a board they are the I2C peripheral (its wire time is added from the byte count
# instead), a register read and the C functions time.ticks_ms / ticks_diff / sleep_ms.
machine.I2C.writeto = _timed(machine.I2C.writeto)
machine.I2C.readfrom_into = _timed(machine.I2C.readfrom_into)
machine.Pin.value = _timed(machine.Pin.value)
from host_sim import vclock as _vclock  # noqa: E402
for _n in ("ticks_ms", "ticks_diff", "sleep_ms"):
    setattr(_vclock.VirtualClock, _n, _timed(getattr(_vclock.VirtualClock, _n)))


def _wrapper_us():
    """What one timed call costs beyond its inside (already counted as fake) and beyond
    the call of a built-in a board makes instead: the wrapper's own entry, exit and
    clock reads, which are measurement, not firmware."""
    import gc
    n = 4000
    b = bytearray(1)
    noop = _timed(lambda x: None)
    gc.collect()
    best = None
    for _ in range(3):
        f0 = _fake[0]
        t0 = time.ticks_us()
        for i in range(n):
            noop(i)
        t1 = time.ticks_us()
        for i in range(n):
            len(b)
        t2 = time.ticks_us()
        inner = _fake[0] - f0
        us = (time.ticks_diff(t1, t0) - inner - time.ticks_diff(t2, t1)) / n
        best = us if best is None or us < best else best
    _calls[0] -= 3 * n
    return max(0.0, best)


# Measured once per bench run (tools/bench/bench.py: "wrap" mode, the least of several
# processes) and handed to every timing process, so one figure holds for the whole run.
try:
    import os
    _PER_CALL = float(os.getenv("BENCH_WRAP_US"))
except (ImportError, TypeError, ValueError, AttributeError):
    _PER_CALL = _wrapper_us()


def _fake_since(f0, c0):
    """Host-only microseconds since the marks f0 (fake time) and c0 (timed calls)."""
    return int(_fake[0] - f0 + (_calls[0] - c0) * _PER_CALL)


print("wrap", _PER_CALL)


def _calibrate():
    """Pystone here and now (tools/bench/pystone.py, us a pass), so the factor to the RP2040 is
    measured beside the figures it scales, under the same load on the host."""
    import gc
    import pystone
    # windows of 20 passes (about 60 us here, as short as a key event's work), the
    # fastest of 300: one the scheduler did not interrupt
    us = pystone.us_per_pass(20, 300)
    gc.collect()
    print("cal", us)


def keys(argv):
    import json
    import script
    state, path = argv[0], argv[1]
    dev = script.Device(state=state, mem_free=40000)
    app = dev.app
    if len(argv) > 2 and argv[2]:
        app.push(argv[2], json.loads(argv[3]) if len(argv) > 3 else None)
    cls = type(app)
    got = [False]

    frame = []

    def handle(key):
        got[0] = True
        cls.handle(app, key)

    def redraw():
        cls.redraw(app)
        # the frame is on the bus: what the poll does after it (the save of a committed
        # change, Session.flush) is not in this key's time to the frame
        frame[:] = [time.ticks_us(), _fake[0], _calls[0]]

    def step():
        got[0] = False
        f0 = _fake[0]
        c0 = _calls[0]
        b0 = machine.bus.bytes
        below = app.stack[-1]
        frame[:] = []
        t0 = time.ticks_us()
        cls.step(app)
        t1 = time.ticks_us()
        if got[0]:
            if frame:
                t1, f1, c1 = frame     # up to the end of the frame
            else:
                f1, c1 = _fake[0], _calls[0]
            fake = int(f1 - f0 + (c1 - c0) * _PER_CALL)
            us = time.ticks_diff(t1, t0)
            # the screen before and after: the same object or another one
            print("k", us, fake, machine.bus.bytes - b0,
                  below.module, app.stack[-1].module, "same" if app.stack[-1] is below else "new")

    app.handle = handle
    app.redraw = redraw
    app.step = step
    _calibrate()
    with open(path) as f:
        for line in f:
            dev.play(script.parse(line))
    _calibrate()


def boot(argv):
    from host_sim.vclock import VirtualClock
    machine.reset_world("ssd1306")
    f0 = _fake[0]
    c0 = _calls[0]
    t0 = time.ticks_us()
    from firmware import main
    from firmware.edges.board import Board
    app = main.build(Board("pico"), VirtualClock(0), argv[0], None, 1)
    while not machine.bus.bytes or app.redraws == 0:
        app.step()
    us = time.ticks_diff(time.ticks_us(), t0)
    print("boot", us, _fake_since(f0, c0), machine.bus.bytes)
    _calibrate()


if sys.argv[1] == "keys":
    keys(sys.argv[2:])
elif sys.argv[1] == "wrap":
    pass                   # the "wrap" line above is all
else:
    boot(sys.argv[2:])
