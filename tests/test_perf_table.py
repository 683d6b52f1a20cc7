# The performance tables in README.md and docs/performance.md are made from the committed
# bench/results.json by tools/gen/perf_table.py (make perf-tables rewrites them), never typed:
# the board's figures (make bench-board) first, then make bench's host estimate.
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]

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


def _results():
    with open(perf_table.RESULTS) as f:
        return json.load(f)


def test_the_still_missed_paragraph_names_every_missed_budget_and_no_other():
    import re
    from budgets import BUDGETS
    res = _results()
    missed = {k for k, b in BUDGETS.items() if b is not None and k in res and res[k] > b}
    with open(os.path.join(ROOT, "docs", "performance.md")) as f:
        text = f.read()
    para = text[text.index("Still missed:"):].split("\n\n")[0]
    named = set(re.findall(r"`([a-z0-9_]+)`", para)) & set(BUDGETS)
    assert named == missed, "missed: %s; named: %s" % (sorted(missed), sorted(named))


def test_the_32_bit_heap_ratio_is_stated_only_by_the_tables():
    # heap_ratio_32_64 is the tables' row (made from bench/results.json); prose and
    # comments name it without restating a figure that goes stale.
    import re
    files = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "Makefile")]
    docs = os.path.join(ROOT, "docs")
    files += [os.path.join(docs, f) for f in sorted(os.listdir(docs)) if f.endswith(".md")]
    for path in files:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.startswith("| `heap_ratio_32_64` |"):
                    continue
                if "heap_ratio_32_64" in line or "32-bit" in line:
                    assert not re.search(r"\b0\.\d+\b", line), "%s:%d restates a ratio: %s" % (path, n, line)
