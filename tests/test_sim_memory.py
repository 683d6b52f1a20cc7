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


def test_the_game_over_screen_is_built_once_the_hand_that_ended_the_game_has_gone():
    # The hand that ends a game closes and the game-over screen opens on the same key. When
    # the game-over screen is built nothing may hold the hand entry any more (its screen,
    # its entry, its code): on a small heap that code leaves RAM first. Opened from the
    # hand's own key method, both screens' code were held at once, and the emulated Pico's
    # .mpy install with a 96 KB heap ran out there in the 55-hand games
    # (firmware/stack.py Screens.after).
    import gc
    d = tempfile.mkdtemp(prefix="phase10-mem-")
    try:
        dev = script.Device(state=d)
        dev.play(script.parse(new_game("classic", ["Ann", "Bob"], 0, "first_n", 1)))
        app = dev.app
        make = app.screens._make
        held = []

        def watched(name, arg):
            if name == "gameover":
                gc.collect()
                # this device's hand screen and entry (another test's device may live on)
                g = app.session.game
                held.append([o for o in gc.get_objects()
                             if type(o).__module__ in ("firmware.screens.hand", "firmware.game.hand_entry")
                             and (getattr(o, "app", None) is app or getattr(o, "game", None) is g)])
            return make(name, arg)
        app.screens._make = watched
        dev.play(script.parse(hand(0, [None, FAIL])))
        assert app.top().module == "gameover" and app.session.game.state.over
        assert held == [[]], held
    finally:
        shutil.rmtree(d, ignore_errors=True)
