# Taps made while the firmware works (a game started or taken up, a screen opening, a hand
# saved) wait in the buttons' queue and all take effect, in order. The simulator's and the
# twin's clocks run on while a step works (host_sim/vclock.py), as a board's does, so the
# same keys tapped fast (60 ms presses 30 ms apart: faster than the steps they land in)
# and pressed one at a time leave the same screen and the same saved game; the twin
# (micropython, .mpy, capped heap) draws the fast run's screen too.
import json
import os
import shutil
import tempfile

from host_sim import script, sim
from tests import table_keys as K
from tests import worst
from tests.test_twin import play

sim.use_fake_machine()


def fast(keys):
    return " ".join("TAP_%s:60:30" % k for k in keys.split())


def slow(keys):
    return " ".join("%s WAIT:1500" % k for k in keys.split())


def run(state, keys):
    """The panel and the saved game after keys, and how many steps of the loop ended with
    a key already waiting: a tap made while the firmware worked on the key before."""
    dev = script.Device(state=state, mem_free=40000)
    b = dev.app.buttons
    waited = [0]
    charge = dev.app.charge

    def counting():
        charge()      # (the step's time passes here, the pins sampled on the way)
        if b.pending():
            waited[0] += 1
    dev.app.charge = counting
    dev.play(script.parse(keys))
    with open(os.path.join(state, "game.json")) as f:
        saved = f.read()
    return "\n".join(dev.rows()) + "\n", saved, waited[0], dev


def both(start, keys):
    out = []
    for form in (fast, slow):
        d = tempfile.mkdtemp(prefix="phase10-taps-")
        try:
            if start:
                shutil.rmtree(d)
                shutil.copytree(start, d)
            out.append(run(d, form(keys)))
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return out


def test_taps_during_a_game_start_and_a_save_all_count():
    # New game to its last OK (the game starts: rules loaded, the save written, the home
    # built), then at once: End of hand, Bob went out, Ann holds 3 cards, Cid ten, save,
    # and the score sheet opened.
    keys = " ".join([K.new_game("classic", ["Ann", "Bob", "Cid"], dealer=1),
                     K.hand(1, [K.counts([1, 1, 1, 0]), None, K.FAIL]), "DOWN OK"])
    (screen_f, saved_f, waited, dev), (screen_s, saved_s, waited_s, _) = both(None, keys)
    assert waited >= 3 and waited_s == 0
    assert screen_f == screen_s and saved_f == saved_s
    records = [json.loads(t) for t in saved_f.split("\n")[1:] if t]
    assert [r["left"] for r in records] == [[[1, 1, 1, 0], None, [10, 0, 0, 0]]]
    assert dev.app.top().module == "sheet"
    assert dev.app.buttons.lost == 0


def test_taps_while_a_30_hand_game_is_taken_up_all_count():
    # A 6-player game of 30 hands: Continue and at once DOWN to the score sheet, opened and
    # scrolled at once, back, up to End of hand; a hand (Ann out, the rest hold ten) saved,
    # and at once the sheet again, scrolled. The twin, tapping as fast, shows the same.
    start = tempfile.mkdtemp(prefix="phase10-taps-start-")
    try:
        worst.write_start(start, worst.card_game("classic", 30), entries=[])
        keys = " ".join([K.menu("continue", game=True), "DOWN OK DOWN DOWN LEFT UP",
                         K.hand(0, [None] + [K.FAIL] * 5), "DOWN OK DOWN"])
        (screen_f, saved_f, waited, dev), (screen_s, saved_s, waited_s, _) = both(start, keys)
        assert waited >= 3 and waited_s == 0
        assert screen_f == screen_s and saved_f == saved_s
        assert len([t for t in saved_f.split("\n")[1:] if t]) == 31
        d = tempfile.mkdtemp(prefix="phase10-taps-twin-")
        try:
            shutil.rmtree(d)
            shutil.copytree(start, d)
            assert play(d, [fast(keys)]) == [screen_f]
        finally:
            shutil.rmtree(d, ignore_errors=True)
    finally:
        shutil.rmtree(start, ignore_errors=True)
