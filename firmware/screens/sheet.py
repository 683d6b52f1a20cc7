# The score sheet, like the printed one: a column per player, two lines per hand (the
# points with a tick where the phase was completed, then the running total). UP/DOWN
# scroll by a hand; with five or six players RIGHT (or OK) shows the other players.
# arg "pick": choose a hand to correct; OK opens it in the hand entry, prefilled.
from firmware.screens.base import Screen, title_bar, scroll_mark, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_RIGHT = const(4)
_OK = const(5)
_KEY_MASK = const(0x7F)

_SHOWN = const(3)    # hands on screen: two lines each under the names
_HAND_W = const(14)  # the hand-number column


class Sheet(Screen):
    def __init__(self, app, pick):
        Screen.__init__(self, app)
        self.pick = pick
        n = len(app.session.game.settings["players"])
        self.cols = n if n <= 4 else 3
        self.page = 0
        h = self.hands()
        self.sel = h - 1
        self.top = h - _SHOWN if h > _SHOWN else 0

    def park(self):
        # out of RAM while a hand picked from it is corrected (the hand screen's room)
        return (self.sel, self.top, self.page)

    def resume(self, s):
        h = self.hands()
        if s[0] < h:
            self.sel, self.top, self.page = s

    def hands(self):
        return len(self.app.session.game.state.rows)

    def key(self, k):
        base = k & _KEY_MASK
        h = self.hands()
        if base == _UP or base == _DOWN:
            d = 1 if base == _DOWN else -1
            if self.pick:
                s = self.sel + d
                if 0 <= s < h:
                    self.sel = s
                if s < self.top:
                    self.top = s
                elif s >= self.top + _SHOWN:
                    self.top = s - _SHOWN + 1
            else:
                t = self.top + d
                if 0 <= t <= h - _SHOWN:
                    self.top = t
            self.dirty = True
            return True
        if self.pick and (base == _OK or base == _RIGHT):
            self.app.push("hand", self.sel)
            return True
        if base == _OK or base == _RIGHT:
            n = len(self.app.session.game.settings["players"])
            if n > self.cols:
                self.page = 1 - self.page
                self.dirty = True
            return True
        return False

    def draw(self, c):
        g = self.app.session.game
        names = g.settings["players"]
        rows = g.state.rows
        title_bar(c, "Correct which hand?" if self.pick else "Score sheet")
        first = self.page * self.cols
        last = min(first + self.cols, len(names))
        cw = (W - _HAND_W - 4) // self.cols
        for p in range(first, last):
            x = _HAND_W + (p - first + 1) * cw
            s = names[p][:cw // 6 - 1]
            c.text(s, x - c.text_width(s), LINE_H)
        c.hline(0, 2 * LINE_H - 1, W - 4)
        for r in range(_SHOWN):
            h = self.top + r
            if h >= len(rows):
                break
            y = 2 * LINE_H + r * 2 * LINE_H
            out, pts, ok, phs, tot = rows[h]
            c.text(str(h + 1), 0, y)
            for p in range(first, last):
                x = _HAND_W + (p - first + 1) * cw
                s = str(pts[p])
                if ok[p]:
                    c.glyph("check", x - 8, y)
                c.text(s, x - 9 - c.text_width(s), y)
                s = str(tot[p])
                c.text(s, x - c.text_width(s), y + LINE_H)
            if self.pick and h == self.sel:
                c.invert_rect(0, y, W - 4, 2 * LINE_H)
        scroll_mark(c, self.top, _SHOWN, len(rows), 2 * LINE_H)


def make(app, arg):
    return Sheet(app, arg == "pick")
