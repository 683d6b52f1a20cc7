# A committed hand goes to the flash right after its frame (firmware.game.session apply/flush):
# in the same poll as the key, after the screen that shows it is on the panel, before any
# other key is read; and when the flash refuses it, the game in RAM goes back to what the
# flash holds and a note says why.
import os

from tests.test_sim_cards import Table
from tests.table_keys import hand, counts, FAIL


def _log_polls(app, log):
    """Record, in order, each poll, each frame sent (with the screen on top) and each
    file saved."""
    cls = type(app)
    show = app.display.show
    write = app.store.write_atomic
    append = app.store.append

    def step():
        log.append(("poll",))
        cls.step(app)

    def shown(*a, **k):
        r = show(*a, **k)
        log.append(("frame", app.top().module))
        return r

    def written(name, text):
        log.append(("save", name, len(app.session.game.records) if app.session.game else None))
        return write(name, text)

    def appended(name, text):
        log.append(("save", name, len(app.session.game.records) if app.session.game else None))
        return append(name, text)

    app.step = step
    app.display.show = shown
    app.store.write_atomic = written
    app.store.append = appended


def test_the_save_follows_the_frame_in_the_same_poll():
    t = Table("classic", 2, 0)
    try:
        log = []
        _log_polls(t.dev.app, log)
        t.keys(hand(0, [None, counts([1, 0, 0, 1])]))
        saves = [i for i in range(len(log)) if log[i][0] == "save"]
        assert len(saves) == 1 and log[saves[0]] == ("save", "game.json", 1)
        i = saves[0]
        # the frame of the standings with the hand, then the save, in one poll
        assert log[i - 1] == ("frame", "cards_home") and log[i - 2] == ("poll",)
        with open(os.path.join(t.state, "game.json")) as f:
            assert '"out":0' in f.read()
    finally:
        t.close()


def test_a_hand_the_flash_refuses_is_taken_back_and_said():
    t = Table("classic", 2, 0)
    try:
        app = t.dev.app
        path = os.path.join(t.state, "game.json")
        with open(path, "rb") as f:
            before = f.read()
        real = app.store.write_atomic, app.store.append

        def refuse(name, text):
            if name == "game.json":
                return "Could not save game.json (flash full)."
            return real[0](name, text)

        app.store.write_atomic = app.store.append = refuse
        t.keys(hand(0, [None, FAIL]))
        # the standings showed the hand for a moment; the flash kept the old game, and so
        # does the device, with the reason on a note
        assert t.top() == "note" and "(flash full)." in " ".join(app.top().lines)
        assert list(t.game().records) == [] and t.game().state.total == [0, 0]
        with open(path, "rb") as f:
            assert f.read() == before
        app.store.write_atomic, app.store.append = real
        t.keys("OK")
        assert t.top() == "cards_home"
        # the same hand again, with the flash back: saved
        t.keys(hand(0, [None, FAIL]))
        assert len(t.game().records) == 1 and t.game().state.total == [0, 50]
        with open(path, "rb") as f:
            assert f.read() != before
    finally:
        t.close()
