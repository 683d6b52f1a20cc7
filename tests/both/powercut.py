# Shared by the power-cut tests (test_powercut_saves.py, test_powercut_settings.py): cut
# the power at every step of an action on the fake flash (tests/both/test_store.py), start
# again, and check the state read is exactly the old one or the new one.
import gc
import json
import sys

from check import forget_engines
from fakeflash import FakeFlash, PowerCut
from firmware.files.store import Store, GAME, HISTORY
from firmware.game import session as session_mod
from firmware.game.session import Session
from engine_mpy import savefile

FLASHES = ({}, {"fat": True, "erased": True})   # littlefs-like, FAT-like
FAIL = [10, 0, 0, 0]
TWO = ["Ann", "Bob"]
# One game of each kind with a hand (a turn) played, and the next record to commit.
GAMES = (
    ("classic", {"players": TWO, "dealer": 0}, [{"out": 0, "left": [None, FAIL]}],
     {"out": 1, "left": [FAIL, None]}),
    ("masters", {"players": TWO, "dealer": 0}, [{"out": 0, "left": [None, FAIL], "phase": [1, 0]}],
     {"out": 1, "left": [[3, 0, 0, 0], None], "phase": [2, 1]}),
    ("twist", {"players": TWO, "dealer": 0}, [{"out": 0, "left": [None, 10]}],
     {"out": 1, "left": [10, None]}),
    ("dice", {"players": TWO, "order": [0, 1]}, [{"player": 0, "faces": "0000000000"}],
     {"player": 1, "faces": "0123450123"}),
)


def each_game():
    """GAMES one by one, with only that game's engine in RAM (as on the board: the
    MicroPython run has a capped heap), on both runtimes."""
    for g in GAMES:
        yield g
        forget_engines()   # only the next game's engine in RAM on MicroPython


def store_on(fs):
    return Store("/", fs, fs.open)


def save_of(kind, settings, records):
    """The save of a game as the device writes it: with its id (one without would be
    converted at the first start: a save of an earlier version)."""
    g = savefile.game_class(kind)(settings, records)
    _made.append(1)
    g.id = "5eed%012x" % len(_made)     # a game of its own each time
    return savefile.dumps(g).encode()


_made = []


class App:
    """What endgame.end_game()/abandon() use of the app: its store and session."""

    def __init__(self, store):
        self.store = store
        self.session = Session(store)
        self.session.load()


def state(store, names):
    """What a fresh start reads: the running game's save (or None) and the other files
    (the history as its games, newest first)."""
    s = Session(store)
    g = s.load()
    # a power cut is not damage; on FAT an append cut short loses its hand, said
    assert s.message is None or (store.os.fat and "cut short" in s.message), s.message
    out = [None if g is None else savefile.dumps(g)]
    g = None
    for name in names:
        if name == HISTORY:
            out.append(games(store))
        else:
            from firmware.files import storeread
            text = storeread.read(store, name)[0]
            storeread = None
            out.append(None if text is None else json.loads(text))
    return out


class _NoGC:
    # CPython: the session's gc.collect() (there for MicroPython's heap) walks every object
    # pytest holds, thousands of times here; the run is the same without it.
    @staticmethod
    def collect():
        pass


def cut_everywhere(files, action, names=()):
    """Cut the power at every step of action(store) on a flash holding files, on both
    kinds of flash; each time start again and read the state twice (the first start may
    complete or clean up what was cut). Returns the number of cut points tried."""
    return quick(_cut_everywhere, files, action, names)


def quick(fn, *args):
    if sys.implementation.name == "micropython":
        return fn(*args)
    real = session_mod.gc
    session_mod.gc = _NoGC
    try:
        return fn(*args)
    finally:
        session_mod.gc = real


def _cut_everywhere(files, action, names):
    tried = 0
    for args in FLASHES:
        fs = FakeFlash(files, **args)
        old = state(store_on(fs), names)
        fs = FakeFlash(files, **args)
        action(store_on(fs))
        steps = fs.steps
        new = state(store_on(fs), names)
        assert new != old, "the action changed nothing"
        seen = []
        for k in range(steps + 1):
            fs = None
            if sys.implementation.name == "micropython":
                gc.collect()
            fs = FakeFlash(files, **args)
            fs.cut_at = k
            try:
                action(store_on(fs))
                assert k == steps, "finished before step %d of %d" % (k, steps)
            except PowerCut:
                pass
            fs.power_on()
            got = state(store_on(fs), names)
            assert got == old or got == new, (args, k, fs.done, got)
            assert state(store_on(fs), names) == got   # and the next start agrees
            leftovers = [p for p in fs.files if p.endswith(".tmp") or p.endswith(".bad")]
            assert not leftovers, (args, k, leftovers)
            seen.append(got == new)
            tried += 1
        # a cut before the first step changes nothing; the finished action is the new state
        assert seen[0] is False and seen[-1] is True
    return tried




def games(store):
    """The history's games, newest first, as the History screen reads them."""
    from firmware.history import histbrowse
    b, msg, unread = histbrowse.read(store, [])
    out = [b.game(i) for i in range(b.count)]
    b = histbrowse = None
    # out of RAM again, as the History screen's closing takes them (Memory.evict)
    from engine_mpy.modules import forget
    for m in ("firmware.history.histbrowse", "firmware.history.entries", "firmware.files.storeread", "engine_mpy.lines"):
        forget(m)
    return out


def history_of(n, first=1):
    """history.json with n finished games, numbered from first."""
    lines = ['{"format":"phase10-history","v":2}']
    for k in range(first, first + n):
        lines.append(json.dumps({"n": k, "game": "classic", "players": TWO, "winners": ["Ann"],
                                 "hands": 3, "done": True}, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode()
