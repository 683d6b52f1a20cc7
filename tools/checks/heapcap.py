"""Find the smallest MicroPython heap (-X heapsize, in KB) at which a script still passes.

  python tools/checks/heapcap.py [--lo 8] [--hi 512] -- MICROPYPATH SCRIPT [ARGS...]

Runs the real `micropython` binary (from .venv) by bisection and prints the smallest cap in
KB. "Passes" means exit status 0 (the test runner exits 1 on any failure, MemoryError
included). Used by the closing notes of issues and by `make bench`.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY = os.path.join(HERE, ".venv", "bin", "micropython")


def passes(kb, path, script, args, extra_env=None):
    """script "-m": args[0] is a module run with `micropython -m`, from the first folder
    of path (not here: micropython -m puts the current folder first on its path)."""
    env = dict(os.environ, MICROPYPATH=path)
    env.update(extra_env or {})
    cwd = path.split(":")[0] if script == "-m" else None
    if cwd and path.split(":")[0].endswith("/runner"):
        # run from the build itself: its modules import as firmware/x.mpy, as a board's do
        # (/firmware/x.mpy), not under a long path of the PC's (the names stay in RAM)
        cwd = os.path.dirname(cwd)
    r = subprocess.run([MPY, "-X", "heapsize=%dK" % kb, script] + args, env=env, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    return r.returncode == 0


def smallest(path, script, args, lo=8, hi=512, before=None, extra_env=None, after=None):
    """before(): called ahead of every run, e.g. to restore a start state the script
    changes (a played session saves its game). after(): called after a run that exited 0,
    and the run passes only if it returns true (a run that ends well but did something
    else, short of memory, does not pass). extra_env: variables for the runs only (two
    bisections at once each keep their own)."""
    def ok(kb):
        if before is not None:
            before()
        return passes(kb, path, script, args, extra_env) and (after is None or after())

    if not ok(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def main(argv):
    lo, hi = 8, 512
    if "--" not in argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    opts, rest = argv[: argv.index("--")], argv[argv.index("--") + 1:]
    if "--lo" in opts:
        lo = int(opts[opts.index("--lo") + 1])
    if "--hi" in opts:
        hi = int(opts[opts.index("--hi") + 1])
    if len(rest) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    kb = smallest(rest[0], rest[1], rest[2:], lo, hi)
    if kb is None:
        print("fails even at %dK" % hi)
        return 1
    print(kb)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
