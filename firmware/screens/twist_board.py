# Phase 10 Twist: the board with the pawns. The layout's spaces in rows of cells, left to
# right (S start, 1-9 a phase, T a Twist space, R the red Phase 10 space, then ">" for
# past it); under each cell the number of pawns on it, and an arrow under the pawn of the
# player picked with UP/DOWN, named with its space on the bottom lines. Opened from the
# home screen (arg None), or after a hand is saved with arg = the spaces before the hand:
# then the bottom line gives that player's move ("4>7 +3"). OK, BACK or LEFT close it.
from firmware.screens.base import Screen, title_bar, scroll_mark, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_OK = const(5)
_KEY_MASK = const(0x7F)

_CELL = const(9)     # cell pitch: a 5-pixel letter inside a box, borders shared
_ROW_H = const(18)   # a row of cells (10) and the pawn counts under it (8)
_Y0 = const(10)
_SHOWN = const(2)    # board rows on screen; longer boards scroll with the pawn


class Board(Screen):
    def __init__(self, app, before):
        Screen.__init__(self, app)
        g = app.session.game
        self.game = g
        self.before = before
        self.p = 0
        cells = g.red + 2     # every space, and "past the red space"
        # A board that needs more than two rows keeps a column free for the scroll mark.
        self.per = 14 if cells <= 2 * 14 else 13
        self.nrows = (cells + self.per - 1) // self.per

    def key(self, k):
        b = k & _KEY_MASK
        n = self.game.state.n
        if b == _UP:
            self.p = (self.p - 1) % n
        elif b == _DOWN:
            self.p = (self.p + 1) % n
        elif b == _OK:
            self.app.pop()
            return True
        else:
            return False
        self.dirty = True
        return True

    def draw(self, c):
        g = self.game
        st = g.state
        pos = st.pos
        red = g.red
        per = self.per
        mine = pos[self.p]
        top = mine // per - _SHOWN + 1
        if top < 0:
            top = 0
        title_bar(c, "Board" if self.before is None else "Moves  hand %d" % st.hands)
        for r in range(_SHOWN):
            row = top + r
            y = _Y0 + r * _ROW_H
            for j in range(per):
                i = row * per + j
                if i > red + 1:
                    break
                x = j * _CELL
                c.rect(x, y, _CELL + 1, 10)
                if i > red:
                    ch = ">"
                else:
                    ph = g.phases[i]
                    ch = "T" if ph == 0 else ("R" if i == red else ("S" if i == 0 else chr(48 + ph)))
                c.text(ch, x + 2, y + 1)
                if i == red:
                    c.invert_rect(x + 1, y + 1, _CELL - 1, 8)
                if i == mine:
                    c.glyph("up", x + 1, y + 10)
                else:
                    k = 0
                    for q in pos:
                        if q == i:
                            k += 1
                    if k:
                        c.text(chr(48 + k), x + 2, y + 10)
        scroll_mark(c, top, _SHOWN, self.nrows, _Y0)
        name = g.settings["players"][self.p]
        sp = mine + 1
        if mine > red:
            c.text(name[:10] + " finished", 0, 48)
        else:
            label = g.attempt_text(self.p)[0]
            c.text("%s %d: %s" % (name[:8], sp, label), 0, 48)
        if self.before is not None:
            m = st.moves[self.p]
            a = self.before[self.p] + 1
            c.text("%s>%s  %s%d" % (a, sp if mine <= red else "fin", "+" if m > 0 else "", m), 0, 56)
        else:
            c.text("UP/DOWN: next pawn", 0, 56)


def make(app, arg):
    return Board(app, arg)
