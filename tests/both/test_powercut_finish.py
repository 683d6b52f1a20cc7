# A power cut at every step of finishing a game (roster stats, history, the save removed)
# of every game kind, on CPython and MicroPython alike (abandoning one, counted once, a
# refusing flash: test_powercut_end.py); after a restart the state is exactly the old or
# the new one. Across files "old or new" means: a finish is committed when its journal
# (finish.json, the roster and history as they will be) is on flash. Cut before: the game
# is still running with all its hands and nothing is counted. Cut after: the next start
# completes it, so the game is in the history and the roster once, and gone. Never both,
# never neither, never counted twice. (A module of its own: the MicroPython test heap.)
# micropython heap: 176K
# (168K was its edge: the same build passed or ran short of memory by the folder it was run
# from, the code before the network set from the PC as well; 170K passed everywhere tried)
import json
import sys

import soak
from powercut import history_of, FakeFlash, FLASHES, FAIL, TWO, GAMES, App, cut_everywhere, each_game, quick, save_of, store_on
from fakeflash import PowerCut
from firmware.files.store import GAME, ROSTER, HISTORY
from firmware.game import endgame
from firmware.history import histadd
from firmware.files import roster


def test_finishing_a_game_of_each_kind():
    # Every kind on both runtimes: each_game() keeps one game's rules in RAM at a time, so
    # the MicroPython run holds them one after another (150K measured with tools/checks/heapcap.py;
    # the heap line above leaves the 16K margin the Makefile's MPY_HEAP leaves).
    n = 0
    cuts = {}
    real = histadd.SEGMENT
    histadd.SEGMENT = 3   # small files: the MicroPython test heap holds them and the fake flash
    try:
        for kind, settings, records, rec in each_game():
            # a first game; one more line; a full file moved aside (history.1.json) for it
            for hist in (0, 2, 3):
                files = {"/" + GAME: save_of(kind, settings, records),
                         "/" + ROSTER: b'[["Bob",2,1,75,6],["Cid",1,0,20,2]]'}
                if hist:
                    files["/" + HISTORY] = history_of(hist)

                def finish(store):
                    assert endgame.end_game(App(store)) is None
                k = cut_everywhere(files, finish, (ROSTER, HISTORY))
                cuts[kind] = cuts.get(kind, 0) + k
                n += k
    finally:
        histadd.SEGMENT = real
    # each game kind finished, and cut at many points, on this runtime
    assert sorted(cuts) == sorted(g[0] for g in GAMES) and min(cuts.values()) > 20, cuts
    soak.ran(n, "power cuts finishing a game (roster, history, save removed) on %s: %s"
             % (sys.implementation.name, ", ".join("%s %d" % (g[0], cuts[g[0]]) for g in GAMES)))
