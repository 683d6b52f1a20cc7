"""make bench: the device's performance figures against their budgets (issue 7).

  python tools/bench/bench.py BUILD_DIR      (after `make mpy BUILD=BUILD_DIR`; `make bench` does both)

Writes bench/results.json (flat: name -> number; make bench-board's "board" section is kept), prints figure | value | budget | result
and exits 1 when a budget is missed. The sessions measured are the scripted full games of
tests/test_sim_cards.py, test_sim_twist.py and test_sim_dice.py, run as those tests run
them (their keys recorded from the tests themselves, never copied here), a long game (a
6-player Classic save of 30 hands continued) and the worst legal cases of tests/worst.py
(55-hand Classic and Masters with a tie-break, Twist on a 64-space board, 300-turn Dice,
each continued after a restart beside a 1,000-game history and a full roster):

- min_heap_kb_<game>: the smallest `micropython -X heapsize` (KB, by bisection) at which
  every session of that game completes on the twin (tests/twin_play.py, .mpy files) and
  leaves the files a roomy run leaves, each run from a fresh copy of the session's start;
  min_heap_kb: the largest over every session (min_heap_sessions of them);
  min_heap_kb_worst: the largest over the worst cases alone.
- heap_live_kb_64, heap_live_kb_32: the largest live heap (after a collection between
  keys, small-heap behaviour) over the sessions on the 64-bit unix port and on
  MicroPython's 32-bit WebAssembly port (npm, tools/bench/heap32/); heap_ratio_32_64 the
  largest ratio of the two over the sessions; min_heap_kb_32: min_heap_kb times that
  ratio, the 32-bit board's figure (the wasm port's heap grows, so it is not bisected).
- key_to_frame_ms_p50/p95: per key event (the poll that hands a key to the app, with its
  redraw) on the micropython binary: the Python time minus the fake bus and controller
  emulator, times rp2040_factor, plus the wire time of the bytes sent at 400 kHz.
- rp2040_factor: (pystone pass on an RP2040 at 125 MHz, published) / (the same pass timed
  here on the micropython binary, tools/bench/pystone.py).
- tap_to_frame_ms_p50/p95: the same from the button's edge (an arrow's press, OK's
  release): the timer's sampling (every Buttons.PERIOD_MS) and the loop's wake-up added
  to each key event's time.
- presses_per_player_p50/p90, presses_per_hand_p50/p90: button presses to enter a card
  hand, per player who did not go out (the hand's own presses, opening the entry, who went
  out and saving, left out) and per hand, over 4,000 hands drawn from a deck model
  (tools/bench/bench_presses.py says how; 96 of them played on the simulator and checked).
- presses_per_player_3btn_p50: the same hands entered with three buttons (Settings > 3
  buttons: UP, DOWN, OK only; 48 more of them played and checked).
- dice_real_presses_p50, dice_real_presses_per_die: a Dice turn with real dice, 2,000
  random throws: the presses from the turn's line on the home screen to the turn saved
  (median), and per die setting the ten dice (mean; tools/bench/bench_presses.py, 24 played on
  the simulator and checked).
- i2c_bytes_per_key_p50/p95: bytes on the I2C wire per key event.
- dice_eval_us: tools/bench/bench_dice.py's median per roll and phase on the micropython binary.
- advise_ms_p95_rp2040, advise_heap_kb: the dice Hint (tools/bench/bench_advise.py): p95 time of
  one answer over its states, scaled by rp2040_factor; the most heap one answer takes.
- boot_ms: import of firmware.main to the first frame on the bus (a saved 6-player game
  of 30 hands to load), scaled like key_to_frame, plus the wire time of the boot bytes.
- flash_writes_per_hand: flash writes per committed hand (a hand added, corrected or
  undone) over the sessions; flash_writes_other_keys: writes on key presses that changed
  nothing on the flash (a browsing key, a refused entry): must be 0.
- save_bytes: the save of a 6-player Classic game after 30 hands.
- save_flash_ms_p50/p95, key_wait_during_save_ms (the longest), _slow_flash, save_erases_max:
  each hand's save of a 55-hand 6-player game on MicroPython's littlefs as an RP2040
  mounts it (tools/bench/bench_flash.py), costed at FLASH_ERASE_MS / FLASH_PAGE_MS (and at
  FLASH_ERASE_MS_HIGH for a slow chip): the wait of a key pressed as a save starts.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

# tools/bench/budgets.py: below this module and tools/gen/perf_table.py, which both read the budgets
# (perf_table is imported here, so it may not import this module back).
from budgets import BUDGETS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "bench", "results.json")
TMP = os.path.join(ROOT, "bench", "tmp")

# The published figure the host is calibrated against, one pystone pass at 125 MHz:
# the project's platform notes (../shared/notes/PLATFORM.md, "Speed") give the RP2040 at
# 125 MHz 1457 pystones/s on MicroPython's own perf_bench pystone, i.e. 686 us a pass.
# A cross-check from two other published runs gives 824 us (17% slower): MicroPython's
# misc_pystone.py on a PYBv1.0 (STM32F405, 168 MHz), 162376 us for 300 passes (Damien George,
# https://github.com/micropython/micropython/pull/4858), and one benchmark timed on both a
# pyboard v1.1 (13.0 s) and a Raspberry Pi Pico W at 125 MHz (19.8 s, MicroPython 1.24.1,
# https://scruss.com/blog/tag/benchmark/): 162376 / 300 * 19.8 / 13.0. Timed on a real Pico
# (`mpremote run tools/bench/pystone.py`), put that here.
RP2040_US_PER_PASS = 1e6 / 1457
I2C_HZ = 400000
# Flash timings a save is costed at (tools/bench/bench_flash.py counts the work): a 4 KB sector
# erase and a 256-byte page program on the RP2040's QSPI flash, as the emulated Pico of
# issue 16 timed them (45 ms, 0.4 ms; the W25Q16JV datasheet gives 45 ms typical for a
# sector erase and 0.4 ms for a page); a slow chip's sector erase, up to 400 ms (the same
# datasheet's maximum) is shown beside it.
FLASH_ERASE_MS = 45.0
FLASH_ERASE_MS_HIGH = 400.0
FLASH_PAGE_MS = 0.4
FLASH_PAGE = 256
# Timing runs: 416K on the 64-bit port is 13312 GC blocks of 32 bytes, as many as the
# Pico's ~210 KB free heap holds in 16-byte blocks, so a collection sweeps about as much.
TIMING_HEAP_KB = 416
TIMING_HEAP = "%dK" % TIMING_HEAP_KB

ORDER = list(BUDGETS)
GAMES = ("classic", "masters", "twist", "dice")


# --- the pure part (tests/test_bench.py) ----------------------------------------------------
def percentile(values, p):
    """Nearest-rank percentile: the smallest value with at least p% of the values at or
    below it. Raises ValueError on no values."""
    if not values:
        raise ValueError("no values")
    s = sorted(values)
    k = max(1, int(math.ceil(p / 100.0 * len(s))))
    return s[k - 1]


def judge(results, budgets=BUDGETS):
    """Rows (name, value, budget, verdict) in table order, then any other figures;
    verdict is "pass", "FAIL" or "" (no budget). A budgeted figure that is missing or
    not a number fails."""
    names = [n for n in ORDER if n in budgets or n in results]
    names += sorted(n for n in results if n not in names)
    rows = []
    for n in names:
        v = results.get(n)
        b = budgets.get(n)
        if b is None:
            verdict = ""
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            verdict = "FAIL"
        else:
            verdict = "pass" if v <= b else "FAIL"
        rows.append((n, v, b, verdict))
    return rows


def failed(rows):
    return [r[0] for r in rows if r[3] == "FAIL"]


def _fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.1f" % v if v >= 10 else "%.2f" % v
    return str(v)


def table(rows):
    """The printed table: figure | value | budget | result."""
    w = max([len("figure")] + [len(r[0]) for r in rows])
    out = ["%-*s  %10s  %8s  %s" % (w, "figure", "value", "budget", "result")]
    for n, v, b, verdict in rows:
        out.append("%-*s  %10s  %8s  %s" % (w, n, _fmt(v), "-" if b is None else "<= %s" % b,
                                            verdict or "info"))
    return "\n".join(out)


def check_shape(results):
    """results.json is flat: names to plain numbers (no nesting, no NaN), but for "board",
    make bench-board's figures: an install's name to its own flat names and numbers, and
    "web", make bench-web's flat names and numbers."""
    for k, v in results.items():
        if k == "web" and isinstance(v, dict):
            check_shape(v)
            continue
        if k == "board" and isinstance(v, dict):
            for inst in v.values():
                if not isinstance(inst, dict):
                    raise ValueError("results.json: board: %r is not a section" % (inst,))
                check_shape(inst)
            continue
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError("results.json: %r is not a number" % (k,))
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("results.json: %r is not finite" % (k,))
    return results


def frame_ms(us, fake_us, nbytes, factor):
    """A key event's time on the board: the firmware's Python time (host time minus the
    fake bus and emulator) scaled to the RP2040, plus the bytes' time on the wire
    (9 clocks a byte at 400 kHz)."""
    return (us - fake_us) * factor / 1000.0 + nbytes * 9 * 1000.0 / I2C_HZ


# --- the sessions ---------------------------------------------------------------------------
def _use_tests():
    for p in (ROOT, os.path.join(ROOT, "tests", "both")):
        if p not in sys.path:
            sys.path.insert(0, p)
    from host_sim import sim
    sim.use_fake_machine()


def record_sessions(tmp):
    """Run the session tests with their twin step (tests/test_twin.play) replaced by a
    recorder: a list of {name, game, start (folder), chunks, screen, arg}. The tests play
    each session on CPython first; the twin step receives the starting folder and the key
    chunks, which is all a replay needs."""
    _use_tests()
    out = []

    def keep(name, game, start, chunks, screen, arg):
        d = os.path.join(tmp, name, "start")
        shutil.copytree(start, d)
        out.append({"name": name, "game": game, "start": d, "chunks": list(chunks),
                    "screen": screen, "arg": arg})

    import pathlib
    import tests.test_twin as twin
    import tests.test_sim_cards as tc
    import tests.test_sim_dice as td
    import tests.test_sim_twist as tt
    cur = []

    def recorder(state, chunks, screen=None, arg=None, heap=None):
        keep(cur[0], cur[1], state, chunks, screen, arg)
        return []        # nothing to compare: the bench replays these itself

    real = twin.play
    twin.play = recorder
    try:
        for name, game, fn in (
                ("classic_standard", "classic", tc.test_classic_standard_with_undo_correction_and_refusal),
                ("classic_ten_hands", "classic", tc.test_classic_ten_hands_tie_break),
                ("classic_first_n", "classic", tc.test_classic_first_n_phases),
                ("classic_even_points", "classic", tc.test_classic_even_phases_by_points),
                ("masters", "masters", tc.test_masters_full_game)):
            cur[:] = [name, game]
            fn()
        for name, fn in (("dice_solitaire", td.test_solitaire_real_dice_to_game_over),
                         ("dice_two_players", td.test_two_players_rolled_with_the_seeded_dice_to_game_over)):
            cur[:] = [name, "dice"]
            fn(pathlib.Path(tempfile.mkdtemp(dir=tmp)))
    finally:
        twin.play = real
    # The Twist test checks the files the twin leaves, so its keys are taken directly.
    d = tt.new_state()
    try:
        keep("twist", "twist", d, [k for _, k in tt.STEPS], None, None)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return out


def _fresh(s, dest):
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(s["start"], dest)
    return dest


def _keys_file(s):
    p = os.path.join(os.path.dirname(s["start"]), "keys.txt")
    with open(p, "w") as f:
        f.write("\n".join(s["chunks"]) + "\n")
    return p


def _screen_args(s):
    if not s["screen"]:
        return []
    return [s["screen"], json.dumps(s["arg"])]


def mpy_path(build, machine="twin"):
    """The twin's MICROPYPATH: the compiled device tree, its lib, the fake machine (twin: the
    full one with the emulator, for timing; wire: the minimal one for heap figures)."""
    return ":".join([build, os.path.join(build, "lib"), os.path.join(ROOT, "host_sim", machine),
                     os.path.join(ROOT, "host_sim")])


def _files(folder):
    out = {}
    for n in sorted(os.listdir(folder)):
        with open(os.path.join(folder, n), "rb") as f:
            out[n] = f.read()
    return out


def min_heap(build, s):
    """Smallest heap (KB) at which the session completes on the twin, from a fresh start
    every run, and leaves exactly the files it leaves with plenty of heap: a run that
    ends well having done something else (a save it was too short of memory to read,
    say) does not count."""
    sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
    import heapcap
    work = os.path.join(os.path.dirname(s["start"]), "work")
    args = [work, _keys_file(s)] + _screen_args(s)
    # The display wired out (tests/twin_play.py, host_sim/wire/machine.py): the heap holds
    # the firmware and the key runner, not a fake machine and emulator a board does not have.
    # (Each session's own wire file: two bisections run at once.)
    wire = {"TWIN_WIRE": os.path.join(os.path.dirname(s["start"]), "wire.bin")}
    path = ":".join([os.path.join(build, "runner"), build, os.path.join(build, "lib")])
    script = "-m"                      # micropython -m twin_play ARGS (compiled, in runner/)
    args = ["twin_play"] + args
    _fresh(s, work)
    if not heapcap.passes(TIMING_HEAP_KB, path, script, args, wire):
        return None
    want = _files(work)
    return heapcap.smallest(path, script, args, lo=16, hi=512, before=lambda: _fresh(s, work),
                            extra_env=wire, after=lambda: _files(work) == want)


def _live_args(s, work):
    return [work, _keys_file(s)] + _screen_args(s)


def live_heap(build, s):
    """The session's largest live heap (bytes, after a collection between keys) on the
    64-bit unix port, small-heap behaviour forced (tools/bench/heap_live.py)."""
    work = os.path.join(os.path.dirname(s["start"]), "live64")
    _fresh(s, work)
    env = dict(os.environ, MICROPYPATH=":".join([os.path.join(build, "runner"), build, os.path.join(build, "lib")]),
               TWIN_WIRE=os.path.join(os.path.dirname(s["start"]), "live64.bin"))
    r = subprocess.run([os.path.join(ROOT, ".venv", "bin", "micropython"), "-X", "heapsize=1M", "-m", "heap_live"]
                       + _live_args(s, work), env=env, capture_output=True, text=True, timeout=600,
                       cwd=os.path.join(build, "runner"))
    return _live(r, s)


def live_heap32(build, s):
    """The same on MicroPython's 32-bit WebAssembly port (tools/bench/heap32/heap32.mjs)."""
    work = os.path.join(os.path.dirname(s["start"]), "live32")
    _fresh(s, work)
    r = subprocess.run(["node", os.path.join(ROOT, "tools", "bench", "heap32", "heap32.mjs"), build]
                       + _live_args(s, work), capture_output=True, text=True, timeout=600)
    return _live(r, s)


def _live(r, s):
    for ln in r.stdout.splitlines():
        if ln.startswith("live "):
            return int(ln.split()[1])
    raise RuntimeError("%s: no live heap figure:\n%s%s" % (s["name"], r.stdout[-2000:], r.stderr[-2000:]))


_WRAP = {}


def wrapper_us(build):
    """What the timing wrapper adds per call into a stand-in (tools/bench/bench_play.py), the
    least of five processes: measured once a run, then held (BENCH_WRAP_US)."""
    if "us" not in _WRAP:
        got = []
        for i in range(5):
            for ln in _mpy(build, os.path.join(ROOT, "tools", "bench", "bench_play.py"), ["wrap"]).splitlines():
                if ln.startswith("wrap "):
                    got.append(float(ln.split()[1]))
        _WRAP["us"] = min(got)
    return _WRAP["us"]


def _mpy(build, script, args, heap=TIMING_HEAP):
    env = dict(os.environ, MICROPYPATH=mpy_path(build))
    if "us" in _WRAP:
        env["BENCH_WRAP_US"] = repr(_WRAP["us"])
    r = subprocess.run([os.path.join(ROOT, ".venv", "bin", "micropython"), "-X", "heapsize=" + heap,
                        script] + args, env=env, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError("%s %s failed:\n%s%s" % (script, " ".join(args), r.stdout[-2000:], r.stderr[-2000:]))
    return r.stdout


def _runs(build, args):
    """Run bench_play.py: its "k"/"boot" lines as (us, fake_us, bytes), and its pystone
    time (the faster of its two, us a pass)."""
    ev = []
    cal = []
    for ln in _mpy(build, os.path.join(ROOT, "tools", "bench", "bench_play.py"), args).splitlines():
        w = ln.split()
        if w and w[0] in ("k", "boot"):
            # a key line ends with "new" when the key brought another screen up
            ev.append((int(w[1]), int(w[2]), int(w[3]), w[-1] == "new"))
        elif w and w[0] == "cal":
            cal.append(float(w[1]))
    return ev, min(cal)


def key_events(build, s, cals, repeat=3):
    """[(us, fake_us, bytes, another screen came up)] per key event of the session on the
    micropython binary, host time: of `repeat` runs each event keeps its least disturbed
    run (the least firmware time; the events are the same every run, the session being
    seeded). The run's one factor scales them all afterwards (run()); the pystone times
    of each process go to cals."""
    best = None
    for r in range(repeat):
        work = _fresh(s, os.path.join(os.path.dirname(s["start"]), "timing"))
        ev, cal = _runs(build, ["keys", work, _keys_file(s)] + _screen_args(s))
        cals.append(cal)
        if best is None:
            best = ev
        elif len(ev) != len(best):
            raise RuntimeError("%s: %d key events, then %d" % (s["name"], len(best), len(ev)))
        else:
            best = [x if x[0] - x[1] <= y[0] - y[1] else y for x, y in zip(best, ev)]
    return best


def boot(build, tmp, cals):
    """The least disturbed of five starts on a saved 6-player game as (us, fake_us, bytes),
    host time, and that save's size in bytes."""
    g, text = six_player_save()
    d = os.path.join(tmp, "boot")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "game.json"), "w") as f:
        f.write(text)
    runs = []
    for i in range(5):
        ev, cal = _runs(build, ["boot", d])
        cals.append(cal)
        runs.append(ev[0][:3])
    return min(runs, key=lambda r: r[0] - r[1]), len(text.encode())


def flash_writes(s, tmp):
    """(writes on committed hands, committed hands, writes on other keys) over a replay of
    the session on the CPython simulator, key by key."""
    _use_tests()
    from host_sim import script
    from engine_mpy import savefile
    work = _fresh(s, os.path.join(tmp, s["name"] + "-flash"))
    dev = script.Device(state=work, mem_free=40000)
    if s["screen"]:
        dev.app.push(s["screen"], s["arg"])
    app = dev.app

    def snap():
        g = app.session.game
        return None if g is None else savefile.dumps(g)

    def files():
        # What the flash holds: a key that changes none of it committed nothing.
        out = {}
        for n in sorted(os.listdir(work)):
            with open(os.path.join(work, n), "rb") as f:
                out[n] = f.read()
        return out

    hand_w = hands = other_w = 0
    for chunk in s["chunks"]:
        for step in script.parse(chunk):
            before = snap()
            held = files()
            w0 = app.store.writes
            dev.play([step])
            after = snap()
            dw = app.store.writes - w0
            if before is not None and after is not None and before != after:
                hands += 1
                hand_w += dw
            elif files() == held:
                other_w += dw
            # else a game started or finished, a player added, a setting changed: a
            # commit, but not a hand
    return hand_w, hands, other_w


def long_game_session(tmp):
    """A long game, not one of the scripted sessions: the 6-player Classic save of 30 hands
    (six_player_save) continued from the menu, its score sheet scrolled, a 31st hand
    entered (everyone else caught with ten cards), the sheet again."""
    d = os.path.join(tmp, "long_game", "start")
    os.makedirs(d)
    with open(os.path.join(d, "game.json"), "w") as f:
        f.write(six_player_save()[1])
    ten = " ".join(["UP"] * 10) + " OK OK OK OK"
    sheet = "DOWN OK " + " ".join(["DOWN"] * 12) + " LEFT"
    return {"name": "long_game", "game": "classic", "start": d, "screen": None, "arg": None,
            "chunks": ["OK", sheet + " UP", "OK OK " + " ".join([ten] * 5) + " OK", sheet]}


def six_player_save():
    """A 6-player Classic game after 30 hands: everyone goes out in turn (five phases
    each), the others are caught with ten cards (within the deck's counts)."""
    from engine_mpy.classic import Classic
    from engine_mpy import savefile
    g = Classic({"players": ["Ann", "Bob", "Cid", "Dee", "Eve", "Flo"], "dealer": 0})
    held = ([8, 2, 0, 0], [7, 3, 0, 0], [6, 3, 1, 0], [9, 0, 0, 1], [5, 4, 1, 0], [6, 2, 0, 2])
    for h in range(30):
        out = h % 6
        g.add({"out": out, "left": [None if p == out else held[(p + h) % 6] for p in range(6)]})
    return g, savefile.dumps(g)


def dice_eval(build):
    out = _mpy(build, os.path.join(ROOT, "tools", "bench", "bench_dice.py"), [])
    for ln in out.splitlines():
        if ln.startswith("median us per"):
            return int(ln.split(":")[1].split()[0])
    raise RuntimeError("bench_dice.py printed no median:\n" + out)


def advise(build, factor):
    """(p95 ms on the board, KB) of the dice advisor from tools/bench/bench_advise.py's lines."""
    out = _mpy(build, os.path.join(ROOT, "tools", "bench", "bench_advise.py"), [])
    us = kb = None
    for ln in out.splitlines():
        w = ln.split()
        if ln.startswith("advise us"):
            us = int(w[w.index("p95") + 1])
        elif ln.startswith("advise heap bytes max"):
            kb = round(int(w[4]) / 1024.0, 1)
    if us is None or kb is None:
        raise RuntimeError("bench_advise.py printed no figures:\n" + out)
    return round(us * factor / 1000.0, 1), kb


def flash_work(build):
    """A save's flash work on MicroPython's littlefs as an RP2040 mounts it, per hand of a
    55-hand 6-player game (tools/bench/bench_flash.py), in ms at FLASH_* timings. The loop does
    nothing else while a save programs and erases (on an RP2040 the code itself runs from
    that flash), so a key pressed as a save starts waits for all of it."""
    env = dict(os.environ, MICROPYPATH=":".join([build, os.path.join(build, "lib"),
                                                 os.path.join(ROOT, "tests", "both"),
                                                 os.path.join(ROOT, "tests")]))
    r = subprocess.run([os.path.join(ROOT, ".venv", "bin", "micropython"), "-X", "heapsize=1M",
                        os.path.join(ROOT, "tools", "bench", "bench_flash.py")],
                       env=env, capture_output=True, text=True, timeout=600)
    saves = []
    for ln in r.stdout.splitlines():
        w = ln.split()
        if w and w[0] == "save":
            saves.append((int(w[1]), int(w[2])))
    if r.returncode != 0 or len(saves) != 55:
        raise RuntimeError("bench_flash failed:\n%s%s" % (r.stdout[-2000:], r.stderr[-2000:]))

    def ms(b, e, erase):
        return e * erase + -(-b // FLASH_PAGE) * FLASH_PAGE_MS
    typ = [ms(b, e, FLASH_ERASE_MS) for b, e in saves]
    slow = [ms(b, e, FLASH_ERASE_MS_HIGH) for b, e in saves]
    return {"save_flash_ms_p50": round(percentile(typ, 50), 1),
            "save_flash_ms_p95": round(percentile(typ, 95), 1),
            "key_wait_during_save_ms": round(max(typ), 1),
            "key_wait_during_save_ms_slow_flash": round(max(slow), 1),
            "save_erases_max": max(e for b, e in saves)}


def host_pystone():
    out = subprocess.run([os.path.join(ROOT, ".venv", "bin", "micropython"),
                          os.path.join(ROOT, "tools", "bench", "pystone.py")],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    return float(out.split()[-1])


def run(build):
    from concurrent.futures import ThreadPoolExecutor
    # from when make bench began (its compile step included), as the Makefile says
    t_start = float(os.environ.get("BENCH_T0") or time.time())
    shutil.rmtree(TMP, ignore_errors=True)
    os.makedirs(TMP)
    res = {}
    sessions = record_sessions(TMP)
    long_game = long_game_session(TMP)
    _use_tests()
    from tests import worst
    worst_cases = worst.sessions(TMP)
    every = sessions + [long_game] + worst_cases
    print("sessions: %s" % ", ".join(s["name"] for s in every), file=sys.stderr)

    # The heap bisections are independent subprocess runs: two at a time.
    with ThreadPoolExecutor(2) as pool:
        heaps = list(pool.map(lambda s: min_heap(build, s), every))
        lives = list(pool.map(lambda s: (live_heap(build, s), live_heap32(build, s)), every))
    ratios = []
    for s, kb, (l64, l32) in zip(every, heaps, lives):
        print("  %-24s min heap %sK  live %.1fK (64-bit) %.1fK (32-bit)"
              % (s["name"], kb, l64 / 1024.0, l32 / 1024.0), file=sys.stderr)
        ratios.append(l32 / float(l64))
    # A session that fails even at the top of the range counts as that top, failing.
    heaps = [512 if kb is None else kb for kb in heaps]
    for g in GAMES:
        res["min_heap_kb_" + g] = max(kb for s, kb in zip(every, heaps) if s["game"] == g)
    res["min_heap_kb"] = max(heaps)
    res["min_heap_kb_worst"] = max(heaps[len(sessions) + 1:])
    res["min_heap_sessions"] = len(every)
    # The 32-bit figure: the live heaps on MicroPython's wasm32 port against the same
    # sessions' live heaps on the 64-bit unix port; their largest ratio scales the unix
    # port's smallest heap (a board's heap is not bisected: see docs/performance.md).
    res["heap_live_kb_64"] = round(max(l[0] for l in lives) / 1024.0, 1)
    res["heap_live_kb_32"] = round(max(l[1] for l in lives) / 1024.0, 1)
    res["heap_ratio_32_64"] = round(max(ratios), 3)
    res["min_heap_kb_32"] = int(math.ceil(res["min_heap_kb"] * max(ratios)))

    # Timings, one process at a time, each with its own pystone calibration.
    # One factor for the run: the host's least disturbed pystone pass over every timing
    # process (each times short windows, as short as the key events, and keeps its fastest:
    # a window the scheduler interrupted is never the fastest). The key events and the
    # boot keep their least disturbed runs in host time and are all scaled by it, so a
    # busy moment can only be thrown away, never scaled into a figure.
    cals = [host_pystone()]
    res["wrapper_us"] = round(wrapper_us(build), 3)
    raw = []
    for s in sessions:
        raw += key_events(build, s, cals)
    (b_us, b_fake, b_bytes), res["save_bytes"] = boot(build, TMP, cals)
    host_us = min(cals)
    factor = RP2040_US_PER_PASS / host_us
    res["boot_ms"] = round(frame_ms(b_us, b_fake, b_bytes, factor), 1)
    res["rp2040_factor"] = round(factor, 1)
    res["pystone_us_host"] = round(host_us, 3)
    res["pystone_us_rp2040"] = round(RP2040_US_PER_PASS, 1)
    print("factor applied: %.1f (host pystone pass %.3f us, the least of %d processes' "
          "fastest windows; their median %.3f us)" % (factor, host_us, len(cals), percentile(cals, 50)),
          file=sys.stderr)
    events = [(frame_ms(us, fake, b, factor), b, new) for us, fake, b, new in raw]
    ms = [e[0] for e in events]
    nbytes = [e[1] for e in events]
    res["key_events"] = len(ms)
    res["key_to_frame_ms_p50"] = round(percentile(ms, 50), 1)
    res["key_to_frame_ms_p95"] = round(percentile(ms, 95), 1)
    res["key_to_frame_ms_max"] = round(max(ms), 1)
    # The two kinds of key: one that stays on its screen (a stepper, a cursor, a hold)
    # and one that brings another screen up (loaded, built, drawn whole).
    same = [e[0] for e in events if not e[2]]
    new = [e[0] for e in events if e[2]]
    res["screen_change_pct"] = round(100.0 * len(new) / len(ms), 1)
    if same:
        res["key_to_frame_ms_p95_same_screen"] = round(percentile(same, 95), 1)
    if new:
        res["key_to_frame_ms_p50_screen_change"] = round(percentile(new, 50), 1)
    # From the button's edge, as a player feels it: an arrow fires on its press, OK on its
    # release, at the timer's next sample (every Buttons.PERIOD_MS, the edge anywhere in
    # between: ten evenly spread offsets per event), then the loop, sleeping a
    # millisecond at a time, takes it (half a millisecond on average), then the event's
    # own time as above. The debounce adds nothing: a change counts at once.
    from firmware.edges.buttons import Buttons
    period = Buttons.PERIOD_MS
    taps = [m + (j + 0.5) * period / 10.0 + 0.5 for m in ms for j in range(10)]
    res["tap_to_frame_ms_p50"] = round(percentile(taps, 50), 1)
    res["tap_to_frame_ms_p95"] = round(percentile(taps, 95), 1)
    res["i2c_bytes_per_key_p50"] = percentile(nbytes, 50)
    res["i2c_bytes_per_key_p95"] = percentile(nbytes, 95)

    sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
    import bench_presses
    res.update(bench_presses.run())

    res.update(flash_work(build))

    res["dice_eval_us"] = dice_eval(build)
    res["dice_eval_ms_rp2040"] = round(res["dice_eval_us"] * factor / 1000.0, 1)
    res["advise_ms_p95_rp2040"], res["advise_heap_kb"] = advise(build, factor)

    hw = hands = other = 0
    for s in sessions:
        a, b, c = flash_writes(s, TMP)
        hw += a
        hands += b
        other += c
    res["hands_committed"] = hands
    res["flash_writes_per_hand"] = round(hw / float(hands), 2) if hands else 0
    res["flash_writes_other_keys"] = other
    res["bench_seconds"] = int(time.time() - t_start)
    return check_shape(res)


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    res = run(os.path.abspath(argv[0]))
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    try:    # make bench-board's section stays
        with open(RESULTS) as f:
            board = json.load(f).get("board")
    except (OSError, ValueError):
        board = None
    if board:
        res["board"] = board
    with open(RESULTS, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    sys.path.insert(0, os.path.join(ROOT, "tools", "gen"))
    import perf_table      # the tables are rewritten by `make perf-tables`, not here
    if perf_table.write(res, check=True):
        print("the tables in README.md and docs/performance.md are older than bench/results.json: "
              "make perf-tables rewrites them", file=sys.stderr)
    rows = judge(res)
    print(table(rows))
    bad = failed(rows)
    if bad:
        print("budget missed: " + ", ".join(bad))
        return 1
    print("every budget met")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
