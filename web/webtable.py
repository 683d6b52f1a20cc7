# The table's views in the page (issue 49): the standings, the score sheet, the Twist board,
# the Dice sheet and the winner, shown by the phones' own page (tools/build/table_page/table.html,
# copied beside the page as table.html) from the state the phones' server sends
# (firmware/phones/server.py: engine_mpy/standings.page as JSON). Made here once per commit,
# or when the game changes (a new one, a finish), for web/worker.mjs to post to the page:
# the same figures from the same code, nothing worked out twice.
import json

_made = [None]       # what the last state was made from: (the app's commits, the game)


def state():
    """The game's state as JSON text when it changed since the last call (a commit, a new
    game, a finish), else None."""
    import webdevice
    app = webdevice.app()
    s = app.session
    g = s.game if s is not None else None
    key = (app.commits, id(g))
    if key == _made[0]:
        return None
    _made[0] = key
    if g is None:
        # (the phones' words when no game runs)
        return json.dumps({"none": "No game is running on the device."})
    from engine_mpy import standings
    try:
        return json.dumps(standings.page(g))
    finally:
        r = getattr(g, "records", None)
        if r is not None and hasattr(r, "close"):
            r.close()     # (the save's file, read by a Twist sheet: not kept open)


def forget():
    """A new device (a start, a Load): its first state is made whatever it is."""
    _made[0] = None
