"""Build a MicroPython firmware image with the app, the rules and the display driver frozen
in (firmware/manifest.py): one file a player drags onto a Pico or flashes onto an ESP32,
that starts the device with nothing else copied.

  make firmware BOARD=pico MPY_DIR=$HOME/micropython        (or: tools/build/firmware_image.py
  make firmware BOARD=esp32 MPY_DIR=$HOME/micropython DRY=1  --board B --mpy-dir D [--dry-run])

It needs, and says so at once when one is missing:
  - a MicroPython source tree, release v1.26.1 (the release the device was measured on, on
    an emulated Pico; see SUPPORTED below):
      git clone -b v1.26.1 https://github.com/micropython/micropython.git
  - the port's toolchain:
      pico, pico_w (rp2 port): the Arm GNU toolchain (arm-none-eabi-gcc) and CMake, e.g.
        sudo apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake
      esp32, esp32_s3, esp32_c3 (esp32 port): ESP-IDF, a version that MicroPython release
        supports (as its ports/esp32/README.md lists; checked here), installed with its
        install.sh and activated in the shell with `. ./export.sh` (idf.py on the PATH)
  - git, for the port's submodules (a git clone; a release tarball has them already).

What it runs: mpy-cross's build, the port's `make submodules`, then the port's make with
FROZEN_MANIFEST (a two-line manifest in build/firmware/<board>/ that includes
firmware/manifest.py with this venv's site-packages, where the pinned driver is). The
image goes to build/firmware/phase10-<board>.uf2 (Pico) or .bin (ESP32).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFEST = os.path.join(ROOT, "firmware", "manifest.py")
OUT = os.path.join(ROOT, "build", "firmware")

# The project's board name -> (MicroPython port, its BOARD, the image it makes).
BOARDS = {
    "pico": ("rp2", "RPI_PICO", "firmware.uf2"),
    "pico_w": ("rp2", "RPI_PICO_W", "firmware.uf2"),
    "esp32": ("esp32", "ESP32_GENERIC", "firmware.bin"),
    "esp32_s3": ("esp32", "ESP32_GENERIC_S3", "firmware.bin"),
    "esp32_c3": ("esp32", "ESP32_GENERIC_C3", "firmware.bin"),
}
# Each board's processor, as mpy-cross names it (-march): the drawing's machine code is made
# for it (firmware/manifest.py), frozen where MicroPython's tools put native code on a word,
# else carried as a .mpy's bytes and loaded into RAM at start (tools/build/native.py WORD_ALIGNED).
NATIVE_ARCH = {"pico": "armv6m", "pico_w": "armv6m", "esp32": "xtensawin", "esp32_s3": "xtensawin",
               "esp32_c3": "rv32imc"}
# The linked image, whose symbols say where each frozen function's code landed.
ELF = {"rp2": "firmware.elf", "esp32": "micropython.elf"}
# Where esptool writes each ESP32's image (the bootloader's place on that chip).
FLASH_OFFSET = {"esp32": "0x1000", "esp32_s3": "0x0", "esp32_c3": "0x0"}
ESPTOOL_CHIP = {"esp32": "esp32", "esp32_s3": "esp32s3", "esp32_c3": "esp32c3"}

# The release the images are built from: v1.26.1 is what the device was measured on (an
# emulated Pico running the real rp2 port: start-up, key times and heap with the app frozen
# and as .mpy files), and a tagged release anyone can check out again. The micropython
# binary the host tests run (pip, 1.29 preview) is an unreleased snapshot: good for testing
# the code, not for an image players keep. Other releases from OLDEST on are built with a
# note; older ones lack the board names used here (ESP32_GENERIC* came in v1.21).
SUPPORTED = (1, 26, 1)
OLDEST = (1, 21, 0)
GET_MPY = "git clone -b v%d.%d.%d https://github.com/micropython/micropython.git" % SUPPORTED

RP2_TOOLS = ("arm-none-eabi-gcc", "cmake")
RP2_HOWTO = ("install the Arm GNU toolchain and CMake: on Debian/Ubuntu `sudo apt-get install "
             "gcc-arm-none-eabi libnewlib-arm-none-eabi cmake`, on macOS `brew install --cask "
             "gcc-arm-embedded` and `brew install cmake`; elsewhere the Arm GNU Toolchain "
             "(arm-none-eabi) from developer.arm.com and CMake from cmake.org")

# The make variables `make firmware BOARD=... MPY_DIR=...` exports; the port's make must not
# see ours (BOARD=pico is not a MicroPython board).
_NOT_PASSED = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "BOARD", "MPY_DIR", "DRY")


class Needed(Exception):
    """Something the build needs is missing: args[0] says what and how to get it."""


def mpy_version(mpy_dir):
    """(major, minor, micro) of a MicroPython source tree, or Needed if it is not one."""
    if not mpy_dir:
        raise Needed("no MicroPython source tree given: make firmware BOARD=... MPY_DIR=/path/to/micropython "
                     "(or --mpy-dir). Get release v%d.%d.%d with:\n  %s" % (SUPPORTED + (GET_MPY,)))
    if not os.path.isdir(mpy_dir):
        raise Needed("MPY_DIR %s: no such folder. Get MicroPython v%d.%d.%d with:\n  %s"
                     % ((mpy_dir,) + SUPPORTED + (GET_MPY,)))
    need = ("py/mpconfig.h", "mpy-cross/Makefile", "tools/makemanifest.py", "tools/manifestfile.py")
    missing = [n for n in need if not os.path.isfile(os.path.join(mpy_dir, n))]
    text = ""
    if not missing:
        with open(os.path.join(mpy_dir, "py", "mpconfig.h"), errors="replace") as f:
            text = f.read()
    parts = [re.search(r"#define MICROPY_VERSION_%s\s+\(?(\d+)" % k, text) for k in ("MAJOR", "MINOR", "MICRO")]
    if missing or not all(parts):
        raise Needed("MPY_DIR %s is not a MicroPython source tree (%s). Get v%d.%d.%d with:\n  %s"
                     % ((mpy_dir, "no " + ", ".join(missing) if missing else "no version in py/mpconfig.h")
                        + SUPPORTED + (GET_MPY,)))
    return tuple(int(p.group(1)) for p in parts)


def idf_supported(mpy_dir):
    """The ESP-IDF versions the MicroPython tree says it supports, as written in its
    ports/esp32/README.md ("Currently MicroPython supports v5.2, v5.2.2, v5.3 and v5.4."),
    oldest first; [] if it does not say."""
    try:
        with open(os.path.join(mpy_dir, "ports", "esp32", "README.md"), errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    m = re.search(r"MicroPython supports\s+([^\n]*(?:\n[^\n]+)?)", text)
    if not m:
        return []
    sentence = m.group(1).split(".\n")[0]
    return re.findall(r"v\d+\.\d+(?:\.\d+)?", sentence)


def idf_for_ci(mpy_dir):
    """The ESP-IDF version the MicroPython release's own CI builds the esp32 port with
    (tools/ci.sh: IDF_NEWEST_VER, or IDF_VER in older releases), else the newest its README
    lists. The release workflow builds with this one."""
    try:
        with open(os.path.join(mpy_dir, "tools", "ci.sh"), errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    for name in ("IDF_NEWEST_VER", "IDF_VER"):
        m = re.search(r"^%s=\"?(v[\d.]+)\"?\s*$" % name, text, re.M)
        if m:
            return m.group(1)
    listed = idf_supported(mpy_dir)
    if listed:
        return listed[-1]
    raise Needed("%s names no ESP-IDF version (tools/ci.sh, ports/esp32/README.md)" % mpy_dir)


def idf_version(idf_path):
    """(major, minor, patch) of the ESP-IDF at idf_path, from tools/cmake/version.cmake."""
    try:
        with open(os.path.join(idf_path, "tools", "cmake", "version.cmake")) as f:
            text = f.read()
    except OSError:
        return None
    parts = [re.search(r"IDF_VERSION_%s\s+(\d+)" % k, text) for k in ("MAJOR", "MINOR", "PATCH")]
    return tuple(int(p.group(1)) for p in parts) if all(parts) else None


def check_toolchain(board, mpy_dir, which=shutil.which, env=os.environ):
    """[(tool, where)] found for the board's port, or Needed saying what to install."""
    port = BOARDS[board][0]
    found = []
    for t in ("make", "git") if os.path.isdir(os.path.join(mpy_dir, ".git")) else ("make",):
        if not which(t):
            raise Needed("%s is not on the PATH; the MicroPython build runs it" % t)
        found.append((t, which(t)))
    if port == "rp2":
        missing = [t for t in RP2_TOOLS if not which(t)]
        if missing:
            raise Needed("the Pico build needs %s, not found on the PATH: %s" % (" and ".join(missing), RP2_HOWTO))
        return found + [(t, which(t)) for t in RP2_TOOLS]
    listed = idf_supported(mpy_dir)
    want = ", ".join(listed) if listed else "the version its ports/esp32/README.md names"
    get = idf_for_ci(mpy_dir) if listed else "<version>"
    howto = ("MicroPython %s supports ESP-IDF %s. Install one and activate it in this shell:\n"
             "  git clone -b %s --recursive https://github.com/espressif/esp-idf.git\n"
             "  cd esp-idf && ./install.sh esp32,esp32s3,esp32c3 && . ./export.sh\n"
             "then run make firmware again from that shell" % (mpy_dir, want, get))
    idf_py = which("idf.py")
    idf_path = env.get("IDF_PATH")
    if not idf_py or not idf_path:
        raise Needed("the ESP32 build needs ESP-IDF (%s). %s"
                     % ("idf.py is not on the PATH" if not idf_py else "IDF_PATH is not set", howto))
    have = idf_version(idf_path)
    if have is None:
        raise Needed("IDF_PATH %s is not an ESP-IDF (no tools/cmake/version.cmake). %s" % (idf_path, howto))
    if listed and not any(tuple(int(x) for x in v[1:].split(".")[:2]) == have[:2] for v in listed):
        raise Needed("ESP-IDF v%d.%d.%d at %s is not one MicroPython supports. %s" % (have + (idf_path, howto)))
    return found + [("idf.py", idf_py), ("ESP-IDF v%d.%d.%d" % have, idf_path)]


def site_packages():
    return sysconfig.get_paths()["purelib"]


def mpy_cross_of(mpy_dir):
    """The MicroPython tree's own mpy-cross (the build's first step makes it): the native
    code's .mpy must be of the firmware's own .mpy version."""
    return os.path.join(os.path.abspath(mpy_dir), "mpy-cross", "build", "mpy-cross")


def wrapper_manifest(site, native_arch=None, mpy_cross=None):
    """The manifest given to MicroPython's make: ours, with the driver's site-packages and
    the board's processor for the drawing's machine code."""
    return ("# Written by tools/build/firmware_image.py: firmware/manifest.py with the venv's driver.\n"
            "include(%r, site=%r, native_arch=%r, mpy_cross=%r)\n" % (MANIFEST, site, native_arch, mpy_cross))


# ---- the linked image: where its native code landed -----------------------------------------
SHF_EXECINSTR = 0x4


def elf_symbols(data):
    """[(name, address, in code)] of an ELF image's symbol table (pyelftools); in code: the
    symbol's section holds instructions (native code frozen by MicroPython's tools goes
    there, bytecode to read-only data). ValueError: not an ELF file."""
    import io
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection
    try:
        elf = ELFFile(io.BytesIO(data))
        out = []
        for sec in elf.iter_sections():
            if not isinstance(sec, SymbolTableSection):
                continue
            for sym in sec.iter_symbols():
                i = sym["st_shndx"]
                flags = elf.get_section(i)["sh_flags"] if isinstance(i, int) and 0 < i < elf.num_sections() else 0
                out.append((sym.name, sym["st_value"], bool(flags & SHF_EXECINSTR)))
        return out
    except ELFError as e:
        raise ValueError("not an ELF file the check can read: %s" % e)


def native_off_word(symbols):
    """[(name, address)] of the frozen native functions whose code does not start on a word:
    MicroPython names each function's code fun_data_<module>_<function>, and a native one
    sits with the instructions. Every native function's entry reads a word at that start."""
    return sorted(((n, a) for n, a, code in symbols if code and n.startswith("fun_data_") and a & 3),
                  key=lambda x: x[1])


def check_native_alignment(elf):
    """None when every frozen native function in the image at elf starts on a word, else
    the one line that says which does not."""
    with open(elf, "rb") as f:
        bad = native_off_word(elf_symbols(f.read()))
    if not bad:
        return None
    return ("%d frozen native function(s) start on a halfword, where the processor faults on the word their "
            "entry reads: %s; the image is not kept (firmware/manifest.py freezes native code only for the "
            "processors MicroPython's tools word-align; see hardware/README.md)"
            % (len(bad), ", ".join("%s at 0x%08x" % (n[len("fun_data_"):], a) for n, a in bad)))


def build_dir(board, out=OUT):
    """The port's build folder for this image, beside its own build-<BOARD> (a plain build
    of the same board is left alone), one per output folder (so per checkout): the port
    configures a build folder once (cmake runs only when it has no Makefile) and keeps the
    manifest path it was first given, so a second checkout sharing the folder built the
    first checkout's app into its image, or failed once that checkout was gone."""
    import hashlib
    tag = hashlib.sha1(os.path.abspath(out).encode()).hexdigest()[:8]
    return "build-%s-phase10-%s" % (BOARDS[board][1], tag)


def elf_of(board, out=OUT):
    """Where make firmware keeps the ELF of the board's last image."""
    return os.path.join(os.path.abspath(out), board, ELF[BOARDS[board][0]])


def image_name(board):
    return "phase10-%s%s" % (board, os.path.splitext(BOARDS[board][2])[1])


def commands(board, mpy_dir, manifest_path, jobs, out_dir=OUT):
    """[(argv, what)] to run, in order."""
    port, mboard, _ = BOARDS[board]
    mpy_dir = os.path.abspath(mpy_dir)
    port_dir = os.path.join(mpy_dir, "ports", port)
    j = "-j%d" % jobs
    out = [(["make", "-C", os.path.join(mpy_dir, "mpy-cross"), j], "build mpy-cross (it compiles the frozen code)")]
    if os.path.isdir(os.path.join(mpy_dir, ".git")):
        out.append((["make", "-C", port_dir, "BOARD=" + mboard, "BUILD=" + build_dir(board, out_dir), "submodules"],
                    "fetch the port's submodules"))
    out.append((["make", "-C", port_dir, "BOARD=" + mboard, "BUILD=" + build_dir(board, out_dir),
                 "FROZEN_MANIFEST=" + os.path.abspath(manifest_path), j], "build the firmware with the app frozen in"))
    return out


def flash_hint(board, path):
    rel = os.path.relpath(path, os.getcwd())
    if BOARDS[board][0] == "rp2":
        return ("Hold BOOTSEL while plugging the %s in, then copy %s onto the RPI-RP2 drive."
                % ("Pico W" if board == "pico_w" else "Pico", rel))
    return ("esptool.py --chip %s --port PORT erase_flash   (first time only)\n"
            "esptool.py --chip %s --port PORT write_flash -z %s %s"
            % (ESPTOOL_CHIP[board], ESPTOOL_CHIP[board], FLASH_OFFSET[board], rel))


def parser():
    ap = argparse.ArgumentParser(prog="tools/build/firmware_image.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="", help="the device's board: %s" % ", ".join(BOARDS))
    ap.add_argument("--mpy-dir", default="", metavar="DIR", help="the MicroPython source tree (make's MPY_DIR)")
    ap.add_argument("--dry-run", action="store_true", help="check what is needed and print the commands; run nothing")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N", help="parallel jobs for make")
    ap.add_argument("--site", default=None, metavar="DIR",
                    help="site-packages holding the display driver (default: this python's, the venv's)")
    ap.add_argument("--out", default=OUT, metavar="DIR", help="where the image goes (default build/firmware)")
    ap.add_argument("--idf-version", action="store_true",
                    help="print the ESP-IDF version the MicroPython tree builds with, and stop (the release workflow uses it)")
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    a.mpy_dir = os.path.expanduser(a.mpy_dir)
    try:
        if a.idf_version:
            mpy_version(a.mpy_dir)
            print(idf_for_ci(a.mpy_dir))
            return 0
        if a.board not in BOARDS:
            raise Needed("%s: make firmware BOARD=<board> (or --board), one of %s"
                         % ("no board given" if not a.board else "unknown board %r" % a.board, ", ".join(BOARDS)))
        version = mpy_version(a.mpy_dir)
        if version < OLDEST:
            raise Needed("MicroPython v%d.%d.%d in %s is too old (before v%d.%d). Get v%d.%d.%d with:\n  %s"
                         % (version + (a.mpy_dir,) + OLDEST[:2] + SUPPORTED + (GET_MPY,)))
        port, mboard, image = BOARDS[a.board]
        if not os.path.isfile(os.path.join(a.mpy_dir, "ports", port, "Makefile")):
            raise Needed("%s has no ports/%s: not a full MicroPython source tree. Get v%d.%d.%d with:\n  %s"
                         % ((a.mpy_dir, port) + SUPPORTED + (GET_MPY,)))
        tools = check_toolchain(a.board, a.mpy_dir)
        site = os.path.abspath(a.site or site_packages())
        if not os.path.isfile(os.path.join(site, "adafruit_ssd1306.py")):
            raise Needed("no display driver in %s: run `make venv` first (it installs the pinned "
                         "adafruit-circuitpython-ssd1306), or give --site" % site)
    except Needed as e:
        sys.stderr.write("firmware: %s\n" % e.args[0])
        return 2
    note = ""
    if version[:2] != SUPPORTED[:2]:
        note = " (the images are made and measured with v%d.%d.%d; this one is not tested)" % SUPPORTED
    print("MicroPython v%d.%d.%d in %s%s" % (version + (os.path.abspath(a.mpy_dir), note)))
    for name, where in tools:
        print("  %-18s %s" % (name, where))
    work = os.path.join(os.path.abspath(a.out), a.board)
    manifest_path = os.path.join(work, "manifest.py")
    cmds = commands(a.board, a.mpy_dir, manifest_path, a.jobs, a.out)
    built = os.path.join(os.path.abspath(a.mpy_dir), "ports", port, build_dir(a.board, a.out), image)
    final = os.path.join(os.path.abspath(a.out), image_name(a.board))
    if a.dry_run:
        print("would write %s:" % manifest_path)
        sys.stdout.write("  " + wrapper_manifest(site, NATIVE_ARCH[a.board], mpy_cross_of(a.mpy_dir)).replace("\n", "\n  ").rstrip() + "\n")
        print("would run:")
        for argv, what in cmds:
            print("  %s    # %s" % (" ".join(shlex.quote(x) for x in argv), what))
        print("would copy %s to %s" % (built, final))
        return 0
    os.makedirs(work, exist_ok=True)
    with open(manifest_path, "w") as f:
        f.write(wrapper_manifest(site, NATIVE_ARCH[a.board], mpy_cross_of(a.mpy_dir)))
    env = {k: v for k, v in os.environ.items() if k not in _NOT_PASSED}
    for argv, what in cmds:
        print("firmware: %s:\n  %s" % (what, " ".join(shlex.quote(x) for x in argv)), flush=True)
        rc = subprocess.call(argv, env=env)
        if rc:
            sys.stderr.write("firmware: failed (exit %d) at: %s\n" % (rc, what))
            return 1
    if not os.path.isfile(built):
        sys.stderr.write("firmware: the build ended without %s\n" % built)
        return 1
    elf = os.path.join(os.path.dirname(built), ELF[port])
    if not os.path.isfile(elf):
        sys.stderr.write("firmware: the build ended without %s (its symbols are checked)\n" % elf)
        return 1
    bad = check_native_alignment(elf)
    if bad:
        sys.stderr.write("firmware: %s\n" % bad)
        for old in (final, elf_of(a.board, a.out)):
            if os.path.exists(old):
                os.remove(old)
        return 1
    print("firmware: every frozen native function starts on a word (%s)" % os.path.relpath(elf, os.getcwd()))
    shutil.copyfile(built, final)
    # its ELF kept with the build's manifest: what names a fault's place (make first-frame,
    # arm-none-eabi-addr2line), not beside the image (a release uploads phase10-<board>.*)
    shutil.copyfile(elf, elf_of(a.board, a.out))
    print("firmware: %s (%d bytes)\n%s" % (os.path.relpath(final, os.getcwd()), os.path.getsize(final),
                                          flash_hint(a.board, final)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
