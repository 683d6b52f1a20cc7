# History: the finished games, newest first, each with its winners (or "unfinished" for an
# abandoned one). OK opens a game: its date and hour (where the table's clock knew them),
# kind, hands, winners and players with their totals.
# The games are read from the flash a page at a time (firmware/history/entries.py): only the
# lines on the screen are in RAM, however long the history.
from firmware.screens.base import ListScreen, Page

_GAMES = {"classic": "Phase 10", "masters": "Masters", "twist": "Twist", "dice": "Dice"}
# Under this much free flash the next finishes may need room: a file of old games is
# about this size (100 games), and a finish deletes the oldest when the flash is full
# (firmware/history/histroom.py).
NEARLY_FULL = 96 * 1024
NEARLY = ("The flash is nearly full: when it is, the oldest games of the history are deleted "
          "to make room. Pull the history to a PC to keep them.")
_VARIATIONS = {"ten_hands": "Ten hands", "first_n": "First %d", "even": "Even phases"}
# What a game's page (Game) reads of its line: History keeps these of each game it reads
# ahead (tests/test_history_lazy.py checks that they make the same page as the whole line)
PAGE_READS = ("game", "variation", "phases", "hands", "winners", "done", "players", "totals", "start", "end")


def _who(e):
    if e is None:
        return "(damaged)"
    w = e.get("winners") or []
    if not e.get("done"):
        return "unfinished"
    if not w:
        return "-"
    return w[0] if len(w) == 1 else w[0] + " +%d" % (len(w) - 1)


class History(ListScreen):
    title = "History"

    def __init__(self, app):
        from firmware.history import histbrowse
        notes = []
        self.games, msg, unread = histbrowse.read(app.store, notes, True)
        n = 0
        if unread:       # could not be read: nothing was changed
            notes.append(msg)
        else:
            n = self.games.count
        ListScreen.__init__(self, app, n or 1)
        self.selectable = n > 0
        self.shown = {}    # game number -> (label, value) of the rows on the screen
        if n and app.store is not None:
            f = app.store.free()
            if f is not None and f < NEARLY_FULL:
                notes.append(NEARLY)
        for m in notes:
            app.say(m)
        del notes[:]      # (the browser's: what it meets later is said as it is met, row())

    def closed(self):
        import sys
        for m in ("firmware.history.histbrowse", "firmware.history.entries", "firmware.history.history_v1"):
            sys.modules.pop(m, None)

    def tick(self, now):
        app = self.app
        if app.messages:    # a damaged or unreadable history file: said once
            app.tell()
            return False
        if self.dirty or app.memory.small or not self.selectable or app.buttons.pending():
            return False
        # On a heap with room, the next page's games are read while the table reads this
        # one, a game a poll (a key waits for one read at most): on an RP2040 the first
        # page turn took 95 ms, reading its games, and now draws what is already here.
        n = self.rows()
        i = self.top + n
        end = self.top + 2 * n
        if end > self.count:
            end = self.count
        while i < end:
            if i not in self.shown:
                self.row(i)
                return True
            i += 1
        return False

    def row(self, i):
        r = self.shown.get(i)
        if r is None:
            # a page at a time: forget the rows more than a page away from the screen (the
            # page just left is kept: turning back to it reads nothing, where reading a
            # page of games took 150 ms on an RP2040)
            n = self.rows()
            for k in list(self.shown):
                if not self.top - n <= k < self.top + 2 * n:
                    del self.shown[k]
            g = self.games
            e = g.game(i)
            if g.notes:
                # an older file read for the first time was damaged and set aside: said on
                # the next tick, not kept till History opens again
                for m in g.notes:
                    self.app.say(m)
                del g.notes[:]
            if g.count != self.count:
                # an older file read for the first time held other than 100 games: the
                # list as it is, drawn again
                self.count = g.count or 1
                self.selectable = g.count > 0
                if self.sel >= self.count:
                    self.sel = self.count - 1
                if self.top > self.sel:
                    self.top = self.sel
                self.shown = {}
                self.dirty = True
            # (with room, what the game's own page shows too: opening it reads nothing
            # more; not its score sheet, most of a line)
            r = (_who(e), _GAMES.get(e.get("game"), "?") if e else "",
                 None if self.app.memory.small or e is None else {k: e[k] for k in PAGE_READS if k in e})
            self.shown[i] = r
        return r

    def label(self, i):
        if not self.selectable:
            return "No games yet."
        return self.row(i)[0]

    def value(self, i):
        if self.selectable:
            return self.row(i)[1]
        return None

    def choose(self, i):
        if self.selectable:
            r = self.shown.get(i)
            e = r[2] if r is not None and r[2] is not None else self.games.game(i)
            if e is not None:
                # (the page is made as it opens, by make(): on a small heap after the
                # collection made before a screen is built, with the garbage of reading
                # the game gone; tests/test_history_lazy.py keeps that order)
                self.app.push("history", e)
        return True


class Game(Page):
    """One game of the history, read-only: its date where known, each player with their
    total."""

    def __init__(self, app, e):
        self.title = _GAMES.get(e.get("game"), "?")
        v = e.get("variation")
        lines = []
        t = e.get("end", e.get("start"))
        if t:
            # when it ended (or began), where the table's clock knew it
            from engine_mpy.ident import when
            t = when(t, True)
            lines.append((t[:-6], t[-5:]))
        if v in _VARIATIONS:
            t = _VARIATIONS[v]
            lines.append((t % e.get("phases", 0) if "%" in t else t, None))
        lines.append(("Hands" if e.get("game") != "dice" else "Turns", str(e.get("hands", 0))))
        w = e.get("winners") or []
        if not e.get("done"):
            lines.append(("Unfinished", None))
        elif len(w) > 1:
            lines.append(("Co-winners", None))
        else:
            lines.append(("Winner", None))
        for n in w:
            lines.append(("  " + n, None))
        players = e.get("players", ())
        totals = e.get("totals") or ()
        lines.append(("Players", "space" if e.get("game") == "twist" and totals else None))
        for i in range(len(players)):
            lines.append(("  " + players[i], str(totals[i]) if i < len(totals) else None))
        Page.__init__(self, app, lines)


def make(app, arg):
    if isinstance(arg, dict):
        return Game(app, arg)
    return History(app)
