# Every game has an identity (issue 48): an id made when it starts from the device's random
# source and its times from the table's clock where it knows them, kept through every save,
# a power cut and the conversion of an earlier version's save (the same bytes give the same
# id on every device and runtime); a game the history holds is never finished twice, nor
# loaded back by the page (firmware/game/gamecheck.py); a history loaded back is merged
# with the device's by id (firmware/history/histmerge.py): a game and a game number once.
# It holds several fake flashes, every module of a finish, a load's check and a merge, one
# after another: it passes from 166K (tools/heapcap.py).
# micropython heap: 172K
import hashlib
import json

from check import forget_engines
from fakeflash import FakeFlash, PowerCut
from firmware.files.store import Store, GAME, HISTORY, ROSTER
from firmware.game.session import Session
from firmware.game import endgame
from firmware.game.gamecheck import finished_already

FIRST1 = {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1}
FAIL = [10, 0, 0, 0]
T0 = 1795896000        # 2026-11-28 20:00:00 on the table's clock (worked out: 20,420 days from 1970, + 20 h)
HOUR = 3600
HEAD = '{"format":"phase10-history","v":2}\n'


class App:
    """What endgame uses of the app: its store and session."""

    def __init__(self, fs, now=None, draws=None):
        self.store = Store("/", fs, fs.open)
        self.session = Session(self.store)
        self.session.now = now
        if draws is not None:
            self.session.urandom = lambda n: draws[:n]
        self.session.load()


def hexid(b):
    return "".join("%02x" % x for x in hashlib.sha256(b).digest()[:8])


def header(fs):
    return json.loads(bytes(fs.files["/" + GAME]).split(b"\n")[0])


def lines(fs, name=HISTORY):
    return [json.loads(t) for t in bytes(fs.files["/" + name]).decode().split("\n")[1:] if t]


def clock(t):
    return lambda: t


def test_a_new_game_gets_its_id_from_the_random_source_and_its_start_from_the_clock():
    fs = FakeFlash()
    app = App(fs, clock(T0), bytes([1, 35, 69, 103, 137, 171, 205, 239, 0]))
    s = app.session
    assert s.start("classic", FIRST1) is None
    # 64 bits: the first 8 bytes the source gives, as lowercase hex
    assert header(fs) == {"format": "phase10", "v": 3, "game": "classic", "id": "0123456789abcdef", "start": T0,
                          "settings": {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1}}
    # no clock: no time at all, never a made-up one
    fs2 = FakeFlash()
    App(fs2, None, b"\xff" * 8).session.start("masters", {"players": ["Ann", "Bob"], "dealer": 1})
    h = header(fs2)
    assert h["id"] == "ffffffffffffffff" and "start" not in h and h["v"] == 3
    # the device's own source (os.urandom): each game an id of its own
    ids = []
    for k in range(3):
        f = FakeFlash()
        assert App(f).session.start("dice", {"players": ["Ann"], "order": [0]}) is None
        ids.append(header(f)["id"])
    assert len(set(ids)) == 3 and all(len(i) == 16 and not i.strip("0123456789abcdef") for i in ids), ids
    forget_engines()


def test_the_id_and_start_stay_through_hands_an_undo_a_correction_and_a_restart():
    fs = FakeFlash()
    s = App(fs, clock(T0), b"\x10\x20\x30\x40\x50\x60\x70\x80").session
    s.start("classic", {"players": ["Ann", "Bob"], "dealer": 0})
    for h in range(3):
        assert s.commit("add", {"out": h % 2, "left": [None, FAIL] if h % 2 == 0 else [FAIL, None]}) is None
    assert s.commit("undo") is None              # the file written whole
    assert s.commit("replace", 0, {"out": 1, "left": [FAIL, None]}) is None
    assert header(fs)["id"] == "1020304050607080" and header(fs)["start"] == T0
    again = App(fs, clock(T0 + 5 * HOUR), b"\x00" * 8).session
    g = again.game
    assert g.id == "1020304050607080" and g.started == T0 and len(g.records) == 2
    # the restart wrote nothing: the id is the save's, not a new one
    assert header(fs)["id"] == "1020304050607080"
    forget_engines()


def v2_save():
    """A Phase 10 game of two hands as the firmware before ids saved it (version 2)."""
    return (b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","Bob"],"dealer":0,'
            b'"variation":"standard"}}\n{"out":0,"left":[null,[10,0,0,0]]}\n{"out":1,"left":[[3,0,0,0],null]}\n')


def test_an_earlier_save_is_converted_with_the_id_of_its_bytes_the_same_on_every_device():
    old = v2_save()
    gid = hexid(old)        # the first 64 bits of the SHA-256 of the whole file
    for kw in ({}, {"fat": True, "erased": True}):
        fs = FakeFlash({"/" + GAME: old}, **kw)
        g = App(fs, clock(T0)).session.game
        assert g is not None and g.id == gid and len(g.records) == 2
        h = header(fs)
        # written out as version 3 with that id; no start: the earlier save never had one
        assert h["v"] == 3 and h["id"] == gid and "start" not in h
        assert bytes(fs.files["/" + GAME]).split(b"\n")[1:] == old.split(b"\n")[1:]
        forget_engines()
    # a last line cut short (a power cut while a hand was added) is not part of the game,
    # nor of the bytes its id is made of
    fs = FakeFlash({"/" + GAME: old + b'{"out":0,"le'})
    s = App(fs).session
    assert s.game.id == gid and "cut short" in s.message
    forget_engines()
    # a version 1 save: the id of the whole file
    v1 = b'{"format": "phase10", "v": 1, "game": "classic", "settings": {"players": ["Ann", "Bob"]}, "records": []}'
    fs = FakeFlash({"/" + GAME: v1})
    assert App(fs).session.game.id == hexid(v1) == header(fs)["id"]
    forget_engines()


def test_a_power_cut_anywhere_in_the_conversion_leaves_the_earlier_save_and_the_same_id_after():
    old = v2_save()
    gid = hexid(old)
    for kw in ({}, {"fat": True, "erased": True}):
        k = 0
        while True:
            fs = FakeFlash({"/" + GAME: old}, **kw)
            fs.cut_at = k
            try:
                App(fs)
            except PowerCut:
                pass
            else:
                break        # the conversion ran to its end: every step was cut once
            fs.power_on()
            # the earlier save, or the converted one (on FAT maybe only its complete .tmp,
            # which the next start takes back): the same game with the same id either way
            g = App(fs).session.game
            assert g is not None and g.id == gid and len(g.records) == 2, (kw, k)
            assert header(fs)["id"] == gid and sorted(fs.files) == ["/" + GAME], (kw, k, sorted(fs.files))
            k += 1
        assert k >= 2, k
        forget_engines()


def finished(fs, now=T0, draws=b"\xab\xcd\xef\x01\x23\x45\x67\x89"):
    """A First 1 phase game of Ann and Bob started and played to its end on fs (Ann wins the
    one hand): its save's bytes, before the finish."""
    s = App(fs, clock(now), draws).session
    assert s.start("classic", FIRST1) is None
    assert s.commit("add", {"out": 0, "left": [None, FAIL]}) is None
    return bytes(fs.files["/" + GAME])


def test_a_second_finish_of_the_same_game_is_refused_and_counts_nothing():
    fs = FakeFlash()
    save = finished(fs)
    app = App(fs, clock(T0 + HOUR))
    assert endgame.end_game(app) is None
    assert "/" + GAME not in fs.files
    roster = bytes(fs.files["/" + ROSTER])
    hist = bytes(fs.files["/" + HISTORY])
    [e] = lines(fs)
    assert e["id"] == "abcdef0123456789" and e["start"] == T0 and e["end"] == T0 + HOUR and e["n"] == 1
    # a copy of its save, downloaded before the finish, loaded back and finished again
    fs.files["/" + GAME] = save
    app = App(fs, clock(T0 + 9 * HOUR))
    assert app.session.game is not None
    msg = endgame.end_game(app)
    assert msg == "Finished already on 28 Nov 2026: it is in History.", msg
    # nothing counted: the roster and the history as they were, the game still there to see
    assert bytes(fs.files["/" + ROSTER]) == roster and bytes(fs.files["/" + HISTORY]) == hist
    assert app.session.game is not None and bytes(fs.files["/" + GAME]) == save
    assert "/finish.json" not in fs.files
    # abandoning it (New game's yes) adds nothing either: the save goes
    assert endgame.abandon(app) is None
    assert "/" + GAME not in fs.files and bytes(fs.files["/" + HISTORY]) == hist
    forget_engines()
    # a history line without a time (a device with no clock): said without a date
    fs = FakeFlash()
    save = finished(fs, None)
    assert endgame.end_game(App(fs)) is None
    fs.files["/" + GAME] = save
    assert endgame.end_game(App(fs)) == "Finished already: it is in History."
    forget_engines()


def test_the_page_refuses_to_load_a_game_the_history_holds():
    fs = FakeFlash()
    store = Store("/", fs, fs.open)
    save = finished(fs)
    # not finished yet: it may be loaded
    assert finished_already(store, save) is None
    assert endgame.end_game(App(fs, clock(T0 + 2 * HOUR))) is None
    assert finished_already(store, save) == "Finished already on 28 Nov 2026: it is in History."
    # an earlier version's copy is known by the id the device gave it when it converted it
    forget_engines()
    over = (b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","Bob"],"dealer":0,'
            b'"variation":"first_n","phases":1}}\n{"out":0,"left":[null,[10,0,0,0]]}\n')
    fs2 = FakeFlash({"/" + GAME: over})
    app = App(fs2, clock(T0))
    assert app.session.game.over and finished_already(app.store, over) is None
    assert endgame.end_game(app) is None
    assert finished_already(app.store, over) == "Finished already on 28 Nov 2026: it is in History."
    # a game abandoned into the history is said so
    forget_engines()
    fs3 = FakeFlash()
    save = finished(fs3, T0, b"\x77" * 8)
    app = App(fs3, clock(T0 + 25 * HOUR))
    assert endgame.abandon(app) is None
    assert finished_already(app.store, save) == "Abandoned on 29 Nov 2026: it is in History."
    # what is not a save is said so; nothing is written either way
    before = dict(fs3.files)
    assert "not a save the device can read" in finished_already(app.store, b'{"format":"phase10","v":3,"game":"golf"}\n')
    assert fs3.files == before
    forget_engines()


def hist(games):
    """A history file's bytes: HEAD, then a line for each game (a dict, "n" first)."""
    out = HEAD
    for e in games:
        out += '{"n":%d,' % e["n"] + json.dumps({k: e[k] for k in e if k != "n"}, separators=(",", ":"))[1:] + "\n"
    return out.encode()


def game(n, who, gid=None, end=None, hands=3):
    e = {"n": n, "game": "classic", "players": ["Ann", who], "winners": ["Ann"], "done": True, "hands": hands}
    if gid:
        e["id"] = gid
    if end:
        e["end"] = end
    return e


def merged_into(fs, out):
    """What the page does with merge()'s answer: writes its files and removes the rest."""
    files, remove = out[1], out[2]
    for name in remove:
        del fs.files["/" + name]
    for name in files:
        fs.files["/" + name] = files[name]


def test_a_restored_older_history_is_merged_by_id_with_no_game_or_number_held_twice():
    from firmware.history import histmerge, histbrowse
    histmerge.SEGMENT = 3         # files of 3 games (the MicroPython test heap)
    try:
        mine = [game(1, "Bob", "00000000000000a1", T0), game(2, "Cid", "00000000000000a2", T0 + HOUR),
                game(3, "Bob", "00000000000000a3"), game(4, "Dee"),       # (an earlier firmware's: no id)
                game(5, "Eve", "00000000000000a5", T0 + 2 * HOUR)]
        fs = FakeFlash({"/history.1.json": hist(mine[:3]), "/" + HISTORY: hist(mine[3:])})
        store = Store("/", fs, fs.open)
        # an older download of the same history: games 1-4, one of them (2) finished again
        # later elsewhere with another result, one game only it holds, numbered 5 as well
        later2 = game(2, "Cid", "00000000000000a2", T0 + 3 * HOUR, hands=4)
        older = {HISTORY: hist([mine[0], later2, mine[2], mine[3], game(5, "Fay", "00000000000000b5", T0)])}
        msg, files, remove = out = histmerge.merge(store, older)
        assert msg == "History: 1 game added; 3 in History already; 1 held with other contents (the later finish kept).", msg
        assert sorted(files) == ["history.1.json", "history.json"] and remove == []
        merged_into(fs, out)
        got = lines(fs, "history.1.json") + lines(fs)
        # each game once, each number once: the device's keep theirs, the newcomer is 6
        assert [(e["n"], e["players"][1]) for e in got] == [(1, "Bob"), (2, "Cid"), (3, "Bob"), (4, "Dee"), (5, "Eve"), (6, "Fay")]
        assert got[1]["hands"] == 4 and got[1]["end"] == T0 + 3 * HOUR     # the later finish
        assert len(set(e["id"] for e in got)) == 6
        # the game with no id now carries the one derived from its content (its number aside)
        from engine_mpy.ident import entry_id
        assert got[3]["id"] == entry_id(game(99, "Dee"))
        # read back by History; loading the same again changes nothing
        b, m, unread = histbrowse.read(store, [])
        assert b.count == 6 and [b.game(i)["n"] for i in range(6)] == [6, 5, 4, 3, 2, 1]
        assert histmerge.merge(store, older) == ("Nothing loaded: every game in it is in History already.", None, None)
        # an earlier device's history restored beside this one's: its games numbered after
        other = {"history.1.json": hist([game(1, "Gus", "00000000000000c1"), game(2, "Hal", "00000000000000c2"),
                                         game(3, "Ivy", "00000000000000c3")]),
                 HISTORY: hist([game(4, "Jo", "00000000000000c4")])}
        msg, files, remove = out = histmerge.merge(store, other)
        assert msg == "History: 4 games added.", msg
        assert sorted(files) == ["history.1.json", "history.2.json", "history.3.json", "history.json"]
        merged_into(fs, out)
        ns = [e["n"] for k in (1, 2, 3) for e in lines(fs, "history.%d.json" % k)] + [e["n"] for e in lines(fs)]
        assert ns == list(range(1, 11))
        names = [e["players"][1] for e in lines(fs)]
        assert names == ["Jo"], names
    finally:
        histmerge.SEGMENT = 100
    forget_engines()


def test_a_history_holding_a_number_twice_is_mended_by_the_merge():
    # what loading an older download over a newer history left before (a game number held
    # by two games): the merge numbers the later one after the newest
    from firmware.history import histmerge
    fs = FakeFlash({"/" + HISTORY: hist([game(1, "Bob", "00000000000000d1"), game(2, "Cid", "00000000000000d2"),
                                         game(2, "Dee", "00000000000000d3"), game(3, "Eve", "00000000000000d4")])})
    store = Store("/", fs, fs.open)
    msg, files, remove = histmerge.merge(store, {HISTORY: hist([game(1, "Fay", "00000000000000d5")])})
    got = [json.loads(t) for t in files[HISTORY].decode().split("\n")[1:] if t]
    assert [(e["n"], e["players"][1]) for e in got] == [(1, "Bob"), (2, "Cid"), (3, "Eve"), (4, "Dee"), (5, "Fay")]
    forget_engines()


def test_a_merge_keeps_the_newest_games_the_history_keeps_and_says_which_went():
    # as the device's own history: ARCHIVES files moved aside and history.json (here 1 and
    # 1 of 3 games: 6 games), the oldest beyond them deleted, said
    from firmware.history import histmerge
    histmerge.SEGMENT, histmerge.ARCHIVES = 3, 1
    try:
        fs = FakeFlash({"/history.1.json": hist([game(k, "Bob", "00000000000000f%d" % k) for k in (1, 2, 3)]),
                        "/history.2.json": hist([game(4, "Bob", "00000000000000f4")]),
                        "/" + HISTORY: hist([game(5, "Bob", "00000000000000f5")])})
        msg, files, remove = histmerge.merge(Store("/", fs, fs.open), {HISTORY: hist(
            [game(6, "Cid", "00000000000000f6"), game(7, "Cid", "00000000000000f7")])})
        assert msg == "History: 2 games added; the oldest 1 deleted: the history keeps 6 games.", msg
        assert sorted(files) == ["history.1.json", HISTORY] and remove == ["history.2.json"]
        got = [json.loads(t) for name in ("history.1.json", HISTORY) for t in files[name].decode().split("\n")[1:] if t]
        assert [e["n"] for e in got] == [2, 3, 4, 5, 6, 7]
    finally:
        histmerge.SEGMENT, histmerge.ARCHIVES = 100, 9
    forget_engines()


def test_a_history_that_cannot_be_merged_is_refused_in_one_line_and_nothing_changes():
    from firmware.history import histmerge
    fs = FakeFlash({"/" + HISTORY: hist([game(1, "Bob", "00000000000000e1")])})
    store = Store("/", fs, fs.open)
    before = dict(fs.files)
    bad = HEAD.encode() + b'{"n":1,"game":"classic","players":["Ann","Bob"]}\n{"n":2,"game"\n'
    for loaded, words in (({HISTORY: bad}, "history.json: line 3 is damaged: nothing was loaded."),
                          ({"history.json.bad1": hist([])}, "is not a history file's name"),
                          ({"history.02.json": hist([])}, "is not a history file's name"),
                          ({HISTORY: b'{"format":"phase10","v":3}\n'}, "history.json is not a history file"),
                          ({HISTORY: hist([game(1, "Bob", "00000000000000e1")])}, "in History already")):
        msg, files, remove = histmerge.merge(store, loaded)
        assert files is None and remove is None and words in msg, (loaded, msg)
        assert "\n" not in msg
    assert fs.files == before
    forget_engines()
