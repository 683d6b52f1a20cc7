"""The history at a full flash, as the table sees it on the simulated device (issue 25;
the rules themselves: tests/both/test_history_full.py): a hand the flash refuses for want
of room is saved by deleting the oldest games of the history, and a note names them; a
finish likewise; History warns when the flash is nearly full."""
import json
import os

from firmware.files import store as store_mod
from firmware.screens import history as history_screen
from host_sim import script, sim
from tests import table_keys as K
from tests.test_damage_said import flash, notes, on_flash, press, v1_save

sim.use_fake_machine()
FAIL = [10, 0, 0, 0]


def archive(first, n=3):
    lines = ['{"format":"phase10-history","v":2}']
    for k in range(first, first + n):
        lines.append('{"n":%d,"game":"classic","players":["Cid","Dee"],"winners":["Cid"],"hands":3,"done":true}' % k)
    return ("\n".join(lines) + "\n").encode()


def full_once(monkeypatch, name):
    """The flash refuses the first save of name for want of room (OSError 28), as a full
    littlefs does; the saves after it go through."""
    refused = []
    real = store_mod.Store.append
    real_atomic = store_mod.Store.write_atomic

    def refuse(self, n, text):
        if n == name and not refused:
            refused.append(n)
            self.full = True
            return "Could not save %s (%s)." % (n, store_mod.errname(OSError(28)))
        return None

    def append(self, n, text):
        return refuse(self, n, text) or real(self, n, text)

    def write_atomic(self, n, text):
        return refuse(self, n, text) or real_atomic(self, n, text)
    monkeypatch.setattr(store_mod.Store, "append", append)
    monkeypatch.setattr(store_mod.Store, "write_atomic", write_atomic)
    return refused


def test_a_hand_refused_for_want_of_room_is_saved_and_the_games_deleted_are_named(tmp_path, monkeypatch):
    game = v1_save("classic", {"players": ["Ann", "Bob"], "dealer": 0}, [{"out": 0, "left": [None, FAIL]}])
    dev = script.Device(state=flash(tmp_path, {"game.json": game, "history.1.json": archive(1),
                                               "history.json": archive(4)}))
    assert notes(dev) == []
    refused = full_once(monkeypatch, "game.json")
    said = press(dev, "OK " + K.hand(1, [K.FAIL, None]))     # Continue, the second hand
    assert refused == ["game.json"]
    assert len(said) == 1 and "flash was full" in said[0] and "games 1-3" in said[0], said
    assert "history.1.json" not in on_flash(tmp_path) and "history.json" in on_flash(tmp_path)
    with open(os.path.join(str(tmp_path), "game.json")) as f:
        assert len([x for x in f.read().splitlines() if x.startswith("{\"out\"")]) == 2


def test_a_finish_refused_for_want_of_room_goes_through_and_names_the_games_deleted(tmp_path, monkeypatch):
    game = v1_save("classic", {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1},
                   [{"out": 0, "left": [None, FAIL]}])
    dev = script.Device(state=flash(tmp_path, {"game.json": game, "history.1.json": archive(1),
                                               "history.json": archive(4)}))
    assert notes(dev) == []
    full_once(monkeypatch, "finish.json")
    said = press(dev, "OK OK OK")               # Continue, the game over, Finish game
    assert any("flash was full" in s and "games 1-3" in s for s in said), said
    assert "game.json" not in on_flash(tmp_path) and "history.1.json" not in on_flash(tmp_path)
    with open(os.path.join(str(tmp_path), "history.json")) as f:
        assert json.loads(f.read().splitlines()[-1])["n"] == 7


def test_history_says_when_the_flash_is_nearly_full(tmp_path, monkeypatch):
    files = {"history.json": archive(1)}
    free = [history_screen.NEARLY_FULL + 4096]
    monkeypatch.setattr(store_mod.Store, "free", lambda self: free[0])
    dev = script.Device(state=flash(tmp_path, files))
    press(dev, K.menu("history"))
    assert dev.app.top().module != "note"       # room enough: no word
    assert dev.app.top().module == "history"
    free[0] = history_screen.NEARLY_FULL - 4096
    dev.play(script.parse("LONG_OK OK"))         # back on the menu at History, open it again
    said = notes(dev)
    assert said and "nearly full" in said[0] and "Pull the history" in said[0], said


def test_the_store_says_how_much_its_folder_has_free(tmp_path):
    st = store_mod.Store(str(tmp_path))
    v = os.statvfs(str(tmp_path))
    # the same filesystem, a moment apart: within a few blocks
    assert abs(st.free() - v.f_bsize * v.f_bavail) < 64 * v.f_bsize
