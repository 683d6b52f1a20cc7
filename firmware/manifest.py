# Freeze the device into a MicroPython firmware image: the code runs from flash (no RAM
# spent loading it, nothing to copy) and the image starts the app by itself. Built by
#   make firmware BOARD=pico MPY_DIR=$HOME/micropython     (tools/build/firmware_image.py)
# which includes this file with site=<the venv's site-packages>; by hand, from a MicroPython
# checkout, it also works as it is:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
# Frozen: exactly the modules `make deploy` copies (tests/test_firmware_image.py checks it),
# under the same names; not this file, and firmware/start/main.py only as main.py.
# MicroPython evaluates this file with its own folder as the working directory.
import glob
import os

# No version here: makemanifest appends `__version__ = ...` to every frozen module when the
# metadata has one, and each would cost a name in every module's globals on the board.
metadata(description="Phase 10 table device: score pad, Twist board and dice roller")


def _venv_site():
    """The repo's .venv site-packages, where `make venv` put the pinned display driver."""
    for pattern in ("../.venv/lib/python*/site-packages", "../.venv/Lib/site-packages"):
        for site in sorted(glob.glob(pattern)):
            return os.path.abspath(site)
    return None


def _modules(package):
    """The package's .py files (relative to it) that go to the board."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join("..", package)):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, f), os.path.join("..", package)).replace(os.sep, "/")
            if f.endswith(".py") and (package, rel) not in (("firmware", "manifest.py"), ("firmware", "start/main.py")):
                out.append(rel)
    return out


options.defaults(site=_venv_site(), native_arch=None, mpy_cross=None)
if not options.site or not os.path.isfile(os.path.join(options.site, "adafruit_ssd1306.py")):
    raise Exception("no display driver (adafruit_ssd1306.py) in site-packages %r: run `make venv` "
                    "in the repo, or include this manifest with site=<site-packages holding it>" % options.site)

# The port's own frozen modules: _boot.py mounts the filesystem (where the saves live).
include("$(PORT_DIR)/boards/manifest.py")

# Default optimisation: line numbers kept for tracebacks. Frozen code stays in the flash,
# so they cost no heap here (`make deploy`, whose code is loaded into the heap, leaves
# them out: tools/build/deploy.py OPTIMISE).
package("firmware", files=_modules("firmware"), base_path="..")
package("engine_mpy", files=_modules("engine_mpy"), base_path="..")
# The drawing's native code (firmware/draw/fastdraw_src.py's viper source), for the processor
# tools/build/firmware_image.py names (native_arch) with the MicroPython tree's own mpy-cross
# (mpy_cross). MicroPython's tools freeze native code on a word only for Xtensa (and ARMv6):
# there it is frozen as machine code (the port's mpy-cross compiles the module
# tools/build/native.py writes out). For ARMv6-M (the RP2040) and RV32IMC (the ESP32-C3) they put
# it on a halfword, where the Cortex-M0+ faults on the word a native function's entry reads
# (docs/architecture.md, "Machine code in an image"): the image carries the .mpy's bytes
# instead (firmware/draw/fastdraw_mpy), which firmware/draw/gfx.py loads into RAM, word aligned. No
# native_arch (this file given to MicroPython's make by hand): no machine code in the image,
# and the board compiles the viper source at start (firmware/draw/gfx.py).
import sys
import tempfile

sys.path.insert(0, os.path.abspath(os.path.join("..", "tools", "build")))
import native  # noqa: E402

_native_dir = tempfile.mkdtemp(prefix="phase10-native-")
if options.native_arch in native.WORD_ALIGNED:
    native.write(os.path.join(_native_dir, native.NAME))
    module(native.NAME, base_path=_native_dir)
elif options.native_arch:
    if not options.mpy_cross:
        raise Exception("native_arch=%r needs mpy_cross=<the MicroPython tree's mpy-cross>" % options.native_arch)
    native.mpy_module(os.path.join(_native_dir, native.MPY_NAME), options.mpy_cross, options.native_arch)
    module(native.MPY_NAME, base_path=_native_dir)
# MicroPython runs a frozen main.py at start, before and instead of any /main.py on the
# filesystem: the image starts the app with nothing copied.
module("main.py", base_path="start")

# The maintained SSD1306 driver and the bus_device modules it imports.
module("adafruit_ssd1306.py", base_path=options.site)
package("adafruit_bus_device", files=("__init__.py", "i2c_device.py", "spi_device.py"), base_path=options.site)
# The web framework of the table on phones (firmware/phones/server.py), imported only while it is on.
package("microdot", files=("__init__.py", "microdot.py"), base_path=options.site)
