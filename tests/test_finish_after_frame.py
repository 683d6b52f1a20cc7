"""A finish shows its result as soon as it is committed (issue 25): the journal
(finish.json) is the commit, so the frame that shows the result goes out right after it,
and the roster, the history's new line and the save's removal follow (App.step:
Session.apply_journal). What the history's move of a full file will delete is said with the
result, once. A power cut after that frame loses nothing: the next start completes the
finish from its journal."""
import json
import os
import shutil

from firmware.files import store as store_mod
from host_sim import script, sim
from tests.test_damage_said import flash, notes, on_flash, v1_save

sim.use_fake_machine()
FAIL = [10, 0, 0, 0]
ONE_PHASE = {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1}


def history_file(first, n):
    lines = ['{"format":"phase10-history","v":2}']
    for k in range(first, first + n):
        lines.append('{"n":%d,"game":"classic","players":["Cid","Dee"],"winners":["Cid"],"hands":3,"done":true}' % k)
    return ("\n".join(lines) + "\n").encode()


def full_history():
    """1,000 games: history.1.json .. history.9.json and a full history.json, so the next
    finish moves history.json aside and the oldest file (games 1-100) goes."""
    files = {"history.%d.json" % k: history_file((k - 1) * 100 + 1, 100) for k in range(1, 10)}
    files["history.json"] = history_file(901, 100)
    return files


def one_hand_from_the_end(tmp_path):
    files = full_history()
    files["game.json"] = v1_save("classic", ONE_PHASE, [{"out": 0, "left": [None, FAIL]}])
    return script.Device(state=flash(tmp_path, files))


def watch(dev, tmp_path, on_result=None):
    """Record, in order, the frames sent (the screen on top) and the files written or
    removed; on_result() is called once the first frame after the commit is out."""
    seen = []
    real_show = dev.app.display.show

    def show():
        real_show()
        seen.append(("frame", dev.app.top().module))
        if on_result and "finish.json" in on_flash(tmp_path) and not [s for s in seen if s[0] == "result"]:
            seen.append(("result", None))
            on_result()
    dev.app.display.show = show
    real_atomic = store_mod.Store.write_atomic
    real_append = store_mod.Store.append
    real_remove = store_mod.Store.remove

    def write_atomic(self, name, text):
        seen.append(("write", name))
        return real_atomic(self, name, text)

    def append(self, name, text):
        seen.append(("write", name))
        return real_append(self, name, text)

    def remove(self, name):
        seen.append(("remove", name))
        return real_remove(self, name)
    return seen, (write_atomic, append, remove)


def test_the_result_is_on_the_panel_before_the_roster_and_the_history_are_written(tmp_path, monkeypatch):
    dev = one_hand_from_the_end(tmp_path)
    assert notes(dev) == []
    seen, (wa, ap, rm) = watch(dev, tmp_path)
    monkeypatch.setattr(store_mod.Store, "write_atomic", wa)
    monkeypatch.setattr(store_mod.Store, "append", ap)
    monkeypatch.setattr(store_mod.Store, "remove", rm)
    for k in ("OK", "OK"):                 # Continue, the game over
        dev.play(script.parse(k))
    del seen[:]
    dev.play(script.parse("OK"))           # Finish game
    writes = [x for x in seen if x[0] != "frame"]
    assert writes[0] == ("write", "finish.json"), seen
    journal = seen.index(("write", "finish.json"))
    result = [i for i, x in enumerate(seen) if x == ("frame", "note")][0]
    # the note that shows the result comes after the journal and before every other file
    assert journal < result
    after = [x[1] for x in seen[result:] if x[0] != "frame"]
    assert "roster.json" in after and "history.json" in after and "game.json" in after, seen
    assert [x for x in seen[journal + 1:result] if x[0] != "frame"] == [], seen
    said = notes(dev)
    # the oldest games the history's move deletes: said with the result, and only once
    assert said == ["The history keeps 1000 games: the oldest (games 1-100) were deleted."], said
    files = on_flash(tmp_path)
    assert "game.json" not in files and "finish.json" not in files and "history.1.json" not in files
    assert "history.10.json" in files
    with open(os.path.join(str(tmp_path), "history.json")) as f:
        lines = f.read().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["n"] == 1001


def test_a_power_cut_after_the_result_frame_loses_nothing(tmp_path, monkeypatch):
    (tmp_path / "device").mkdir()
    dev = one_hand_from_the_end(tmp_path / "device")
    notes(dev)
    cut = tmp_path / "cut"

    def power_cut():           # the flash as it is the moment the result is on the panel
        shutil.copytree(str(tmp_path / "device"), str(cut))
    seen, _ = watch(dev, tmp_path / "device", power_cut)
    for k in ("OK", "OK", "OK"):
        dev.play(script.parse(k))
    assert ("result", None) in seen
    before = on_flash(cut)
    assert "finish.json" in before and "game.json" in before and "history.1.json" in before
    again = script.Device(state=str(cut))
    said = notes(again)
    assert again.app.session.game is None
    files = on_flash(cut)
    assert "game.json" not in files and "finish.json" not in files and "history.1.json" not in files
    assert any("oldest (games 1-100) were deleted" in s for s in said), said
    with open(os.path.join(str(cut), "history.json")) as f:
        assert [json.loads(x)["n"] for x in f.read().splitlines()[1:]] == [1001]
    with open(os.path.join(str(cut), "roster.json")) as f:
        assert "Ann" in f.read()
