"""History opens reading history.json only (issue 25: 1,000 games took most of a second to
open on a Pico): each older file counts 100 games until the list reaches it, then the list
is exactly what the files hold. Played on the simulated device."""
from firmware import store as store_mod
from host_sim import script, sim
from tests import table_keys as K
from tests.test_damage_said import flash, notes, press
from tests.test_history_full_notes import archive

sim.use_fake_machine()


def opened(monkeypatch):
    names = []
    real = store_mod.Store.open

    def counting(self, name, mode="rb"):
        names.append(name)
        return real(self, name, mode)
    monkeypatch.setattr(store_mod.Store, "open", counting)
    return names


def test_history_reads_the_older_files_only_when_the_list_reaches_them(tmp_path, monkeypatch):
    # an older file short of 100 games (as a damaged one set aside would leave things)
    dev = script.Device(state=flash(tmp_path, {"history.1.json": archive(1, 3), "history.2.json": archive(4, 100),
                                               "history.json": archive(104, 10)}))
    names = opened(monkeypatch)
    press(dev, K.menu("history"))
    h = dev.app.top()
    assert h.module == "history" and "history.1.json" not in names and "history.2.json" not in names, names
    assert h.games.game(h.sel)["n"] == 113
    # down into history.2.json: read then, its 100 games as counted
    dev.play(script.parse(K.down(10)))
    assert "history.2.json" in names and "history.1.json" not in names
    assert h.games.game(h.sel)["n"] == 103
    # UP from the top wraps to the oldest game: history.1.json read, the list made exact
    dev.play(script.parse(K.up(10) + " UP"))
    assert notes(dev) == []
    h = dev.app.top()
    assert h.count == 113 and h.sel == 112 and h.games.game(h.sel)["n"] == 1, (h.count, h.sel)
    # and round again to the newest
    dev.play(script.parse("DOWN"))
    assert dev.app.top().sel == 0 and dev.app.top().games.game(0)["n"] == 113
