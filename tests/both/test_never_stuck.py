# The faults of the outside audit (issue 23) that sit in the device's own reading and
# finishing code, on CPython and, unchanged, on the micropython binary: whatever a file
# holds the device reaches a game it can play, says which file and what was done, and keeps
# the file's bytes; a finish never drops a game the history holds.
# A game finished and a new one started in one process, with the fake flash and the
# audit's 8 KB files beside the firmware (as test_powercut_end.py):
# micropython heap: 192K
import json

from fakeflash import FakeFlash
from firmware.files.store import Store, GAME, HISTORY, ROSTER, FINISH
from firmware.game.session import Session

TWO = ["Ann", "Bob"]
ENTRY = {"n": 1, "game": "classic", "players": TWO, "winners": ["Ann"], "totals": [0, 50], "hands": 1}
# A game of "first 1 phase" decided by its first hand: Ann wins. Written as the device saves
# it (the engine's save of it, tests/both/powercut.py save_of), kept as text so this module
# holds no game rules of its own on the MicroPython test heap.
OVER = (b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","Bob"],'
        b'"dealer":0,"variation":"first_n","phases":1}}\n{"out":0,"left":[null,[10,0,0,0]]}\n')


def deep(n=4000):
    """n "[" then n "]": 4,000 of each exhausted the board's heap while parsed, at every
    heap size."""
    return b"[" * n + b"]" * n


def over_game():
    return OVER


class App:
    """What a finish uses of the app: its store and its session, loaded as at start."""

    def __init__(self, store):
        self.store = store
        self.session = Session(store)
        self.session.load()


def history_of(n):
    """history.json with n finished games, numbered from 1."""
    out = b'{"format":"phase10-history","v":2}\n'
    for k in range(1, n + 1):
        out += b'{"n":%d,"game":"classic","players":["Ann","Bob"],"winners":["Ann"],"hands":3,"done":true}\n' % k
    return out


def games(store):
    """The history's games, newest first, as the History screen reads them."""
    from firmware.history import histbrowse
    b, msg, unread = histbrowse.read(store, [])
    return [b.game(i) for i in range(b.count)]


def finish(app):
    from firmware.game import endgame
    return endgame.end_game(app)


def started(files):
    """The device started on a flash holding files: (app, the fake flash)."""
    fs = FakeFlash(files)
    return App(Store("/", fs, fs.open)), fs


def said(app):
    return " ".join(app.session.messages)


# --- 1. one flipped bit in finish.json ----------------------------------------------------
def test_a_journal_with_a_key_gone_is_set_aside_and_the_game_goes_on():
    for key in ("rostex", "Roster", "entrx", "x"):
        j = {"n": 1, "roster": None, "entry": ENTRY}
        j[key] = j.pop("roster" if key in ("rostex", "Roster") else "entry" if key == "entrx" else "n")
        text = json.dumps(j).encode()
        app, fs = started({"/" + GAME: over_game(), "/" + FINISH: text})
        assert "finish.json" in said(app) and "damaged" in said(app), (key, said(app))
        assert fs.files["/finish.json.bad1"] == text and "/" + FINISH not in fs.files, key
        assert app.session.game is not None and app.session.game.over, key
        # New game is not refused either: the journal is gone from the way
        app.session.messages = []
        assert app.session.start("classic", {"players": TWO, "dealer": 1}) is None, key
        assert app.session.game is not None and not app.session.game.over


# --- 2. content that exhausts memory while it is parsed -----------------------------------
def test_content_nested_past_any_file_of_ours_is_damaged_on_every_runtime():
    # the same verdict on CPython and on a capped MicroPython heap: damaged, set aside,
    # said; never "short of memory" (which would keep it, and stop the device, for ever)
    app, fs = started({"/" + GAME: over_game(), "/" + FINISH: deep()})
    assert "finish.json" in said(app) and "damaged" in said(app) and "memory" not in said(app), said(app)
    assert fs.files["/finish.json.bad1"] == deep() and app.session.game is not None
    app = fs = None
    for name in (ROSTER, HISTORY):
        data = deep() if name == ROSTER else history_of(2) + deep()
        app, fs = started({"/" + GAME: over_game(), "/" + name: data})
        msg = finish(app)
        assert msg is not None and name in msg and "memory" not in msg, (name, msg)
        assert app.session.game is None and "/" + GAME not in fs.files, (name, msg)   # finished
        assert fs.files["/" + name + ".bad1"] == data, name
        h = games(app.store)
        assert h[0]["winners"] == ["Ann"], (name, h)
        if name == HISTORY:
            # the two games before the damaged line are still there, the new one after them
            assert [g["n"] for g in h] == [3, 2, 1], h


def test_a_save_a_line_of_which_nests_too_deep_is_damaged():
    good = over_game()
    # a line of a save is at most 1,024 bytes: 500 of each is within that
    for bad in (good + deep(500) + b"\n", deep(500) + b"\n" + good):
        app, fs = started({"/" + GAME: bad})
        assert "game.json" in said(app) and "damaged" in said(app) and "memory" not in said(app), said(app)
        assert fs.files["/game.json.bad1"] == bad and app.session.game is None


# --- 3. a finished game never dropped from the history ------------------------------------
def test_a_last_game_without_its_newline_is_a_game_and_the_next_is_numbered_after_it():
    hist = history_of(3)[:-1]          # the third game's line lost only its final newline
    app, fs = started({"/" + GAME: over_game(), "/" + HISTORY: hist})
    assert [g["n"] for g in games(app.store)] == [3, 2, 1]
    assert finish(app) is None
    assert [g["n"] for g in games(app.store)] == [4, 3, 2, 1]
    assert fs.files["/" + HISTORY].startswith(hist + b"\n") and not [p for p in fs.files if ".bad" in p]


def test_a_damaged_last_line_is_set_aside_said_and_counted_in_the_numbering():
    torn = history_of(2) + b'{"n":3,"game":"dice","players":["Ann","Bob"],"winn'
    app, fs = started({"/" + GAME: over_game(), "/" + HISTORY: torn})
    msg = finish(app)
    assert msg is not None and "history.json" in msg and "history.json.bad1" in msg, msg
    assert fs.files["/history.json.bad1"] == torn          # every byte kept
    assert [g["n"] for g in games(app.store)] == [4, 2, 1]   # numbered after the damaged game 3


def test_a_damaged_middle_line_does_not_lower_the_numbering():
    lines = history_of(3).split(b"\n")
    lines[3] = b'{"n":3,"game":' + b"\x00" * 20                   # the newest line damaged
    app, fs = started({"/" + GAME: over_game(), "/" + HISTORY: b"\n".join(lines)})
    assert finish(app) is None
    ns = [g["n"] if g else None for g in games(app.store)]
    assert ns == [4, None, 2, 1], ns


# --- 4. content that trips a reader is damage, not "could not be read" --------------------
def test_a_save_whose_contents_trip_the_reader_is_damaged():
    for bad in (b"{[]:1}", b'{"format":"phase10",[1,2]:1,"v":1}', b'{"format":"phase10","v":2,"game":[1,2],"settings":{}}\n'):
        app, fs = started({"/" + GAME: bad})
        assert "game.json" in said(app) and "damaged" in said(app) and "could not be read" not in said(app), (bad, said(app))
        assert fs.files["/game.json.bad1"] == bad


def test_lines_kept_past_a_torn_end_are_copied_byte_for_byte():
    # the lines before a torn last line are written again as they are: one that is not
    # UTF-8 (a damaged byte) stays, and so does a name whose letters a 256-byte piece splits
    lines = history_of(3).split(b"\n")
    lines[1] = lines[1].replace(b'"n":1,', b'"n":1,"x":"\x91",')
    lines[2] = lines[2].replace(b'"Ann"', b'"' + "\u00c9" .encode() * 100 + b'"', 1)
    torn = b"\n".join(lines[:3]) + b'\n{"n":3,"game":"dice","pla'
    app, fs = started({"/" + GAME: over_game(), "/" + HISTORY: torn})
    msg = finish(app)
    assert msg is not None and "history.json.bad1" in msg, msg
    assert fs.files["/history.json.bad1"] == torn
    kept = torn[:torn.rindex(b"\n") + 1]
    assert bytes(fs.files["/" + HISTORY]).startswith(kept)
    assert games(app.store)[0]["n"] == 4


def test_a_journal_whose_game_holds_a_raw_newline_is_damaged():
    # MicroPython's json takes a raw newline inside a string; written as it is into the
    # history it split the game's line in two (make soak found it on the VM)
    for bad in (b'{"n":4,"roster":null,"entry":{"n":4,"game":"dice","players":["Ann","Bob"],"win\nners":[]}}',
                b'{"n":4,"roster":null,"entry":{"n":4,"game":"dice","players":["Ann","Bob"],"sheet":"2\\"1"}}'):
        app, fs = started({"/" + GAME: over_game(), "/" + FINISH: bad, "/" + HISTORY: history_of(3)})
        assert fs.files.get("/finish.json.bad1") == bad and "finish.json" in said(app), (bad, said(app))
        assert [g["n"] if g else None for g in games(app.store)] == [3, 2, 1]
