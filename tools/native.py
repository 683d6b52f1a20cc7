"""The drawing's viper source (firmware/fastdraw_src.py SOURCE) as a module file, for a
compiler that is told the processor: `make mpy` (this machine's), `make deploy` (each
board's), the firmware image's manifest (the port's own mpy-cross).

  python tools/native.py OUT.py      write it to OUT.py
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "firmware", "fastdraw_src.py")
NAME = "firmware/fastdraw_viper.py"    # the module it becomes (its name in tracebacks)


def source():
    """The viper source, read from the file without importing the app (the manifest runs
    inside MicroPython's build tools)."""
    ns = {}
    with open(SRC) as f:
        exec(compile(f.read(), SRC, "exec"), ns)
    return ns["SOURCE"]


def write(out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(source())
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    write(sys.argv[1])
