"""What docs/testing.md ("Soak tests") and the Makefile (its soak comment) say `make soak`
fuzzes is what its fuzz tests run: each kind of file its own count, on CPython and on
MicroPython.

The fuzz tests are run in their long form (SOAK=1) with the fuzzing itself stood in for,
so this takes no time; the counts they say they ran (soak.ran, the lines make soak
prints) are compared with the sentences."""
import os
import re

import soak
import test_fuzz_files
import test_fuzz_finish
import test_fuzz_saves

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("game.json", "twist_layout.txt", "settings.json", "roster.json", "history.json", "finish.json")


def long_form_counts(monkeypatch, mpy):
    """{file: [count, ...]} from the lines the fuzz tests print in make soak."""
    monkeypatch.setattr(soak, "LONG", True)
    monkeypatch.setattr(soak, "RAN", [])

    def quick(fn, seed, n, *args):
        # every fuzzed file called good or damaged, as the tests' own checks want
        if fn.__name__ == "fuzz_saves":
            return {"good": 1, "bad": n, "memory": 0}
        return (1, n - 1) if fn.__name__ == "fuzz_journals" else n
    for mod in (test_fuzz_files, test_fuzz_saves, test_fuzz_finish):
        monkeypatch.setattr(mod, "MPY", mpy)
        monkeypatch.setattr(mod, "quick", quick)
    monkeypatch.setattr(test_fuzz_files, "fuzz_layouts", lambda seed, n, path: (1, n - 1))
    test_fuzz_saves.test_fuzzed_saves()
    test_fuzz_files.test_fuzzed_layouts()
    test_fuzz_files.test_fuzzed_settings_roster_history()
    test_fuzz_finish.test_fuzzed_finish_journals_at_start_and_at_new_game()
    test_fuzz_finish.test_games_finished_into_fuzzed_histories_and_rosters()
    counts = {}
    for n, what in soak.RAN:
        if what.startswith("games finished into"):
            counts.setdefault("finished into", []).append(n)
            continue
        for k in KINDS:
            if k in what.split():
                counts.setdefault(k, []).append(n)
    return counts


FILES = r"([\d,]+) fuzzed files of each kind \(.*?; ([\d,]+) to ([\d,]+) of each on MicroPython\)"
FINISHES = r"([\d,]+) games finished into a fuzzed history and as many into a fuzzed roster \(([\d,]+) of each on MicroPython\)"


def said(path, pattern=FILES):
    """The counts the file states in the sentence pattern matches: for FILES, CPython's
    count and MicroPython's fewest and most; for FINISHES, CPython's and MicroPython's."""
    with open(os.path.join(ROOT, path)) as f:
        text = " ".join(ln.lstrip("#").strip() for ln in f.read().splitlines())
    m = re.search(pattern, text)
    assert m, "%s no longer states the counts of %s" % (path, pattern)
    return tuple(int(x.replace(",", "")) for x in m.groups())


def test_each_kind_of_file_is_fuzzed_the_number_of_times_the_docs_and_makefile_say(monkeypatch):
    host = long_form_counts(monkeypatch, False)
    board = long_form_counts(monkeypatch, True)
    for counts in (host, board):
        # each kind its own count, not one count shared by several kinds
        finished = counts.pop("finished into")
        assert len(finished) == 2 and finished[0] == finished[1], finished   # a history, a roster
        assert sorted(counts) == sorted(KINDS) and all(len(v) == 1 for v in counts.values()), counts
    doc, makefile = said(os.path.join("docs", "testing.md")), said("Makefile")
    assert doc == makefile
    each, low, high = doc
    assert all(host[k] == [each] for k in KINDS), host
    mpy = [board[k][0] for k in KINDS]
    assert min(mpy) == low and max(mpy) == high, board
    # the games finished into fuzzed files: "N games finished ... (M of each on MicroPython)"
    finishes = said(os.path.join("docs", "testing.md"), FINISHES)
    assert finishes == said("Makefile", FINISHES)
    host_f = long_form_counts(monkeypatch, False)["finished into"][0]
    board_f = long_form_counts(monkeypatch, True)["finished into"][0]
    assert finishes == (host_f, board_f), (finishes, host_f, board_f)


def test_the_fuzzed_saves_run_the_count_they_say(monkeypatch):
    # 240 said, 34 a kind of 7 run (238; 154 of 160 on MicroPython): the rest now goes to the
    # first kinds, so the count said is the count run (issue 42)
    ran = []
    monkeypatch.setattr(test_fuzz_saves, "fuzz_kind", lambda seed, n, src, seen: ran.append(n))
    monkeypatch.setattr(test_fuzz_saves, "drop_engines", lambda: None)
    for n in (240, 160, 10000, 2000):
        del ran[:]
        test_fuzz_saves.fuzz_saves(11, n)
        assert sum(ran) == n and len(ran) == len(test_fuzz_saves.SAVES) and max(ran) - min(ran) <= 1, ran
