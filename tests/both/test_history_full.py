# The history at a full flash (issue 25): the history keeps the newest games that fit.
# When the flash refuses a finish or a hand for want of room, the oldest history file is
# deleted and the save tried again, and the message names the games that went; past the
# files kept the oldest goes the same way. With no old games to delete the refusal is the
# flash's, and nothing saved has changed. On CPython and the micropython binary alike,
# littlefs-like and FAT-like (tests/both/fakeflash.py's room: its OSError 28).
# It passes from 158K (the table of modules in firmware/memory/policy.py, loaded with the
# first reader, is 3.5 KB of this 64-bit heap; each finish here first looks for the game's
# id through every history file, issue 48: 150K before):
# micropython heap: 164K
import json

from fakeflash import FakeFlash
from powercut import FLASHES, GAMES, TWO, App, save_of, store_on
from firmware.files.store import GAME, ROSTER, HISTORY, FINISH
from firmware.game.session import Session
from firmware.game import endgame
from firmware.history import histadd

ROSTER_TEXT = b'[["Ann",2,1,75,6],["Bob",1,0,20,2]]'


def history_of(n, first):
    """A history file of n games numbered from first, each line about 300 bytes (a
    file of old games frees more than a finish takes, as on the board)."""
    lines = ['{"format":"phase10-history","v":2}']
    for k in range(first, first + n):
        # "n" first, as the device writes it (MicroPython's dicts keep no order)
        lines.append('{"n":%d,' % k + json.dumps({"game": "classic", "players": TWO, "winners": ["Ann"],
                                                  "hands": 3, "done": True, "sheet": "0" * 200},
                                                 separators=(",", ":"))[1:])
    return ("\n".join(lines) + "\n").encode()


def used(fs):
    return sum(len(v) for v in fs.files.values())


def flash(kw, archives, current, game=True, extra=None):
    """archives files of 3 games (history.1.json...), then history.json of current games,
    the running Classic game and the roster; filled up: not a byte to spare."""
    files = {"/" + ROSTER: ROSTER_TEXT}
    n = 1
    for k in range(1, archives + 1):
        files["/history.%d.json" % k] = history_of(3, n)
        n += 3
    if current:
        files["/" + HISTORY] = history_of(current, n)
    if game:
        kind, settings, records, _ = GAMES[0]
        files["/" + GAME] = save_of(kind, settings, records)
    if extra:
        files.update(extra)
    fs = FakeFlash(files, **kw)
    fs.room = used(fs)
    return fs


def numbers(fs, name):
    lines = bytes(fs.files["/" + name]).decode().splitlines()[1:]
    return [json.loads(x)["n"] for x in lines]


def small_files():
    """firmware.history.histadd with files of 3 games (the MicroPython test heap holds them). A
    finish drops the module from RAM on MicroPython: patched anew before each."""
    from firmware.history import histadd
    histadd.SEGMENT = 3
    return histadd


def test_a_finish_on_a_full_flash_deletes_the_oldest_games_and_says_which():
    for kw in FLASHES:
        fs = flash(kw, 2, 2)
        app = App(store_on(fs))
        msg = endgame.end_game(app)
        assert msg is not None and "flash was full" in msg and "(games 1-3)" in msg, msg
        # the oldest file went, the next kept; the game is the history's newest
        assert "/history.1.json" not in fs.files and numbers(fs, "history.2.json") == [4, 5, 6]
        assert numbers(fs, HISTORY) == [7, 8, 9]
        assert "/" + GAME not in fs.files and "/" + FINISH not in fs.files
        assert app.session.game is None


def test_a_full_flash_with_no_old_games_refuses_the_finish_and_changes_nothing():
    for kw in FLASHES:
        fs = flash(kw, 0, 2)
        before = dict((k, bytes(v)) for k, v in fs.files.items())
        app = App(store_on(fs))
        msg = endgame.end_game(app)
        assert msg is not None and "flash full" in msg and "deleted" not in msg, msg
        assert dict((k, bytes(v)) for k, v in fs.files.items()) == before
        # the game goes on, as its save holds it
        assert app.session.game is not None and len(app.session.game.records) == 1


def test_a_hand_on_a_full_flash_is_saved_by_deleting_the_oldest_games_said():
    for kw in FLASHES:
        fs = flash(kw, 2, 2)
        s = Session(store_on(fs))
        s.load()
        assert s.commit("add", GAMES[0][3]) is None
        assert len(s.notes) == 1 and "(games 1-3)" in s.notes[0], s.notes
        assert "/history.1.json" not in fs.files and "/history.2.json" in fs.files
        again = Session(store_on(fs))
        again.load()
        assert again.messages == [] and len(again.game.records) == 2


def test_a_hand_on_a_flash_full_of_other_things_is_refused_and_the_save_kept():
    for kw in FLASHES:
        fs = flash(kw, 0, 2)
        before = bytes(fs.files["/" + GAME])
        s = Session(store_on(fs))
        s.load()
        err = s.commit("add", GAMES[0][3])
        assert err is not None and "flash full" in err and s.notes == [], err
        assert bytes(fs.files["/" + GAME]) == before and len(s.game.records) == 1


def test_past_the_files_kept_the_oldest_games_go_and_are_said():
    real = histadd.SEGMENT
    try:
        for kw in FLASHES:
            # every file kept and history.json full: the finish moves it aside
            h = small_files()
            fs = flash(kw, h.ARCHIVES, 3)
            fs.room = None
            app = App(store_on(fs))
            msg = endgame.end_game(app)
            want = 3 * (h.ARCHIVES + 1)
            assert msg == "The history keeps %d games: the oldest (games 1-3) were deleted." % want, msg
            ks = sorted(int(k[9:-5]) for k in fs.files if k.startswith("/history.") and k[9:-5].isdigit())
            assert ks == list(range(2, h.ARCHIVES + 2)), ks
            assert numbers(fs, HISTORY) == [want + 1]
    finally:
        small_files().SEGMENT = real


def test_past_the_files_kept_one_file_too_many_left_by_a_cut_goes_at_the_next_move():
    # a power cut between moving history.json aside and deleting the oldest file leaves
    # ARCHIVES + 1 files (nothing lost; issue 42): the finishes in between keep them, and
    # the next move aside deletes the two oldest, each said
    real = histadd.SEGMENT
    try:
        for kw in FLASHES:
            h = small_files()
            fs = flash(kw, h.ARCHIVES + 1, 2)
            fs.room = None
            msg = endgame.end_game(App(store_on(fs)))
            assert msg is None and numbers(fs, HISTORY)[-1] == 3 * (h.ARCHIVES + 1) + 3, msg
            h = small_files()
            fs.files["/" + GAME] = flash(kw, 0, 0).files["/" + GAME]
            msg = endgame.end_game(App(store_on(fs)))
            want = 3 * (h.ARCHIVES + 1)
            assert msg == ("The history keeps %d games: the oldest (games 1-3) were deleted. "
                           "The history keeps %d games: the oldest (games 4-6) were deleted." % (want, want)), msg
            ks = sorted(int(k[9:-5]) for k in fs.files if k.startswith("/history.") and k[9:-5].isdigit())
            assert ks == list(range(3, h.ARCHIVES + 3)), ks
    finally:
        small_files().SEGMENT = real


def test_a_finish_cut_short_on_a_full_flash_is_completed_at_start_by_making_room():
    entry = {"n": 9, "game": "classic", "players": TWO, "winners": ["Ann"], "hands": 3, "done": True}
    journal = json.dumps({"n": 9, "roster": [["Ann", 3, 2, 75, 9], ["Bob", 2, 0, 40, 5]],
                          "entry": entry}).encode()
    for kw in FLASHES:
        fs = flash(kw, 2, 2, extra={"/" + FINISH: journal})
        s = Session(store_on(fs))
        s.load()
        assert s.game is None and "/" + GAME not in fs.files and "/" + FINISH not in fs.files
        assert len(s.messages) == 1 and "(games 1-3)" in s.messages[0], s.messages
        assert numbers(fs, HISTORY) == [7, 8, 9]
        assert json.loads(bytes(fs.files["/" + ROSTER]))[0] == ["Ann", 3, 2, 75, 9]


def test_a_damaged_file_of_old_games_is_deleted_by_its_name():
    for kw in FLASHES:
        fs = flash(kw, 2, 2, extra={"/history.1.json": b"\xff\x00 not a history" * 40})
        fs.room = used(fs)
        app = App(store_on(fs))
        msg = endgame.end_game(app)
        assert msg is not None and "(history.1.json)" in msg, msg
        assert "/history.1.json" not in fs.files and numbers(fs, HISTORY) == [7, 8, 9]
