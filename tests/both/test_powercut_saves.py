# A power cut at every step of every kind of save the device makes, driven through the
# callers the screens use (not just the store): a new game, a committed hand of each game
# (streamed into the file in pieces), a correction, an undo, finishing a game (roster
# stats, history, the save removed) and abandoning one (a setting and the roster:
# test_powercut_settings.py). After
# each cut the device starts again (a fresh Store and Session on the same flash) and what
# it reads must be exactly the state before the action or the state after it.
#
# Across files "old or new" means: a finish is committed when its journal (finish.json,
# the roster and history as they will be) is on flash. Cut before: the game is still
# running with all its hands and nothing is counted. Cut after: the next start completes
# it, so the game is in the history and the roster once, and gone. Never both, never
# neither, never counted twice.
import json

import soak
from powercut import (FLASHES, FAIL, TWO, GAMES, KEEP, App, cut_everywhere, each_game, quick,
                      save_of, store_on)
from test_store import FakeFlash, PowerCut
from firmware.store import GAME, ROSTER, HISTORY
from firmware.session import Session
from firmware import roster


def test_a_new_game_of_each_kind():
    n = 0
    for kind, settings, records, rec in each_game():
        n += cut_everywhere({}, lambda store: Session(store).start(kind, settings))
    soak.ran(n, "power cuts starting a game")


def test_a_hand_of_each_game_an_undo_and_a_correction():
    n = 0
    for kind, settings, records, rec in each_game():
        files = {"/" + GAME: save_of(kind, settings, records)}

        def commit(store, what=("add", rec)):
            s = Session(store)
            s.load()
            assert s.commit(*what) is None
        # the save is streamed record by record: several writes, each cut in two
        k = cut_everywhere(files, commit)
        assert k > 10
        n += k + cut_everywhere(files, lambda store: commit(store, ("undo",)))
    kind, settings, records, rec = GAMES[0]
    files = {"/" + GAME: save_of(kind, settings, records + [rec])}
    n += cut_everywhere(files, lambda store: commit(store, ("replace", 0, {"out": 1, "left": [FAIL, None]})))
    soak.ran(n, "power cuts saving a hand, an undo, a correction")


def history_of(n):
    return json.dumps([{"game": "classic", "players": TWO, "winners": ["Ann"], "hands": 3, "done": True}] * n).encode()


def test_finishing_a_game_of_each_kind():
    n = 0
    for kind, settings, records, rec in each_game():
        for hist in (0, KEEP):   # a first game, and a full history that drops one
            files = {"/" + GAME: save_of(kind, settings, records),
                     "/" + ROSTER: b'[["Bob",2,1,75,6],["Cid",1,0,20,2]]'}
            if hist:
                files["/" + HISTORY] = history_of(hist)

            def finish(store):
                assert roster.finish(App(store)) is None
            n += cut_everywhere(files, finish, (ROSTER, HISTORY))
    soak.ran(n, "power cuts finishing a game (roster, history, save removed)")


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
    n = 0
    for kind, settings, records, rec in each_game():
        files = {"/" + GAME: save_of(kind, settings, records), "/" + HISTORY: history_of(2)}

        def abandon(store):
            assert roster.abandon(App(store)) is None
        n += cut_everywhere(files, abandon, (ROSTER, HISTORY))
    soak.ran(n, "power cuts abandoning a game")


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
