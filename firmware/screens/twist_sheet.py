# Phase 10 Twist: the score sheet. Twist keeps no points: per hand, the move each pawn made
# (+3 went out, +2 phase made, +1 not, +6 / +4 / -1 with a Twist card, as the engine
# derived them), a column per player headed by the first letters of their name, and the
# spaces the pawns stand on now as the last line (a tick: moved past the red space). OK on a hand opens it for correction
# (twist_hand); the standings are worked out again when it is saved.
from firmware.screens.base import ListScreen, title_bar, scroll_mark, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_X0 = const(15)    # first player column; the hand number is left of it
_COL = const(18)   # three characters a column: six players fit beside the scroll mark


class Sheet(ListScreen):
    def __init__(self, app):
        g = app.session.game
        ListScreen.__init__(self, app, len(g.records) + 1)
        self.game = g
        self.n = g.state.n
        # One replay when the sheet opens; nothing is rebuilt on a cursor move.
        self.moves = g.moves_by_hand()
        self.seen = g.changes
        # On the last hand, with the spaces line under it in view.
        self.sel = self.count - 2
        t = self.count - self.rows()
        self.top = t if t > 0 else 0

    def park(self):
        # out of RAM while a hand picked from it is corrected (the hand screen's room)
        return self.park_place()

    def resume(self, s):
        self.resume_place(s)

    def tick(self, now):
        # Back from a correction: the hands again.
        g = self.app.session.game
        if g is None:
            self.app.pop()
        elif g.changes != self.seen:
            self.seen = g.changes
            self.count = len(g.records) + 1
            self.moves = g.moves_by_hand()
            self.dirty = True

    def choose(self, i):
        if i < self.count - 1:
            self.app.push("twist_hand", ("fix", i))
        return True

    def draw(self, c):
        g = self.game
        names = g.settings["players"]
        title_bar(c, "#")
        for p in range(self.n):
            c.text(names[p][:2], _X0 + p * _COL, 0)
        c.invert_rect(0, 0, W, LINE_H)
        shown = self.rows()
        n = self.count
        right = W - 5 if n > shown else W - 2
        for r in range(shown):
            i = self.top + r
            if i >= n:
                break
            y = LINE_H + r * LINE_H
            if i < n - 1:
                c.text(str(i + 1), 0, y)
                for p in range(self.n):
                    m = self.moves[i * self.n + p] - 1
                    c.text(("+%d" if m > 0 else "%d") % m, _X0 + p * _COL, y)
            else:
                c.text("sp", 0, y)
                for p in range(self.n):
                    sp = g.space(p)
                    if sp > g.red + 1:
                        c.glyph("check", _X0 + p * _COL, y)   # moved past the red space
                    else:
                        c.text(str(sp), _X0 + p * _COL, y)
            if i == self.sel:
                c.invert_rect(0, y, right + 1, LINE_H)
        scroll_mark(c, self.top, shown, n)


def make(app, arg):
    return Sheet(app)
