# The player roster and the history (firmware/files/roster.py): names added and renamed, a
# finished game's games/wins/points/hands, an abandoned game kept as unfinished.
# It passes from 113K (the table of modules in firmware/memory/policy.py, loaded with the
# first reader, is 3.5 KB of this 64-bit heap; a finish looks for the game's id in the
# history first, issue 48: 110K before):
# micropython heap: 120K
from fakeflash import FakeFlash
from firmware.files.store import Store
from firmware.game.session import Session
from firmware.game import endgame
from firmware.files import roster

FAIL = [10, 0, 0, 0]   # did not complete the phase: 10 low cards, 50 points


def history(store):
    """The history's games, newest first, as the History screen reads them."""
    from firmware.history import histbrowse
    b, msg, unread = histbrowse.read(store, [])
    return [b.game(i) for i in range(b.count)]


class FakeApp:
    def __init__(self):
        fs = FakeFlash()
        self.store = Store("/", fs, fs.open)
        self.session = Session(self.store)


def test_names_are_added_checked_and_renamed():
    app = FakeApp()
    st = app.store
    assert roster.load(st) == ([], None, False)
    assert roster.add(st, " Ann ") is None and roster.load(st)[0][0][0] == "Ann"
    assert roster.add(st, "Bob") is None and roster.load(st)[0][1][0] == "Bob"
    msg = roster.add(st, "Ann")
    assert "already" in msg and len(roster.load(st)[0]) == 2
    assert "at least one" in roster.add(st, "   ")
    assert "12" in roster.add(st, "A" * 13)
    assert roster.rename(st, 1, "Ann") .startswith("There is already")
    writes = st.writes
    assert roster.rename(st, 1, "Bob") is None and st.writes == writes  # unchanged: no write
    assert roster.rename(st, 1, "Rob") is None
    rows, _, _ = roster.load(st)
    assert [r[0] for r in rows] == ["Ann", "Rob"]
    assert roster.rename(st, 5, "Zed") == "No such player."


def test_a_full_roster_refuses_a_new_name():
    app = FakeApp()
    for k in range(roster.MAX_NAMES):
        assert roster.add(app.store, "P%d" % k) is None
    assert "full" in roster.add(app.store, "One more")


def test_a_finished_game_counts_games_wins_points_and_hands():
    app = FakeApp()
    roster.add(app.store, "Bob")
    s = app.session
    # First N phases with N = 1: the first hand decides. Ann goes out (0 points, phase 1
    # done, the last one: she wins); Bob holds 10 low cards: 50 points, phase not made.
    assert s.start("classic", {"players": ["Ann", "Bob"], "dealer": 0,
                               "variation": "first_n", "phases": 1}) is None
    assert s.commit("add", {"out": 0, "left": [None, FAIL]}) is None
    assert s.game.over
    gid = s.game.id
    assert endgame.end_game(app) is None
    assert s.game is None
    rows, _, _ = roster.load(app.store)
    # Bob was in the roster first; Ann is added by the game.
    assert rows == [["Bob", 1, 0, 50, 1], ["Ann", 1, 1, 0, 1]]
    assert roster.average(rows[0]) == "50.0" and roster.average(rows[1]) == "0.0"
    games = history(app.store)
    # (no "start" or "end": this session has no clock)
    assert games == [{"n": 1, "game": "classic", "players": ["Ann", "Bob"], "winners": ["Ann"], "id": gid,
                      "hands": 1, "done": True, "variation": "first_n", "phases": 1,
                      "first": 0, "totals": [0, 50], "made": [1, 0], "sheet": "0" + "03" + "A2"}]


def test_an_abandoned_game_goes_to_history_unfinished_without_stats():
    app = FakeApp()
    s = app.session
    s.start("masters", {"players": ["Ann", "Bob", "Cy"], "dealer": 2})
    s.commit("add", {"out": 1, "left": [FAIL, None, FAIL], "phase": [0, 1, 0]})
    assert endgame.abandon(app) is None and s.game is None
    assert roster.load(app.store)[0] == []
    games = history(app.store)
    assert games[0]["done"] is False and games[0]["winners"] == [] and games[0]["hands"] == 1
    # Newest first.
    s.start("classic", {"players": ["Ann", "Bob"]})
    endgame.abandon(app)
    games = history(app.store)
    assert [g["game"] for g in games] == ["classic", "masters"]


class _Dice:
    # Dice names its winners through winners() (grand totals); no points are kept.
    KIND = "dice"
    settings = {"players": ["Ann", "Bob", "Cy"], "order": [0, 1, 2]}
    records = [{}, {}, {}]

    def winners(self):
        return [0, 2]


def test_dice_co_winners_each_get_a_win_and_no_points():
    app = FakeApp()
    from engine_mpy.summary import winners
    e = {"players": _Dice.settings["players"], "winners": ["Ann", "Cy"], "totals": [300, 250, 300]}
    rows, msg, unread = roster.counted(app.store, e, None)
    assert rows == [["Ann", 1, 1, 0, 0], ["Bob", 1, 0, 0, 0], ["Cy", 1, 1, 0, 0]] and msg is None
    assert roster.average(rows[0]) == "-"
    assert winners(_Dice()) == [0, 2]


def test_a_roster_that_cannot_be_read_is_never_written_over():
    app = FakeApp()
    roster.add(app.store, "Ann")
    fs = app.store.os
    saved = bytes(fs.files["/roster.json"])
    real = fs.open

    def starved(p, mode="r"):
        if "r" in mode and p == "/roster.json":
            raise MemoryError("memory allocation failed")
        return real(p, mode)
    st = Store("/", fs, starved)
    msg = roster.add(st, "Bob")
    assert "could not be read" in msg
    assert "could not be read" in roster.rename(st, 0, "Ann2")
    # a finish would write a roster built without it: refused, the game still running
    app.store = st
    app.session = Session(st)
    s = app.session
    s.start("classic", {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1})
    s.commit("add", {"out": 0, "left": [None, FAIL]})
    msg = endgame.end_game(app)
    assert "could not be read" in msg and "still running" in msg and s.game is not None
    assert bytes(fs.files["/roster.json"]) == saved and "/history.json" not in fs.files


def test_average_rounds_to_a_tenth():
    assert roster.average(["A", 1, 0, 10, 3]) == "3.3"
    assert roster.average(["A", 1, 0, 20, 3]) == "6.7"


def test_a_damaged_roster_is_set_aside():
    fs = FakeFlash({"/roster.json": b'[["Ann",1,0'})
    rows, msg, unread = roster.load(Store("/", fs, fs.open))
    assert rows == [] and "damaged" in msg and "/roster.json.bad1" in fs.files
