# History files whose names the device does not write (history.02.json, copied onto a board
# by hand beside history.2.json): said and left alone, never read as the file of that
# number, counted twice or deleted to make room (issue 42). On both runtimes, littlefs-like
# and FAT-like.
# micropython heap: 144K
# (as test_history_full.py: a full fake flash of history files beside the firmware)
from powercut import FLASHES, App, store_on
from firmware.game import endgame
from test_history_full import flash, history_of, used


def test_a_history_file_named_by_hand_is_said_and_left_alone():
    # history.02.json, copied onto a board by hand beside history.2.json: read as that file,
    # its games were counted twice and history.02.json's hidden (issue 42)
    from firmware.history import histbrowse
    for kw in FLASHES:
        fs = flash(kw, 2, 2, extra={"/history.02.json": history_of(3, 100)})
        said = []
        b, msg, unread = histbrowse.read(store_on(fs), said)
        assert b.count == 8 and [b.game(i)["n"] for i in range(8)] == [8, 7, 6, 5, 4, 3, 2, 1]
        assert len(said) == 1 and said[0].startswith("history.02.json is not a name the device"), said
        # a finish on the full flash makes room with the device's own oldest file only
        fs.room = used(fs)
        msg = endgame.end_game(App(store_on(fs)))
        assert msg is not None and "(games 1-3)" in msg, msg
        assert "/history.1.json" not in fs.files and "/history.02.json" in fs.files
        msg = endgame.end_game(App(store_on(flash(kw, 0, 2, extra={"/history.02.json": history_of(3, 100)}))))
        assert msg is not None and "full" in msg and "history.02.json" not in msg, msg
