# A save of the earlier version (1: one JSON object, as firmware before the line format
# wrote it) is read a record at a time, written out as this version (3: a line a record,
# the game's id in the header, derived from the earlier file's bytes) at the first start,
# and the game carried on. A module of its own: a fresh MicroPython heap, as at a board's start.
# It passes from 114K (the table of modules in firmware/memory/policy.py, loaded with the
# first reader, is 3.5 KB of this 64-bit heap; the conversion reads the file once more for
# the game's id, issue 48: 110K before):
# micropython heap: 120K
import json

from check import forget_engines
from fakeflash import FakeFlash, PowerCut
from firmware.files.store import Store
from firmware.game.session import Session, GAME_FILE

PLAYERS = {"players": ["Ann", "Bob"], "dealer": 0}
FAIL = [10, 0, 0, 0]
P = "/" + GAME_FILE


def lines(fs):
    return [json.loads(t) for t in bytes(fs.files[P]).decode().split("\n") if t]


def long_v1():
    """A 6-player game of 30 hands as earlier firmware saved it: one line of 2,500 bytes,
    longer than any header (so read a record at a time, never whole)."""
    six = '["A","B","C","D","E","F"]'
    recs = []
    for h in range(30):
        recs.append('{"out":%d,"left":[%s]}' % (h % 6, ",".join(["null" if p == h % 6 else "[10,0,0,0]" for p in range(6)])))
    return '{"format":"phase10","v":1,"game":"classic","settings":{"players":%s,"dealer":0},"records":[%s]}' % (six, ",".join(recs))


def test_a_version_1_save_is_read_and_carried_on_as_version_3():
    old = {"format": "phase10", "v": 1, "game": "classic", "settings": PLAYERS,
           "records": [{"out": 0, "left": [None, FAIL]}, {"out": 1, "left": [FAIL, None]}] * 9}
    spread = json.dumps(old).replace(", ", ",\n  ").replace("{", "{\n ")   # as a hand editor leaves it
    # a long one first (the heap fresh, as at a board's start), then as earlier firmware
    # wrote it (one line) and spread over lines
    for text in (long_v1(), json.dumps(old), spread):
        fs = FakeFlash({P: text.encode()})
        want = 30 if text.startswith('{"format":"phase10","v":1,"game":"classic","settings":{"players":["A"') else 18
        # its id: the first 64 bits of the SHA-256 of the earlier file, whole
        import hashlib
        gid = "".join("%02x" % b for b in hashlib.sha256(text.encode()).digest()[:8])
        text = None
        s = Session(Store("/", fs, fs.open))
        g = s.load()
        assert g is not None and s.message is None and len(g.records) == want, s.message
        got = lines(fs)
        assert got[0]["v"] == 3 and got[0]["id"] == gid == g.id and len(got) == want + 1
        if want == 18:
            assert got[1:] == old["records"]
        else:
            assert [r["out"] for r in got[1:]] == [h % 6 for h in range(30)] and got[30]["left"][5] is None
        got = None
        rec = {"out": 0, "left": [None] + [FAIL] * (len(g.settings["players"]) - 1)}
        assert s.commit("add", rec) is None
        assert len(lines(fs)) == want + 2
        g = s = fs = None   # one game in RAM at a time, as on a board
        forget_engines()
    # a cut while it is converted leaves the version 1 save, read again at the next start
    for k in range(4):
        fs = FakeFlash({P: json.dumps(old).encode()})
        fs.cut_at = k
        try:
            Session(Store("/", fs, fs.open)).load()
        except PowerCut:     # (only the cut: any other error of the load is the test's)
            pass
        else:
            raise AssertionError("no cut at step %d: the load ended before it" % k)
        fs.power_on()
        g = Session(Store("/", fs, fs.open)).load()
        assert len(g.records) == 18


def test_a_version_1_save_of_a_game_without_hands_is_carried_on():
    # a game just started on earlier firmware (a Dice game before its first turn): no
    # record to convert, and it goes on as version 3 all the same
    for kind, settings in (("dice", {"players": ["Ann", "Bob"], "order": [1, 0]}), ("classic", PLAYERS)):
        old = {"format": "phase10", "v": 1, "game": kind, "settings": settings, "records": []}
        fs = FakeFlash({P: json.dumps(old).encode()})
        s = Session(Store("/", fs, fs.open))
        g = s.load()
        assert g is not None and s.message is None and len(g.records) == 0, (kind, s.message)
        assert lines(fs) == [lines(fs)[0]] and lines(fs)[0]["v"] == 3 and lines(fs)[0]["game"] == kind
        g = s = fs = None
        forget_engines()


def test_a_version_1_save_on_a_full_flash_is_converted_by_making_room():
    # the conversion was refused ("could not be converted (... flash full)") and the game
    # could not go on till the owner freed space by hand; a hand deletes the oldest history
    # file to make room, and so does the conversion now, said (issue 42)
    head = '{"format":"phase10-history","v":2}\n'
    old = {"format": "phase10", "v": 1, "game": "classic", "settings": PLAYERS,
           "records": [{"out": 0, "left": [None, FAIL]}] * 6}
    games = "".join('{"n":%d,"game":"classic","players":["Ann","Bob"],"done":true,"sheet":"%s"}\n'
                    % (k, "0" * 200) for k in range(1, 4))
    fs = FakeFlash({P: json.dumps(old).encode(), "/history.1.json": (head + games).encode(),
                    "/history.json": (head + '{"n":4,"game":"classic","players":["Ann"]}\n').encode()})
    fs.room = sum(len(v) for v in fs.files.values())    # not a byte to spare
    s = Session(Store("/", fs, fs.open))
    g = s.load()
    assert g is not None and len(g.records) == 6, s.messages
    assert s.messages == ["The flash was full: the oldest games of the history (games 1-3) were "
                          "deleted to make room."], s.messages
    assert lines(fs)[0]["v"] == 3 and len(lines(fs)) == 7 and "/history.1.json" not in fs.files
    g = s = None
    forget_engines()
    # no history to delete: refused as before, the version 1 save kept as it was
    fs = FakeFlash({P: json.dumps(old).encode()})
    fs.room = len(fs.files[P])
    s = Session(Store("/", fs, fs.open))
    assert s.load() is None and "could not be converted" in s.message and "full" in s.message, s.messages
    assert json.loads(bytes(fs.files[P]))["v"] == 1 and sorted(fs.files) == [P]
