# Finishing a game (the rest of test_powercut_finish.py: a module per heap on MicroPython):
# counted once whatever the cut, a flash refusing half way, and a power cut at every step
# of abandoning a game of each kind. Across files "old or new" means: a finish is committed when its journal
# (finish.json, the roster and history as they will be) is on flash. Cut before: the game
# is still running with all its hands and nothing is counted. Cut after: the next start
# completes it, so the game is in the history and the roster once, and gone. Never both,
# never neither, never counted twice.
# micropython heap: 200K
import json

import soak
from powercut import games, history_of, FakeFlash, FLASHES, FAIL, TWO, GAMES, App, cut_everywhere, each_game, quick, save_of, store_on
from fakeflash import PowerCut
from firmware.files.store import GAME, ROSTER, HISTORY
from firmware.game import endgame
from firmware.files import roster


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
                endgame.end_game(App(store_on(fs)))
                done = True
            except PowerCut:
                done = False
            fs.power_on()
            app = App(store_on(fs))
            if app.session.game is not None:
                assert app.session.game.over
                assert endgame.end_game(app) is None
            rows, _, _ = roster.load(app.store)
            assert rows == [["Ann", 1, 1, 0, 1], ["Bob", 1, 0, 50, 1]], (args, k, rows)
            hist = games(app.store)
            assert len(hist) == 1 and hist[0]["winners"] == ["Ann"], (args, k, hist)
            assert sorted(fs.files) == ["/" + HISTORY, "/" + ROSTER], (args, k, fs.files)
            if done:
                break
            k += 1
        assert k > 5


def test_abandoning_a_game_of_each_kind():
    # every kind on both runtimes (one game's rules in RAM at a time: 142K measured)
    n = 0
    kinds = []
    for kind, settings, records, rec in each_game():
        files = {"/" + GAME: save_of(kind, settings, records), "/" + HISTORY: history_of(2)}

        def abandon(store):
            assert endgame.abandon(App(store)) is None
        k = cut_everywhere(files, abandon, (ROSTER, HISTORY))
        assert k > 10, (kind, k)
        kinds.append(kind)
        n += k
    assert kinds == [g[0] for g in GAMES]
    soak.ran(n, "power cuts abandoning a game (%s)" % ", ".join(kinds))


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
    msg = endgame.end_game(app)
    assert "flash full" in msg
    assert app.session.game is None   # committed: the game is over
    # a new game waits until the finish is complete: it would otherwise be removed with it
    assert "flash full" in app.session.start(kind, settings)
    assert ("/" + GAME) in fs.files and ("/finish.json") in fs.files
    fs.refuse = None
    again = App(store_on(fs))
    assert again.session.game is None and again.session.message is None
    assert sorted(fs.files) == ["/" + HISTORY, "/" + ROSTER]
    hist = games(again.store)
    assert len(hist) == 1 and hist[0]["players"] == TWO
