# Game over for Phase 10 and Masters. A tie the rules send to a tie-break hand comes first:
# the tied players replay the last phase (dealt like any other hand: who deals and who
# plays first are named) and the table says who went out first in it (committed as
# {"tiebreak": player}). Then the winner, the final ranking, and the actions:
# Finish (roster stats and history, on this explicit OK), Score sheet, Undo last hand
# (asked first on "confirm"; once undone the game runs again: back to the standings).
from firmware.screens.base import ListScreen

_ACTIONS = ("Finish game", "Score sheet", "Undo last hand")
# The tie-break page's lines above the tied players: what is replayed, who deals, who
# plays first, the question.
_TIE_HEAD = 4


class GameOver(ListScreen):
    def __init__(self, app):
        ListScreen.__init__(self, app, 0)
        self.setup()

    def setup(self):
        g = self.app.session.game
        st = g.state
        names = g.settings["players"]
        self.seen = g.changes
        self.tie = st.tiebreak[:]
        if self.tie:
            self.title = "Tie-break hand"
            self.count = len(self.tie) + _TIE_HEAD
            self.sel = _TIE_HEAD
        else:
            w = [names[p] for p in st.winners]
            self.title = ("Winner: " if len(w) == 1 else "Winners: ") + ", ".join(w)
            self.order = g.ranking()
            self.count = len(self.order) + len(_ACTIONS)
            self.sel = len(self.order)
        self.move(0, True)

    def label(self, i):
        g = self.app.session.game
        names = g.settings["players"]
        if self.tie:
            if i == 0:
                return "Tied: they replay"
            if i == 1:
                return "%s deals" % names[g.dealer()][:9]
            if i == 2:
                return "%s plays first" % names[g.first_player()][:8]
            if i == 3:
                return "Who went out first?"
            return names[self.tie[i - _TIE_HEAD]]
        if i >= len(self.order):
            return _ACTIONS[i - len(self.order)]
        p, rank = self.order[i]
        return "%d %s" % (rank, names[p][:8])

    def value(self, i):
        if self.tie or i >= len(self.order):
            return None
        g = self.app.session.game
        p = self.order[i][0]
        return "%d ph %d" % (g.phases_done(g.state, p), g.state.total[p])

    def move(self, d, repeat=False):
        # Only the players of a tie-break and the actions can be chosen; the top of the
        # list (the ranking) stays in view as long as the choice allows.
        low = _TIE_HEAD if self.tie else len(self.order)
        s = self.sel + d
        if s < low:
            s = low if repeat else self.count - 1
        elif s >= self.count:
            s = self.count - 1 if repeat else low
        self.sel = s
        t = s - self.rows() + 1
        self.top = t if t > 0 else 0
        self.dirty = True

    def choose(self, i):
        app = self.app
        if self.tie:
            msg = app.session.apply("add", {"tiebreak": self.tie[i - _TIE_HEAD]})
            if msg:
                app.push("note", msg)
            self.setup()
            return True
        i -= len(self.order)
        if i == 0:
            from firmware.game import endgame
            endgame.finish_and_leave(app)
        elif i == 1:
            app.push("sheet")
        else:
            app.push("confirm", "undo")
        return True

    def tick(self, now):
        # Back from "confirm" with the last hand undone: the game runs again.
        g = self.app.session.game
        if g is not None and g.changes != self.seen:
            self.app.pop()


def make(app, arg):
    return GameOver(app)
