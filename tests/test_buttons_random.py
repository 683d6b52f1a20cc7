# Random presses (2,000 in make test, 10,000 in make soak) through the button state machine, each edge with 0-8 ms of random
# contact bounce, polled by a jittery 1-12 ms loop, with the tick counter wrapping
# part-way: every press gives exactly the event(s) a player expects, none doubled or lost.
# CPython only (about a million update calls). Seeded, so a failure replays.
import random

import soak
from firmware.buttons import Buttons
from firmware.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, REPEAT

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
        if i == 4:  # OK: short (under the 700 ms long press) or long
            kind = rng.choice(("short", "long"))
            dur = rng.uniform(60, 600) if kind == "short" else rng.uniform(800, 1500)
        elif i < 2:  # UP/DOWN: a tap (under the 450 ms repeat delay) or a hold that repeats
            kind = rng.choice(("short", "short", "long"))
            dur = rng.uniform(60, 380) if kind == "short" else rng.uniform(560, 2000)
        else:
            kind = "short"
            dur = rng.uniform(60, 1500)
        start, end = t, t + dur
        presses.append((i, start, end, kind))
        trans += [(tt, s, i) for tt, s in chatter(rng, start, True, rng.uniform(0, 8))]
        trans += [(tt, s, i) for tt, s in chatter(rng, end, False, rng.uniform(0, 8))]
        t = end + 8 + rng.uniform(30, 400)  # the next press starts after this one settled
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
        key = b.update(bits, (base + t) % WRAP)
        if key:
            events.append((t, key))
        t += rng.randint(poll[0], poll[1])
    return presses, events


def check(presses, events):
    # attribute each event to the press it falls in (from its start to the next start)
    per = [[] for _ in presses]
    j = 0
    for t, key in events:
        while j + 1 < len(presses) and presses[j + 1][1] <= t:
            j += 1
        assert t >= presses[j][1], "event before any press"
        per[j].append(key)
    longs = repeats = 0
    for (i, start, end, kind), got in zip(presses, per):
        if i == 4 and kind == "long":
            assert got == [BACK], (start, got)
            longs += 1
        elif i < 2 and kind == "long":
            # held 560+ ms: at least one repeat, all repeats, no plain press on release
            assert got and all(k == KEY[i] | REPEAT for k in got), (start, got)
            # the schedule from the press: 450, 650, 800, 912, ... never more than one
            # repeat per 40 ms after the first
            assert len(got) <= 1 + (end - start - 450) // 40 + 1
            repeats += 1
        else:
            assert got == [KEY[i]], (i, start, end, got)
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
    # one clean 2 s hold polled every 10 ms: repeats at 450, 650, 800, 912, 996, 1059,
    # 1106, then every 40 ms (roughly: each lands on the next 10 ms poll) until release
    b = Buttons()
    got = []
    for t in range(0, 2100, 10):
        k = b.update(1 if 10 <= t < 2010 else 0, t)
        if k:
            got.append((t, k))
    assert all(k == UP | REPEAT for _, k in got)
    # press counted at 20 (first seen at 10, steady 10 ms). Due at 470, 670, 820, 932,
    # each fired at the first poll at or after it and the next gap counted from there:
    # 932->940, +84 = 1024->1030, +63 = 1093->1100, +47 = 1147->1150, then every 40 ms:
    # 1190 ... 1990 (21 more); released at 2010, counted at 2020, so 2030 never comes.
    times = [t for t, _ in got]
    assert times[:7] == [470, 670, 820, 940, 1030, 1100, 1150]
    assert times[7:] == list(range(1190, 2000, 40))
