"""Damaged, impossible or wrong files on the device's flash: what the device shows and what
is left on the flash, and what `python -m host_sim show` makes of every game's save.

Driven only from outside, as a player or a PC sees the device: files written into the
simulated flash (a folder), the simulator started on it and its keys pressed, the notes
read off its screens, the files listed afterwards. The saves are written in the first save
format (one JSON object), which every version of the device reads, so these tests judge
any version of the firmware, not one version's functions.
"""
import json
import os
import subprocess
import sys

from host_sim import script, sim
from tests import table_keys as K

sim.use_fake_machine()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAIL = [10, 0, 0, 0]


def v1_save(kind, settings, records):
    return json.dumps({"format": "phase10", "v": 1, "game": kind, "settings": settings, "records": records})


def flash(tmp_path, files):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(tmp_path)


def notes(dev, limit=8):
    """The notes on top of the screen, read one after another (OK shows the next), as a
    player reads them; the screen under them is left on top."""
    said = []
    while dev.app.top().module == "note" and len(said) < limit:
        said.append(" ".join(dev.app.top().lines))
        dev.play(script.parse("OK"))
    return said


def start(tmp_path, files):
    """The device started on a flash holding files: (device, the notes it shows at start)."""
    dev = script.Device(state=flash(tmp_path, files))
    return dev, notes(dev)


def on_flash(tmp_path):
    return sorted(os.listdir(str(tmp_path)))


def press(dev, keys):
    """Press keys; every note shown meanwhile is read (and closed) and returned."""
    said = []
    for k in keys.split():
        dev.play(script.parse(k))
        said += notes(dev)
    return said


# --- finding 1: `show` reads every game's save ------------------------------------------

def test_show_reads_a_saved_game_of_every_kind_as_text_and_json(tmp_path):
    two = ["Ann", "Bob"]
    saves = {
        "classic": ({"players": two, "dealer": 0}, [{"out": 0, "left": [None, FAIL]}]),
        "masters": ({"players": two, "dealer": 0}, [{"out": 0, "left": [None, FAIL], "phase": [3, 0]}]),
        "twist": ({"players": two, "dealer": 0}, [{"out": 0, "left": [None, 10]}]),
        "dice": ({"players": two, "order": [1, 0]}, [{"player": 1, "faces": "0000000000"},
                                                     {"player": 0, "faces": "0123450123"}]),
    }
    for kind, (settings, records) in saves.items():
        path = tmp_path / (kind + ".json")
        path.write_text(v1_save(kind, settings, records))
        for extra in ([], ["--json"]):
            r = subprocess.run([sys.executable, "-m", "host_sim", "show", str(path)] + extra, cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 0 and "Traceback" not in r.stderr, (kind, extra, r.stderr[-500:])
            assert "Ann" in r.stdout and "Bob" in r.stdout, (kind, extra, r.stdout)
            if extra:
                assert json.loads(r.stdout)["game"] == kind


# --- finding 2: every message found at start is shown ------------------------------------

def test_every_damaged_file_found_at_start_is_said_one_after_another(tmp_path):
    dev, said = start(tmp_path, {"settings.json": b'{"contrast":', "game.json": b'{"format":"phase10","v":1,"ga'})
    assert len(said) >= 2, said
    assert any("settings.json" in s for s in said) and any("game.json" in s for s in said), said
    # and Continue tells no game is running: the game's loss was said before
    assert dev.app.top().module == "menu"


# --- finding 3: damage found after start is said too -------------------------------------

def test_a_damaged_roster_found_at_new_game_is_said(tmp_path):
    dev, said = start(tmp_path, {"roster.json": b'[["Ann",1,0'})
    said += press(dev, K.menu("new game") + " OK OK")   # New game, Phase 10, Standard: the players
    assert any("roster.json" in s for s in said), (said, on_flash(tmp_path))
    assert [f for f in on_flash(tmp_path) if f.startswith("roster.json.bad")]


def test_a_damaged_history_found_at_a_finish_is_said(tmp_path):
    # a game of "first 1 phase" decided by its first hand: Continue shows it over
    game = v1_save("classic", {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1},
                   [{"out": 0, "left": [None, FAIL]}])
    dev, said = start(tmp_path, {"game.json": game, "history.json": b'[{"players":["Cid"'})
    said += press(dev, "OK OK OK")               # Continue, the game over, Finish game
    assert "game.json" not in on_flash(tmp_path), on_flash(tmp_path)      # it was finished
    assert any("history.json" in s for s in said), (said, on_flash(tmp_path))


def test_a_damaged_finish_journal_found_at_start_is_said(tmp_path):
    dev, said = start(tmp_path, {"finish.json": b'{"roster":[["Ann",1,1'})
    assert any("finish.json" in s for s in said), (said, on_flash(tmp_path))


# --- finding 5: a wrong finish journal changes nothing ------------------------------------

def test_a_finish_journal_that_parses_but_is_wrong_leaves_the_running_game(tmp_path):
    game = v1_save("classic", {"players": ["Ann", "Bob"], "dealer": 0}, [{"out": 0, "left": [None, FAIL]}])
    entry = {"n": 1, "game": "classic", "players": ["Ann", "Bob"], "winners": ["Ann"], "totals": [0, 50], "hands": 1}
    wrong = [
        {"roster": [["Ann", "x"]], "history": [1]},                 # a player is not a name and numbers
        {"n": 1, "roster": [["Ann", "x", 0, 0, 0]], "entry": entry},
        {"n": 2, "roster": None, "entry": entry},                  # the game is not the one numbered
    ]
    for i, j in enumerate(wrong):
        folder = tmp_path / str(i)
        folder.mkdir()
        dev, said = start(folder, {"game.json": game, "finish.json": json.dumps(j)})
        assert "game.json" in on_flash(folder), (j, on_flash(folder))
        assert "roster.json" not in on_flash(folder) and "history.json" not in on_flash(folder), on_flash(folder)
        assert any("finish.json" in s for s in said), (j, said)
        # Continue: the game goes on where it was
        dev.play(script.parse("OK"))
        assert dev.app.top().module == "cards_home", (j, dev.app.top().module)


# --- finding 7: a save refused for its story names the hand and the rule ------------------

def test_a_save_with_an_impossible_hand_is_refused_naming_the_hand_and_the_rule(tmp_path):
    # hand 2: Bob, still on phase 1 (6 cards), keeps 5 cards: at most 4 after completing it
    game = v1_save("classic", {"players": ["Ann", "Bob"], "dealer": 0},
                   [{"out": 0, "left": [None, FAIL]}, {"out": 0, "left": [None, [5, 0, 0, 0]]}])
    dev, said = start(tmp_path, {"game.json": game})
    text = " ".join(said)
    assert "game.json" in text and "hand 2" in text and "Bob holds 5 cards" in text, said


# --- finding 9: each game its own deck --------------------------------------------------

def test_a_masters_save_with_three_skips_left_is_refused_by_show_and_the_device(tmp_path):
    # the Masters Edition deck has 2 Skips (the Classic one 4): three left is no story
    three = [{"out": 0, "left": [None, [8, 0, 2, 0], [9, 0, 1, 0]], "phase": [1, 0, 0]}]
    players = {"players": ["Ann", "Bob", "Cid"], "dealer": 0}
    for kind, ok in (("masters", False), ("classic", True)):
        recs = three if kind == "masters" else [{"out": 0, "left": three[0]["left"]}]
        path = tmp_path / (kind + ".json")
        path.write_text(v1_save(kind, players, recs))
        r = subprocess.run([sys.executable, "-m", "host_sim", "show", str(path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert (r.returncode == 0) == ok, (kind, r.stdout, r.stderr)
        if not ok:
            assert "3 Skip cards" in r.stderr and "Masters" in r.stderr, r.stderr
    folder = tmp_path / "device"
    folder.mkdir()
    dev, said = start(folder, {"game.json": v1_save("masters", players, three)})
    assert any("3 Skip cards" in s and "Masters" in s for s in said), said


# --- finding 8: damaged copies are kept, numbered ----------------------------------------

def test_each_damaged_copy_is_kept_not_only_the_newest(tmp_path):
    first, second = b'{"contrast":1', b'{"contrast":2'
    start(tmp_path, {"settings.json": first})
    dev, said = start(tmp_path, {"settings.json": second})
    kept = [f for f in on_flash(tmp_path) if f.startswith("settings.json.bad")]
    assert sorted((tmp_path / f).read_bytes() for f in kept) == [first, second], kept
    assert any("settings.json" in s for s in said)


# --- issue 23: a folder where a file belongs ----------------------------------------------

def test_a_folder_in_place_of_a_file_is_set_aside_and_said(tmp_path):
    # was "could not be read (error 21); it is kept as it is": at every start, for ever
    for name in ("game.json", "settings.json", "finish.json", "roster.json"):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        (folder / name).mkdir()
        (folder / name / "inside.txt").write_text("kept")
        dev, said = start(folder, {})
        if name == "roster.json":
            said += press(dev, K.menu("new game") + " OK OK")    # the roster is read at New game
        text = " ".join(said)
        assert name in text and "is a folder" in text and name + ".bad1" in text, (name, said)
        assert (folder / (name + ".bad1") / "inside.txt").read_text() == "kept", on_flash(folder)
        assert name not in on_flash(folder)
