# Fuzzed saved games (tests/both/fuzzfiles.py: real saves of every game kind, truncated,
# flipped, with junk, odd numbers, wrong types, deep nesting, invalid UTF-8, empty...)
# through Session.load as the device starts: never an exception; a good file is a game
# that saves and loads to itself; a damaged one is said in words, kept as game.json.bad1,
# and the device starts without it (or with the complete game.json.tmp beside it) and
# can start a new game. saveload.loads on its own: a game or SaveError, nothing else.
# make test: a few hundred; make soak: 10,000 on CPython and
# 2,000 here on MicroPython (capped heap: never "short of memory" either, fuzzfiles.check_read).
# It carries every game kind's real saves and their fuzzed copies beside the firmware: it
# needs 113K (tools/checks/heapcap.py, on the run of issue 43), over make test's 112K cap.
# micropython heap: 128K
import sys

import soak
import json

from fuzzfiles import fuzzed, check_read, collect, quick, drop_engines, save_kind, SAVES, MPY
from fakeflash import FakeFlash
from firmware.files.store import Store, GAME
from engine_mpy import savefile, saveload


def same_lines(a, b):
    a = [json.loads(t) for t in a.split("\n") if t]
    b = [json.loads(t) for t in b.split("\n") if t]
    return a == b


def store_on(fs):
    return Store("/", fs, fs.open)


def fuzz_saves(seed, count):
    """count fuzzed game.json files through Session.load; every 4th with a complete save
    beside it as game.json.tmp. Returns counts {"good", "bad"}."""
    seen = {"good": 0, "bad": 0, "memory": 0}
    k = len(SAVES)
    for i in range(k):   # one game kind at a time, count in all (it ran count // k a kind)
        fuzz_kind(seed + i, count // k + (i < count % k), SAVES[i], seen)
        drop_engines()
    return seen


def fuzz_kind(seed, count, src, seen):
    from firmware.game.session import Session
    kind, settings = save_kind(src)
    for case, src, bad in fuzzed(seed, count, (src,)):
        files = {"/" + GAME: bad}
        beside = None
        if case % 4 == 3:
            beside = src
            files["/" + GAME + ".tmp"] = beside
        fs = FakeFlash(files)
        s = Session(store_on(fs))
        try:
            g = s.load()
            verdict = check_read(fs, GAME, bad, g, s.message, beside)
            if g is not None:
                # a good file is a game that saves and loads to itself, and goes on
                # (as values: MicroPython writes a dict's keys in an order of its own). A
                # hand's line keeps a key the rules ignore as it was read; the rules' own
                # form of the records is what must come back.
                text = savefile.dumps(g)
                again = saveload.loads(text)
                norm = savefile.dumps(again)
                assert len(again.records) == len(g.records) and same_lines(savefile.dumps(saveload.loads(norm)), norm)
                again = norm = None
                assert "/" + GAME + ".tmp" not in fs.files
                if case % 8 == 1:
                    n = len(g.records)
                    if s.commit("undo") is None:
                        again = Session(store_on(fs)).load()
                        assert again is not None and len(again.records) == n - 1
            elif verdict == "bad" and case % 8 == 0:
                # the device goes on: a new game starts and is saved
                assert s.start(kind, settings) is None
                again = Session(store_on(fs))
                assert again.load() is not None, (again.message, fs.files)
            # savefile's own verdict: a game, or SaveError in words, nothing else; given
            # the bytes, as the device reads them (a line at a time: a last line without
            # its newline is a hand the power cut, whatever its bytes)
            try:
                saveload.loads(bad)
            except savefile.SaveError as e:
                assert isinstance(e.args[0], str) and len(e.args[0]) > 5
            except (UnicodeError, ValueError):   # not text: the store stops it first
                assert g is None or beside is not None
        except Exception:
            print("fuzzed save, seed %d case %d: %r" % (seed, case, bad[:300]))
            raise
        seen[verdict] += 1
        g = s = fs = None
        collect()


def test_fuzzed_saves():
    n = soak.count(160, 2000) if MPY else soak.count(240, 10000)
    seen = quick(fuzz_saves, 11, n)
    assert seen["good"] and seen["bad"] > n // 2
    soak.ran(n, "fuzzed game.json on %s (%d good, %d damaged, %d read when the test heap had not room)"
             % (sys.implementation.name, seen["good"], seen["bad"], seen["memory"]))


