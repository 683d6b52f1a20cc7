"""The performance tables in README.md and docs/performance.md, made from bench/results.json:
the board's (make bench-board, its "board" section) first, then make bench's host estimate
(tests/test_perf_table.py checks they match the committed results). make bench and make
bench-board only write results.json; `make perf-tables` rewrites the tables. Only the text
between the markers is rewritten.

  python tools/gen/perf_table.py          rewrite the tables from bench/results.json
  python tools/gen/perf_table.py --check  exit 1 when a table differs from what it would be
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
from budgets import BUDGETS  # noqa: E402  tools/bench/budgets.py (not bench.py, which imports this module)
RESULTS = os.path.join(ROOT, "bench", "results.json")
START = "<!-- bench table: made by tools/gen/perf_table.py from bench/results.json -->"
END = "<!-- end of bench table -->"

# (figure, what it is) in the order shown; README shows the first ones (SHORT).
WHAT = (
    ("tap_to_frame_ms_p50", "from a button's edge (an arrow's press, OK's release) to the end of the frame it causes, on the RP2040 estimate at 400 kHz: the timer's sampling, the loop's wake-up, the firmware's time, the bus"),
    ("tap_to_frame_ms_p95", "the same, 95th percentile"),
    ("presses_per_player_p50", "presses to enter a card hand, per player who did not go out, over 4,000 hands drawn from a deck model (tools/bench/bench_presses.py)"),
    ("presses_per_player_3btn_p50", "the same hands with three buttons (UP, DOWN, OK: Settings > 3 buttons)"),
    ("presses_per_hand_p50", "presses for a whole hand (opening the entry, who went out, every player, the save)"),
    ("dice_real_presses_per_die", "presses to set one die of a Dice turn entered from real dice, on average over 2,000 random throws (tools/bench/bench_presses.py)"),
    ("dice_real_presses_p50", "presses for that whole turn, from its line on the home screen to the turn saved, median"),
    ("min_heap_kb", "smallest `micropython -X heapsize` (64-bit unix port, KB, bisected) at which every session (the scripted games, a long game, the worst legal cases) completes on the twin with the files a roomy run leaves; the runner's own code (about 6 KB) is on that heap too"),
    ("heap_live_kb_32", "the largest live heap over the sessions on MicroPython's 32-bit WebAssembly port (objects the size they are on a board)"),
    ("heap_ratio_32_64", "32-bit live heap over 64-bit live heap, the largest over the sessions"),
    ("min_heap_kb_32", "min_heap_kb times that ratio: the 32-bit board's figure"),
    ("boot_ms", "from `import firmware.main` to the first frame, a 6-player game of 30 hands to load"),
    ("advise_ms_p95_rp2040", "the dice Hint's answer, 95th percentile, RP2040 estimate"),
    ("flash_writes_per_hand", "flash writes per committed hand"),
    ("flash_writes_other_keys", "flash writes on keys that committed nothing"),
    ("key_to_frame_ms_p50", "from the poll that hands a key to the app to the end of its frame (the edge-to-poll part is in tap_to_frame)"),
    ("key_to_frame_ms_p95", "the same, 95th percentile"),
    ("key_to_frame_ms_p95_same_screen", "keys that stay on their screen"),
    ("key_to_frame_ms_p50_screen_change", "keys that bring another screen up (a full frame on the wire)"),
    ("min_heap_kb_classic", "min_heap_kb over the Phase 10 sessions"),
    ("min_heap_kb_masters", "over the Masters sessions"),
    ("min_heap_kb_twist", "over the Twist sessions"),
    ("min_heap_kb_dice", "over the Dice sessions"),
    ("min_heap_kb_worst", "over the worst legal cases alone"),
    ("heap_live_kb_64", "the largest live heap on the 64-bit unix port"),
    ("presses_per_player_p90", "presses per player, 90th percentile"),
    ("presses_per_hand_p90", "presses per hand, 90th percentile"),
    ("i2c_bytes_per_key_p50", "bytes on the I2C wire per key event"),
    ("i2c_bytes_per_key_p95", "the same, 95th percentile"),
    ("advise_heap_kb", "the most heap one Hint answer takes"),
    ("dice_eval_us", "scoring one roll for one phase on the host's micropython binary (median)"),
    ("save_bytes", "game.json of a 6-player Classic game after 30 hands"),
    ("key_wait_during_save_ms", "the longest a key pressed as a hand's save starts waits for its flash work: each save of a 55-hand 6-player game on MicroPython's littlefs as an RP2040 mounts it (tools/bench/bench_flash.py), at 45 ms a sector erase and 0.4 ms a 256-byte page"),
    ("key_wait_during_save_ms_slow_flash", "the same with a slow chip's 400 ms sector erase (the datasheet maximum)"),
    ("save_flash_ms_p50", "a save's flash work, median"),
    ("save_flash_ms_p95", "the same, 95th percentile"),
    ("save_erases_max", "the most sectors one save erases"),
    ("rp2040_factor", "RP2040 time over this host's micropython time for the same pystone pass"),
    ("bench_seconds", "how long the whole `make bench` took, seconds, its compile step included"),
)
SHORT = 2

# The board figures (make bench-board: the "board" section, one entry per install), shown
# first; (figure, what it is). The emulator's limits follow the table, one line each.
BOARD_START = "<!-- board table: made by tools/gen/perf_table.py from bench/results.json -->"
BOARD_END = "<!-- end of board table -->"
INSTALLS = (("mpy", "`.mpy` install"), ("frozen", "frozen image"), ("frozen_pico_w", "Pico W frozen image"))
BOARD_WHAT = (
    ("key_ms_p50", "keys that draw: the acting edge (an arrow's press, OK's release) to the end of the frame that shows the result (the last before the device settles), median, each key pressed once the device has settled, over the worst cases of tests/worst.py"),
    ("key_ms_p95", "the same, 95th percentile"),
    ("key_ms_max", "the same, the slowest key"),
    ("keys_over_200ms", "keys whose result took over 200 ms (a finish, History, a start)"),
    ("key_first_frame_ms_max_over_200ms", "of those, the longest to their first frame: the busy mark that says the device is working"),
    ("boot_ms_no_game", "reset to the end of the first frame, no game saved"),
    ("boot_ms_55_hands", "the same with the 55-hand 6-player game (and a 1,000-game history) to load"),
    ("heap_after_start_kb", "live heap after start-up with the 55-hand game (after a collection, settled)"),
    ("heap_live_max_kb", "the largest live heap after any collection over the worst cases"),
    ("code_heap_kb_hand_entry", "the heap the code alone takes with Classic's hand entry open: the modules a small heap keeps loaded then, each imported on a board started without the app (the frozen image's code stays in flash)"),
    ("code_heap_names_kb_hand_entry", "of that, the names those modules intern (never freed)"),
    ("save_flash_ms_p50", "a committed change's flash work, median, at the typical flash timings"),
    ("key_wait_during_save_ms_max", "the longest a key pressed as a save starts waits: the save's first flash operation to the end of its last"),
    ("golden_matched", "golden screens the board drew byte for byte the same (of golden_checked)"),
    ("golden_checked", "golden screens checked (those that do not depend on the dice or on the board's free heap)"),
    ("paced_sessions", "worst cases also played at the scripts' pace (keys queued while busy) and their last screen compared with the simulator's"),
    ("taps_lost_sessions", "of those, the ones whose last screen differs (a tap lost while busy)"),
    ("taps_30ms_45ms_erase_lost", "30 ms taps of DOWN made 5 ms into the first flash erase of a hand's save (typical 45 ms erase): lost, of taps_30ms_45ms_erase_of (make bench-board's --taps)"),
    ("taps_30ms_45ms_erase_of", "such taps made"),
    ("taps_30ms_45ms_erase_frame_ms_max", "the longest from such a tap's press to the end of the frame that shows it"),
    ("taps_60ms_45ms_erase_lost", "the same with 60 ms taps: lost"),
    ("taps_60ms_45ms_erase_of", "such taps made"),
    ("taps_60ms_45ms_erase_frame_ms_max", "the longest from such a tap's press to the end of the frame that shows it"),
    ("taps_60ms_400ms_erase_lost", "60 ms taps made inside a slow chip's 400 ms erase (the W25Q16JV's maximum): lost"),
    ("taps_60ms_400ms_erase_of", "such taps made"),
    ("taps_60ms_400ms_erase_frame_ms_max", "the longest from such a tap's press to the end of the frame that shows it: the save's flash work, every erase 400 ms, comes first"),
)
LIMITS = (
    "Emulated times are instruction cycles at 125 MHz with no XIP wait states or cache misses: a real Pico's CPU-bound times are longer (lower bounds).",
    "rp2040js does not emulate the flash's erase and program: the bench applies them by hooking the bootrom's flash_range_erase / flash_range_program and charges the W25Q16JV's typical datasheet times (45 ms a 4 KB sector, 0.4 ms a 256-byte page). Meanwhile the core runs no instruction and takes no interrupt, while the buttons' edges are latched in IO_BANK0's INTR as on the chip (rp2040js latched an edge on every input write, changed or not: the bench passes on only changes).",
    "The display is the bytes the I2C0 controller sends, timed at the bus speed its registers set (400 kHz, 9 clocks a byte); a panel's clock stretching and the bus's rise times are not modelled.",
    "The heap is read from MicroPython's own allocation table each time a collection ends: what lives then, not the garbage between collections.",
)
LIMITS_SHORT = ("Emulated: cycles at 125 MHz without XIP wait states (lower bounds), the flash's erase and program at datasheet times; the limits in docs/performance.md.",)


def _fmt(v):
    if isinstance(v, float):
        return ("%.2f" % v).rstrip("0").rstrip(".") if v < 10 else "%.1f" % v
    return str(v)


def table(results, budgets, rows):
    out = ["| figure | value | budget | what it is |", "|---|---|---|---|"]
    for name, what in rows:
        if name not in results:
            continue
        b = budgets.get(name)
        v = results[name]
        mark = "" if b is None or v <= b else " (over)"
        out.append("| `%s` | %s%s | %s | %s |" % (name, _fmt(v), mark, "-" if b is None else _fmt(b), what))
    return "\n".join(out)


def board_table(board, rows, limits=None):
    """The board figures, an install a column, then the emulator's limits (LIMITS, or the
    README's one line); "" when there are none."""
    if not board:
        return ""
    # (an install none of these figures was measured on has no column: the Pico W's image
    # only its start-up and golden screens, make bench-board BOARD=pico_w)
    shown = [(k, t) for k, t in INSTALLS if k in board and any(board[k].get(n) is not None for n, _ in rows)]
    out = ["| figure | %s | what it is |" % " | ".join(t for _, t in shown),
           "|---|%s---|" % ("---|" * len(shown))]
    for name, what in rows:
        vals = [board[k].get(name) for k, _ in shown]
        if all(v is None for v in vals):
            continue
        out.append("| `%s` | %s | %s |" % (name, " | ".join("-" if v is None else _fmt(v) for v in vals), what))
    out.append("")
    out += ["- " + line for line in (LIMITS if limits is None else limits)]
    return "\n".join(out)


def tables(results):
    board = results.get("board")
    return {
        os.path.join(ROOT, "README.md"): (board_table(board, BOARD_WHAT[:3], LIMITS_SHORT),
                                          table(results, BUDGETS, WHAT[:SHORT])),
        os.path.join(ROOT, "docs", "performance.md"): (board_table(board, BOARD_WHAT), table(results, BUDGETS, WHAT)),
    }


def _replace(text, body, start=START, end=END):
    if start not in text:
        return text
    i = text.index(start) + len(start)
    j = text.index(end)
    return text[:i] + ("\n" + body + "\n" if body else "\n") + text[j:]


def write(results=None, check=False):
    """Rewrite (or with check, compare) the tables; returns the files that differ."""
    if results is None:
        with open(RESULTS) as f:
            results = json.load(f)
    differ = []
    for path, (board, body) in tables(results).items():
        with open(path) as f:
            text = f.read()
        new = _replace(_replace(text, board, BOARD_START, BOARD_END), body)
        if new != text:
            differ.append(os.path.relpath(path, ROOT))
            if not check:
                with open(path, "w") as f:
                    f.write(new)
    return differ


if __name__ == "__main__":
    check = sys.argv[1:] == ["--check"]
    d = write(check=check)
    if check and d:
        print("not made from bench/results.json: %s (run python tools/gen/perf_table.py)" % ", ".join(d))
        sys.exit(1)
    for p in d:
        print("rewrote the bench table in %s" % p)
