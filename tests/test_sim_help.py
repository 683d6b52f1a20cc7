# The Help screen (hold OK and press UP, on any screen) and hand entry with three buttons,
# on the simulated device from its first key.
import os
import shutil
import tempfile

from host_sim import script, sim
from tests import table_keys as K

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def screens():
    d = os.path.join(ROOT, "firmware", "screens")
    out = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".py"):
            with open(os.path.join(d, f)) as src:
                if "\ndef make(" in src.read():
                    out.append(f[:-3])
    return out


def test_every_screen_has_its_keys_in_help():
    from firmware.screens import help
    names = [m for m in screens() if m != "help"]
    assert len(names) > 20
    for m in names:
        assert help.keys_text(m), "no help for the %s screen" % m
    # and nothing is told of a screen that does not exist
    from firmware.screens import help_dice
    assert set(help._KEYS) <= set(names) and set(help._SAME) <= set(names)
    assert set(help_dice.KEYS) <= set(names)


class Dev:
    def __init__(self):
        self.state = tempfile.mkdtemp(prefix="phase10-help-")
        self.dev = script.Device(state=self.state, mem_free=40000)

    def keys(self, k):
        self.dev.play(script.parse(k))
        return self.dev.app.top()

    def words(self):
        return " ".join(s for s, _ in self.dev.app.top().lines())

    def close(self):
        shutil.rmtree(self.state, ignore_errors=True)


def test_help_in_the_middle_of_a_hand_keeps_the_entry():
    t = Dev()
    try:
        t.keys(K.new_game("classic", ["Ann", "Bob", "Cid"], dealer=0))
        h = t.keys("OK DOWN OK LEFT LEFT UP")     # Bob out; Ann: 2 cards, one a 10-12
        assert h.module == "hand" and h.left[0] == [1, 1, 0, 0]
        top = t.keys("HELP")
        assert top.module == "help"
        text = t.words()
        assert "10-12" in text and "Skip" in text and "Wild" in text
        # the dice colours and the phases are there too, each colour with its pattern
        assert "red solid" in text and "orange hatched" in text
        assert "blue dotted" in text and "green striped" in text
        assert "7 cards of one colour" in text
        # a second chord does not stack another help; OK goes back to the hand as it was
        assert t.keys("HELP").module == "help" and len(t.dev.app.stack) == 4
        h = t.keys("OK")
        assert h.module == "hand" and h.left[0] == [1, 1, 0, 0] and h.seq[h.pos] & 7 == 0
        t.keys("OK OK OK")
        assert t.dev.app.session.game.records[0]["left"] == [[1, 1, 0, 0], None, [10, 0, 0, 0]]
    finally:
        t.close()


def test_help_on_the_dice_turn_tells_its_keys():
    t = Dev()
    try:
        t.keys(K.menu("dice roller") + " OK HELP")
        text = t.words()
        assert "Hint" in text and "holds it" in text and "Roll" in text
        assert t.keys("OK").module == "dice_roller" or t.dev.app.top().module == "dice_turn"
    finally:
        t.close()


def test_a_hand_entered_with_three_buttons():
    t = Dev()
    try:
        # Settings > 3 buttons: yes; then only UP, DOWN and OK (hold OK goes back)
        t.keys(K.menu("settings") + " DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP")
        assert t.dev.app.settings["three_button"] is True
        t.keys(K.new_game("classic", ["Ann", "Bob", "Cid"], dealer=0))
        assert t.dev.app.top().module == "cards_home"
        # Bob out. Ann completed phase 1 (6 cards laid: at most 4 kept): on the 1-9
        # column DOWN goes 10 -> 4 -> 3; OK to the 10-12 column, UP one; OK to Skip, UP
        # one; OK to Wild; OK: Cid, who keeps ten: OK through his four columns.
        h = t.keys("OK DOWN OK DOWN DOWN")
        assert h.left[0] == [3, 0, 0, 0] and h.col == 0
        h = t.keys("OK UP OK UP")
        assert h.left[0] == [1, 1, 1, 0] and h.col == 2
        # pressed LEFT and RIGHT do nothing with three buttons
        t.keys("LEFT RIGHT")
        assert h.left[0] == [1, 1, 1, 0]
        t.keys("OK OK OK OK OK OK")
        assert h.stage == 4                      # the check page
        t.keys("OK")
        rec = t.dev.app.session.game.records[0]
        assert rec["left"] == [[1, 1, 1, 0], None, [10, 0, 0, 0]]
        assert [p["total"] for p in t.dev.app.session.game.players()] == [30, 0, 50]
    finally:
        t.close()
