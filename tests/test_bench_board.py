# make bench-board's parts that run without a MicroPython tree or node: what it says when
# something is missing (one line, and how to get it), how a press's acting edge and a save
# are read off the emulator's record, and the board table it feeds (tools/gen/perf_table.py).
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]

import bench_board as bb  # noqa: E402
import perf_table  # noqa: E402


def _tree(tmp_path, pico_sdk=True):
    """The least of a MicroPython v1.26.1 source tree that the checks look at."""
    for rel in ("mpy-cross/Makefile", "tools/makemanifest.py", "tools/manifestfile.py"):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("")
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 26\n#define MICROPY_VERSION_MICRO 1\n")
    if pico_sdk:
        (tmp_path / "lib" / "pico-sdk").mkdir(parents=True)
        (tmp_path / "lib" / "pico-sdk" / "pico_sdk_init.cmake").write_text("")
    return str(tmp_path)


def _which(missing=()):
    return lambda t: None if t in missing else "/usr/bin/" + t


def _says(mpy_dir, which, env=None):
    with pytest.raises(bb.Needed) as e:
        bb.check(mpy_dir, which=which, env=env or {})
    msg = e.value.args[0]
    assert "\n" not in msg
    return msg


def test_without_a_micropython_tree_it_says_how_to_get_one_in_one_line():
    msg = _says("", _which())
    assert "MPY_DIR=" in msg and "git clone -b v1.26.1" in msg and "--recurse-submodules" in msg


def test_a_folder_that_is_not_micropython_is_named(tmp_path):
    msg = _says(str(tmp_path), _which())
    assert str(tmp_path) in msg and "not a MicroPython source tree" in msg


def test_each_missing_tool_is_named_with_how_to_get_it(tmp_path):
    tree = _tree(tmp_path)
    assert "arm-none-eabi-gcc" in _says(tree, _which(["arm-none-eabi-gcc"]))
    msg = _says(tree, _which(["node"]))
    assert "node is not on the PATH" in msg and "nodejs" in msg
    assert "socat" in _says(tree, _which(["socat"]))
    msg = _says(tree, _which(["picotool"]))
    assert "picotool 2.1.1" in msg and "-DPICOTOOL_NO_LIBUSB=1" in msg and tree in msg


def test_a_tree_without_its_submodules_is_told_to_fetch_them(tmp_path):
    tree = _tree(tmp_path, pico_sdk=False)
    assert "submodules" in _says(tree, _which())


def test_everything_there_passes_and_gives_picotools_folder(tmp_path):
    tree = _tree(tmp_path)
    assert bb.check(tree, which=_which(["picotool"]), env={"picotool_DIR": "/opt/pt"}) == "/opt/pt"
    assert bb.check(tree, which=_which(), env={}) is None


def test_the_acting_edge_is_the_one_the_buttons_act_on():
    ms = 1e6
    # an arrow acts when pressed, OK when let go, OK held past LONG_MS at LONG_MS (BACK),
    # the OK+UP chord (HELP) when made
    assert bb.acting_edge(1, 100 * ms, 180 * ms, 80) == 100 * ms
    assert bb.acting_edge(16, 100 * ms, 180 * ms, 80) == 180 * ms
    assert bb.acting_edge(16, 100 * ms, 1100 * ms, 1000) == (100 + bb.LONG_MS) * ms
    assert bb.acting_edge(17, 100 * ms, 180 * ms, 80) == 100 * ms


def test_flash_operations_close_together_are_one_save():
    ms = 1e6
    ops = [{"t": 0, "erased": 4096, "programmed": 0, "ns": 45 * ms},
           {"t": 46 * ms, "erased": 0, "programmed": 512, "ns": 0.8 * ms},
           {"t": 500 * ms, "erased": 0, "programmed": 256, "ns": 0.4 * ms}]
    saves = bb.group_saves(ops)
    assert len(saves) == 2
    assert saves[0]["erased"] == 4096 and saves[0]["programmed"] == 512
    assert saves[0]["flash_ms"] == pytest.approx(45.8)
    assert saves[0]["span_ms"] == pytest.approx(46.8)      # first start to last end
    assert saves[1]["programmed"] == 256 and saves[1]["span_ms"] == pytest.approx(0.4)


def test_percentiles_interpolate_between_keys():
    assert bb.pct([10, 20, 30, 40], 50) == 25
    assert bb.pct([5], 95) == 5
    assert bb.pct([], 50) is None


def test_the_board_table_shows_each_install_and_the_emulators_limits():
    board = {"mpy": {"key_ms_p95": 75.04, "boot_ms_no_game": 649.2},
             "frozen": {"key_ms_p95": 43.3}}
    body = perf_table.board_table(board, perf_table.BOARD_WHAT)
    assert body.splitlines()[0] == "| figure | `.mpy` install | frozen image | what it is |"
    assert "| `key_ms_p95` | 75.0 | 43.3 |" in body
    assert "| `boot_ms_no_game` | 649.2 | - |" in body
    assert "heap_after_start_kb" not in body          # no install measured it
    for line in perf_table.LIMITS:
        assert "- " + line in body
    assert perf_table.board_table({}, perf_table.BOARD_WHAT) == ""


_GPIO = """
import { RP2040, GPIOPin } from '%(rp)s';
import { latchEdgesOnChangeOnly } from '%(patch)s';
const edges = (m) => {
  const g = m.gpio[16];
  g.padValue |= 0x40;            // input enabled, as the firmware's Pin(IN, PULL_UP) sets it
  g.setInputValue(true);
  g.irqStatus = 0;               // the edges acknowledged
  const out = [];
  for (const v of [true, false, false, true]) { g.setInputValue(v); out.push(g.irqStatus & 0xc); }
  return out;
};
const shipped = edges(new RP2040());
latchEdgesOnChangeOnly(GPIOPin);
console.log(JSON.stringify({ shipped, patched: edges(new RP2040()) }));
"""


def test_the_emulated_chip_latches_a_buttons_edges_only_when_its_level_changes():
    # The RP2040 latches EDGE_LOW (4) on a fall and EDGE_HIGH (8) on a rise, and keeps both
    # until acknowledged: a tap made while interrupts are held off leaves 12. rp2040js
    # latched an edge on every write of the input, the same level included.
    import json
    import shutil
    import subprocess
    rp = os.path.join(ROOT, "tools", "bench", "board", "node_modules", "rp2040js", "dist", "esm", "index.js")
    # make test installs it (the Makefile's BOARD_JS): missing is a failure, not a skip
    assert shutil.which("node") and os.path.isfile(rp), "node or rp2040js missing: cd tools/bench/board && npm ci"
    code = _GPIO % {"rp": rp, "patch": os.path.join(ROOT, "tools", "bench", "board", "gpio_edges.mjs")}
    r = subprocess.run(["node", "--input-type=module", "-e", code], capture_output=True, text=True, check=True)
    got = json.loads(r.stdout)
    assert got["shipped"][0] == 8                   # rp2040js: high written again, an "edge"
    assert got["patched"] == [0, 4, 4, 12]          # only the fall, then the rise, latched


def test_the_tap_game_has_room_for_every_tap_of_a_run():
    # each tap commits one more hand (the next player goes out); the game must not end
    # before the last, or the board and the simulator part ways on the game-over screen
    from engine_mpy import saveload
    g = saveload.loads(bb.tap_game().decode())
    assert len(g.records) == bb.TAP_HANDS0
    for h in range(bb.TAP_HANDS0, bb.TAP_HANDS0 + len(bb.TAPS) * bb.TAPS_N):
        out = h % bb.TAP_PLAYERS
        g.add({"out": out, "left": [None if p == out else [10, 0, 0, 0] for p in range(bb.TAP_PLAYERS)]})
        assert not g.over, h


def test_the_code_heap_script_counts_each_module_and_the_names_it_interned(tmp_path):
    # The script make bench-board --code-heap runs at the board's REPL, run here on the
    # micropython binary: a module imported by another is its own line, and the other's
    # figure leaves it out (the same whether it was loaded first or by the other); the
    # interned names come from micropython.qstr_info()
    import subprocess

    def funcs(prefix, n):
        return "".join("def %s_%d(a):\n    return a + %d\n" % (prefix, i, i) for i in range(n))
    (tmp_path / "small_mod.py").write_text(funcs("small_name", 30))
    (tmp_path / "big_mod.py").write_text("import small_mod\n" + funcs("big_name", 60))
    micropython = os.path.join(ROOT, ".venv", "bin", "micropython")

    def run(mods):
        script = tmp_path / "run.py"
        script.write_text("import sys\nsys.path[:] = [%r]\nMODS = %r\n" % (str(tmp_path), mods) + bb._CODE_HEAP
                          .replace('"firmware", "engine_mpy", "adafruit", "microdot"', '"big", "small"'))
        r = subprocess.run([micropython, "-X", "heapsize=256K", str(script)], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0 and "END!" in r.stdout, r.stdout + r.stderr
        return bb.code_heap_of(r.stdout)
    cost, names = run(["big_mod"])
    first, _ = run(["small_mod", "big_mod"])
    assert set(cost) == set(first) == {"big_mod", "small_mod"}, (cost, first)
    assert cost["big_mod"] > cost["small_mod"] > 0, cost
    assert abs(cost["big_mod"] - first["big_mod"]) < cost["small_mod"] // 4, (cost, first)
    assert names is not None and names > 90 * len("big_name_00"), names


def test_a_heap_run_that_did_not_complete_says_the_boards_last_error():
    text = ("boot\r\nTraceback (most recent call last):\r\n  File \"main.py\", line 3, in <module>\r\n"
            "  File \"firmware/app.py\", line 214, in _make\r\n"
            "MemoryError: memory allocation failed, allocating 640 bytes\r\n"
            "MicroPython v1.26.1 on 2026-11-26; Raspberry Pi Pico with RP2040\r\n>>> ")
    assert bb.last_error(text) == ("MemoryError: memory allocation failed, allocating 640 bytes "
                                   "(firmware/app.py, line 214, in _make)")
    assert bb.last_error("boot\r\n").startswith("no error printed")


def test_a_heap_run_says_how_much_was_free_and_in_how_large_a_piece():
    # the device's own report (firmware/memory/policy.py report_short) after its traceback
    text = ("Short of memory, nothing lost (menu>cards_home):\r\nTraceback (most recent call last):\r\n"
            "  File \"firmware/app.py\", line 1, in _make\r\n"
            "MemoryError: memory allocation failed, allocating 1148 bytes\r\n"
            "stack: 1740 out of 7936\r\nGC: total: 90112, used: 86112, free: 4000\r\n"
            " No. of 1-blocks: 926, 2-blocks: 258, max blk sz: 242, max free sz: 21\r\n")
    assert bb.last_error(text) == ("MemoryError: memory allocation failed, allocating 1148 bytes "
                                   "(firmware/app.py, line 1, in _make); 4000 bytes free, "
                                   "the largest piece 336")
    # from a key's own path: no traceback, the screens open
    key = text.replace("Traceback (most recent call last):\r\n  File \"firmware/app.py\", line 1, "
                       "in _make\r\nMemoryError: memory allocation failed, allocating 1148 bytes\r\n", "")
    assert bb.last_error("Traceback (most recent call last):\r\nOSError: 5\r\n" + key) == (
        "MemoryError (on menu>cards_home); 4000 bytes free, the largest piece 336")


def test_the_device_reports_running_short_on_its_console_as_the_bench_reads_it(tmp_path):
    # firmware/memory/policy.py's report_short on the micropython binary with a small heap: a real
    # MemoryError, its place, and the heap then, read back by the bench's last_error
    import subprocess
    script = tmp_path / "short.py"
    script.write_text(
        "import sys\nsys.path.insert(0, %r)\n"
        "from firmware.memory.policy import report_short\n"
        "def grow():\n    return bytearray(200000)\n"
        "class S:\n    module = 'hand'\n"
        "try:\n    grow()\nexcept MemoryError as e:\n    report_short(e, [S()])\n" % ROOT)
    micropython = os.path.join(ROOT, ".venv", "bin", "micropython")
    r = subprocess.run([micropython, "-X", "heapsize=96K", str(script)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Short of memory, nothing lost (hand):"), r.stdout
    said = bb.last_error(r.stdout)
    assert said.startswith("MemoryError: memory allocation failed, allocating"), said
    assert "short.py" in said and "in grow)" in said, said
    assert " bytes free, the largest piece " in said, said



# ---- the chip's faults (issue 39) -----------------------------------------------------------
# Thumb code put at the start of flash, where the emulator starts the core (boot stage 2's
# place): r0 = 0x20000000 + off, then a load through it, then a branch to itself.
def _thumb(*halfwords):
    return b"".join(h.to_bytes(2, "little") for h in halfwords)


_R0_SRAM = (0x2020, 0x0600)      # movs r0, #0x20; lsls r0, r0, #24: r0 = 0x20000000
_LOOP = 0xE7FE                   # b .


def _board_running(tmp_path, code, ms=1):
    """Run code on the emulated chip for ms: the emulator's answer, or the bench's ChipFault."""
    import shutil
    assert shutil.which("node") and os.path.isfile(bb.RP2040JS), "node or rp2040js missing: cd tools/bench/board && npm ci"
    flash = tmp_path / "chip.flash"
    flash.write_bytes(code + b"\xff" * (4096 - len(code)))
    emu = bb.Emu()
    try:
        emu("load", flash=str(flash), syms={})
        return emu("run", ms=ms)
    finally:
        emu.close()


@pytest.mark.parametrize("code, what", [
    # ldr r1, [r0, #0] at 0x20000002: rp2040js's own error (it checks word reads)
    (_thumb(*_R0_SRAM, 0x3002, 0x6801, _LOOP), "read from address 20000002, which is not 32 bit aligned"),
    # ldrh r1, [r0, #0] at 0x20000001: checked by the bench (the M0+ faults on it too)
    (_thumb(*_R0_SRAM, 0x3001, 0x8801, _LOOP), "read from address 20000001, which is not 16 bit aligned"),
    # str r1, [r0, #0] at 0x20000002
    (_thumb(*_R0_SRAM, 0x3002, 0x6001, _LOOP), "write to address 20000002, which is not 32 bit aligned"),
])
def test_a_firmware_that_makes_an_unaligned_access_stops_the_bench(tmp_path, code, what):
    # the Cortex-M0+ takes a HardFault on an unaligned access: the bench stops there and says
    # what and where (the PC of the load: the fourth instruction, at 0x10000006)
    with pytest.raises(bb.ChipFault) as e:
        _board_running(tmp_path, code)
    msg = str(e.value)
    assert what in msg and "PC 10000006" in msg and "\n" not in msg, msg
    # a ChipFault stops the run (SystemExit): main() writes no figure after it
    assert isinstance(e.value, SystemExit)


def test_a_peripheral_the_emulator_does_not_model_is_a_warning_counted_not_a_fault(tmp_path):
    # ldr r0, =0x40028000 (PLL_SYS, not modelled by rp2040js); ldr r1, [r0]: the chip reads
    # it, the emulator warns; the run goes on and the bench counts the warning
    bb.WARNINGS.clear()
    r = _board_running(tmp_path, _thumb(0x4801, 0x6801, _LOOP, 0x0000) + (0x40028000).to_bytes(4, "little"))
    assert r["t"] >= 1e6
    assert [(n, first) for n, first in bb.WARNINGS.values()] == [(1, "PLL_SYS_BASE: Unimplemented peripheral read from 0x0")]
    res = {}
    bb.say_warnings("frozen", res)
    assert res == {"emulator_warnings": 1, "chip_faults": 0}
    bb.WARNINGS.clear()


def test_a_fault_is_named_from_the_elf(monkeypatch):
    # the PC and LR are named by addr2line, and a frozen function's code (no line table) by
    # its symbol: the message a maker reads to find the module
    monkeypatch.setattr(bb, "where", lambda elf, addrs: ["mp_setup_code_state_native (bc.c:341)", "?"])
    monkeypatch.setattr(bb, "nearest_symbol",
                        lambda elf, a: "fun_data_firmware_fastdraw_viper_invert_rect+0x20" if a == 0x10031dde else None)
    msg = bb.fault_text({"pc": 0x10001028, "lr": 0x10031ddf, "t": 80.1e6,
                         "message": "read from address 10031dbe, which is not 32 bit aligned"}, "firmware.elf")
    assert msg.startswith("the chip faulted at 80.1 ms: read from address 10031dbe")
    assert "PC 10001028 mp_setup_code_state_native (bc.c:341)" in msg
    assert "LR 10031ddf fun_data_firmware_fastdraw_viper_invert_rect+0x20 (frozen code)" in msg


def _uf2(code, base=0x10000000):
    """A UF2 image of code at base (256 bytes a block), as a Pico's drive takes it."""
    import struct
    code += b"\xff" * (-len(code) % 256)
    n = len(code) // 256
    out = b""
    for i in range(n):
        out += (struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, 0x2000, base + i * 256, 256, i, n, 0xE48BFF56)
                + code[i * 256:(i + 1) * 256] + bytes(476 - 256) + struct.pack("<I", 0x0AB16F30))
    return out


@pytest.mark.parametrize("board", ["pico", "pico_w"])
def test_make_first_frame_refuses_an_image_that_faults_before_its_first_frame(tmp_path, capsys, board):
    # the release workflow's check of a Pico or Pico W image: an unaligned read at start is
    # the chip's HardFault, said in one line with its place, and the exit status fails the job
    uf2 = tmp_path / ("phase10-%s.uf2" % board)
    uf2.write_bytes(_uf2(_thumb(*_R0_SRAM, 0x3002, 0x6801, _LOOP)))
    assert bb.main(["--first-frame", str(uf2)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("make first-frame: the chip faulted at ") and "\n" not in err
    assert "read from address 20000002, which is not 32 bit aligned; PC 10000006" in err
    missing = tmp_path / "other" / ("phase10-%s.uf2" % board)
    assert bb.main(["--first-frame", str(missing)]) == 2
    assert "make firmware BOARD=%s MPY_DIR" % board in capsys.readouterr().err.splitlines()[-1]
    # both images given (make first-frame's default): one that faults fails the run
    assert bb.main(["--first-frame", str(missing), "--first-frame", str(uf2)]) == 2


def test_each_board_keeps_its_filesystem_where_its_port_puts_it(tmp_path):
    # RPI_PICO's littlefs is the last 1408 KB of the flash, RPI_PICO_W's the last 848 KB
    # (its image is larger): made at the Pico's place, the Pico W's filesystem was written
    # over its own image from 640 KB on, and the image started from a flash not its own
    code = bytes(range(256)) * (1000 * 4)                  # an image of 1000 KB
    uf2 = tmp_path / "phase10-pico_w.uf2"
    uf2.write_bytes(_uf2(code))
    try:
        bb.use_board(bb.board_of(str(uf2)))
        assert bb.FS_BASE == 1200 * 1024
        with open(bb.install_frozen({"uf2": str(uf2)}, str(tmp_path / "flash")), "rb") as f:
            flash = f.read()
        assert flash[:len(code)] == code and bb.listing(flash) == []
    finally:
        bb.use_board("pico")
    assert bb.FS_BASE == 640 * 1024 and bb.board_of("build/firmware/phase10-pico.uf2") == "pico"
