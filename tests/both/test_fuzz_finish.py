# Fuzzed files through the paths that finish a game (tests/both/fuzzfiles.py makes them),
# on CPython and on MicroPython:
# - finish.json (the finish journal) at start, beside the game it finishes, and at New game;
# - a game finished into a fuzzed history.json, and into a fuzzed roster.json.
# Each time: no exception, never "short of memory" (fuzzfiles.check_read says why), the
# device never stuck (the game finished, or going on, and a new game starts), every byte of a
# damaged file kept as NAME.bad1 and said, and no game the history held before the finish
# missing after it; the new game numbered after every game the history holds.
# make test: a few hundred; make soak: 10,000 each on CPython, 1,000 here on MicroPython.
# micropython heap: 192K
# (160K until the fuzzing put odd text in strings, issue 42: the cases after it changed,
# and a byte-flipped history finished into took 168-192K beside its fake flash, as the
# heap's pieces fell)
import json
import sys

import soak
from fuzzfiles import fuzzed, collect, quick, JOURNALS, HISTORIES, ROSTERS, MPY
from powercut import games, history_of, FakeFlash, FAIL, TWO, App, save_of, store_on
from firmware.files.store import GAME, HISTORY, ROSTER, FINISH
from firmware.game import endgame

SETTINGS1 = {"players": TWO, "dealer": 0, "variation": "first_n", "phases": 1}
_OVER = []


def over_game():
    """game.json of a game of "first 1 phase" decided by its first hand (Ann wins)."""
    if not _OVER:
        _OVER.append(save_of("classic", SETTINGS1, [{"out": 0, "left": [None, FAIL]}]))
    return _OVER[0]


def words(msgs):
    return " ".join(m for m in msgs if m)


def no_memory(text, bad):
    assert "short of memory" not in text, (bad[:200], text)


def fuzz_journals(seed, count):
    """count fuzzed finish.json through start (beside the game it finishes, with a history
    of 3 games) and New game. Returns (applied, damaged)."""
    applied = damaged = 0
    for case, src, bad in fuzzed(seed, count, JOURNALS):
        try:
            fs = FakeFlash({"/" + GAME: over_game(), "/" + FINISH: bad, "/" + HISTORY: history_of(3)})
            app = App(store_on(fs))
            text = words(app.session.messages)
            no_memory(text, bad)
            assert "/" + FINISH not in fs.files, (bad, text)        # never left to stop every start
            if ("/" + FINISH + ".bad1") in fs.files:
                # damaged: its bytes kept, said, and the game goes on
                assert fs.files["/" + FINISH + ".bad1"] == bad and "finish.json" in text and "damaged" in text, text
                assert app.session.game is not None and app.session.game.over
                damaged += 1
            else:
                # a journal that holds together: the finish it journals is completed
                assert text == "", text
                assert "/" + GAME not in fs.files and app.session.game is None
                n = json.loads(bad)["n"]
                newest = games(app.store)[0]
                assert newest is not None and newest["n"] == max(n, 3), (bad, newest)
                applied += 1
            # New game is never refused for it
            assert app.session.start("classic", {"players": TWO, "dealer": 1}) is None
            # and at New game with no game running (the journal met first there)
            fs = FakeFlash({"/" + FINISH: bad})
            app = App(store_on(fs))
            no_memory(words(app.session.messages), bad)
            assert "/" + FINISH not in fs.files and app.session.start("classic", {"players": TWO, "dealer": 0}) is None
        except Exception:
            print("fuzzed finish.json, seed %d case %d: %r" % (seed, case, bad[:300]))
            raise
        fs = app = None
        collect()
    return applied, damaged


def kept_games(store):
    """The games a Browser reads, as (players, winners, game, hands): numbers aside (a
    version 1 history is numbered when it is written out)."""
    out = []
    for g in games(store):
        if g is not None:
            out.append((g.get("players"), g.get("winners"), g.get("game"), g.get("hands")))
    return out


def fuzz_finish_into(seed, count, name):
    """count games finished into a fuzzed history.json or roster.json. Returns the number
    of files set aside as damaged."""
    sources = HISTORIES if name == HISTORY else ROSTERS
    damaged = 0
    for case, src, bad in fuzzed(seed, count, sources):
        try:
            before = []
            numbers = []
            if name == HISTORY:
                # what the History screen reads of it before (on a copy of the flash)
                look = store_on(FakeFlash({"/" + HISTORY: bad}))
                before = kept_games(look)
                numbers = [g["n"] for g in games(look) if g is not None and "n" in g]
                look = None
            fs = FakeFlash({"/" + GAME: over_game(), "/" + name: bad})
            app = App(store_on(fs))
            msg = endgame.end_game(app)
            no_memory(msg or "", bad)
            # finished: never refused for a damaged file
            assert "/" + GAME not in fs.files and "/" + FINISH not in fs.files and app.session.game is None, (msg, sorted(fs.files))
            if ("/" + name + ".bad1") in fs.files:
                assert fs.files["/" + name + ".bad1"] == bad and name in (msg or ""), msg
                damaged += 1
            after = games(app.store)
            assert after[0] is not None and after[0]["winners"] == ["Ann"] and after[0]["players"] == TWO, after[:1]
            if name == HISTORY:
                # the new game numbered after every game the history held, and none of
                # those games missing
                assert after[0]["n"] > max(numbers + [0]), (numbers, after[0]["n"])
                now = kept_games(app.store)
                for g in before:
                    assert g in now, (g, bad[:300])
            else:
                from firmware.files import roster
                rows, m, unread = roster.load(app.store)
                names = [r[0] for r in rows]
                # readable now, and this game counted (unless the roster is full)
                assert m is None and ("Ann" in names and "Bob" in names or len(rows) >= roster.MAX_NAMES), (m, rows)
        except Exception:
            print("finished into a fuzzed %s, seed %d case %d: %r" % (name, seed, case, bad[:300]))
            raise
        fs = app = None
        collect()
    return damaged


def test_fuzzed_finish_journals_at_start_and_at_new_game():
    n = soak.count(60, 1000) if MPY else soak.count(150, 10000)
    applied, damaged = quick(fuzz_journals, 21, n)
    assert applied and damaged > n // 4, (applied, damaged)
    soak.ran(n, "fuzzed finish.json on %s (%d applied, %d damaged)" % (sys.implementation.name, applied, damaged))


def test_games_finished_into_fuzzed_histories_and_rosters():
    n = soak.count(40, 1000) if MPY else soak.count(100, 10000)
    for name in (HISTORY, ROSTER):
        damaged = quick(fuzz_finish_into, 22 if name == HISTORY else 23, n, name)
        assert damaged > n // 4, damaged
        soak.ran(n, "games finished into a fuzzed %s on %s (%d damaged)" % (name, sys.implementation.name, damaged))
