# The buttons (firmware/buttons.py), fed sample by sample as the timer would (no pins, no
# sleeping). Expected times are worked out from the tuning values: a contact change counts
# at once, then the contact is not read for DEBOUNCE_MS (20); an arrow acts on its press,
# OK on its release, BACK 600 ms after OK's press; UP/DOWN repeat from 400 ms after the
# press, then gaps 160, 120, 90, 67, 50, then 40 (each 3/4 of the last, at least 40).
from firmware.buttons import Buttons, PinReader, Sampler
from firmware.keys import (UP, DOWN, LEFT, RIGHT, OK, BACK, HELP, REPEAT, BIT_UP, BIT_DOWN,
                           BIT_LEFT, BIT_RIGHT, BIT_OK)

try:
    # The period ticks_ms wraps at: 2**30 on boards, 2**62 on the 64-bit unix port.
    from time import ticks_add
    WRAP = ticks_add(0, -1) + 1
except ImportError:
    WRAP = 1 << 30  # firmware.buttons' CPython fallback wraps as a board does


def drive(b, t0, t1, bits_at, step=1, base=0):
    """Sample bits_at(t) for t in [t0, t1) every step ms; the tick value handed over is
    (base + t) wrapped like ticks_ms. Returns [(t, key)] for every event, taken from the
    queue right after the sample that made it."""
    out = []
    t = t0
    while t < t1:
        b.sample(bits_at(t), (base + t) % WRAP)
        k = b.get()
        while k:
            out.append((t, k))
            k = b.get()
        t += step
    return out


def press(bit, start, end):
    """A clean press of one button from start to end (ms)."""
    return lambda t: bit if start <= t < end else 0


def test_an_arrow_acts_when_pressed_ok_when_let_go():
    b = Buttons()
    assert drive(b, 0, 400, press(BIT_DOWN, 100, 300)) == [(100, DOWN)]
    assert drive(b, 400, 800, press(BIT_OK, 500, 700)) == [(700, OK)]


def test_each_button_has_its_key():
    for bit, key, at in ((BIT_UP, UP, 50), (BIT_DOWN, DOWN, 50), (BIT_LEFT, LEFT, 50),
                         (BIT_RIGHT, RIGHT, 50), (BIT_OK, OK, 150)):
        b = Buttons()
        assert drive(b, 0, 400, press(bit, 50, 150), step=5) == [(at, key)]


def test_bounce_on_press_and_release_gives_one_press():
    # the contact chatters for 6 ms at each end (1 ms on, 1 ms off...), as a worn switch does
    def bits(t):
        if 100 <= t < 106:
            return BIT_OK if t % 2 == 0 else 0
        if 106 <= t < 300:
            return BIT_OK
        if 300 <= t < 306:
            return BIT_OK if t % 2 == 1 else 0
        return 0
    b = Buttons()
    # the press counts at 100 (the chatter until 120 is not read), the release at 300
    assert drive(b, 0, 500, bits) == [(300, OK)]
    b = Buttons()
    up = lambda t: BIT_UP if bits(t) else 0
    assert drive(b, 0, 500, up) == [(100, UP)]


def test_a_quick_tap_counts_even_inside_the_bounce_time():
    # a tap of 10 ms: pressed at 100, seen let go at 120 when the contact is read again
    b = Buttons()
    assert drive(b, 0, 300, press(BIT_OK, 100, 110)) == [(120, OK)]
    assert b.state == 0


def test_long_ok_is_back_while_held_and_release_is_silent():
    b = Buttons()
    assert drive(b, 0, 2000, press(BIT_OK, 100, 1500)) == [(700, BACK)]


def test_ok_just_short_of_long_is_ok():
    b = Buttons()
    assert drive(b, 0, 1000, press(BIT_OK, 100, 690)) == [(690, OK)]


REPEATS = [401, 561, 681, 771, 838, 888, 928, 968]


def test_up_held_repeats_and_accelerates():
    b = Buttons()
    ev = drive(b, 0, 1600, press(BIT_UP, 1, 1500))
    assert ev[0] == (1, UP)
    times = [t for t, _ in ev[1:]]
    assert all(k == UP | REPEAT for _, k in ev[1:])
    assert times[:8] == REPEATS
    gaps = [times[i + 1] - times[i] for i in range(len(times) - 1)]
    assert all(gaps[i + 1] <= gaps[i] for i in range(len(gaps) - 1)) and gaps[-1] == 40
    assert times[-1] < 1500       # nothing more on the release


def test_down_repeats_with_its_own_key():
    b = Buttons()
    ev = drive(b, 0, 900, press(BIT_DOWN, 10, 800), step=10)
    assert ev[0] == (10, DOWN) and len(ev) >= 3
    assert all(k == DOWN | REPEAT for _, k in ev[1:])


def test_short_up_does_not_repeat():
    b = Buttons()
    assert drive(b, 0, 600, press(BIT_UP, 50, 400)) == [(50, UP)]


def test_left_and_right_never_repeat_or_go_back():
    for bit, key in ((BIT_LEFT, LEFT), (BIT_RIGHT, RIGHT)):
        b = Buttons()
        assert drive(b, 0, 3000, press(bit, 100, 2500), step=5) == [(100, key)]


def test_slow_sampling_gets_no_burst_of_repeats():
    # sampled every 100 ms: at most one repeat per sample, and no catch-up burst
    b = Buttons()
    ev = drive(b, 0, 3000, press(BIT_UP, 0, 2900), step=100)
    times = [t for t, _ in ev]
    assert len(times) == len(set(times))
    assert all(times[i + 1] - times[i] == 100 for i in range(1, len(times) - 1))


def test_counter_wrap_long_press_and_repeats():
    for base in (WRAP - 5, WRAP - 300, WRAP - 1000):
        b = Buttons()
        assert drive(b, 0, 2000, press(BIT_OK, 100, 1500), base=base) == [(700, BACK)]
        b = Buttons()
        assert drive(b, 0, 600, press(BIT_OK, 100, 300), base=base) == [(300, OK)]
        b = Buttons()
        times = [t for t, _ in drive(b, 0, 1600, press(BIT_UP, 1, 1500), base=base)]
        assert times[1:9] == REPEATS


def test_two_presses_in_one_sample_are_both_queued_in_order():
    b = Buttons()

    def bits(t):
        return (BIT_LEFT | BIT_RIGHT) if 50 <= t < 200 else 0
    assert drive(b, 0, 400, bits) == [(50, LEFT), (50, RIGHT)]


def test_up_pressed_while_ok_is_held_is_help_and_nothing_else():
    b = Buttons()

    def bits(t):
        return (BIT_OK if 100 <= t < 900 else 0) | (BIT_UP if 150 <= t < 950 else 0)
    # OK waits for its release; UP joining it is HELP; no repeats, no BACK, no OK after
    assert drive(b, 0, 1500, bits) == [(150, HELP)]
    assert drive(b, 1500, 2000, press(BIT_UP, 1600, 1700)) == [(1600, UP)]
    # OK and DOWN in the same sample: the chord too, never a DOWN first
    b = Buttons()
    assert drive(b, 0, 500, press(BIT_OK | BIT_DOWN, 100, 200)) == [(100, HELP)]
    # an arrow first, then OK: the arrow, then OK on its release (no chord)
    b = Buttons()

    def later(t):
        return (BIT_UP if 100 <= t < 300 else 0) | (BIT_OK if 150 <= t < 250 else 0)
    assert drive(b, 0, 500, later) == [(100, UP), (250, OK)]


def test_presses_made_while_the_loop_is_busy_wait_in_the_queue():
    # sampled as the timer does while nobody takes the events: they keep their order
    b = Buttons()
    seq = [(BIT_DOWN, 100, 140), (BIT_DOWN, 200, 240), (BIT_OK, 300, 360), (BIT_LEFT, 400, 440)]

    def bits(t):
        return sum(bit for bit, s, e in seq if s <= t < e)
    t = 0
    while t < 600:
        b.sample(bits(t), t)
        t += 5
    got = []
    k = b.get()
    while k:
        got.append(k)
        k = b.get()
    assert got == [DOWN, DOWN, OK, LEFT] and b.lost == 0


def test_a_full_queue_drops_and_counts():
    b = Buttons()
    for i in range(40):
        b.sample(BIT_LEFT if i % 2 else 0, i * 30)
    got = []
    k = b.get()
    while k:
        got.append(k)
        k = b.get()
    assert got == [LEFT] * 15 and b.lost == 5


def test_button_held_at_start_does_nothing_until_released():
    b = Buttons()
    assert drive(b, 0, 1500, press(BIT_OK, 0, 1000)) == []   # neither BACK nor OK
    assert drive(b, 1500, 2000, press(BIT_OK, 1600, 1700)) == [(1700, OK)]


def test_cancel_silences_the_key_being_held():
    b = Buttons()
    assert drive(b, 0, 100, press(BIT_UP, 50, 500)) == [(50, UP)]
    b.cancel()  # e.g. this press woke the screen
    assert drive(b, 100, 700, press(BIT_UP, 0, 500)) == []
    assert drive(b, 700, 1000, press(BIT_UP, 800, 900)) == [(800, UP)]


def test_three_button_mode():
    b = Buttons(three_button=True)
    # LEFT and RIGHT are not fitted: whatever their pins read, nothing happens
    assert drive(b, 0, 500, press(BIT_LEFT | BIT_RIGHT, 100, 300)) == []
    assert drive(b, 500, 1500, press(BIT_OK, 600, 1400)) == [(1200, BACK)]
    assert drive(b, 1500, 2000, press(BIT_DOWN, 1600, 1700)) == [(1600, DOWN)]


class FakePin:
    def __init__(self, v=1):
        self.v = v

    def value(self):
        return self.v


def test_pin_reader_pressed_is_low():
    pins = [FakePin(), FakePin(), None, FakePin(), FakePin()]
    r = PinReader(pins)
    assert r.read() == 0
    pins[0].v = 0
    pins[4].v = 0
    assert r.read() == BIT_UP | BIT_OK
    pins[3].v = 0
    assert r.read() == BIT_UP | BIT_RIGHT | BIT_OK


class _Clock:
    now = 0

    def ticks_ms(self):
        return self.now


class _Timer:
    PERIODIC = 1

    def __init__(self, ok=True):
        self.ok = ok
        self.cb = None

    def init(self, mode, period, callback):
        if not self.ok:
            raise ValueError("no such timer")
        self.period = period
        self.cb = callback

    def deinit(self):
        self.cb = None


def test_the_sampler_runs_on_a_timer_or_else_on_the_loop():
    pins = [FakePin(), FakePin(), FakePin(), FakePin(), FakePin()]
    clock = _Clock()
    b = Buttons()
    s = Sampler(PinReader(pins), b, clock)
    t = _Timer()
    assert s.start(t) and t.period == Buttons.PERIOD_MS
    t.cb(t)                         # the first sample: nothing held
    pins[1].v = 0
    clock.now = 5
    s.poll()                        # a timer runs: the loop's poll reads nothing
    assert b.get() == 0
    t.cb(t)
    assert b.get() == DOWN
    s.stop()
    assert t.cb is None
    # no timer to have: the loop samples
    b = Buttons()
    s = Sampler(PinReader(pins), b, clock)
    assert not s.start(_Timer(ok=False))
    pins[1].v = 1
    s.poll()
    pins[1].v = 0
    clock.now = 30
    s.poll()
    assert b.get() == DOWN
