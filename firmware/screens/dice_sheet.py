# Phase 10 Dice: the score sheet as the book prints it: phases 1-5, the five-phase bonus,
# the five-phase total, phases 6-10, the first-finish bonus (solitaire: the failed turns),
# the grand total; a column per player in turn order. The rows come from the engine
# (DiceGame.sheet()); this screen only lays them out. Three players show at once: OK or
# RIGHT pages to the next three (round), LEFT back a page (on the first page: close);
# UP/DOWN scroll the rows.
from firmware.screens.base import Screen, scroll_mark, W, H, LINE_H

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_LEFT = const(3)
_RIGHT = const(4)
_OK = const(5)
_KEY_MASK = const(0x7F)


_COLS = const(3)
_COL_W = const(28)
_LABEL_W = const(40)
_ROWS = (H - LINE_H) // LINE_H
# The book's row names, short enough for the label column (the sheet's row order).
_PHASE_ROWS = ("Ph 1", "Ph 2", "Ph 3", "Ph 4", "Ph 5", "Bonus", "5 tot", "Ph 6", "Ph 7",
               "Ph 8", "Ph 9", "Ph 10", "Finish")


class DiceSheet(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        rows = app.session.game.sheet()
        self.names = rows[0][1]
        self.rows = rows[1:]
        self.top = 0
        self.first = 0   # the first player column shown

    def key(self, k):
        b = k & _KEY_MASK
        n = len(self.names)
        if b == _UP or b == _DOWN:
            t = self.top + (1 if b == _DOWN else -1)
            last = len(self.rows) - _ROWS
            if 0 <= t <= last:
                self.top = t
                self.dirty = True
            return True
        if b == _OK or b == _RIGHT:
            if n > _COLS:
                self.first = self.first + _COLS if self.first + _COLS < n else 0
                self.dirty = True
            return True
        if b == _LEFT and self.first:
            self.first -= _COLS
            self.dirty = True
            return True
        return False

    def label(self, i):
        if i < len(_PHASE_ROWS):
            return _PHASE_ROWS[i]
        return "TOTAL" if i == len(self.rows) - 1 else "Fails"

    def draw(self, c):
        # The header: names (first four letters) over their columns, inverted.
        c.text("Sheet", 1, 0)
        for j in range(_COLS):
            p = self.first + j
            if p < len(self.names):
                c.text(self.names[p][:4], _LABEL_W + j * _COL_W + 2, 0)
        c.invert_rect(0, 0, W, LINE_H)
        for r in range(_ROWS):
            i = self.top + r
            if i >= len(self.rows):
                break
            y = LINE_H + r * LINE_H
            c.text(self.label(i), 1, y)
            cells = self.rows[i][1]
            for j in range(_COLS):
                p = self.first + j
                if p < len(cells) and cells[p] is not None:
                    s = str(cells[p])
                    c.text(s, _LABEL_W + (j + 1) * _COL_W - 4 - c.text_width(s), y)
            if i == len(self.rows) - 1 or i == 6:
                # The totals stand out as on the printed sheet.
                c.hline(0, y - 1, _LABEL_W + _COLS * _COL_W - 2)
        scroll_mark(c, self.top, _ROWS, len(self.rows))


def make(app, arg):
    return DiceSheet(app)
