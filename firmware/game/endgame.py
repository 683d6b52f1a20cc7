# The end of a game: its result made from its records, the roster's stats and the history
# brought up to date and the running game forgotten, as one commit (firmware/game/journal.py
# journals it), or the game abandoned into the history unfinished. Loaded at that moment
# (firmware/game/pending.py runs it with the game's screens gone), then dropped.
from engine_mpy.modules import forget


def result(s, finished):
    """(e, hands, None): the running game's history line (engine_mpy/summary.py,
    numbered by Session.write_journal()) once its last change is saved, and for Phase 10
    and Masters the hands played (the roster counts them); then the game and its rules
    leave RAM (its save stays: write_journal() or load() read it). (None, None, message) when the flash refused
    that last change. Made before the roster and the history are loaded: the game's
    rules and those never share the heap."""
    g = s.game
    err = s.flush()
    if err:
        return None, None, err
    from engine_mpy import summary
    e = summary.entry(g, finished, 0, s.now() if s.now else None)
    summary = None
    forget("engine_mpy.summary")
    hands = g.state.hands if g.KIND in ("classic", "masters") else None
    g = None
    if s.store is not None:
        s.drop_game()
    return e, hands, None


def end_game(app, e=None, hands=None, later=False):
    """The game is over and the table has seen the result: make the result (if not made
    yet) and what the roster and the history get from it (the roster's stats with this
    game counted, the game's history line with its winners), and hand them to the
    session's journal (Session.write_journal), the one commit that also forgets the
    running game (game.json is removed; a power cut never counts a game twice:
    firmware/game/session.py). Returns None or a message to show (app.push("note", msg));
    after a refusal nothing has changed.
    e, hands: the game's result (result() above), when the caller made it before loading
    the roster (firmware/game/pending.py); the game is then out of RAM.
    later: the roster and the history are written after the frame that shows the result
    (the app calls Session.apply_journal)."""
    s = app.session
    if e is None:
        if s.game is None:
            return None
        e, hands, err = result(s, True)
        if err:
            return err
    from firmware.files import roster
    msg = None
    rows = None
    if app.store is not None:
        # (its third value, unread, in err: with one local more in this frame, a refused
        # finish's reading of the game again ran short on the micropython binary's capped
        # heap, tests/both/test_starved_readers.py)
        rows, msg, err = roster.counted(app.store, e, hands)
        if err:         # roster.json could not be read: nothing may be written over it
            roster.release()
            s.load()
            s.messages = []
            return msg + " The game is still running."
    roster.release()
    roster = None          # out of RAM while the history is read and written
    err = s.write_journal(e, rows, later)
    if err and msg:
        return msg + " " + err
    return err or msg


def finish_and_leave(app):
    """What every game's Finish game does: back to the main menu, which then finishes the
    game (firmware/game/pending.py: end_game() with the game's screens gone from RAM) and shows
    its message, if any, on a note (refused: the game is still there to continue)."""
    app.pending = "finish"
    while app.pop():
        pass


def abandon(app):
    """Put the running game in the history marked unfinished (no roster stats) and forget
    it. Only on a player's explicit yes (New game while a game runs)."""
    s = app.session
    if s.game is None:
        return None
    forget("firmware.files.roster", True)    # not needed: an abandoned game leaves the roster alone
    e, hands, err = result(s, False)
    return err or s.write_journal(e)
