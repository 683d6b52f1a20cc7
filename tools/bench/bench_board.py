"""make bench-board: the firmware on MicroPython's real rp2 port (v1.26.1, RPI_PICO) in the
rp2040js emulator (tools/bench/board/emu.mjs), installed the two ways a maker installs it:

  .mpy    the stock RPI_PICO image, then `make deploy PORT=<pty>` over the emulated USB
          serial port (the .mpy files on littlefs)
  frozen  the image of `make firmware BOARD=pico` (the app frozen in)

  make bench-board MPY_DIR=/path/to/micropython        (python tools/bench/bench_board.py --mpy-dir D)
  make bench-board MPY_DIR=D BOARD=pico_w              the Pico W's image (make firmware BOARD=pico_w)
                                                       on its own flash layout: start-up and golden
                                                       screens, as "frozen_pico_w"
  python tools/bench/bench_board.py --check --mpy-dir D      say in one line what is missing, or nothing

For each install it checks every golden screen that does not depend on the dice or on the
board's own heap (tests/golden) byte for byte, plays the worst cases of tests/worst.py and
writes into bench/results.json, section "board", one entry per install:
  boot_ms_no_game, boot_ms_55_hands: reset to the end of the first frame;
  key_ms_p50/p95/max (+ by key, by screen): a key's acting edge (an arrow's press, OK's
    release, LONG_OK's 600 ms, HELP's press) to the end of the last frame before the device
    settled again (no frame for 300 ms and the CPU asleep 80% of the last 50 ms): the frame
    that shows the result, each key pressed once the device has settled;
    keys_over_200ms and key_first_frame_ms_max_over_200ms: how many keys took over 200 ms
    to their result, and the most any of them took to its first frame (the busy mark);
  golden_checked / golden_matched, taps_lost: the golden scripts played at their own pace
    (80 ms presses 150 ms apart, queued while the firmware is busy) and each worst case's
    last screen against the simulator's for the same keys (and, as each worst case is timed,
    the note its finish shows);
  heap_<KB>kb_completed / _of (--heap KB,KB: only these, merged into the last run's
    figures): the worst cases played with MicroPython given a heap of KB (the .mpy
    install's figure, then the frozen image's; the emulator moves gc_init's end down),
    completed when the last screen is the simulator's;
  code_heap_kb_hand_entry (the .mpy install; --code-heap: only this, merged into the last
    run's figures): the heap the code of the modules loaded with Classic's hand entry open
    takes (a small heap's set), code_heap_names_kb_hand_entry the interned names of it;
  heap_after_start_kb (the live heap after the first collection once settled, the 55-hand
    game loaded), heap_live_max_kb_<session>: the largest live heap after a collection;
  save_*: per committed hand, the flash erased and programmed, its modelled time at the
    W25Q16JV's typical timings (45 ms a 4 KB erase, 0.4 ms a page) and how long a key
    pressed as that save starts waits for it (the save's first flash operation to its last);
  taps_*: taps made during a save's flash erase (TAPS_N of each kind; --taps N runs only
    these, merged into the last run's figures): a 5-player game, each hand committed with OK, and DOWN tapped
    5 ms into the first erase that commit makes; kept when the screen then shows what the
    simulator shows for the same keys (the standings' cursor one row down). 30 ms and 60 ms
    taps with the typical 45 ms erase, 60 ms taps with a slow chip's 400 ms erase;
    taps_*_frame_ms_max: the longest from a tap's press to the end of the frame after it.
    The erase stalls the core (no instruction, no interrupt taken) while the pins' levels
    change and the chip latches their edges, as the RP2040 does.
Emulated times are instruction cycles at 125 MHz with no XIP wait states: lower bounds.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import firmware_image  # noqa: E402

OUT = os.path.join(ROOT, "build", "board")
EMU = os.path.join(ROOT, "tools", "bench", "board", "emu.mjs")
RP2040JS = os.path.join(ROOT, "tools", "bench", "board", "node_modules", "rp2040js", "package.json")
RESULTS = os.path.join(ROOT, "bench", "results.json")
# RPI_PICO: 2 MB of flash, the last 1408 KB littlefs (ports/rp2/boards/RPI_PICO/mpconfigboard.h)
# mounted with 256-byte program pages (ports/rp2/modules/_boot.py); RPI_PICO_W: the last
# 848 KB (its image is larger: the CYW43's firmware, lwIP, BTstack). use_board() sets them.
FLASH_BYTES = 2 * 1024 * 1024
FS_BYTES_OF = {"pico": 1408 * 1024, "pico_w": 848 * 1024}
FS_BYTES = FS_BYTES_OF["pico"]
FS_BASE = FLASH_BYTES - FS_BYTES
BLOCK = 4096
BUTTONS = (16, 17, 18, 19, 20)     # firmware/boards/pico.py: up, down, left, right, ok
LONG_MS = 600                      # firmware/edges/buttons.py Buttons.LONG_MS: OK held this long is BACK
SAVE_GAP_MS = 30                   # flash operations closer than this are one save
GET = firmware_image.GET_MPY


class Needed(Exception):
    """Something the bench needs is missing: args[0] says what and how to get it, in one line."""


def use_board(board):
    """The flash of this run's board (pico, pico_w): where its littlefs lies. An image
    started on another board's layout had its filesystem made over its own code."""
    global FS_BYTES, FS_BASE
    FS_BYTES = FS_BYTES_OF[board]
    FS_BASE = FLASH_BYTES - FS_BYTES


def board_of(uf2):
    """The board of make firmware's image (build/firmware/phase10-<board>.uf2): pico
    unless the name says another rp2 board."""
    name = os.path.splitext(os.path.basename(uf2))[0].replace("phase10-", "", 1)
    return name if name in FS_BYTES_OF else "pico"


def one_line(text):
    return " ".join(text.split())


def check(mpy_dir, which=shutil.which, env=os.environ):
    """Raise Needed (one line) for the first thing missing; else the picotool folder to give
    the pico-sdk (None: picotool is on the PATH)."""
    if not mpy_dir:
        raise Needed("make bench-board needs a MicroPython source tree with its submodules: "
                     "make bench-board MPY_DIR=/path/to/micropython (get v1.26.1: %s --recurse-submodules)" % GET)
    try:
        firmware_image.mpy_version(mpy_dir)
        firmware_image.check_toolchain("pico", mpy_dir, which=which, env=env)
    except firmware_image.Needed as e:
        raise Needed("make bench-board: " + one_line(e.args[0]))
    if not os.path.isfile(os.path.join(mpy_dir, "lib", "pico-sdk", "pico_sdk_init.cmake")):
        raise Needed("make bench-board: %s has no lib/pico-sdk: run `make -C %s/ports/rp2 BOARD=RPI_PICO submodules`"
                     % (mpy_dir, mpy_dir))
    if not which("node"):
        raise Needed("make bench-board: node is not on the PATH (the emulator, rp2040js, runs on it): "
                     "install Node.js 18 or newer, e.g. `sudo apt-get install nodejs npm`")
    if not which("socat"):
        raise Needed("make bench-board: socat is not on the PATH (it gives the emulated USB serial port a "
                     "pseudo-terminal for `make deploy`): `sudo apt-get install socat`")
    if which("picotool") or env.get("picotool_DIR"):
        return env.get("picotool_DIR")
    raise Needed("make bench-board: the pico-sdk needs picotool 2.1.1 (picotool_DIR or on the PATH): "
                 "git clone -b 2.1.1 https://github.com/raspberrypi/picotool && cmake -S picotool -B picotool/build "
                 "-DPICOTOOL_NO_LIBUSB=1 -DPICOTOOL_FLAT_INSTALL=1 -DPICO_SDK_PATH=%s/lib/pico-sdk "
                 "-DCMAKE_INSTALL_PREFIX=$HOME/picotool && cmake --build picotool/build --target install, "
                 "then picotool_DIR=$HOME/picotool/picotool" % mpy_dir)


# ---- the two images ---------------------------------------------------------------------------
def _env():
    return {k: v for k, v in os.environ.items() if k not in firmware_image._NOT_PASSED}


def build(mpy_dir, jobs, board="pico"):
    """(stock, frozen): each {uf2, elf}. The stock image as MicroPython builds it (the Pico's:
    the .mpy install); the frozen one through the project's own `make firmware BOARD=...`."""
    mpy_dir = os.path.abspath(mpy_dir)
    port = os.path.join(mpy_dir, "ports", "rp2")
    steps = [["make", "-C", os.path.join(mpy_dir, "mpy-cross"), "-j%d" % jobs]]
    if board == "pico":
        steps.append(["make", "-C", port, "BOARD=RPI_PICO", "-j%d" % jobs])
    for argv in steps:
        print("make-bench-board: " + " ".join(argv), flush=True)
        subprocess.run(argv, check=True, env=_env(), stdout=subprocess.DEVNULL)
    print("make-bench-board: make firmware BOARD=%s MPY_DIR=%s" % (board, mpy_dir), flush=True)
    subprocess.run(["make", "firmware", "BOARD=" + board, "MPY_DIR=" + mpy_dir], cwd=ROOT, check=True,
                   env=_env(), stdout=subprocess.DEVNULL)
    return built(mpy_dir, board)


def built(mpy_dir, board="pico"):
    port = os.path.join(os.path.abspath(mpy_dir), "ports", "rp2")
    return ({"uf2": os.path.join(port, "build-RPI_PICO", "firmware.uf2"),
             "elf": os.path.join(port, "build-RPI_PICO", "firmware.elf")},
            {"uf2": os.path.join(ROOT, "build", "firmware", firmware_image.image_name(board)),
             "elf": os.path.join(port, firmware_image.build_dir(board), "firmware.elf")})


def symbols(elf):
    """The addresses the emulator hooks: gc_collect (the live heap when it returns), and where
    the heap's bookkeeping is (mp_state_ctx, __GcHeapStart/End)."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", elf], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if f and f[-1] in ("gc_collect", "gc_init", "__GcHeapStart", "__GcHeapEnd"):
            syms[f[-1]] = int(f[0], 16)
        elif f and f[-1] == "mp_state_ctx" and len(f) == 4:
            syms[f[-1]] = [int(f[0], 16), int(f[1], 16)]
    missing = [n for n in ("gc_collect", "__GcHeapStart", "__GcHeapEnd", "mp_state_ctx") if n not in syms]
    if missing:
        raise SystemExit("make bench-board: %s has no %s" % (elf, ", ".join(missing)))
    return syms


# ---- the emulator -----------------------------------------------------------------------------
class ChipFault(SystemExit):
    """The emulated chip faulted (rp2040js's error: an unaligned load, say): a real RP2040
    would have taken a HardFault there. The run stops and no figure is written."""


def where(elf, addrs):
    """[function (file:line)] of each code address, from the ELF (arm-none-eabi-addr2line);
    "?" when the ELF or the tool is not at hand."""
    if not elf or not os.path.isfile(elf) or not shutil.which("arm-none-eabi-addr2line"):
        return ["?"] * len(addrs)
    # -i: an inlined function is followed by the ones it was inlined into, innermost first
    out = []
    for a in addrs:
        r = subprocess.run(["arm-none-eabi-addr2line", "-f", "-i", "-e", elf, "%x" % (a & ~1)],
                           capture_output=True, text=True)
        ln = [x.strip() for x in r.stdout.splitlines()]
        pairs = ["%s (%s)" % (ln[i], os.path.basename(ln[i + 1])) for i in range(0, len(ln) - 1, 2)]
        out.append(" in ".join(pairs) if pairs else "?")
    return out


def nearest_symbol(elf, addr):
    """The ELF's symbol at or just below addr (nm -n), e.g. a frozen function's code
    (fun_data_...), which addr2line cannot name: it has no line table."""
    if not elf or not os.path.isfile(elf) or not shutil.which("arm-none-eabi-nm"):
        return None
    out = subprocess.run(["arm-none-eabi-nm", "-n", elf], capture_output=True, text=True).stdout
    best = None
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTrRdDbB":
            v = int(f[0], 16)
            if v <= addr:
                best = (f[2], addr - v)
            elif best:
                break
    return "%s+0x%x" % best if best else None


def fault_text(f, elf):
    """One line: what the chip faulted on, and where (the PC and LR, named from the ELF)."""
    pc, lr = f["pc"], f["lr"]
    names = where(elf, [pc, lr])
    for i, a in enumerate((pc, lr)):
        sym = nearest_symbol(elf, a & ~1)
        if sym and sym.startswith("fun_data_"):
            names[i] = "%s (frozen code)" % sym
    return ("the chip faulted at %.1f ms: %s; PC %08x %s; LR %08x %s (an RP2040 takes a HardFault here: "
            "the firmware's fault, not the emulator's)" % (f["t"] / 1e6, f["message"], pc, names[0], lr, names[1]))


class Emu:
    """The emulator, one board. Every error rp2040js reports is the chip's fault and ends
    the run (ChipFault); its warnings (what it does not model) are kept in .warnings."""

    def __init__(self, elf=None):
        self.elf = elf
        self.warnings = {}
        self.p = subprocess.Popen(["node", EMU], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, **kw):
        self.p.stdin.write(json.dumps(kw) + "\n")
        self.p.stdin.flush()

    def reply(self):
        line = self.p.stdout.readline()
        if not line:
            raise SystemExit("make bench-board: the emulator stopped")
        r = json.loads(line)
        if not r.pop("ok"):
            if r.get("fault"):
                self.close()
                raise ChipFault("make bench-board: " + fault_text(r["fault"], self.elf))
            raise SystemExit("make bench-board: emulator: " + r["error"])
        return r

    def __call__(self, cmd, **kw):
        self.send(cmd=cmd, **kw)
        return self.reply()

    def close(self):
        if self.p.poll() is None:
            try:
                self.send(cmd="warnings")
                line = self.p.stdout.readline()
                r = json.loads(line) if line else {}
                add_warnings(self.warnings, r.get("warnings", {}))
            except (OSError, ValueError):
                pass
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()
        add_warnings(WARNINGS, self.warnings)


# Every warning the emulator gave in this run, by message: {message: [count, first one]}
WARNINGS = {}


def add_warnings(into, w):
    for k, v in w.items():
        if isinstance(v, dict):
            v = [v["count"], v["first"]]
        n = into.setdefault(k, [0, v[1]])
        n[0] += v[0]


# ---- the filesystem (littlefs as the rp2 port mounts it) --------------------------------------
def _lfs(buf):
    from littlefs import LittleFS, UserContext
    return LittleFS(UserContext(buffer=buf), block_size=BLOCK, block_count=FS_BYTES // BLOCK,
                    prog_size=256, read_size=32, lookahead_size=32, block_cycles=100, mount=False)


def with_files(flash, files, out_path):
    """flash (bytes, the whole chip) with files {name: bytes} written into its littlefs (made
    when there is none); saved to out_path. Returns the names that did not fit."""
    buf = bytearray(flash[FS_BASE:])
    fs = _lfs(buf)
    try:
        fs.mount()
    except Exception:
        fs.format()
        fs.mount()
    left = []
    for name, data in files.items():
        try:
            with fs.open(name, "wb") as f:
                f.write(data)
        except Exception:
            try:
                fs.remove(name)
            except Exception:
                pass
            left.append(name)
    fs.unmount()
    with open(out_path, "wb") as f:
        f.write(bytes(flash[:FS_BASE]) + bytes(buf))
    return left


def listing(flash):
    fs = _lfs(bytearray(flash[FS_BASE:]))
    fs.mount()
    out = []
    for root, dirs, names in fs.walk("/"):
        out += [(root.rstrip("/") + "/" + n) for n in names]
    return sorted(out)


def folder_files(folder):
    """The files of a start folder in the order they go onto the flash: the history's
    newest first (history.json, then history.K.json by K down), after the other files, so
    on a filesystem too small for them all the oldest games are the ones left out, as the
    device itself deletes the oldest when its flash is full (firmware/history/histroom.py)."""
    def order(n):
        if n == "history.json":
            return (1, 0)
        if n.startswith("history.") and n[8:-5].isdigit():
            return (1, -int(n[8:-5]))
        return (0, n)
    out = {}
    for n in sorted(os.listdir(folder), key=order):
        with open(os.path.join(folder, n), "rb") as f:
            out[n] = f.read()
    return out


# ---- installs ---------------------------------------------------------------------------------
def install_mpy(stock, syms):
    """The stock image on an erased chip: it makes its littlefs at first start; then `make
    deploy PORT=<pty>` copies the app over the USB serial port. Returns (flash path, seconds)."""
    os.makedirs(OUT, exist_ok=True)
    tty = os.path.join(OUT, "ttyPico")
    emu = Emu(stock.get("elf"))
    emu("load", uf2=stock["uf2"], syms=syms)
    emu.send(cmd="pty", path=tty)
    emu.reply()                     # the pty is up; the board runs free until "stop"
    t0 = time.time()
    r = subprocess.run(["make", "--no-print-directory", "deploy", "PORT=" + tty], cwd=ROOT, env=_env(),
                       capture_output=True, text=True)
    secs = time.time() - t0
    emu.send(cmd="stop")
    emu.reply()
    path = os.path.join(OUT, "mpy.flash")
    emu("save_flash", path=path)
    emu.close()
    if r.returncode:
        raise SystemExit("make bench-board: make deploy over the emulated serial port failed:\n" + r.stdout + r.stderr)
    return path, secs


def install_frozen(frozen, path=None):
    """The frozen image on a chip whose littlefs is made and empty (as after a first start),
    saved at path (build/board/frozen.flash; frozen_<board>.flash for another board than the
    Pico: a run of each may go on at once, and each Board reads this file as it starts)."""
    if path is None:
        os.makedirs(OUT, exist_ok=True)
        board = board_of(frozen["uf2"])
        path = os.path.join(OUT, "frozen.flash" if board == "pico" else "frozen_%s.flash" % board)
    flash = bytearray(b"\xff" * FLASH_BYTES)
    with open(frozen["uf2"], "rb") as f:
        data = f.read()
    for off in range(0, len(data) - 511, 512):
        blk = data[off:off + 512]
        if blk[:8] != b"UF2\n\x57\x51\x5d\x9e":
            continue
        target = int.from_bytes(blk[12:16], "little") - 0x10000000
        size = int.from_bytes(blk[16:20], "little")
        flash[target:target + size] = blk[32:32 + size]
    with_files(bytes(flash), {}, path)
    return path


# ---- a smaller heap ---------------------------------------------------------------------------
def heap_area(kb):
    """The bytes gc_init is given for a heap of kb KB free to allocate: MicroPython keeps
    its allocation table (2 bits a 16-byte block) and its finaliser table (1 bit) in the
    same area (py/gc.c)."""
    pool = kb * 1024
    return pool + pool // 64 + pool // 128 + 64


# How firmware/memory/policy.py's report_short begins (the screens open follow, then "):")
_SHORT = "Short of memory, nothing lost ("


def last_error(text):
    """The last error a board printed on its USB serial port, in one line: the error and
    the innermost place ("MemoryError: ... (firmware/stack.py, line 40, in _make)"), or,
    when a key's own path ran short (App.short_of_memory, which prints no traceback
    there), the screens open; then the heap as it was, when the device said it.
    MicroPython's "allocating N bytes" when its table of interned names grows is N
    entries, about 6 bytes each (py/qstr.c)."""
    i = text.rfind("Traceback (most recent call last):")
    short = text.rfind(_SHORT)
    if i < 0 and short < 0:
        return "no error printed (the last screen differs from the simulator's)"
    if short > i:
        err = ["MemoryError"]
        place = "on " + text[short + len(_SHORT):text.find(")", short)]
        i = short
    else:
        lines = [ln.strip() for ln in text[i:].splitlines()[1:] if ln.strip()]
        where = [ln for ln in lines if ln.startswith("File ")]
        err = [ln for ln in lines if not ln.startswith("File ")]
        place = where[-1][5:].replace('"', "") if where else "?"
    # the device's own report of the heap as it ran short (App.short_of_memory): free
    # in all, and the largest free piece (MicroPython counts it in 16-byte blocks)
    heap = ""
    gc_at = text.rfind("GC: total:", i)
    if gc_at >= 0:
        tail = text[gc_at:]
        free = re.search(r"free: (\d+)", tail)
        most = re.search(r"max free sz: (\d+)", tail)
        if free and most:
            heap = "; %d bytes free, the largest piece %d" % (int(free.group(1)), int(most.group(1)) * 16)
    return "%s (%s)%s" % (err[0] if err else "?", place, heap)


def measure_heap(label, image, syms, flash, sessions, kb):
    """{heap_<kb>kb_completed, heap_<kb>kb_of, ...}: each worst case played at the scripts'
    pace with MicroPython given a heap of kb KB: it completes when the device starts and its
    last screen is the simulator's (a MemoryError would show the short-of-memory note)."""
    done = []
    failed = []
    for s in sessions:
        b = Board(image, syms, flash, folder_files(s["start"]), heap_kb=kb)
        first, settled = b.boot()
        ok = first is not None
        if ok:
            for chunk in s["chunks"]:
                b.play_paced(chunk)
            ok = b.rows() == sim_final(s["start"], s["chunks"], b.left)
        why = "" if ok else ": " + last_error(b.emu("serial", send="", until="\x00", max_ms=10)["text"])
        b.close()
        (done if ok else failed).append(s["name"])
        print("make-bench-board: %s heap %d KB %s: %s%s" % (label, kb, s["name"], "completed" if ok else "did not complete",
                                                           why), flush=True)
    if failed:      # results.json holds numbers only: the names are said here
        print("make-bench-board: %s heap %d KB: did not complete: %s" % (label, kb, ", ".join(failed)), flush=True)
    return {"heap_%dkb_completed" % kb: len(done), "heap_%dkb_of" % kb: len(sessions)}


# ---- the code in the heap ---------------------------------------------------------------------
# Run at the REPL of a board started with no app: each module imported in turn, a collection
# before and after, what it left allocated (its bytecode, functions, globals and the names it
# interned; a module it imports is counted as its own), then the interned names' bytes.
_CODE_HEAP = """import gc, sys, builtins, micropython
_real = builtins.__import__
_stack = []
_cost = {}
def _hook(name, g=None, l=None, fl=(), lv=0):
    full = name
    if lv and g:
        p = g.get("__name__", "")
        if g.get("__path__") is None:
            p = p.rpartition(".")[0]
        full = p + ("." + name if name else "")
    if full in sys.modules:
        return _real(name, g, l, fl, lv)
    gc.collect()
    a = gc.mem_alloc()
    _stack.append(0)
    try:
        return _real(name, g, l, fl, lv)
    finally:
        gc.collect()
        inc = gc.mem_alloc() - a
        kids = _stack.pop()
        _cost[full] = _cost.get(full, 0) + inc - kids
        if _stack:
            _stack[-1] += inc
builtins.__import__ = _hook
for m in MODS:
    __import__(m)
builtins.__import__ = _real
for k in _cost:
    if k.startswith(("firmware", "engine_mpy", "adafruit", "microdot")):
        print("CODE %d %s" % (_cost[k], k))
micropython.qstr_info()
print("EN" + "D!")
"""
_CODE_LIST = """import sys, gc
print("MODS " + ",".join(m for m in sorted(sys.modules) if m.startswith(("firmware", "engine_mpy"))))
print("EN" + "D!")
"""


def repl_run(b, code):
    """code run at the board's REPL (paste mode, after Ctrl-C stops whatever runs): what
    it printed."""
    b.emu("serial", send="\r\x03\x03", until=">>> ", max_ms=3000)
    b.emu("serial", send="\x05", until="===", max_ms=2000)
    text = b.emu("serial", send=code.replace("\n", "\r") + "\x04", until="END!", max_ms=120000)["text"]
    return text[text.rfind("=== \r\n"):]


def code_heap_of(out):
    """({module: bytes}, the interned names' bytes or None) from what _CODE_HEAP printed."""
    cost = {}
    names = None
    for ln in out.splitlines():
        if ln.startswith("CODE "):
            n, m = ln[5:].split()
            cost[m] = int(n)
        elif "n_total_bytes=" in ln:
            names = int(ln.rpartition("n_total_bytes=")[2].strip())
    return cost, names


def measure_code_heap(label, image, syms, flash, sessions, kb=96):
    """{code_heap_kb_hand_entry, code_heap_names_kb_hand_entry}:
    the heap that the code of the modules loaded with Classic's hand entry open takes: the
    55-hand game continued and "End of hand" opened with a small heap (kb KB, where only
    what the screens on the stack need stays loaded), those modules' names read at the
    REPL; then, on a board started without the app, those modules imported one by one.
    The .mpy install loads its code into the heap; the frozen image's stays in flash."""
    s = [x for x in sessions if x["name"] == "worst_classic_55"][0]
    b = Board(image, syms, flash, folder_files(s["start"]), heap_kb=kb)
    b.boot()
    for chunk in s["chunks"][:2] + ["OK"]:        # Continue, the score sheet, End of hand
        b.play_paced(chunk)
    out = repl_run(b, _CODE_LIST)
    b.close()
    mods = [ln[5:].strip() for ln in out.splitlines() if ln.startswith("MODS ")][0].split(",")
    if "firmware.screens.hand" not in mods:
        raise SystemExit("make bench-board: %s: the hand entry did not open: %s" % (label, mods))
    b = Board(image, syms, flash, {"main.py": b"import gc\n"}, heap_kb=kb)     # (the same small heap's code)
    b.boot()
    out = repl_run(b, "MODS = %r\n" % mods + _CODE_HEAP)
    b.close()
    cost, names = code_heap_of(out)
    total = sum(cost.values())
    for m in sorted(cost, key=lambda m: -cost[m]):
        print("make-bench-board: %s code heap, hand entry: %6.1f KB %s" % (label, cost[m] / 1024.0, m), flush=True)
    return {"code_heap_kb_hand_entry": round(total / 1024.0, 1),
            "code_heap_names_kb_hand_entry": round(names / 1024.0, 1) if names is not None else None}


# ---- playing ----------------------------------------------------------------------------------
def steps_of(keys):
    from host_sim import script
    return script.parse(keys)


def acting_edge(bits, down, up, hold_ms):
    """When a press acts (firmware/edges/buttons.py): an arrow when pressed, OK when let go (or at
    LONG_MS held: BACK), OK+UP/DOWN (HELP) when the chord is made."""
    if bits == 16:
        return down + LONG_MS * 1e6 if hold_ms >= LONG_MS else up
    return down


class Board:
    """One booted device: emulator, the image, the files it starts with."""

    def __init__(self, image, syms, flash, files=None, flash_model="typical", heap_kb=None):
        self.emu = Emu(image.get("elf"))
        self.path = None
        if files:
            with open(flash, "rb") as f:
                base = f.read()
            fd, self.path = tempfile.mkstemp(prefix="phase10-board-", suffix=".flash")
            os.close(fd)
            self.left = with_files(base, files, self.path)
            flash = self.path
        else:
            self.left = []
        more = {"heap_bytes": heap_area(heap_kb)} if heap_kb else {}
        self.emu("load", flash=flash, syms=syms, flash_model=flash_model, **more)
        self.keys = []       # (name, screen, edge_ns, first frame end or None)

    def boot(self):
        """(ms from reset to the end of the first frame that shows something, settled?): the
        display's set-up clears the panel first, which is not a screen yet."""
        r = self.emu("settle", max_ms=20000)
        fr = [f for f in self.emu("frames")["frames"] if f.get("lit")]
        first = fr[0]["end"] / 1e6 if fr else None
        return first, r["settled"]

    def play_timed(self, keys, screen):
        """Each key once the device has settled; its acting edge to the end of the first
        frame after it."""
        from host_sim import script
        names = keys.replace(",", " ").split()
        for name, step in zip(names, script.parse(keys)):
            self.emu("settle", max_ms=20000)
            self.emu("frames")
            bits, hold, then = step
            r = self.emu("keys", steps=[[bits, hold, 0]])
            s = self.emu("settle", max_ms=20000)
            if not bits:
                continue
            down, up = r["presses"][0]
            edge = acting_edge(bits, down, up, hold)
            fr = [f for f in self.emu("frames")["frames"] if f["start"] >= edge]
            # the result: the last frame before the device settled (a long moment's first
            # frame is its busy mark, firmware/app.py App.busy); and that first frame
            self.keys.append((name.upper(), screen, edge, fr[-1]["end"] if fr else None, s["settled"],
                              fr[0]["end"] if fr else None))

    def play_paced(self, keys):
        self.emu("settle", max_ms=20000)
        self.emu("keys", steps=[list(s) for s in steps_of(keys)])
        return self.emu("settle", max_ms=60000)["settled"]

    def rows(self):
        g = bytes.fromhex(self.emu("screen")["gram"])
        return ["".join("#" if g[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128))
                for y in range(64)]

    def close(self):
        self.emu.close()
        if self.path:
            os.remove(self.path)


# ---- golden screens ---------------------------------------------------------------------------
# Well-mixed seeds: xorshift from small seeds (1, 2, ...) gives nearly the same first numbers,
# so the same Twist card or dice, and a random screen would pass for a fixed one.
SEEDS = (0x2545F491, 0x9E3779B9, 0x6A09E667)


def golden_cases(board="pico"):
    """[(name, keys, files)] of the golden screens that do not depend on the random source:
    rendered on the simulator with SEEDS, the same screen (the About screen, which shows the
    board's own free heap, is left out too). On the Pico W: the screens it shows as the Pico
    does, and its own (golden.WIFI: Settings with its Phones line) in place of the Pico's."""
    from host_sim import golden, script, sim
    from engine_mpy import savefile
    out, skipped = [], []
    for name, keys in golden.CASES:
        files = {}
        k = keys
        if k.startswith(golden.WIFI):
            if board != "pico_w":      # a Pico W's own screen
                skipped.append(name)
                continue
            k = k[len(golden.WIFI):]
        if k.startswith("GAME:"):
            g, _, k = k[5:].partition(" ")
            files["game.json"] = savefile.dumps(golden.SAVED[g]()).encode()
        if name == "about" or keys.startswith(("PHONES", "JOIN ")):
            # the About screen shows the board's own free heap; the table on phones needs
            # the Pico W's radio, which rp2040js does not emulate (the image starts it only
            # when the phones are switched on)
            skipped.append(name)
            continue
        shots = []
        for seed in SEEDS:
            sim.use_fake_machine()
            state = tempfile.mkdtemp(prefix="phase10-seed-")
            try:
                for n, data in files.items():
                    with open(os.path.join(state, n), "wb") as f:
                        f.write(data)
                dev = script.Device(board=board, state=state, mem_free=golden.MEM_FREE, seed=seed)
                dev.play(script.parse(k))
                shots.append(dev.rows())
            finally:
                shutil.rmtree(state, ignore_errors=True)
        if any(x != shots[0] for x in shots):
            skipped.append(name)
            continue
        with open(golden.path(name)) as f:
            if board != "pico" and shots[0] != f.read().split():
                skipped.append(name)      # the Pico's screen: this board has its own
                continue
        out.append((name, k, files))
    return out, skipped


def check_golden(image, syms, flash, cases):
    from host_sim import golden
    bad = []
    for name, keys, files in cases:
        b = Board(image, syms, flash, files)
        b.boot()
        b.play_paced(keys)
        with open(golden.path(name)) as f:
            want = f.read().split()
        if b.rows() != want:
            bad.append(name)
        b.close()
        print("make-bench-board:   golden %s %s" % (name, "differs" if name in bad else "ok"), flush=True)
    return bad


# ---- the figures ------------------------------------------------------------------------------
def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    k = (len(xs) - 1) * p / 100.0
    i = int(k)
    j = min(i + 1, len(xs) - 1)
    return round(xs[i] + (xs[j] - xs[i]) * (k - i), 1)


def sim_final(start, chunks, left=()):
    """The simulator's last screen for a worst case's keys (host_sim/script.py's pace), on
    the start folder's files but those in left (what did not fit on the board's flash)."""
    from host_sim import script, sim
    sim.use_fake_machine()
    state = tempfile.mkdtemp(prefix="phase10-final-")
    try:
        for n, data in folder_files(start).items():
            if n in left:
                continue
            with open(os.path.join(state, n), "wb") as f:
                f.write(data)
        dev = script.Device(board="pico", state=state)
        for c in chunks:
            dev.play(script.parse(c))
        return dev.rows()
    finally:
        shutil.rmtree(state, ignore_errors=True)


# --quick: what a loaded host can run in well under an hour. Golden screens: these; worst
# cases: the Classic tie-break (Continue of the 55-hand game, the finish into the 1,000-game
# history, History, New game on the roster), Twist (the last hand with Twist cards, the
# finish) and Dice (a turn's real dice with Help opened halfway); the score sheets' long
# scrolls left out and History's and the roster's cut to two keys (the screens they reach
# are the same).
QUICK_GOLDEN = ("menu", "settings", "help_menu", "newgame_players", "cards_hand_full", "cards_standings",
                "twist_card", "dice_over", "rules_phase", "history")
QUICK_SESSIONS = ("worst_classic_tiebreak", "worst_twist", "worst_dice")


def quick(sessions, cases):
    from tests import worst
    from tests import table_keys as K
    short = {worst.HISTORY[0][0]: K.menu("history") + " DOWN UP", worst.HISTORY[1][0]: "OK DOWN",
             worst.ROSTER[0][0]: K.menu("new game") + " OK OK DOWN DOWN"}
    out = []
    for s in sessions:
        if s["name"] not in QUICK_SESSIONS:
            continue
        s = dict(s)
        steps = [(short.get(c, c), e) for c, e in zip(s["chunks"], s["expect"])
                 if c != worst.SHEET and not c.startswith("DOWN OK " + K.down(8)) and not c.startswith("LEFT " + worst.SHEET)]
        steps = [(c.replace(K.down(20), K.down(2)), e) for c, e in steps]
        s["chunks"] = [c for c, _ in steps]
        s["expect"] = [e for _, e in steps]
        out.append(s)
    return out, [c for c in cases if c[0] in QUICK_GOLDEN]


def measure_boot(label, image, syms, flash, sessions):
    res = {}
    # boot: no game, and the 55-hand 6-player game (the worst Classic's save of 55 hands)
    b = Board(image, syms, flash)
    res["boot_ms_no_game"] = round(b.boot()[0], 1)
    b.close()
    tb = [s for s in sessions if s["name"] == "worst_classic_tiebreak"][0]
    b = Board(image, syms, flash, folder_files(tb["start"]))
    first, _ = b.boot()
    res["boot_ms_55_hands"] = round(first, 1)
    h = b.emu("heaplog")["samples"]
    res["heap_after_start_kb"] = round(h[-1]["live"] / 1024.0, 1) if h else None
    b.close()
    print("make-bench-board: %s boot %s / %s ms" % (label, res["boot_ms_no_game"], res["boot_ms_55_hands"]), flush=True)
    return res


def measure(label, image, syms, flash, sessions, golden, paced, every=None, taps=None):
    res = measure_boot(label, image, syms, flash, every or sessions)

    keys = []
    saves = []
    lost = []
    not_fitted = {}
    for s in sessions:
        b = Board(image, syms, flash, folder_files(s["start"]))
        if b.left:
            not_fitted[s["name"]] = len(b.left)
        b.boot()
        b.emu("heaplog")
        b.emu("flashlog")
        for i, (chunk, screen) in enumerate(zip(s["chunks"], s["expect"])):
            b.play_timed(chunk, screen)
            if screen == "note" and b.rows() != sim_final(s["start"], s["chunks"][:i + 1], b.left):
                # what a finish says (the history's oldest games deleted) is the
                # simulator's: the board's own code read the history as the host's did
                lost.append(s["name"] + " (its note)")
        live = [x["live"] for x in b.emu("heaplog")["samples"]]
        res["heap_live_max_kb_" + s["name"]] = round(max(live) / 1024.0, 1) if live else None
        saves += group_saves(b.emu("flashlog")["ops"])
        keys += [(s["name"],) + k for k in b.keys]
        b.close()
        print("make-bench-board: %s %s: %d keys timed" % (label, s["name"], len(b.keys)), flush=True)
        if s["name"] not in paced:
            continue
        # the same keys at the scripts' own pace, queued while busy: the same last screen as
        # the simulator's, or a tap was lost
        b = Board(image, syms, flash, folder_files(s["start"]))
        b.boot()
        for chunk in s["chunks"]:
            b.play_paced(chunk)
        if b.rows() != sim_final(s["start"], s["chunks"], b.left):
            lost.append(s["name"])
        b.close()
    drew = [(n, k, scr, (end - edge) / 1e6, (first - edge) / 1e6)
            for n, k, scr, edge, end, _, first in keys if end is not None]
    ms = [d[3] for d in drew]
    # a long moment shows it is working: for the keys whose result took over 200 ms,
    # the most any took to its first frame
    slow = [d[4] for d in drew if d[3] > 200]
    res["keys_over_200ms"] = len(slow)
    if slow:
        res["key_first_frame_ms_max_over_200ms"] = round(max(slow), 1)
    res["keys_timed"] = len(keys)
    # every key's figures, slowest first, for finding where the time goes (not a result)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "keys_%s.json" % label), "w") as f:
        json.dump([{"session": d[0], "key": d[1], "screen": d[2], "ms": round(d[3], 1),
                    "first_ms": round(d[4], 1)} for d in sorted(drew, key=lambda d: -d[3])], f, indent=0)
    res["keys_that_draw"] = len(drew)
    res["key_ms_p50"] = pct(ms, 50)
    res["key_ms_p95"] = pct(ms, 95)
    res["key_ms_max"] = round(max(ms), 1) if ms else None
    for k in sorted(set(d[1] for d in drew)):
        xs = [d[3] for d in drew if d[1] == k]
        res["key_ms_p95_key_" + k] = pct(xs, 95)
    for scr in sorted(set(d[2] for d in drew)):
        xs = [d[3] for d in drew if d[2] == scr]
        res["key_ms_p95_screen_" + scr] = pct(xs, 95)
        res["key_ms_max_screen_" + scr] = round(max(xs), 1)
    live = [v for k, v in res.items() if k.startswith("heap_live_max_kb_") and v is not None]
    if live:
        res["heap_live_max_kb"] = max(live)
    res["paced_sessions"] = len(paced)
    res["taps_lost_sessions"] = len(lost)
    if saves:
        res["saves"] = len(saves)
        res["save_erased_kb_max"] = max(s["erased"] for s in saves) / 1024.0
        res["save_programmed_kb_max"] = round(max(s["programmed"] for s in saves) / 1024.0, 1)
        res["save_flash_ms_p50"] = pct([s["flash_ms"] for s in saves], 50)
        res["save_flash_ms_max"] = round(max(s["flash_ms"] for s in saves), 1)
        res["key_wait_during_save_ms_max"] = round(max(s["span_ms"] for s in saves), 1)
    if taps is None or taps:
        res.update(measure_taps(label, image, syms, flash, TAPS_N if taps is None else taps))
    if label == "mpy" and taps is None:
        res.update(measure_code_heap(label, image, syms, flash, every or sessions))
    if golden is not None:
        cases, _ = golden
        bad = check_golden(image, syms, flash, cases)
        res["golden_checked"] = len(cases)
        res["golden_matched"] = len(cases) - len(bad)
    return res, lost, not_fitted


# --taps: (figure, tap ms, flash model) for each set of taps made during a save's erase
TAPS = (("30ms_45ms_erase", 30, "typical"), ("60ms_45ms_erase", 60, "typical"),
        ("60ms_400ms_erase", 60, "slow"))
TAPS_N = 10           # taps of each kind in a whole run (--taps N: only those)
TAP_DELAY_MS = 5      # the press this long after the erase starts
_DOWN = 2             # the tapped key's bits (host_sim/script.py KEY_BITS)


TAP_PLAYERS = 5
TAP_HANDS0 = 8        # hands already played: game.json past littlefs's inline size, so a
                      # save appends by copying its last block to a freshly erased one


def tap_game():
    """A 5-player game 8 hands in (each hand the next player goes out, the others hold ten
    cards): room for 36 more hands before anyone completes the tenth phase."""
    from engine_mpy import savefile
    from engine_mpy.classic import Classic
    g = Classic({"players": ["Ann", "Bob", "Cid", "Dee", "Eve"], "dealer": 0})
    for h in range(TAP_HANDS0):
        g.add({"out": h % TAP_PLAYERS, "left": [None if p == h % TAP_PLAYERS else [10, 0, 0, 0]
                                                for p in range(TAP_PLAYERS)]})
    return savefile.dumps(g).encode()


def measure_taps(label, image, syms, flash, n):
    """{taps_<figure>_lost, taps_<figure>_of, ...}: n taps of each TAPS set, each made as
    a hand's save erases the flash, kept or lost as the screen tells (module docstring)."""
    from host_sim import script, sim
    from tests import table_keys as K
    sim.use_fake_machine()
    files = {"game.json": tap_game()}
    state = tempfile.mkdtemp(prefix="phase10-taps-")
    res = {}
    b = Board(image, syms, flash, files)
    try:
        for name, data in files.items():
            with open(os.path.join(state, name), "wb") as f:
                f.write(data)
        dev = script.Device(board="pico", state=state)
        b.boot()
        b.play_paced("OK")                       # Continue: the standings
        dev.play(script.parse("OK"))
        hand = TAP_HANDS0
        for fig, hold, model in TAPS:
            b.emu("flash_model", model=model)
            lost = no_erase = 0
            waits = []
            acted = []
            for _ in range(n):
                keys = K.hand(hand % TAP_PLAYERS, [K.FAIL] * TAP_PLAYERS)   # its last OK commits the hand
                hand += 1
                b.play_paced(keys[:-len(" OK")])
                b.emu("frames")
                b.emu("keys", steps=[[16, script.PRESS_MS, 0]])
                r = b.emu("tap_on_erase", bits=_DOWN, hold_ms=hold, delay_ms=TAP_DELAY_MS, max_ms=5000)
                if r["erase"] is None:           # no erase in this save: tapped after it
                    no_erase += 1
                    b.emu("keys", steps=[[_DOWN, hold, 0]])
                else:
                    waits.append(r["erase_ns"] / 1e6)
                b.emu("settle", max_ms=20000)
                # the tap's press (DOWN acts on it) to the end of the first frame drawn after
                # it (the OK's frame was drawn before its save began)
                fr = [f for f in b.emu("frames")["frames"] if f["start"] >= (r["down"] if r["erase"] is not None else 0)]
                if r["erase"] is not None and fr:
                    acted.append((fr[0]["end"] - r["down"]) / 1e6)
                dev.play(script.parse(keys + " DOWN"))
                want = dev.rows()
                kept = b.rows() == want
                if not kept:
                    lost += 1
                # back on "End of hand" (the board only when the tap was kept)
                if kept:
                    b.play_paced("UP")
                dev.play(script.parse("UP"))
                if b.rows() != dev.rows():
                    raise SystemExit("make bench-board: %s --taps: the board and the simulator no longer "
                                     "agree after hand %d" % (label, hand))
            res["taps_%s_lost" % fig] = lost
            res["taps_%s_of" % fig] = n - no_erase
            if waits:
                res["taps_%s_erase_ms" % fig] = round(max(waits), 1)
            if acted and not lost:
                res["taps_%s_frame_ms_max" % fig] = round(max(acted), 1)
            print("make-bench-board: %s taps %s: %d of %d lost (%d saves without an erase)"
                  % (label, fig, lost, n - no_erase, no_erase), flush=True)
    finally:
        b.close()
        shutil.rmtree(state, ignore_errors=True)
    return res


def group_saves(ops):
    """Flash operations closer than SAVE_GAP_MS as one save: bytes erased, programmed, the
    modelled flash time and the span from its first operation's start to its last's end."""
    out = []
    for op in ops:
        end = op["t"] + op["ns"]
        if out and op["t"] - out[-1]["_end"] < SAVE_GAP_MS * 1e6:
            s = out[-1]
        else:
            s = {"erased": 0, "programmed": 0, "flash_ms": 0.0, "_t": op["t"], "_end": end}
            out.append(s)
        s["erased"] += op["erased"]
        s["programmed"] += op["programmed"]
        s["flash_ms"] += op["ns"] / 1e6
        s["_end"] = end
    for s in out:
        s["span_ms"] = (s.pop("_end") - s.pop("_t")) / 1e6
    return out


def first_frame(uf2, elf=None):
    """A firmware image (.uf2) started on an erased Pico whose filesystem is made and empty,
    to its first frame, with every rp2040js error taken as the chip's fault: (ms from reset
    to the end of the first lit frame, the screen's rows). ChipFault on a fault; SystemExit
    when nothing lit within 20 s of emulated time."""
    use_board(board_of(uf2))
    fd, flash = tempfile.mkstemp(prefix="phase10-first-", suffix=".flash")
    os.close(fd)
    install_frozen({"uf2": uf2}, flash)
    image = {"uf2": uf2, "elf": elf}
    b = Board(image, symbols(elf) if elf else {}, flash)
    try:
        first, _ = b.boot()
        if first is None:
            raise SystemExit("make first-frame: %s drew nothing in 20 s (emulated) after reset" % uf2)
        return first, b.rows()
    finally:
        b.close()
        os.remove(flash)


def run_install(a, label, image, syms, flash, secs, sessions, every, golden):
    """The figures of one install that this run's options ask for (None: none for it)."""
    if label == "frozen_pico_w":
        # the Pico W's image: its start-up and its golden screens (the rest is the Pico's
        # chip running the same code)
        res = measure_boot(label, image, syms, flash, every)
        if golden is not None:
            bad = check_golden(image, syms, flash, golden[0])
            res.update(golden_checked=len(golden[0]), golden_matched=len(golden[0]) - len(bad),
                       golden_skipped=len(golden[1]))
        return res
    if a.boot_only:
        return measure_boot(label, image, syms, flash, every)
    if a.taps:
        return measure_taps(label, image, syms, flash, a.taps)
    if a.code_heap:     # the .mpy install only: the frozen image's code stays in flash
        return measure_code_heap(label, image, syms, flash, every) if label == "mpy" else None
    if a.heap:
        kbs = [int(x) for x in a.heap.split(",")]
        kb = kbs[0] if label == "mpy" or len(kbs) == 1 else kbs[1]
        return measure_heap(label, image, syms, flash, sessions, kb)
    res, lost, not_fitted = measure(label, image, syms, flash, sessions, golden,
                                    [n for n in a.paced.split(",") if n], every,
                                    0 if a.sessions else None)
    res["files_not_fitted"] = sum(not_fitted.values())
    if secs is not None:
        res["deploy_s"] = round(secs)
    if golden is not None:
        res["golden_skipped"] = len(golden[1])
    if not_fitted:
        print("make-bench-board: %s: files that did not fit on the filesystem: %s"
              % (label, ", ".join("%s %d" % kv for kv in sorted(not_fitted.items()))), flush=True)
    if lost:
        print("make-bench-board: %s: the last screen differs from the simulator's in %s"
              % (label, ", ".join(lost)), flush=True)
    return {k: v for k, v in res.items() if v is not None}


def say_warnings(label, res):
    """Print what rp2040js said it does not model during this install's run (never a fault),
    and count them in its figures."""
    total = sum(n for n, _ in WARNINGS.values())
    for k, (n, first) in sorted(WARNINGS.items(), key=lambda kv: -kv[1][0]):
        print("make-bench-board: %s: emulator warning x%d: %s" % (label, n, first), flush=True)
    if res is not None:
        res["emulator_warnings"] = total
        res["chip_faults"] = 0     # a fault stops the run before any figure is written

def check_first_frame(uf2):
    """make first-frame: 0 when the image starts to the main menu (the simulator's, byte for
    byte), else 1 with one line saying what it did instead."""
    if not os.path.isfile(RP2040JS) or not shutil.which("node"):
        print("make first-frame: node and rp2040js are needed (make %s)" % os.path.relpath(RP2040JS, ROOT),
              file=sys.stderr)
        return 2
    WARNINGS.clear()
    board = board_of(uf2)
    if not os.path.isfile(uf2):
        print("make first-frame: no image %s: build it with make firmware BOARD=%s MPY_DIR=..." % (uf2, board),
              file=sys.stderr)
        return 2
    # make firmware keeps the image's ELF in a folder named after the board
    elf = os.path.join(os.path.dirname(os.path.abspath(uf2)), board, "firmware.elf")
    from host_sim import golden
    try:
        ms, rows = first_frame(uf2, elf if os.path.isfile(elf) else None)
    except ChipFault as e:
        print(str(e.code).replace("make bench-board", "make first-frame"), file=sys.stderr)
        return 1
    with open(golden.path("menu")) as f:
        want = f.read().split()
    if rows != want:
        print("make first-frame: %s's first screen (%.1f ms) is not the main menu:\n%s"
              % (uf2, ms, "\n".join(rows)), file=sys.stderr)
        return 1
    print("make first-frame: %s drew the main menu %.1f ms after reset, with no fault (%d emulator warnings)"
          % (os.path.relpath(uf2, os.getcwd()), ms, sum(n for n, _ in WARNINGS.values())))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/bench/bench_board.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mpy-dir", default="")
    ap.add_argument("--check", action="store_true", help="only say what is missing (one line), exit 2 if anything")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", choices=("mpy", "frozen"), default=None)
    ap.add_argument("--no-golden", action="store_true")
    ap.add_argument("--no-build", action="store_true", help="use the images the last run built")
    ap.add_argument("--no-deploy", action="store_true", help="the .mpy install the last run's make deploy left (build/board/mpy.flash)")
    ap.add_argument("--boot-only", action="store_true", help="only the start-up figures, merged into the last run's")
    ap.add_argument("--quick", action="store_true", help="a subset (QUICK_GOLDEN, QUICK_SESSIONS) for a loaded host")
    ap.add_argument("--sessions", default="", help="only these worst cases (comma-separated names of tests/worst.py)")
    ap.add_argument("--taps", type=int, default=0, metavar="N",
                    help="only the taps made during a save's erase, N of each kind, merged into the last run's figures")
    ap.add_argument("--heap", default="", metavar="KB[,KB]",
                    help="only the worst cases played with MicroPython given this heap (.mpy install, frozen image), "
                         "merged into the last run's figures")
    ap.add_argument("--code-heap", action="store_true",
                    help="only the heap the code of Classic's hand entry takes, merged into the last run's figures")
    ap.add_argument("--first-frame", action="append", default=[], metavar="UF2",
                    help="only start this image (make firmware's ELF of it names a fault's place) to its first frame, "
                         "which must be the main menu, with the chip's faults on; writes no figure (given again: "
                         "each image in turn)")
    ap.add_argument("--board", choices=("pico", "pico_w"), default="pico",
                    help="pico: both installs; pico_w: the Pico W's image (make firmware BOARD=pico_w), its start-up "
                         "and golden screens")
    ap.add_argument("--paced", default="worst_classic_55,worst_dice",
                    help="the worst cases also played at the scripts' pace and checked against the simulator's last screen")
    a = ap.parse_args(argv)
    if a.first_frame:
        return max(check_first_frame(uf2) for uf2 in a.first_frame)
    mpy_dir = os.path.expanduser(a.mpy_dir)
    try:
        pt = check(mpy_dir)
        if not os.path.isfile(RP2040JS) and not a.check:
            raise Needed("make bench-board: rp2040js is not installed: cd tools/bench/board && npm ci")
    except Needed as e:
        print(e.args[0], file=sys.stderr)
        return 2
    if a.check:
        return 0
    if pt:
        os.environ["picotool_DIR"] = pt
    t0 = time.time()
    use_board(a.board)
    if a.board != "pico":
        a.only = "frozen"       # the .mpy install is measured on the Pico
    stock, frozen = built(mpy_dir, a.board) if a.no_build else build(mpy_dir, a.jobs, a.board)
    from tests import worst
    tmp = tempfile.mkdtemp(prefix="phase10-board-")
    try:
        sessions = every = worst.sessions(tmp)
        if a.sessions:
            want = a.sessions.split(",")
            unknown = [n for n in want if n not in [x["name"] for x in sessions]]
            if unknown:
                print("make bench-board: no worst case named %s" % ", ".join(unknown), file=sys.stderr)
                return 2
            sessions = [x for x in sessions if x["name"] in want]
        golden = None if a.no_golden or a.boot_only or a.taps or a.heap or a.code_heap else golden_cases(a.board)
        if a.quick:
            sessions, cases = quick(sessions, golden[0] if golden else [])
            golden = (cases, golden[1]) if golden else None
            a.paced = ""
        board = {}
        installs = []
        WARNINGS.clear()
        if a.only in (None, "mpy"):
            syms = symbols(stock["elf"])
            if a.no_deploy and os.path.isfile(os.path.join(OUT, "mpy.flash")):
                flash, secs = os.path.join(OUT, "mpy.flash"), None
            else:
                flash, secs = install_mpy(stock, syms)
                print("make-bench-board: make deploy over the emulated USB serial port: %.0f s" % secs, flush=True)
            installs.append(("mpy", stock, syms, flash, secs))
        if a.only in (None, "frozen"):
            installs.append(("frozen" if a.board == "pico" else "frozen_" + a.board, frozen, symbols(frozen["elf"]),
                             install_frozen(frozen), None))
        for label, image, syms, flash, secs in installs:
            # (the .mpy install's warnings include its make deploy's)
            res = run_install(a, label, image, syms, flash, secs, sessions, every, golden)
            say_warnings(label, res)
            WARNINGS.clear()
            if res is not None:
                board[label] = res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.sessions:
        # some worst cases only: figures to look at, not the board's (results.json keeps those)
        print(json.dumps(board, indent=1, sort_keys=True))
        print("make-bench-board: %d s (not written: --sessions)" % (time.time() - t0))
        return 0
    with open(RESULTS) as f:      # read just now: an install measured alongside keeps its entry
        results = json.load(f)
    old = results.get("board", {})
    for label, res in board.items():
        if a.boot_only or a.taps or a.heap or a.code_heap:
            old.setdefault(label, {}).update(res)
        else:
            old[label] = res
    results["board"] = old
    with open(RESULTS, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(board, indent=1, sort_keys=True))
    print("make-bench-board: %d s" % (time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
