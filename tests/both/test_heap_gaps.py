# firmware/memory/policy.py fill_gaps(): after the loop's collection, the heap's small gaps are filled
# with garbage so that MicroPython's allocator starts its search for room at the first
# kilobyte of free space rather than at the start of the heap (where the next key's every
# allocation of more than one block stepped over all the gaps: 0.1 ms each on an RP2040).
import gc
import sys

from firmware.memory import policy

MPY = sys.implementation.name == "micropython"


def test_after_the_fill_a_small_object_goes_past_the_gaps():
    if not MPY:
        assert not policy._ON_MPY     # CPython's own allocator: nothing to fill
        return
    gc.collect()
    # 200 one-block gaps between objects that stay
    keep = [None] * 200
    for i in range(200):
        keep[i] = (i, i)
        id((i, i))               # garbage: a gap once collected
    gc.collect()
    n = 7
    room = id((n,) * 250)        # where the first kilobyte of free space starts
    first = id((n, n))
    assert first < room          # without the fill, a one-block object takes a gap
    gc.collect()                 # (the heap as it was: the same room found again)
    policy.fill_gaps()
    after = id((n, n))
    assert after > room          # every gap below the room is taken: the search starts there
    assert keep[199] == (199, 199)
