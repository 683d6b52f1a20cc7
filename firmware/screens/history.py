# History: the finished games, newest first, each with its winners (or "unfinished" for an
# abandoned one). OK opens a game: its kind, hands, winners and players.
from firmware.screens.base import ListScreen, Page
from firmware.store import HISTORY

_GAMES = {"classic": "Phase 10", "masters": "Masters", "twist": "Twist", "dice": "Dice"}
_VARIATIONS = {"ten_hands": "Ten hands", "first_n": "First %d", "even": "Even phases"}


def _list(text):
    # the games as this screen shows them, else the file is damaged (set aside)
    from firmware.session import check_history
    return check_history(text)


def _load(store):
    """(games newest first, message about a damaged history.json)."""
    if store is None:
        return [], None
    text, msg = store.read(HISTORY, _list)
    if text is None:
        return [], msg
    v = _list(text)
    v.reverse()
    return v, msg


def _who(e):
    w = e.get("winners") or []
    if not e.get("done"):
        return "unfinished"
    if not w:
        return "-"
    return w[0] if len(w) == 1 else w[0] + " +%d" % (len(w) - 1)


class History(ListScreen):
    title = "History"

    def __init__(self, app):
        self.games, msg = _load(app.store)
        ListScreen.__init__(self, app, len(self.games) or 1)
        self.selectable = bool(self.games)
        self.msg = msg   # a damaged history.json: said once, over this screen

    def tick(self, now):
        if self.msg:
            msg = self.msg
            self.msg = None
            self.app.push("note", msg)

    def label(self, i):
        if not self.games:
            return "No games yet."
        return _who(self.games[i])

    def value(self, i):
        if self.games:
            return _GAMES.get(self.games[i].get("game"), "?")
        return None

    def choose(self, i):
        if self.games:
            self.app.push("history", self.games[i])
        return True


class Game(Page):
    """One game of the history, read-only."""

    def __init__(self, app, e):
        self.title = _GAMES.get(e.get("game"), "?")
        v = e.get("variation")
        lines = []
        if v in _VARIATIONS:
            t = _VARIATIONS[v]
            lines.append((t % e.get("phases", 0) if "%" in t else t, None))
        lines.append(("Hands", str(e.get("hands", 0))))
        w = e.get("winners") or []
        if not e.get("done"):
            lines.append(("Unfinished", None))
        elif len(w) > 1:
            lines.append(("Co-winners", None))
        else:
            lines.append(("Winner", None))
        for n in w:
            lines.append(("  " + n, None))
        lines.append(("Players", str(len(e.get("players", ())))))
        for n in e.get("players", ()):
            lines.append(("  " + n, None))
        Page.__init__(self, app, lines)


def make(app, arg):
    if isinstance(arg, dict):
        return Game(app, arg)
    return History(app)
