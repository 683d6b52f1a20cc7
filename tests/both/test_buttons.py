# The button state machine, fed sample by sample as the main loop would (no pins, no
# sleeping). Expected times are worked out from the tuning values: a contact change counts
# once steady for DEBOUNCE_MS (10), BACK at 700 ms after the press counted, repeats from
# 450 ms then gaps 200, 150, 112, 84, 63, 47, then 40 (each gap is 3/4 of the last, at least 40).
from firmware.buttons import Buttons, PinReader
from firmware.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, REPEAT, BIT_UP, BIT_DOWN, BIT_LEFT, BIT_RIGHT, BIT_OK

try:
    # The period ticks_ms wraps at: 2**30 on boards, 2**62 on the 64-bit unix port.
    from time import ticks_add
    WRAP = ticks_add(0, -1) + 1
except ImportError:
    WRAP = 1 << 30  # firmware.buttons' CPython fallback wraps as a board does


def drive(b, t0, t1, bits_at, step=1, base=0):
    """Sample bits_at(t) for t in [t0, t1) every step ms; the tick value handed to the
    machine is (base + t) wrapped like ticks_ms. Returns [(t, key)] for every event."""
    out = []
    t = t0
    while t < t1:
        k = b.update(bits_at(t), (base + t) % WRAP)
        if k:
            out.append((t, k))
        t += step
    return out


def press(bit, start, end):
    """A clean press of one button from start to end (ms)."""
    return lambda t: bit if start <= t < end else 0


def test_short_press_fires_once_on_release():
    b = Buttons()
    ev = drive(b, 0, 600, press(BIT_OK, 100, 300))
    # released at 300, steady for 10 ms at 310: the only event, nothing while held
    assert ev == [(310, OK)]


def test_each_button_has_its_key():
    for bit, key in ((BIT_UP, UP), (BIT_DOWN, DOWN), (BIT_LEFT, LEFT), (BIT_RIGHT, RIGHT), (BIT_OK, OK)):
        b = Buttons()
        assert [k for _, k in drive(b, 0, 400, press(bit, 50, 150), step=5)] == [key]


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
    ev = drive(b, 0, 500, bits)
    # 301, 303 and 305 read pressed; the last change (to released) is at 306, counted at 316
    assert ev == [(316, OK)]


def test_glitch_shorter_than_debounce_is_ignored():
    b = Buttons()
    assert drive(b, 0, 300, press(BIT_UP, 100, 108)) == []
    assert b.state == 0


def test_long_ok_is_back_while_held_and_release_is_silent():
    b = Buttons()
    ev = drive(b, 0, 2000, press(BIT_OK, 100, 1500))
    # press counted at 110, BACK 700 ms later while still held; no OK on release
    assert ev == [(810, BACK)]


def test_ok_just_short_of_long_is_ok():
    b = Buttons()
    # press counted at 110, release counted at 790: held 680 ms < 700
    ev = drive(b, 0, 1000, press(BIT_OK, 100, 780))
    assert ev == [(790, OK)]


def test_up_held_repeats_and_accelerates():
    b = Buttons()
    ev = drive(b, 0, 1600, press(BIT_UP, 1, 1500))
    times = [t for t, _ in ev]
    assert all(k == UP | REPEAT for _, k in ev)
    # press counted at 11; first repeat at 11 + 450
    assert times[:9] == [461, 661, 811, 923, 1007, 1070, 1117, 1157, 1197]
    gaps = [times[i + 1] - times[i] for i in range(len(times) - 1)]
    assert all(gaps[i + 1] <= gaps[i] for i in range(len(gaps) - 1))
    assert gaps[-1] == 40
    # released at 1500 (counted 1510): the release after repeats adds no extra step
    assert times[-1] < 1500


def test_down_repeats_with_its_own_key():
    b = Buttons()
    ev = drive(b, 0, 900, press(BIT_DOWN, 10, 800), step=10)
    assert len(ev) >= 2
    assert all(k == DOWN | REPEAT for _, k in ev)


def test_short_up_does_not_repeat():
    b = Buttons()
    assert drive(b, 0, 600, press(BIT_UP, 50, 400)) == [(410, UP)]


def test_left_and_right_never_repeat_or_go_back():
    for bit, key in ((BIT_LEFT, LEFT), (BIT_RIGHT, RIGHT)):
        b = Buttons()
        assert drive(b, 0, 3000, press(bit, 100, 2500), step=5) == [(2510, key)]


def test_slow_loop_gets_no_burst_of_repeats():
    # polled every 100 ms: at most one repeat per poll, and no catch-up burst
    b = Buttons()
    ev = drive(b, 0, 3000, press(BIT_UP, 0, 2900), step=100)
    times = [t for t, _ in ev]
    assert len(times) == len(set(times))
    assert all(times[i + 1] - times[i] == 100 for i in range(len(times) - 1))


def test_counter_wrap_long_press():
    # the same long press, with ticks that wrap from 2**30-1 to 0 during the hold
    base = WRAP - 400
    b = Buttons()
    ev = drive(b, 0, 2000, press(BIT_OK, 100, 1500), base=base)
    assert ev == [(810, BACK)]


def test_counter_wrap_short_press_and_repeats():
    for base in (WRAP - 5, WRAP - 300, WRAP - 1000):
        b = Buttons()
        assert drive(b, 0, 600, press(BIT_OK, 100, 300), base=base) == [(310, OK)]
        b = Buttons()
        times = [t for t, _ in drive(b, 0, 1600, press(BIT_UP, 1, 1500), base=base)]
        assert times[:9] == [461, 661, 811, 923, 1007, 1070, 1117, 1157, 1197]


def test_two_releases_in_one_sample_are_both_delivered():
    b = Buttons()

    def bits(t):
        return (BIT_LEFT | BIT_RIGHT) if 50 <= t < 200 else 0
    ev = drive(b, 0, 400, bits)
    # both counted released at 210; one event per call, so the second comes a call later
    assert ev == [(210, LEFT), (211, RIGHT)]


def test_button_held_at_start_does_nothing_until_released():
    b = Buttons()
    ev = drive(b, 0, 1500, press(BIT_OK, 0, 1000))
    assert ev == []  # neither BACK nor OK
    assert drive(b, 1500, 2000, press(BIT_OK, 1600, 1700)) == [(1710, OK)]


def test_cancel_silences_the_key_being_held():
    b = Buttons()
    drive(b, 0, 100, press(BIT_UP, 50, 500))
    b.cancel()  # e.g. this press woke the screen
    assert drive(b, 100, 700, press(BIT_UP, 0, 500)) == []
    assert drive(b, 700, 1000, press(BIT_UP, 800, 900)) == [(910, UP)]


def test_three_button_mode():
    b = Buttons(three_button=True)
    # LEFT and RIGHT are not fitted: whatever their pins read, nothing happens
    assert drive(b, 0, 500, press(BIT_LEFT | BIT_RIGHT, 100, 300)) == []
    assert drive(b, 500, 1500, press(BIT_OK, 600, 1400)) == [(1310, BACK)]
    assert drive(b, 1500, 2000, press(BIT_DOWN, 1600, 1700)) == [(1710, DOWN)]


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
