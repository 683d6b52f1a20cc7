# The pure parts of `make bench` (tools/bench/bench.py): the percentile, the budget verdicts and
# the table, the shape of bench/results.json, the board-time formula. The measurements
# themselves run in `make bench`, not here.
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import bench  # noqa: E402
import budgets  # noqa: E402


def test_percentile_is_nearest_rank():
    v = [5, 1, 4, 2, 3]
    assert bench.percentile(v, 50) == 3
    assert bench.percentile(v, 95) == 5
    assert bench.percentile(v, 0) == 1
    assert bench.percentile(v, 100) == 5
    # 20 values: p95 is the 19th smallest, not the largest.
    assert bench.percentile(list(range(1, 21)), 95) == 19
    assert bench.percentile([1, 2, 3, 4], 50) == 2
    assert v == [5, 1, 4, 2, 3]     # the caller's list is left alone
    with pytest.raises(ValueError):
        bench.percentile([], 50)


def test_judge_passes_at_the_budget_and_fails_above_it():
    rows = bench.judge({"boot_ms": 1500, "key_to_frame_ms_p50": 15.1, "save_bytes": 9999,
                        "extra_figure": 3})
    by = {r[0]: r for r in rows}
    assert by["boot_ms"] == ("boot_ms", 1500, 1500, "pass")
    assert by["key_to_frame_ms_p50"][3] == "FAIL"
    assert by["save_bytes"][3] == ""                 # no budget: information only
    assert by["extra_figure"] == ("extra_figure", 3, None, "")
    # A budgeted figure the run did not produce fails rather than passing silently.
    assert by["min_heap_kb"][1] is None and by["min_heap_kb"][3] == "FAIL"
    assert "boot_ms" not in bench.failed(rows) and "min_heap_kb" in bench.failed(rows)
    # The table follows the order, extras after it.
    names = [r[0] for r in rows]
    assert names.index("min_heap_kb") < names.index("key_to_frame_ms_p50") < names.index("boot_ms")
    assert names[-1] == "extra_figure"


def test_all_met_means_nothing_failed():
    ok = {n: (b if b is not None else 1) for n, b in budgets.BUDGETS.items()}
    assert bench.failed(bench.judge(ok)) == []
    ok["flash_writes_other_keys"] = 1
    assert bench.failed(bench.judge(ok)) == ["flash_writes_other_keys"]


def test_table_shows_value_budget_and_result():
    text = bench.table(bench.judge({"boot_ms": 1726.04, "dice_eval_us": 10, "save_bytes": 2370}))
    lines = text.splitlines()
    assert lines[0].split() == ["figure", "value", "budget", "result"]
    boot = [ln for ln in lines if ln.startswith("boot_ms")][0].split()
    assert boot == ["boot_ms", "1726.0", "<=", "1500", "FAIL"]
    dice = [ln for ln in lines if ln.startswith("dice_eval_us")][0].split()
    assert dice == ["dice_eval_us", "10", "<=", "200", "pass"]
    save = [ln for ln in lines if ln.startswith("save_bytes")][0].split()
    assert save == ["save_bytes", "2370", "-", "info"]


def test_results_must_be_flat_numbers():
    assert bench.check_shape({"a": 1, "b": 2.5}) == {"a": 1, "b": 2.5}
    for bad in ({"a": {"b": 1}}, {"a": "12"}, {"a": True}, {"a": float("nan")}, {"a": None}):
        with pytest.raises(ValueError):
            bench.check_shape(bad)


def test_committed_results_have_every_figure():
    with open(bench.RESULTS) as f:
        res = json.load(f)
    bench.check_shape(res)
    for name in budgets.BUDGETS:
        assert name in res, name
    assert res["min_heap_kb"] == max(res["min_heap_kb_" + g] for g in bench.GAMES)


def test_frame_time_scales_python_time_and_adds_the_wire():
    # 300 us of which 100 us in the fake bus, factor 150: 30 ms of Python on the board;
    # 1034 bytes at 400 kHz, 9 clocks a byte: 23.265 ms on the wire.
    assert bench.frame_ms(300, 100, 1034, 150) == pytest.approx(30 + 23.265)
    assert bench.frame_ms(50, 50, 0, 150) == 0
