# A tiny test runner for the MicroPython binary, which has no unittest and no pytest.
# The files in tests/both/ are ordinary pytest modules (plain asserts, no fixtures) that
# also run here unchanged: this runner imports each test_*.py in this folder (or those
# named on the command line), calls every function whose name starts with test_, and
# ends with the plain closing line "N passed, N failed".
import sys
import os
import gc

try:
    import time
    _ticks = time.ticks_ms
    _diff = time.ticks_diff
except AttributeError:  # CPython, when someone runs this by hand
    import time
    _ticks = lambda: int(time.time() * 1000)
    _diff = lambda a, b: a - b


def _modules(names):
    if names:
        return names
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    found = []
    for f in os.listdir(here):
        if f.startswith("test_") and (f.endswith(".py") or f.endswith(".mpy")):
            m = f[: f.rindex(".")]
            if m not in found:
                found.append(m)
    found.sort()
    return found


def main(argv):
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")]
    passed = failed = 0
    t0 = _ticks()
    for name in _modules(names):
        # Each module gets the heap to itself: what it imported is dropped afterwards.
        loaded = list(sys.modules)
        gc.collect()
        try:
            mod = __import__(name)
        except Exception as e:
            failed += 1
            print("FAIL import", name, "-", type(e).__name__, e)
            sys.print_exception(e) if hasattr(sys, "print_exception") else None
            continue
        tests = [k for k in dir(mod) if k.startswith("test_")]
        tests.sort()
        for t in tests:
            fn = getattr(mod, t)
            if not callable(fn):
                continue
            gc.collect()
            try:
                fn()
                passed += 1
                if verbose:
                    print("ok  ", name, t)
            except Exception as e:
                failed += 1
                print("FAIL", name, t, "-", type(e).__name__, e)
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
        # Free the module so the next one has the heap (the cap is the point of this run).
        # Drop every reference into the module (the last test function holds its globals).
        fn = None
        del mod
        for k in list(sys.modules):
            if k not in loaded:
                del sys.modules[k]
        gc.collect()
        if verbose and hasattr(gc, "mem_free"):
            print("     heap free after %s: %d" % (name, gc.mem_free()))
    print("(%d ms)" % _diff(_ticks(), t0))
    print("micropython: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main(sys.argv[1:]))
