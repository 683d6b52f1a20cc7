# The performance tables in README.md and docs/performance.md are made from the committed
# bench/results.json by tools/perf_table.py (make perf-tables rewrites them), never typed:
# the board's figures (make bench-board) first, then make bench's host estimate.
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import perf_table  # noqa: E402


def test_the_tables_are_the_committed_results():
    assert perf_table.write(check=True) == []


def test_a_changed_figure_changes_the_tables():
    with open(perf_table.RESULTS) as f:
        res = json.load(f)
    res["tap_to_frame_ms_p95"] = 61.5
    assert sorted(perf_table.write(res, check=True)) == ["README.md", os.path.join("docs", "performance.md")]
    board, body = perf_table.tables(res)[os.path.join(ROOT, "README.md")]
    assert "| `tap_to_frame_ms_p95` | 61.5 (over) | 60 |" in body


def test_a_changed_board_figure_changes_the_board_tables():
    with open(perf_table.RESULTS) as f:
        res = json.load(f)
    res.setdefault("board", {}).setdefault("frozen", {})["key_ms_p95"] = 1234.5
    assert sorted(perf_table.write(res, check=True)) == ["README.md", os.path.join("docs", "performance.md")]
    for path in ("README.md", os.path.join("docs", "performance.md")):
        board, _ = perf_table.tables(res)[os.path.join(ROOT, path)]
        assert "1234.5 |" in board.split("`key_ms_p95`")[1].splitlines()[0]


def test_every_figure_described_is_one_the_bench_makes():
    with open(perf_table.RESULTS) as f:
        res = json.load(f)
    for name, _ in perf_table.WHAT:
        assert name in res, name
