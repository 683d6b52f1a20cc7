# A key whose work runs out of memory (as a small board's heap can) never stops the
# device: the screens close down to the menu, the game is read again from the flash (a
# change not yet saved is gone with the failed step, never half kept) and a note says so.
import os
import shutil
import tempfile

from host_sim import script, sim
from tests.table_keys import new_game, menu, hand, counts, FAIL

sim.use_fake_machine()


def test_out_of_memory_in_a_key_leaves_the_saved_game_and_a_note():
    d = tempfile.mkdtemp(prefix="phase10-mem-")
    try:
        dev = script.Device(state=d)
        dev.play(script.parse(new_game("classic", ["Ann", "Bob"], 0)))
        dev.play(script.parse(hand(0, [None, FAIL])))
        app = dev.app
        assert len(app.session.game.records) == 1
        with open(os.path.join(d, "game.json"), "rb") as f:
            saved = f.read()
        # The hand entry opens; its next key runs out of memory.
        dev.play(script.parse("OK"))
        scr = app.top()
        assert scr.module == "hand"

        def starved(k):
            raise MemoryError("memory allocation failed")
        scr.key = starved
        dev.play(script.parse("DOWN"))
        top = app.top()
        assert top.module == "note" and "Not enough memory" in " ".join(top.lines)
        assert [s.module for s in app.stack] == ["menu", "note"]
        # The game is the flash's, read again; the flash is as it was.
        g = app.session.game
        assert g is not None and len(g.records) == 1
        with open(os.path.join(d, "game.json"), "rb") as f:
            assert f.read() == saved
        # And the device goes on: the note closes, Continue opens the game.
        dev.play(script.parse("OK"))
        m = app.top()
        assert m.module == "menu"
        dev.play(script.parse(" ".join(["UP"] * m.sel + ["OK"])))      # Continue
        assert app.top().module == "cards_home"
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_out_of_memory_while_drawing_is_survived_too():
    d = tempfile.mkdtemp(prefix="phase10-mem-")
    try:
        dev = script.Device(state=d)
        app = dev.app
        dev.play(script.parse(menu("new game")))
        scr = app.top()
        assert scr.module == "newgame"

        def starved(c):
            raise MemoryError("memory allocation failed")
        scr.draw = starved
        scr.dirty = True
        dev.play(script.parse("WAIT:50"))
        assert app.top().module == "note" and [s.module for s in app.stack] == ["menu", "note"]
    finally:
        shutil.rmtree(d, ignore_errors=True)
