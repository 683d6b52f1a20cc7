# The buttons (firmware/edges/buttons.py), fed sample by sample as the timer would (no pins, no
# sleeping). Expected times are worked out from the tuning values: a contact change counts
# at once, then the contact is not read for DEBOUNCE_MS (20); an arrow acts on its press,
# OK on its release, BACK 600 ms after OK's press; UP/DOWN repeat from 400 ms after the
# press, then gaps 160, 120, 90, 67, 50, then 40 (each 3/4 of the last, at least 40).
from firmware.edges.buttons import Buttons, PinReader, Sampler
from firmware.edges.keys import (UP, DOWN, LEFT, RIGHT, OK, BACK, HELP, REPEAT, BIT_UP, BIT_DOWN,
                           BIT_LEFT, BIT_RIGHT, BIT_OK)

try:
    # The period ticks_ms wraps at: 2**30 on boards, 2**62 on the 64-bit unix port.
    from time import ticks_add
    WRAP = ticks_add(0, -1) + 1
except ImportError:
    WRAP = 1 << 30  # firmware.edges.buttons' CPython fallback wraps as a board does


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


# ---- taps made while the flash is written ---------------------------------------------------
# A save's flash erase stops the code and the timer (45 ms a sector, 400 ms on a slow chip);
# the pins' interrupts latch the edges meanwhile (PinReader.catch_edges) and the next sample
# gets them. drive_stalled samples every 5 ms except inside a stall, and hands each sample
# the buttons whose level changed since the one before, as the interrupts report them.
def drive_stalled(b, t0, t1, bits_at, stalls=(), edges=True, base=0):
    out = []
    level = bits_at(t0)
    e = 0
    due = t0
    t = t0
    while t < t1:
        cur = bits_at(t)
        e |= cur ^ level
        level = cur
        if t >= due and not any(a <= t < z for a, z in stalls):
            b.sample(cur, (base + t) % WRAP, e if edges else 0)
            e = 0
            due = t + 5
            k = b.get()
            while k:
                out.append((t, k))
                k = b.get()
        t += 1
    return out


def taps(*presses):
    """Several clean presses: (bits, start, end) each."""
    return lambda t: sum(bits for bits, s, e in presses if s <= t < e)


def test_a_tap_made_and_let_go_during_an_erase_counts_as_that_tap():
    erase = [(100, 145)]
    for bit, key in ((BIT_DOWN, DOWN), (BIT_OK, OK), (BIT_LEFT, LEFT)):
        assert drive_stalled(Buttons(), 0, 400, press(bit, 110, 140), erase) == [(145, key)]
        # what the timer alone makes of it: nothing
        assert drive_stalled(Buttons(), 0, 400, press(bit, 110, 140), erase, edges=False) == []


def test_a_tap_during_a_slow_chips_erase_counts_once_the_erase_is_over():
    # a 60 ms tap inside a 400 ms erase: acted on when the erase ends
    assert drive_stalled(Buttons(), 0, 800, press(BIT_OK, 200, 260), [(100, 500)]) == [(500, OK)]
    assert drive_stalled(Buttons(), 0, 800, press(BIT_UP, 200, 260), [(100, 500)]) == [(500, UP)]


def test_a_tap_that_outlasts_the_erase_counts_once():
    erase = [(100, 145)]
    assert drive_stalled(Buttons(), 0, 400, press(BIT_DOWN, 110, 170), erase) == [(145, DOWN)]
    assert drive_stalled(Buttons(), 0, 400, press(BIT_OK, 110, 170), erase) == [(170, OK)]


def test_taps_around_an_erase_keep_their_order():
    keys = taps((BIT_RIGHT, 50, 80), (BIT_OK, 110, 140), (BIT_LEFT, 200, 230))
    assert drive_stalled(Buttons(), 0, 400, keys, [(100, 145)]) == [(50, RIGHT), (145, OK), (200, LEFT)]
    # a save of five erases in a row with a tap in three of them, 150 ms apart
    keys = taps((BIT_DOWN, 105, 135), (BIT_UP, 205, 235), (BIT_DOWN, 255, 285))
    erases = [(100, 145), (150, 195), (200, 245), (250, 295), (300, 345)]
    assert drive_stalled(Buttons(), 0, 400, keys, erases) == [(145, DOWN), (245, UP), (295, DOWN)]


def test_up_tapped_during_an_erase_while_ok_is_held_is_help():
    keys = taps((BIT_OK, 50, 400), (BIT_UP, 110, 140))
    assert drive_stalled(Buttons(), 0, 600, keys, [(100, 145)]) == [(145, HELP)]


def test_a_held_arrow_let_go_and_pressed_again_during_an_erase_is_a_second_press():
    keys = lambda t: BIT_DOWN if 50 <= t < 300 and not 110 <= t < 130 else 0
    assert drive_stalled(Buttons(), 0, 400, keys, [(100, 145)]) == [(50, DOWN), (145, DOWN)]
    # OK held the same way: its release is an OK, then it is held again (BACK 600 ms on)
    keys = lambda t: BIT_OK if 50 <= t < 1000 and not 110 <= t < 130 else 0
    assert drive_stalled(Buttons(), 0, 1200, keys, [(100, 145)]) == [(145, OK), (745, BACK)]


def test_edges_between_samples_on_time_are_bounce_not_taps():
    # a contact that opens for 2 ms while held, one that closes for 3 ms: the timer on time
    keys = lambda t: (BIT_DOWN if 50 <= t < 300 and t not in (152, 153) else 0) | (BIT_LEFT if 201 <= t < 204 else 0)
    assert drive_stalled(Buttons(), 0, 400, keys) == [(50, DOWN)]


def test_the_bounce_of_a_press_just_before_an_erase_is_not_a_tap():
    # pressed at 100, bouncing until 103, then the flash stops the timer until 140
    keys = lambda t: BIT_DOWN if 100 <= t < 300 and t not in (101, 103) else 0
    assert drive_stalled(Buttons(), 0, 400, keys, [(104, 140)]) == [(100, DOWN)]
    # let go at 100 (OK acts), bouncing, then an erase: one OK
    keys = lambda t: BIT_OK if 20 <= t < 100 or t in (101, 103) else 0
    assert drive_stalled(Buttons(), 0, 400, keys, [(104, 140)]) == [(100, OK)]


def test_an_erase_across_the_tick_counter_wrap():
    base = WRAP - 120
    got = drive_stalled(Buttons(), 0, 400, press(BIT_OK, 110, 140), [(100, 145)], base=base)
    assert got == [(145, OK)]


class IrqPin(FakePin):
    """A pin that takes an interrupt handler, as machine.Pin does; edge() is the chip
    latching an edge and calling it."""
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, v=1, hard_ok=True):
        FakePin.__init__(self, v)
        self.hard_ok = hard_ok
        self.handler = None

    def irq(self, handler=None, trigger=0, **kw):
        if "hard" in kw and not self.hard_ok:
            raise TypeError("unexpected keyword argument 'hard'")
        self.handler = handler
        self.trigger = trigger
        self.hard = kw.get("hard", False)

    def set(self, v):
        self.v = v
        self.handler(self)


def test_the_pin_interrupts_count_edges_until_the_next_sample():
    pins = [IrqPin(), IrqPin(hard_ok=False), None, FakePin(), IrqPin()]
    r = PinReader(pins)
    assert r.catch_edges() == 3          # the pin without interrupts is sampled only
    assert pins[0].hard and not pins[1].hard and pins[0].trigger == 12
    assert r.edges() == 0
    pins[1].set(0)
    pins[1].set(1)
    pins[4].set(0)
    assert r.edges() == BIT_DOWN | BIT_OK
    assert r.edges() == 0                 # handed on once
    assert PinReader([FakePin()] * 5).catch_edges() == 0


class Scheduling:
    """firmware.edges.buttons' schedule (micropython.schedule on the board) replaced by f for a
    with-block; None: none to have, the timer's samples alone."""

    def __init__(self, f):
        self.f = f

    def __enter__(self):
        from firmware.edges import buttons as buttons_module
        self.real = buttons_module.schedule
        buttons_module.schedule = self.f
        return self

    def __exit__(self, *exc):
        from firmware.edges import buttons as buttons_module
        buttons_module.schedule = self.real
        return False


def sampling(pins):
    """The pins' edges caught and a sampler started on a timer: (reader, buttons, sampler,
    timer, clock); the timer's callback is called by hand, the clock set by hand."""
    r = PinReader(pins)
    r.catch_edges()
    clock = _Clock()
    b = Buttons()
    s = Sampler(r, b, clock)
    t = _Timer()
    assert s.start(t)
    return r, b, s, t, clock


def handled(pins):
    """How many of the pins have an interrupt handler (PinReader.catch_edges)."""
    return len([p for p in pins if getattr(p, "handler", None) is not None])


def test_the_sampler_hands_the_latched_edges_to_the_buttons():
    pins = [IrqPin(), IrqPin(), IrqPin(), IrqPin(), IrqPin()]
    r, b, s, t, clock = sampling(pins)
    t.cb(t)
    clock.now = 5
    t.cb(t)
    pins[2].set(0)        # LEFT tapped while the flash holds the timer (no sample)
    pins[2].set(1)
    clock.now = 50
    t.cb(t)
    assert b.get() == LEFT and b.get() == 0


# ---- an idle device's samples ----------------------------------------------------------------
# With every fitted pin's edges counted, a sample with nothing held, nothing read as pressed
# and no edge since the last one would change nothing: the sampler skips it without reading
# the pins (Buttons.sample's frame is a heap allocation on MicroPython, 200 times a second).
class CountingPin(IrqPin):
    reads = 0

    def value(self):
        CountingPin.reads += 1
        return self.v


def test_an_idle_sample_reads_no_pin_once_every_edge_is_counted():
    # (the timer's samples alone: no sample asked for by an edge, see below)
    with Scheduling(None):
        pins = [CountingPin(), CountingPin(), None, CountingPin(), CountingPin()]
        r, b, s, t, clock = sampling(pins)
        assert handled(pins) == 4 and r.watched and r.wake is None
        t.cb(t)                      # the first sample reads the pins, and the next
        clock.now = 5
        t.cb(t)
        CountingPin.reads = 0
        for n in range(20):
            clock.now += 5
            t.cb(t)
        assert CountingPin.reads == 0
        # a press is an edge: read at the next sample, and acted on
        pins[3].set(0)
        clock.now += 5
        t.cb(t)
        assert CountingPin.reads == 4 and b.get() == RIGHT
        # held: every sample reads (the hold is timed), until let go and quiet again
        clock.now += 5
        t.cb(t)
        assert CountingPin.reads == 8
        pins[3].set(1)
        # (the let-go counts once the press's bounce time is over, then its own runs out)
        for n in range(2 * Buttons.DEBOUNCE_MS // Buttons.PERIOD_MS + 1):
            clock.now += 5
            t.cb(t)
        assert CountingPin.reads > 8
        n = CountingPin.reads
        for k in range(5):
            clock.now += 5
            t.cb(t)
        assert CountingPin.reads == n and b.get() == 0


def test_a_pin_without_its_interrupt_keeps_every_sample():
    pins = [IrqPin(), IrqPin(), FakePin(), IrqPin(), IrqPin()]
    r, b, s, t, clock = sampling(pins)
    assert handled(pins) == 4 and not r.watched and not r.still()
    t.cb(t)
    clock.now = 5
    t.cb(t)
    pins[2].v = 0                # LEFT's pin latches nothing: seen by reading it
    clock.now = 10
    t.cb(t)
    assert b.get() == LEFT


def test_a_tap_in_a_stall_after_idle_samples_still_counts():
    # idle samples skipped, then the flash holds the timer while OK is tapped
    pins = [IrqPin(), IrqPin(), IrqPin(), IrqPin(), IrqPin()]
    r, b, s, t, clock = sampling(pins)
    for n in range(10):
        t.cb(t)
        clock.now += 5
    pins[4].set(0)
    pins[4].set(1)
    clock.now += 60
    t.cb(t)
    assert b.get() == OK and b.get() == 0
    # a glitch shorter than a bounce between two samples on time is no tap
    clock.now += 5
    t.cb(t)
    pins[4].set(0)
    pins[4].set(1)
    clock.now += 5
    t.cb(t)
    assert b.get() == 0


def test_an_edge_asks_for_a_sample_at_once():
    # The pin's interrupt schedules a sample (micropython.schedule on the board): the press
    # is queued by that sample, without waiting for the timer's next tick.
    asked = []
    with Scheduling(lambda f, a: asked.append(f)):
        pins = [IrqPin(), IrqPin(), IrqPin(), IrqPin(), IrqPin()]
        r, b, s, t, clock = sampling(pins)
        t.cb(t)
        clock.now = 5
        t.cb(t)
        clock.now = 7
        pins[1].set(0)                   # DOWN pressed between two ticks
        assert len(asked) == 1 and b.get() == 0
        asked.pop()(None)                # the scheduled sample runs
        assert b.get() == DOWN
        s.stop()
        pins[1].set(1)                   # stopped: nothing asked any more
        assert asked == []

    # a queue that is full refuses it: the timer's sample takes the edge then
    def full(f, a):
        raise RuntimeError("schedule queue full")
    with Scheduling(full):
        r, b, s, t, clock = sampling(pins)
        t.cb(t)
        clock.now = 40
        t.cb(t)
        pins[3].set(0)
        clock.now = 45
        t.cb(t)
        assert b.get() == RIGHT


def test_no_sample_is_asked_for_where_a_pin_has_no_interrupt():
    asked = []
    with Scheduling(lambda f, a: asked.append(f)):
        pins = [IrqPin(), IrqPin(), FakePin(), IrqPin(), IrqPin()]
        r, b, s, t, clock = sampling(pins)
        pins[0].set(0)
        assert asked == [] and r.wake is None
