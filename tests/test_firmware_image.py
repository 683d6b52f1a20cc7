# The frozen firmware image (issue 17), as far as it can be proved without a MicroPython
# source tree or a cross toolchain here: firmware/manifest.py freezes exactly what
# `make deploy` copies, and tools/firmware_image.py (`make firmware`) says at once what it
# lacks and otherwise runs MicroPython's own build with that manifest. The build itself is
# run by .github/workflows/release.yml.
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
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


def test_the_manifest_freezes_exactly_what_deploy_copies():
    m = Manifest()
    m.run(MANIFEST)
    want = deployed()
    # the native drawing code: the viper source written out as its own module, both ways
    import native
    with open(m.frozen.pop(native.NAME)) as f:
        assert f.read() == native.source() and "@micropython.viper" in native.source()
    assert want.pop(native.NAME) == os.path.join(ROOT, "firmware", "fastdraw_src.py")
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


def test_the_build_tools_manifest_passes_its_site_packages(tmp_path):
    # tools/firmware_image.py gives MicroPython a two-line manifest naming the venv's
    # site-packages; another folder holding the driver is taken from there.
    site = tmp_path / "site"
    for f in ("adafruit_ssd1306.py", "adafruit_bus_device/__init__.py", "adafruit_bus_device/i2c_device.py",
              "adafruit_bus_device/spi_device.py", "microdot/__init__.py", "microdot/microdot.py"):
        (site / f).parent.mkdir(parents=True, exist_ok=True)
        (site / f).write_text("# stand-in\n")
    wrapper = tmp_path / "manifest.py"
    wrapper.write_text(fi.wrapper_manifest(str(site)))
    m = Manifest()
    m.run(str(wrapper))
    want = deployed(str(site))
    m.frozen.pop("firmware/fastdraw_viper.py")     # written out for the build (above)
    want.pop("firmware/fastdraw_viper.py")
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
    assert sorted(fi.BOARDS) == have
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
'''


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
            p.write_text(FAKE_MAKE % {"py": PY, "log": str(tmp_path / "make.log")})
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
    return subprocess.run([PY, os.path.join(ROOT, "tools", "firmware_image.py")] + args, cwd=ROOT,
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
    assert data.startswith(b"IMAGE # Written by tools/firmware_image.py")
    assert ("include(%r, site=%r)" % (os.path.join(ROOT, "firmware", "manifest.py"), fi.site_packages())).encode() in data
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


def test_the_esp_idf_version_comes_from_the_micropython_release(tmp_path):
    path = toolbin(tmp_path, "make")
    for ci, readme, want in (("IDF_NEWEST_VER=v5.4.2", True, "v5.4.2"), ("IDF_VER=v5.2.2", True, "v5.2.2"),
                             (None, True, "v5.4")):
        tree = mpy_tree(tmp_path / ("mp-%s" % want), ci=ci, readme=readme)
        r = tool(["--idf-version", "--mpy-dir", str(tree)], path)
        assert r.returncode == 0 and r.stdout == want + "\n", (ci, r.stdout, r.stderr)
    r = tool(["--idf-version", "--mpy-dir", str(mpy_tree(tmp_path / "none", ci=None, readme=False))], path)
    assert r.returncode == 2 and "names no ESP-IDF version" in r.stderr
