# A power cut at every step of the running game's saves, driven through the callers the
# screens use (not just the store): a new game of each kind, a committed hand of each game
# (streamed into the file in pieces), an undo and a correction. After each cut the device
# starts again (a fresh Store and Session on the same flash) and what it reads must be
# exactly the state before the action or the state after it. Finishing and abandoning a
# game: test_powercut_finish.py; a setting and the roster: test_powercut_settings.py.
# It holds a fake flash and every kind's saves beside the Session, which loads the memory
# policy (firmware/memory/policy.py, loaded with the app on a device): it needs 116K
# (tools/checks/heapcap.py, issue 43), over make test's 112K cap.
# micropython heap: 128K
import soak
from powercut import GAMES, FAIL, cut_everywhere, each_game, save_of
from firmware.files.store import GAME
from firmware.game.session import Session


def start(store, kind, settings):
    s = Session(store)
    s.urandom = lambda n: b"\x5e" * n     # the same game's id every time it is started
    return s.start(kind, settings)


def test_a_new_game_of_each_kind():
    n = 0
    for kind, settings, records, rec in each_game():
        n += cut_everywhere({}, lambda store: start(store, kind, settings))
    soak.ran(n, "power cuts starting a game")


def test_a_hand_of_each_game_an_undo_and_a_correction():
    n = 0
    for kind, settings, records, rec in each_game():
        files = {"/" + GAME: save_of(kind, settings, records)}

        def commit(store, what=("add", rec)):
            s = Session(store)
            s.load()
            assert s.commit(*what) is None
        # a hand is one line appended: open, write, close, each cut (on FAT the write too
        # is cut in two, and the torn line is dropped at the next start)
        k = cut_everywhere(files, commit)
        assert k >= 9
        n += k + cut_everywhere(files, lambda store: commit(store, ("undo",)))
    kind, settings, records, rec = GAMES[0]
    files = {"/" + GAME: save_of(kind, settings, records + [rec])}
    n += cut_everywhere(files, lambda store: commit(store, ("replace", 0, {"out": 1, "left": [FAIL, None]})))
    soak.ran(n, "power cuts saving a hand, an undo, a correction")
