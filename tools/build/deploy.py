"""Put everything the board needs on it, from a fresh clone: the app (firmware/), the rules
(engine_mpy/), the display driver (adafruit_ssd1306 + adafruit_bus_device, taken from the
venv's site-packages) and the one-line /main.py. Everything but main.py is compiled to .mpy
first (the board then never compiles source: less RAM, faster start), into a staging folder.

  python tools/build/deploy.py --dry                  list what would be copied, copy nothing
  python tools/build/deploy.py --port /dev/ttyACM0    compile, copy with mpremote, set the board's
                                                clock to this PC's time and start the app
  python tools/build/deploy.py --main-only --port P   only /main.py (the code is already on the board)
  python tools/build/deploy.py --package-json         rewrite package.json (for mpremote mip)

The board keeps its data (settings.json, game.json, history.json, board.json): only
/firmware, /engine_mpy and the driver files are replaced. A firmware image from
`make firmware` holds the same modules frozen (firmware/manifest.py), and its own main.py.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import native  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("firmware", "engine_mpy")
# The board's /main.py (also frozen as main.py into a firmware image).
MAIN_SRC = "firmware/start/main.py"
# In firmware/ but not for the board's /firmware: the freeze manifest and the /main.py source.
NOT_DEPLOYED = ("firmware/manifest.py", MAIN_SRC)
# Files the engine reads that are not code: the dice advisor's table (engine_mpy/
# dice_advise.py). Not copied to a board: its 130 KB cost the .mpy install about 75 games of
# history and put a finish's room-making (876 ms) on the 1,000-game worst case (make
# bench-board, 2026-11-28), and do not fit beside the image in a Pico's code flash. The
# board's Hint says "No hint: no table"; the simulator, `dice advise` and the page have it.
DATA_FILES = ("engine_mpy/dice_advise.bin",)
# The maintained driver and the one module of bus_device it needs (adafruit_ssd1306 imports
# spi_device too, at module level, so it ships as well). (pip name, repo, files)
DRIVER = (
    ("adafruit-circuitpython-ssd1306", "adafruit/Adafruit_CircuitPython_SSD1306", ("adafruit_ssd1306.py",)),
    ("adafruit-circuitpython-busdevice", "adafruit/Adafruit_CircuitPython_BusDevice",
     ("adafruit_bus_device/__init__.py", "adafruit_bus_device/i2c_device.py", "adafruit_bus_device/spi_device.py")),
    # the table on phones' web framework (firmware/phones/server.py): loaded only while it is on
    ("microdot", "miguelgrinberg/microdot", ("microdot/__init__.py", "microdot/microdot.py")),
)
DEVICE_DIRS = ("/firmware", "/engine_mpy", "/lib")


def site_packages():
    return sysconfig.get_paths()["purelib"]


def tool(name):
    """A tool installed in the same venv as this python, else on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    return here if os.path.exists(here) else (shutil.which(name) or name)


def device_sources():
    """[(path relative to the repo, path on the board)] for the app and the engine: their
    modules only. The example Twist layouts in firmware/layouts/ stay on the PC: nothing on
    the board reads them (the default board is in engine_mpy/board_layout.py; a player's own
    is /twist_layout.txt, copied by hand), so neither a deploy nor a firmware image has them."""
    out = []
    for pkg in PACKAGES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, pkg)):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for f in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, f), ROOT).replace(os.sep, "/")
                if rel in NOT_DEPLOYED or not f.endswith(".py") or f.startswith("."):
                    continue
                out.append((rel, "/" + rel))
    return out


# Native code, made for one processor: the drawing's viper source (firmware/draw/fastdraw_src.py,
# written out by tools/build/native.py) compiled once for each processor of the boards
# (firmware/boards/: the RP2040, the ESP32 and ESP32-S3, the ESP32-C3), each under its own
# name; firmware/draw/gfx.py loads the board's own. (A frozen image: the port's mpy-cross.)
NATIVE_SRC = "firmware/draw/fastdraw_src.py"
NATIVE = native.NAME
NATIVE_ARCHS = ("armv6m", "xtensawin", "rv32imc")


def plan(site=None):
    """[(source file, path on the board, compile?)] in copy order; compile is True, False
    (copied as it is) or the processor to compile native code for (-march)."""
    site = site or site_packages()
    items = []
    for rel, dest in device_sources():
        if rel == NATIVE_SRC:
            for arch in NATIVE_ARCHS:
                items.append((os.path.join(ROOT, rel), "/firmware/draw/fastdraw_%s.mpy" % arch, arch))
        items.append((os.path.join(ROOT, rel), dest[:-3] + ".mpy", True))
    for _, _, files in DRIVER:
        for f in files:
            items.append((os.path.join(site, f), "/lib/" + f[:-3] + ".mpy", True))
    items.append((os.path.join(ROOT, MAIN_SRC), "/main.py", False))  # main.py must be source
    return items


# How the .mpy files are compiled. -O3 leaves out the bytecode's line-number tables: a
# board's traceback then says "line 1" (its file and function stay), and the code takes
# 2.5 KB less heap with a hand's entry open (make bench-board --code-heap: 67.7 to 65.2
# KB), which this install, whose code is loaded into the heap, needs more than the lines.
# (It also drops asserts: the device has none.) The frozen image keeps the lines: its code
# stays in the flash. make bench compiles the same way (the Makefile's MPY_SHIP).
OPTIMISE = "-O3"


def source_name(dest):
    """The file name compiled into a module for its tracebacks: its path from where it is
    imported (/firmware/screens/hand.mpy -> firmware/screens/hand.py, /lib/x.mpy -> x.py),
    the name a frozen build gives it too. Not the PC's checkout path: the board has no use
    for it, and every loaded module keeps this name in the board's RAM as long as it runs."""
    name = dest.lstrip("/")
    if name.startswith("lib/"):
        name = name[4:]
    return name[:-4] + ".py" if name.endswith(".mpy") else name


def stage(items, stage_dir, mpy_cross):
    """Compile or copy each item to stage_dir + its board path. Returns [(staged, dest)]."""
    out = []
    for src, dest, compile_it in items:
        if not os.path.exists(src):
            raise SystemExit("deploy: missing %s (run `make venv` first?)" % src)
        staged = os.path.join(stage_dir, dest.lstrip("/"))
        os.makedirs(os.path.dirname(staged), exist_ok=True)
        if compile_it:
            march, name = [], source_name(dest)
            if compile_it is not True:     # native code: the viper source as a module
                march, name = ["-march=" + compile_it], NATIVE
                src = native.write(os.path.join(stage_dir, ".native", "fastdraw_viper.py"))
            r = subprocess.run([mpy_cross, OPTIMISE] + march + ["-s", name, "-o", staged, src],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit("deploy: mpy-cross failed on %s:\n%s" % (src, r.stderr))
        else:
            shutil.copyfile(src, staged)
        out.append((staged, dest))
    return out


def prepare_code(dests, root=""):
    """MicroPython run on the board before copying: empty /firmware and /engine_mpy (a stale
    .py there would be imported instead of the new .mpy) and make every folder needed, parents
    first. root is prefixed to every path (a test runs it in a folder)."""
    dirs = set()
    for d in dests:
        parts = d.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add(root + "/" + "/".join(parts[:i]))
    dirs = sorted(dirs)
    return (
        "import os\n"
        "def rm(d):\n"
        "    try:\n"
        "        names = os.listdir(d)\n"
        "    except OSError:\n"
        "        return\n"
        "    for n in names:\n"
        "        p = d + '/' + n\n"
        "        if os.stat(p)[0] & 0x4000:\n"
        "            rm(p)\n"
        "            os.rmdir(p)\n"
        "        else:\n"
        "            os.remove(p)\n"
        "for d in %r:\n"
        "    rm(d)\n"
        "for d in %r:\n"
        "    try:\n"
        "        os.mkdir(d)\n"
        "    except OSError:\n"
        "        pass\n" % ([root + "/firmware", root + "/engine_mpy"], dirs)
    )


def mpremote_args(port, staged, main_only=False):
    """mpremote's arguments that put the staged files on the board. No reset at the end:
    main() then sets the board's clock and starts the app with a soft reset (a hard reset
    puts an RP2040's clock back to 2021)."""
    args = ["connect", port]
    if not main_only:
        args += ["exec", prepare_code([d for _, d in staged])]
    for path, dest in staged:
        if main_only and dest != "/main.py":
            continue
        args += ["+", "fs", "cp", path, ":" + dest]
    return args


def package_json(site=None):
    """The mip package: the device sources as .py (mip cannot compile) and the driver
    pinned to the same versions as pyproject.toml, installed under lib/ (mip's target)."""
    pins = pinned_versions()
    urls = []
    # mip reads the repository, so only files git tracks belong here (a work tree may hold
    # files not committed yet); outside a git checkout, every device file.
    tracked = _tracked()
    for rel, dest in device_sources():
        if tracked is None or rel in tracked:
            urls.append([rel, rel])
    for pip_name, repo, files in DRIVER:
        # microdot tags its releases vN and keeps its package under src/
        tag, where = ("v" + pins[pip_name], "src/") if pip_name == "microdot" else (pins[pip_name], "")
        for f in files:
            urls.append([f, "https://raw.githubusercontent.com/%s/%s/%s%s" % (repo, tag, where, f)])
    return {"version": project_version(), "urls": urls, "deps": []}


def _tracked():
    import subprocess
    try:
        r = subprocess.run(["git", "ls-files", "--"] + list(PACKAGES), cwd=ROOT,
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return set(r.stdout.split())


def pinned_versions():
    out = {}
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        for line in f:
            line = line.strip().strip('",')
            if "==" in line:
                name, _, ver = line.partition("==")
                out[name] = ver
    return out


def project_version():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        for line in f:
            if line.startswith("version"):
                return line.split("=", 1)[1].strip().strip('"')
    return "0"


def package_json_text():
    return json.dumps(package_json(), indent=2) + "\n"


def parser():
    ap = argparse.ArgumentParser(prog="tools/build/deploy.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", help="serial port of the board, e.g. /dev/ttyACM0 or COM3")
    ap.add_argument("--dry", action="store_true", help="list what would be copied; copy nothing")
    ap.add_argument("--stage", default=os.path.join(ROOT, "build", "deploy"), help="staging folder")
    ap.add_argument("--main-only", action="store_true", help="copy only /main.py")
    ap.add_argument("--mpremote", default=None, help="mpremote to run (default: the venv's)")
    ap.add_argument("--package-json", action="store_true", help="rewrite package.json and stop")
    return ap


def main(argv=None):
    ap = parser()
    a = ap.parse_args(argv)
    if a.package_json:
        with open(os.path.join(ROOT, "package.json"), "w") as f:
            f.write(package_json_text())
        print("wrote package.json")
        return 0
    if not a.dry and not a.port:
        ap.error("--port is needed (or --dry)")
    if not a.dry:
        # mpremote's own words for a port that is not there blame another program
        if ROOT not in sys.path:
            sys.path.insert(0, ROOT)
        from host_sim.cli_pull import missing_board
        missing = missing_board(a.port)
        if missing:
            print("deploy: %s (or give its port: make deploy PORT=/dev/ttyUSB0)" % missing,
                  file=sys.stderr)
            return 2
    if os.path.isdir(a.stage):
        shutil.rmtree(a.stage)
    items = plan()
    if a.main_only:   # nothing else is compiled, staged, counted or copied
        items = [it for it in items if it[1] == "/main.py"]
    staged = stage(items, a.stage, tool("mpy-cross"))
    total = 0
    for path, dest in staged:
        size = os.path.getsize(path)
        total += size
        if a.dry:
            print("%-44s %7d" % (dest, size))
    files = "%d file%s, %d bytes" % (len(staged), "" if len(staged) == 1 else "s", total)
    if a.dry:
        print("%s, staged in %s" % (files, os.path.relpath(a.stage, ROOT)))
        if a.main_only:
            print("would run: mpremote connect PORT fs cp main.py :/main.py, then set the board's clock and soft-reset")
        else:
            print("would run: mpremote connect PORT exec <empty /firmware, /engine_mpy> + fs cp ..., "
                  "then set the board's clock and soft-reset")
        return 0
    cmd = [a.mpremote or tool("mpremote")] + mpremote_args(a.port, staged, a.main_only)
    print("deploy: %s to %s" % (files, a.port))
    rc = subprocess.call(cmd)
    if rc:
        return rc
    # The board's clock set to this PC's time (the device dates its games once it is) and
    # the app started with a soft reset, which keeps the clock: as pull does
    from host_sim.cli_pull import PullError, start_app
    try:
        clock, restarted = start_app(a.port)
    except PullError as e:
        print("deploy: the files are on the board, but %s: press its reset button to start the app "
              "(its clock is not set: games carry no date until python -m host_sim pull sets it)" % e.args[0],
              file=sys.stderr)
        return 2
    print("deploy: %s; the app %s." % ("the board's clock set to this PC's time, " + clock if clock else
                                       "the board has no clock to set",
                                       "started" if restarted else "should start: if not, press the reset button"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
