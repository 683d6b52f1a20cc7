# The running game on the device (firmware/game/session.py, firmware/game/gamefile.py): every
# committed hand is saved (a line added), a refused entry or a refused flash write changes
# nothing, a damaged save is set aside, one that cannot be read is left alone, a save of
# the earlier version is read and carried on.
import json

from check import forget_engines
from fakeflash import FakeFlash, Reader
from firmware.files.store import Store
from firmware.game.session import Session, GAME_FILE

PLAYERS = {"players": ["Ann", "Bob"], "dealer": 0}
FAIL = [10, 0, 0, 0]
P = "/" + GAME_FILE


def fresh(flash=None):
    fs = flash or FakeFlash()
    return fs, Session(Store("/", fs, fs.open))


def lines(fs):
    return [json.loads(t) for t in bytes(fs.files[P]).decode().split("\n") if t]


def test_a_committed_hand_is_on_flash_and_survives_a_restart():
    fs, s = fresh()
    assert s.start("classic", PLAYERS) is None
    assert s.commit("add", {"out": 0, "left": [None, FAIL]}) is None
    again = Session(Store("/", fs, fs.open))
    g = again.load()
    assert g is not None and again.message is None
    assert [r["phase"] for r in g.players()] == [2, 1]
    assert [r["total"] for r in g.players()] == [0, 50]


def test_a_hand_is_one_line_added_and_only_undo_or_a_correction_rewrites_the_file():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    assert lines(fs) == [{"format": "phase10", "v": 3, "game": "classic", "id": s.game.id,
                          "settings": {"players": ["Ann", "Bob"], "dealer": 0, "variation": "standard"}}]
    st = s.store
    for h in range(3):
        w, b = st.writes, st.bytes_written
        size = len(fs.files[P])
        assert s.commit("add", {"out": h % 2, "left": [None, FAIL] if h % 2 == 0 else [FAIL, None]}) is None
        line = bytes(fs.files[P][size:])
        # one write: the new line at the end, the rest of the file untouched
        assert st.writes == w + 1 and st.bytes_written == b + len(line) and line.endswith(b"\n")
        assert json.loads(line) == {"out": h % 2, "left": [None, FAIL] if h % 2 == 0 else [FAIL, None]}
    assert s.commit("undo") is None
    assert len(lines(fs)) == 3 and "/game.json.tmp" not in fs.files
    assert s.commit("replace", 0, {"out": 1, "left": [FAIL, None]}) is None
    assert lines(fs)[1] == {"out": 1, "left": [FAIL, None]} and len(lines(fs)) == 3
    again = Session(Store("/", fs, fs.open)).load()
    assert list(again.records) == list(s.game.records) and again.state.total == s.game.state.total
    # the game in RAM reads its hands back from the file
    assert s.game.records[0] == {"out": 1, "left": [FAIL, None]} and s.game.records[-1]["out"] == 1


def test_a_game_without_hands_goes_on_after_a_restart():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    s = Session(Store("/", fs, fs.open))
    g = s.load()
    assert g is not None and len(g.records) == 0
    assert s.commit("add", {"out": 0, "left": [None, FAIL]}) is None
    assert lines(fs)[1] == {"out": 0, "left": [None, FAIL]} and len(lines(fs)) == 2
    assert g.records[0] == {"out": 0, "left": [None, FAIL]}
    assert list(Session(Store("/", fs, fs.open)).load().records) == [{"out": 0, "left": [None, FAIL]}]


def test_a_refused_entry_writes_nothing_and_says_why():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    writes = s.store.writes
    before = bytes(fs.files[P])
    msg = s.commit("add", {"out": 0, "left": [None, [5, 0, 0, 0]]})
    assert "Bob holds 5 cards" in msg and "at most 4" in msg
    assert s.store.writes == writes and len(s.game.records) == 0 and fs.files[P] == before


def test_a_refused_flash_write_leaves_the_game_as_saved():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    s.commit("add", {"out": 0, "left": [None, FAIL]})
    saved = bytes(fs.files[P])

    def full(*args):
        return "Could not save game.json (flash full)."
    s.store.write_atomic = full
    s.store.append = full
    msg = s.commit("add", {"out": 1, "left": [FAIL, None]})
    assert "flash full" in msg
    assert len(s.game.records) == 1
    assert [r["total"] for r in s.game.players()] == [0, 50]
    msg = s.commit("undo")
    assert "flash full" in msg and len(s.game.records) == 1
    msg = s.commit("replace", 0, {"out": 1, "left": [FAIL, None]})
    assert "flash full" in msg and s.game.records[0]["out"] == 0
    assert [r["total"] for r in s.game.players()] == [0, 50]
    assert fs.files[P] == saved


def test_a_bad_new_game_is_refused():
    fs, s = fresh()
    msg = s.start("classic", {"players": ["Ann"]})
    assert "2 to 6" in msg and s.game is None and not fs.files


def test_a_damaged_save_is_set_aside_naming_the_hand_and_the_rule():
    bad = (b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["A","B"]}}\n'
           b'{"out":0,"left":[null,[10,0,0,0]]}\n{"out":0,"left":[null,[5,0,0,0]]}\n{"out":1}\n')
    fs = FakeFlash({P: bad})
    s = Session(Store("/", fs, fs.open))
    assert s.load() is None
    # the device says which hand and which rule, not just "damaged"
    assert "hand 2" in s.message and "B holds 5 cards" in s.message and "game.json.bad1" in s.message
    assert fs.files == {P + ".bad1": bad}


def test_a_blank_line_between_hands_is_skipped_wherever_the_hands_are_read():
    # a save edited by hand, with a blank line between two hands: both are read at start,
    # one after another later, and a correction (the file written whole) keeps them
    text = (b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["A","B"],"dealer":0}}\n'
            b'{"out":0,"left":[null,[10,0,0,0]]}\n\n{"out":0,"left":[null,[10,0,0,0]]}\n')
    fs = FakeFlash({P: text})
    s = Session(Store("/", fs, fs.open))
    g = s.load()
    # every hand read one after another, as a finish or the score sheet reads them
    assert list(g.records) == [{"out": 0, "left": [None, FAIL]}] * 2 and s.message is None
    g = None
    assert s.commit("replace", 0, {"out": 1, "left": [FAIL, None]}) is None
    assert [r["out"] for r in lines(fs)[1:]] == [1, 0]


def test_a_save_cut_short_while_a_hand_was_added_loses_that_hand_and_says_so():
    fs, s = fresh(FakeFlash(fat=True))
    s.start("classic", PLAYERS)
    s.commit("add", {"out": 0, "left": [None, FAIL]})
    fs.files[P] = bytes(fs.files[P]) + b'{"out":1,"left":[[10,0'   # the append the power cut
    s = Session(Store("/", fs, fs.open))
    g = s.load()
    assert len(g.records) == 1 and "hand 2 was cut short" in s.message
    # the next save writes the file whole: the cut tail is gone
    assert s.commit("add", {"out": 1, "left": [FAIL, None]}) is None
    assert [r["out"] for r in lines(fs)[1:]] == [0, 1]


def test_finishing_moves_the_game_to_history():
    fs, s = fresh()
    s.start("classic", {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1})
    s.commit("add", {"out": 1, "left": [FAIL, None]})
    assert s.game.over
    from engine_mpy.summary import entry
    assert s.write_journal(entry(s.game, True, 0)) is None
    assert s.game is None
    assert P not in fs.files and "/finish.json" not in fs.files
    assert Session(Store("/", fs, fs.open)).load() is None
    text = bytes(fs.files["/history.json"]).decode().split("\n")
    assert json.loads(text[0]) == {"format": "phase10-history", "v": 2} and text[2] == ""
    e = json.loads(text[1])
    assert e["n"] == 1 and e["winners"] == ["Bob"] and e["done"] is True and e["totals"] == [50, 0]
    assert e["variation"] == "first_n" and e["phases"] == 1 and e["sheet"] == "1" + "A2" + "03"


def test_a_save_that_cannot_be_read_for_memory_is_not_called_damaged_nor_overwritten():
    fs, s = fresh()
    s.start("classic", PLAYERS)
    for h in range(3):
        s.commit("add", {"out": 0, "left": [None, FAIL]})
    saved = bytes(fs.files[P])
    # short of memory at every read the loading makes, one after another
    k = 0
    while True:
        starved = Starved({P: saved}, k)
        s2 = Session(Store("/", starved, starved.open))
        g = s2.load()
        if not starved.starved:
            assert g is not None and len(g.records) == 3
            break
        assert g is None and s2.unread and "could not be read" in s2.message and "short of memory" in s2.message
        assert starved.files == {P: saved}, k
        k += 1
    assert k > 3
    # A new game keeps the unread save aside rather than writing over it.
    starved = Starved({P: saved}, 0)
    s2 = Session(Store("/", starved, starved.open))
    s2.load()
    starved.left = -1
    assert s2.start("classic", PLAYERS) is None
    assert starved.files[P + ".bad1"] == saved


class Starved(FakeFlash):
    """A flash whose reads run out of memory at the given read (counted from 0) while
    left >= 0, as a board short of heap does; files are never changed by a read."""

    def __init__(self, files, left):
        FakeFlash.__init__(self, files)
        self.left = left
        self.starved = False

    def open(self, p, mode="r"):
        f = FakeFlash.open(self, p, mode)
        if "r" in mode:
            return _StarvedReader(self, f.data)
        return f


class _StarvedReader(Reader):
    def __init__(self, fs, data):
        Reader.__init__(self, data)
        self.fs = fs

    def _tick(self):
        fs = self.fs
        if fs.left == 0:
            fs.starved = True
            raise MemoryError("memory allocation failed")
        if fs.left > 0:
            fs.left -= 1

    def read(self, n=-1):
        self._tick()
        return Reader.read(self, n)

    def readline(self, limit=-1):
        self._tick()
        return Reader.readline(self, limit)

    def readinto(self, buf):
        self._tick()
        return Reader.readinto(self, buf)


def test_a_name_holding_half_a_character_is_a_damaged_save():
    # "\ud800" in a name (a save edited by hand): the device started on that game, wrote the
    # half as 3 bytes that are not UTF-8 into the history at its finish, and a PC could not
    # read that file (issue 42); an escaped pair (U+10000 and up, as CPython writes it) is
    # read as two halves by MicroPython, so refused there too
    for name in (b"\\ud800", b"\\udc80x"):
        fs = FakeFlash({P: b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","'
                           + name + b'"],"dealer":0}}\n'})
        s = Session(Store("/", fs, fs.open))
        assert s.load() is None
        assert "half of a character" in s.message and "game.json.bad1" in s.message, s.message
        assert P not in fs.files and P + ".bad1" in fs.files
        s = fs = None
        forget_engines()
    assert "half of a character" in Session(None).start("classic", {"players": ["Ann", "\udfff"], "dealer": 0})
