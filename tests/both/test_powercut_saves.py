# A power cut at every step of every kind of save the device makes, driven through the
# callers the screens use (not just the store): a setting, a roster name, a new game, a
# committed hand of each game (streamed into the file in pieces), a correction, an undo,
# finishing a game (roster stats, history, the save removed) and abandoning one. After
# each cut the device starts again (a fresh Store and Session on the same flash) and what
# it reads must be exactly the state before the action or the state after it.
#
# Across files "old or new" means: a finish is committed when its journal (finish.json,
# the roster and history as they will be) is on flash. Cut before: the game is still
# running with all its hands and nothing is counted. Cut after: the next start completes
# it, so the game is in the history and the roster once, and gone. Never both, never
# neither, never counted twice.
import gc
import json
import sys

from test_store import FakeFlash, PowerCut
from firmware.store import Store, GAME, SETTINGS, ROSTER, HISTORY
from firmware import session as session_mod
from firmware.session import Session
from firmware import roster
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
    MicroPython run has a 96K heap)."""
    for g in GAMES:
        yield g
        if sys.implementation.name != "micropython":
            continue   # CPython: other test modules hold these classes; keep them one
        pkg = sys.modules.get("engine_mpy")
        for k in list(sys.modules):
            if k.startswith("engine_mpy.") and k not in ("engine_mpy.game", "engine_mpy.savefile"):
                del sys.modules[k]
                try:
                    delattr(pkg, k[11:])
                except (AttributeError, TypeError, KeyError):
                    pass
        gc.collect()


KEEP = 4   # history kept: fewer than the board's 20, to fit the 96K test heap with the fake flash


def store_on(fs):
    st = Store("/", fs, fs.open)
    st.HISTORY_KEEP = KEEP
    return st


def save_of(kind, settings, records):
    return savefile.dumps(savefile.game_class(kind)(settings, records)).encode()


class App:
    """What roster.finish()/abandon() use of the app: its store and session."""

    def __init__(self, store):
        self.store = store
        self.session = Session(store)
        self.session.load()


def state(store, names):
    """What a fresh start reads: the running game's save (or None) and the other files."""
    s = Session(store)
    g = s.load()
    assert s.message is None, s.message   # a power cut is not damage
    out = [None if g is None else savefile.dumps(g)]
    for name in names:
        out.append(store.load_json(name)[0])
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


def test_a_setting():
    files = {"/" + SETTINGS: b'{"contrast":128,"dim_s":60}'}

    from firmware.app import App as RealApp, load_settings

    class SettingsApp(RealApp):
        # the real save_setting, without a display
        def __init__(self, store):
            self.store = store
            self.settings, self.message = load_settings(store)

    def action(store):
        assert SettingsApp(store).save_setting("dim_s", 120)
    n = cut_everywhere(files, action, (SETTINGS,))
    assert n > 10
    assert load_settings(store_on(FakeFlash(files)))[0]["dim_s"] == 60


def test_a_roster_name_added_and_renamed():
    files = {"/" + ROSTER: b'[["Ann",1,1,50,3]]'}
    n = cut_everywhere(files, lambda store: roster.add(store, "Bob"), (ROSTER,))
    n += cut_everywhere(files, lambda store: roster.rename(store, 0, "Anna"), (ROSTER,))
    assert n > 20


def test_a_new_game_of_each_kind():
    for kind, settings, records, rec in each_game():
        cut_everywhere({}, lambda store: Session(store).start(kind, settings))


def test_a_hand_of_each_game_an_undo_and_a_correction():
    for kind, settings, records, rec in each_game():
        files = {"/" + GAME: save_of(kind, settings, records)}

        def commit(store, what=("add", rec)):
            s = Session(store)
            s.load()
            assert s.commit(*what) is None
        # the save is streamed record by record: several writes, each cut in two
        assert cut_everywhere(files, commit) > 10
        cut_everywhere(files, lambda store: commit(store, ("undo",)))
    kind, settings, records, rec = GAMES[0]
    files = {"/" + GAME: save_of(kind, settings, records + [rec])}
    cut_everywhere(files, lambda store: commit(store, ("replace", 0, {"out": 1, "left": [FAIL, None]})))


def history_of(n):
    return json.dumps([{"game": "classic", "players": TWO, "winners": ["Ann"], "hands": 3, "done": True}] * n).encode()


def test_finishing_a_game_of_each_kind():
    for kind, settings, records, rec in each_game():
        for hist in (0, KEEP):   # a first game, and a full history that drops one
            files = {"/" + GAME: save_of(kind, settings, records),
                     "/" + ROSTER: b'[["Bob",2,1,75,6],["Cid",1,0,20,2]]'}
            if hist:
                files["/" + HISTORY] = history_of(hist)

            def finish(store):
                assert roster.finish(App(store)) is None
            cut_everywhere(files, finish, (ROSTER, HISTORY))


def test_a_finished_game_is_counted_once_whatever_the_cut():
    # The first hand of "first 1 phase" decides: Ann wins. Wherever the power goes during
    # the finish, after the next start and the table finishing the game again if it is
    # still there, Ann and Bob have exactly one game each and Ann one win.
    quick(_counted_once)


def _counted_once():
    settings = {"players": TWO, "dealer": 0, "variation": "first_n", "phases": 1}
    files = {"/" + GAME: save_of("classic", settings, [{"out": 0, "left": [None, FAIL]}])}
    for args in FLASHES:
        k = 0
        while True:
            fs = FakeFlash(files, **args)
            fs.cut_at = k
            try:
                roster.finish(App(store_on(fs)))
                done = True
            except PowerCut:
                done = False
            fs.power_on()
            app = App(store_on(fs))
            if app.session.game is not None:
                assert app.session.game.over
                assert roster.finish(app) is None
            rows, _ = roster.load(app.store)
            assert rows == [["Ann", 1, 1, 0, 1], ["Bob", 1, 0, 50, 1]], (args, k, rows)
            hist, _ = app.store.load_json(HISTORY)
            assert len(hist) == 1 and hist[0]["winners"] == ["Ann"], (args, k, hist)
            assert sorted(fs.files) == ["/" + HISTORY, "/" + ROSTER], (args, k, fs.files)
            if done:
                break
            k += 1
        assert k > 5


def test_abandoning_a_game_of_each_kind():
    for kind, settings, records, rec in each_game():
        files = {"/" + GAME: save_of(kind, settings, records), "/" + HISTORY: history_of(2)}

        def abandon(store):
            assert roster.abandon(App(store)) is None
        cut_everywhere(files, abandon, (ROSTER, HISTORY))


class RefusingFlash(FakeFlash):
    """Refuses (flash full) any save of the file named in .refuse."""
    refuse = None

    def open(self, p, mode="r"):
        if "w" in mode and self.refuse and p == "/" + self.refuse + ".tmp":
            raise OSError(28)
        return FakeFlash.open(self, p, mode)


def test_a_finish_the_flash_refuses_half_way_is_completed_at_the_next_start():
    kind, settings, records, rec = GAMES[0]
    fs = RefusingFlash({"/" + GAME: save_of(kind, settings, records)})
    fs.refuse = HISTORY   # the journal is saved, the history is not
    app = App(store_on(fs))
    msg = roster.finish(app)
    assert "flash full" in msg
    assert app.session.game is None   # committed: the game is over
    # a new game waits until the finish is complete: it would otherwise be removed with it
    assert "flash full" in app.session.start(kind, settings)
    assert ("/" + GAME) in fs.files and ("/finish.json") in fs.files
    fs.refuse = None
    again = App(store_on(fs))
    assert again.session.game is None and again.session.message is None
    assert sorted(fs.files) == ["/" + HISTORY, "/" + ROSTER]
    hist, _ = again.store.load_json(HISTORY)
    assert len(hist) == 1 and hist[0]["players"] == TWO
