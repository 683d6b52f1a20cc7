"""Run the shared tests on the real MicroPython binary, one process per test module.

  python tools/checks/mpy_test.py BUILD_DIR HEAP [module ...]

Each module starts on a fresh heap capped at HEAP, as the device starts fresh: MicroPython
never frees interned names, so modules run one after another in one process would each
pay for the names of all the modules before them. Prints each module's result and a
closing line "micropython: N passed, N failed"; exits 1 if anything failed, or if a module
ran no test.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY = os.path.join(HERE, ".venv", "bin", "micropython")


def module_heap(module, heap):
    """The heap a test module runs in: HEAP, or more where the module says so in a line
    `# micropython heap: NNNK` (a test that carries a whole fake flash and the game's files
    beside the firmware; the firmware's own figure is make bench's min_heap_kb)."""
    import re
    try:
        with open(os.path.join(HERE, "tests", "both", module + ".py")) as f:
            m = re.search(r"^# micropython heap: (\d+)K$", f.read(), re.M)
    except OSError:
        return heap
    if m and int(m.group(1)) > int(heap.rstrip("K")):
        return m.group(1) + "K"
    return heap


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build, heap = argv[0], argv[1]
    mods = argv[2:] or sorted(f[:-4] for f in os.listdir(build) if f.startswith("test_") and f.endswith(".mpy"))
    # .frozen last: the binary's own asyncio, which the table on phones' server runs on
    env = dict(os.environ, MICROPYPATH=build + ":" + os.path.join(build, "lib") + ":.frozen")
    passed = failed = 0
    for m in mods:
        r = subprocess.run([MPY, "-X", "heapsize=" + module_heap(m, heap), os.path.join(build, "run.py"), m],
                           env=env, capture_output=True, text=True, timeout=900)
        last = [ln for ln in r.stdout.splitlines() if ln.startswith("micropython: ")]
        p = f = 0
        if last:
            words = last[-1].split()
            p, f = int(words[1]), int(words[3])
        if (r.returncode != 0 or not p) and f == 0:
            # crashed before its closing line (e.g. MemoryError at import), or ran no test
            # (a module name mistyped, tests not named test_...): nothing proved, a failure
            f = 1
        passed += p
        failed += f
        print("  %-28s %3d passed, %d failed" % (m, p, f))
        for ln in r.stdout.splitlines():
            if ln.startswith("soak: "):   # the counts a fault/endurance test ran
                print("    " + ln)
        if f:
            sys.stdout.write(r.stdout + r.stderr)
    print("micropython: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
