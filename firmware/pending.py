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
        e, hands, err = result(app.session, True)
        if err:
            app.say(err)
            return app.tell()
        from firmware import roster
        app.say(roster.finish(app, e, hands))
        return app.tell()
    kind, settings = p
    p = None
    if app.session.game is not None:
        from firmware import roster
        msg = roster.abandon(app)
        if msg:
            return app.push("note", msg)
    if kind == "dice":
        return app.open("dice_order", settings)
    msg = app.session.start(kind, settings)
    if msg:
        return app.push("note", msg)
    app.open_home()
    app.tell()   # a Twist layout file that could not be used, a damaged roster


def result(s, finished):
    """(e, hands, None): the running game's history line (engine_mpy/summary.py,
    numbered by finish()) once its last change is saved, and for Phase 10 and Masters the
    hands played (the roster counts them); then the game and its rules leave RAM (its
    save stays: finish() or load() read it). (None, None, message) when the flash refused
    that last change. Made before the roster and the history are loaded: the game's
    rules and those never share the heap."""
    g = s.game
    err = s.flush()
    if err:
        return None, None, err
    from engine_mpy import summary
    e = summary.entry(g, finished, 0)
    summary = None
    from engine_mpy.game import forget
    forget("engine_mpy", "summary")
    hands = g.state.hands if g.KIND in ("classic", "masters") else None
    g = None
    if s.store is not None:
        s.drop_game()
    return e, hands, None
