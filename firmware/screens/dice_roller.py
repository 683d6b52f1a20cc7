# The free dice roller (main menu, outside any game): the ten dice, hold and release, roll
# as often as wanted (the count goes on past three), the best score for a chosen phase
# (the Phase button steps 1-10), New starts over. It is the turn screen without a game
# (firmware/screens/dice_turn.py); this module only names it for the menu.


def make(app, arg):
    from firmware.screens.dice_turn import DiceTurn

    scr = DiceTurn(app, True)
    scr.closed = _closed
    return scr


def _closed():
    # The app unloads this module when the roller closes; the turn module it borrowed
    # goes too (no game screen can be under the roller: it opens from the main menu).
    from engine_mpy.modules import forget

    forget("firmware.screens.dice_turn", True)
