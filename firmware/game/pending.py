# What a screen asks for once it is gone (app.pending, run by App.step with only the menu
# left, parked): start the game New game set up, finish the running game. The screens that
# asked, and the menu, are out of RAM meanwhile, so a game's rules load into their room.
# Loaded for that moment, then dropped.


def run(app, p):
    """Finish the game (p "finish", left by a game's Finish game), or start the game New
    game left as p = (kind, settings): a running game (its abandoning was confirmed there)
    goes to History unfinished, then the session starts the new one and its home screen
    opens. Dice goes on to its turn-order roll ("dice_order"), which starts the game."""
    if p == "finish":
        # the result first, with the game's rules in RAM; the roster after they left
        from firmware.game import endgame
        e, hands, err = endgame.result(app.session, True)
        if err:
            app.say(err)
            return app.tell()
        # its files written once the result is on the panel (App.step: Session.apply_journal)
        app.say(endgame.end_game(app, e, hands, True))
        return app.tell()
    kind, settings = p
    p = None
    if app.session.game is not None:
        from firmware.game import endgame
        msg = endgame.abandon(app)
        if msg:
            return app.push("note", msg)
    if kind == "dice":
        return app.open("dice_order", settings)
    msg = app.session.start(kind, settings)
    if msg:
        return app.push("note", msg)
    app.open_home()
    app.tell()   # a Twist layout file that could not be used, a damaged roster
