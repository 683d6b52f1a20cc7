# Functions of known frame sizes for tests/test_frames.py (compiled there, never run).


def twelve_locals(a, b, c, d, e, f):
    g = h = i = j = k = m = a
    return a, b, c, d, e, f, g, h, i, j, k, m


def small(a):
    return a + 1


def small_with_try(a):
    try:
        return a + 1
    except ValueError:
        pass
