"""A long moment shows at once that the device is working (issue 25: anything over 200 ms
shows it within 100 ms): the key that finishes a game, opens History, Help or New game
first puts a mark in the top right corner on the panel, then the result replaces it.
Read off the simulated panel after every frame sent."""
import sys

from host_sim import script, sim
from tests import table_keys as K
from tests.test_damage_said import flash, v1_save
from tests.test_history_full_notes import archive

sim.use_fake_machine()
FAIL = [10, 0, 0, 0]


def marked(rows):
    """Whether the panel shows the busy mark: a dark box with three light dots in a light
    frame, top right."""
    box = [r[112:128] for r in rows[:10]]
    return (box[0] == "#" * 16 and box[9] == "#" * 16
            and all(r[0] == "#" and r[15] == "#" for r in box)
            and box[4][1:15] == "..##..##..##..." [:14] and box[2][1:15] == "." * 14)


def frames(dev, keys):
    """The panel after each frame the keys send, as rows."""
    shots = []
    d = dev.app.display
    real = d.show

    def show():
        real()
        shots.append(dev.rows())
    d.show = show
    try:
        dev.play(script.parse(keys))
    finally:
        d.show = real
    return shots


def test_history_and_help_and_new_game_show_the_mark_then_their_screen(tmp_path):
    dev = script.Device(state=flash(tmp_path, {"history.json": archive(1, 10)}))
    dev.app.memory.prefetch = lambda scr: None     # (no code loaded ahead: the mark is for a load)
    for keys, screen in ((K.menu("history"), "history"), ("HELP", "help"), ("LEFT LEFT UP UP OK", "newgame")):
        # Help and New game mark only a load of their code from the flash (History reads
        # the history every time): not loaded yet, as on a board after start
        sys.modules.pop("firmware.screens." + screen, None)
        shots = frames(dev, keys)
        assert dev.app.top().module == screen, (keys, dev.app.top().module)
        k = [i for i, s in enumerate(shots) if marked(s)]
        # the mark, then the screen drawn over it: the last frame is the result
        assert k and not marked(shots[-1]), (screen, k, len(shots))


def test_a_menu_move_and_a_screen_loaded_already_show_no_mark(tmp_path):
    dev = script.Device(state=flash(tmp_path, {}))
    shots = frames(dev, "DOWN DOWN UP")
    assert shots and not [s for s in shots if marked(s)]
    frames(dev, "HELP")
    assert "firmware.screens.help" in sys.modules
    shots = frames(dev, "LEFT HELP")
    assert dev.app.top().module == "help" and not [s for s in shots if marked(s)]


def test_finishing_a_game_shows_the_mark_then_the_menu(tmp_path):
    game = v1_save("classic", {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1},
                   [{"out": 0, "left": [None, FAIL]}])
    dev = script.Device(state=flash(tmp_path, {"game.json": game}))
    frames(dev, "OK OK")                     # Continue: the game over
    shots = frames(dev, "OK")                # Finish game
    assert dev.app.top().module == "menu" and dev.app.session.game is None
    assert marked(shots[0]) and not marked(shots[-1]), [marked(s) for s in shots]


def test_a_screen_whose_code_was_loaded_ahead_shows_no_mark(tmp_path):
    # the menu without a game loads New game's code while the table reads it
    # (Memory.prefetch): opening it then loads nothing and shows no mark
    dev = script.Device(state=flash(tmp_path, {}))
    sys.modules.pop("firmware.screens.newgame", None)
    dev.app.memory.ahead_of = None       # (as the menu is first shown)
    dev.play(script.parse("DOWN UP"))
    assert "firmware.screens.newgame" in sys.modules
    shots = frames(dev, "OK")
    assert dev.app.top().module == "newgame"
    assert shots and not [s for s in shots if marked(s)]
