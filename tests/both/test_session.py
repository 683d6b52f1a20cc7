# The running game on the device (firmware/session.py): every committed hand is saved, a
# refused entry or a refused flash write changes nothing, a damaged save is set aside.
from test_store import FakeFlash
from firmware.store import Store
from firmware.session import Session, GAME_FILE

PLAYERS = {"players": ["Ann", "Bob"], "dealer": 0}
FAIL = [10, 0, 0, 0]


def fresh(flash=None):
    fs = flash or FakeFlash()
    return fs, Session(Store("/", fs, fs.open))


def test_a_committed_hand_is_on_flash_and_survives_a_restart():
    fs, s = fresh()
    assert s.start("classic", PLAYERS) is None
    assert s.commit("add", {"out": 0, "left": [None, FAIL]}) is None
    again = Session(Store("/", fs, fs.open))
    g = again.load()
    assert g is not None and again.message is None
    assert [r["phase"] for r in g.players()] == [2, 1]
    assert [r["total"] for r in g.players()] == [0, 50]


def test_a_refused_entry_writes_nothing_and_says_why():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    writes = s.store.writes
    msg = s.commit("add", {"out": 0, "left": [None, [5, 0, 0, 0]]})
    assert "Bob holds 5 cards" in msg and "at most 4" in msg
    assert s.store.writes == writes and s.game.records == []


def test_a_refused_flash_write_leaves_the_game_as_saved():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    s.commit("add", {"out": 0, "left": [None, FAIL]})

    def full(name, text):
        s.store.error = "Could not save game.json (flash full)."
        return False
    s.store.write_atomic = full
    msg = s.commit("add", {"out": 1, "left": [FAIL, None]})
    assert "flash full" in msg
    assert len(s.game.records) == 1
    assert [r["total"] for r in s.game.players()] == [0, 50]
    msg = s.commit("undo")
    assert "flash full" in msg and len(s.game.records) == 1


def test_a_bad_new_game_is_refused():
    fs, s = fresh()
    msg = s.start("classic", {"players": ["Ann"]})
    assert "2 to 6" in msg and s.game is None


def test_a_damaged_save_is_set_aside_and_the_device_starts_without_it():
    fs = FakeFlash({"/" + GAME_FILE: b'{"format":"phase10","v":1,"game":"classic","settings":{"players":["A","B"]},"records":[{"out":0,"left":[null,[3,0,0,0]]},{"out":0'})
    s = Session(Store("/", fs, fs.open))
    assert s.load() is None
    assert s.message
    assert ("/" + GAME_FILE + ".bad") in fs.files


def test_finishing_moves_the_game_to_history():
    fs, s = fresh()
    s.start("classic", {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1})
    s.commit("add", {"out": 1, "left": [FAIL, None]})
    assert s.game.over
    assert s.finish({"game": "classic", "winners": ["Bob"]}) is None
    assert s.game is None
    assert ("/" + GAME_FILE) not in fs.files
    assert Session(Store("/", fs, fs.open)).load() is None
    hist, msg = Store("/", fs, fs.open).load_json("history.json")
    assert hist == [{"game": "classic", "winners": ["Bob"]}]


def test_a_save_that_cannot_be_read_for_memory_is_not_called_damaged_nor_overwritten():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    s.commit("add", {"out": 0, "left": [None, FAIL]})
    saved = fs.files["/" + GAME_FILE]

    def short_of_memory(text):
        raise MemoryError("memory allocation failed")
    store = Store("/", fs, fs.open)
    text, msg = store.read(GAME_FILE, short_of_memory)
    assert text is None and "MemoryError" in msg
    assert fs.files["/" + GAME_FILE] == saved and ("/" + GAME_FILE + ".bad") not in fs.files
    # A session that could not read it keeps it aside before a new game is saved.
    import firmware.session as session_mod
    real = session_mod._check
    session_mod._check = lambda found: short_of_memory
    try:
        s2 = Session(Store("/", fs, fs.open))
        assert s2.load() is None and s2.unread
    finally:
        session_mod._check = real
    assert s2.start("classic", PLAYERS) is None
    assert fs.files["/" + GAME_FILE + ".bad"] == saved
