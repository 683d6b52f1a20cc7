# Random presses (2,000 in make test, 10,000 in make soak) through the buttons, each edge with
# 0-8 ms of random contact bounce, sampled every 1-12 ms (a jittery timer), with the tick
# counter wrapping part-way, and the queue read only now and then (a busy loop): every
# press gives exactly the event(s) a player expects, in order, none doubled or lost.
# CPython only (about a million samples). Seeded, so a failure replays.
import random

import soak
from firmware.edges.buttons import Buttons
from firmware.edges.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, REPEAT

WRAP = 1 << 30  # the CPython fallback wraps ticks where a board does
KEY = (UP, DOWN, LEFT, RIGHT, OK)


def chatter(rng, t, settle, bounce):
    """Transitions for one edge at t: the contact reaches `settle` at t, then may flip
    back and forth (an even number of times) within `bounce` ms."""
    flips = sorted(rng.uniform(t, t + bounce) for _ in range(2 * rng.randint(0, 3))) if bounce else []
    out = [(t, settle)]
    s = settle
    for f in flips:
        s = not s
        out.append((f, s))
    return out


def make_presses(rng, n):
    """[(button index, start ms, end ms, kind)], kind in short/long, plus the transitions."""
    presses = []
    trans = []
    t = 50.0
    for _ in range(n):
        i = rng.randrange(5)
        if i == 4:  # OK: short (under the 600 ms long press) or long
            kind = rng.choice(("short", "long"))
            dur = rng.uniform(30, 560) if kind == "short" else rng.uniform(700, 1500)
        elif i < 2:  # UP/DOWN: a tap (under the 400 ms repeat delay) or a hold that repeats
            kind = rng.choice(("short", "short", "long"))
            dur = rng.uniform(30, 370) if kind == "short" else rng.uniform(480, 2000)
        else:
            kind = "short"
            dur = rng.uniform(30, 1500)
        start, end = t, t + dur
        presses.append((i, start, end, kind))
        trans += [(tt, s, i) for tt, s in chatter(rng, start, True, rng.uniform(0, 8))]
        trans += [(tt, s, i) for tt, s in chatter(rng, end, False, rng.uniform(0, 8))]
        t = end + 22 + rng.uniform(10, 400)  # the next press comes after this one's bounce time
    return presses, trans, t


def run(seed, n, poll=(1, 12)):
    rng = random.Random(seed)
    presses, trans, t_end = make_presses(rng, n)
    base = WRAP - int(t_end // 2)  # the counter wraps about half way through
    b = Buttons()
    events = []
    bits = 0
    k = 0
    t = 0
    while t < t_end + 100:
        while k < len(trans) and trans[k][0] <= t:
            _, s, i = trans[k]
            bits = (bits | (1 << i)) if s else (bits & ~(1 << i))
            k += 1
        b.sample(bits, (base + t) % WRAP)
        # the loop takes the queue now and then (it may be busy for a while)
        if rng.random() < 0.3:
            key = b.get()
            while key:
                events.append(key)
                key = b.get()
        t += rng.randint(poll[0], poll[1])
    key = b.get()
    while key:
        events.append(key)
        key = b.get()
    assert b.lost == 0
    return presses, events


def expected(presses):
    """What each press must give, in order: arrows their key (UP/DOWN held past the repeat
    delay then repeats), OK its key (held long: BACK)."""
    want = []
    for i, start, end, kind in presses:
        if i == 4:
            want.append([BACK] if kind == "long" else [OK])
        elif i < 2 and kind == "long":
            want.append([KEY[i], "repeats"])
        else:
            want.append([KEY[i]])
    return want


def check(presses, events):
    """The events are exactly the presses' in order (repeats counted, bounded by the
    schedule: never more than one per 40 ms after the first at 400)."""
    j = 0
    longs = repeats = 0
    for (i, start, end, kind), want in zip(presses, expected(presses)):
        assert events[j] == want[0], (start, events[j:j + 3], want)
        j += 1
        if want[-1] == "repeats":
            n = 0
            while j < len(events) and events[j] == KEY[i] | REPEAT:
                n += 1
                j += 1
            assert 1 <= n <= 1 + (end - start - 400) // 40 + 1, (start, n)
            repeats += 1
        elif want[0] == BACK:
            longs += 1
    assert j == len(events), events[j:j + 5]
    return longs, repeats


def test_bouncy_presses():
    n = soak.count(2000, 10000)
    presses, events = run(20240611, n)
    longs, repeats = check(presses, events)
    # about 10% long OK (BACK) and 13% held UP/DOWN (repeats) expected: both exercised
    assert longs > n // 13 and repeats > n // 10
    soak.ran(n, "presses with 0-8 ms bounce, polled every 1-12 ms (%d long OK = BACK, %d held with repeats)"
             % (longs, repeats))


def test_bouncy_presses_polled_every_millisecond():
    # a fast loop sees every flicker of the contact: only the debounce time keeps them out
    n = soak.count(1000, 10000)
    longs, repeats = check(*run(7, n, poll=(1, 1)))
    assert longs > n // 13 and repeats > n // 13  # about 10% and 13% expected
    soak.ran(n, "presses with 0-8 ms bounce, polled every 1 ms (%d long OK = BACK)" % longs)


def test_repeat_count_matches_the_schedule_without_bounce_noise():
    # one clean 2 s hold sampled every 10 ms: UP at the press, repeats due 400, 160, 120,
    # 90, 67, 50 then 40 ms apart, each taken by the first sample at or after it and the
    # next gap counted from that sample
    b = Buttons()
    got = []
    for t in range(0, 2100, 10):
        b.sample(1 if 10 <= t < 2010 else 0, t)
        k = b.get()
        while k:
            got.append((t, k))
            k = b.get()
    assert got[0] == (10, UP) and all(k == UP | REPEAT for _, k in got[1:])
    # 410, 570, 690, 780 (+90), 847->850, +50 = 900, then every 40: 940 ... 2000 (27)
    times = [t for t, _ in got[1:]]
    assert times[:6] == [410, 570, 690, 780, 850, 900]
    assert times[6:] == list(range(940, 2010, 40))
