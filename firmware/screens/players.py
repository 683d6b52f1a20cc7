# Players: the roster, each with the games played; "+ New player" at the end opens the
# character picker. OK on a player shows their games, wins and average points per hand
# (Phase 10 and Masters hands); OK there renames them.
from firmware.screens.base import ListScreen, Page
from firmware.files import roster

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_OK = const(5)
_KEY_MASK = const(0x7F)



class Players(ListScreen):
    title = "Players"

    def __init__(self, app):
        ListScreen.__init__(self, app, 1)
        self.msg = None
        self.reload()

    def reload(self):
        self.roster, msg, unread = roster.load(self.app.store)
        self.msg = self.msg or msg
        self.count = len(self.roster) + 1
        if self.sel >= self.count:
            self.sel = self.count - 1
        self.dirty = True

    def closed(self):
        roster.release()

    def tick(self, now):
        if self.msg:    # a damaged roster.json: said once
            msg = self.msg
            self.msg = None
            self.app.push("note", msg)

    def label(self, i):
        return self.roster[i][0] if i < len(self.roster) else "+ New player"

    def value(self, i):
        if i < len(self.roster):
            g = self.roster[i][1]
            return "%d game%s" % (g, "" if g == 1 else "s")
        return None

    def choose(self, i):
        if i < len(self.roster):
            self.app.push("players", (self, i))
        else:
            self.app.push("picker", ("New player", "", self._added))
        return True

    def _added(self, name):
        msg = roster.add(self.app.store, name)
        if msg:
            return msg
        self.reload()
        self.sel = len(self.roster) - 1     # (added last)
        self.move(0)
        return None


class Player(Page):
    """One roster player's figures, read-only; OK renames."""

    def __init__(self, app, arg):
        self.list, self.i = arg
        Page.__init__(self, app, self.figures())

    def figures(self):
        r = self.list.roster[self.i]
        self.title = r[0]
        return (
            ("Games", str(r[1])),
            ("Wins", str(r[2])),
            ("Hands", str(r[4])),
            ("Avg per hand", roster.average(r)),
            ("", None),
            ("OK: rename", None),
        )

    def key(self, k):
        if k & _KEY_MASK == _OK:
            self.app.push("picker", ("Rename", self.list.roster[self.i][0], self._renamed))
            return True
        return ListScreen.key(self, k)

    def _renamed(self, name):
        msg = roster.rename(self.app.store, self.i, name)
        if msg:
            return msg
        self.list.reload()
        self.lines = self.figures()
        return None


def make(app, arg):
    if isinstance(arg, tuple):
        return Player(app, arg)
    return Players(app)
