# A message the player must see once: a damaged file set aside at start-up, a save the
# flash refused, a rule an entry broke. Word-wrapped under a title; a long one scrolls
# with UP/DOWN (a mark on the right shows where); OK closes it.
from firmware.screens.base import Screen, title_bar, wrap, scroll_mark, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_OK = const(5)
_UP = const(1)
_DOWN = const(2)
_KEY_MASK = const(0x7F)


_ROWS = const(6)


class Note(Screen):
    def __init__(self, app, text):
        Screen.__init__(self, app)
        self.lines = wrap(text or "", 20)
        self.top = 0

    def key(self, k):
        k &= _KEY_MASK
        if k == _OK:
            self.app.pop()
            return True
        if k == _UP or k == _DOWN:
            t = self.top + (1 if k == _DOWN else -1)
            if 0 <= t <= len(self.lines) - _ROWS:
                self.top = t
                self.dirty = True
            return True
        return False

    def draw(self, c):
        title_bar(c, "Note")
        y = LINE_H + 2
        for s in self.lines[self.top:self.top + _ROWS]:
            c.text(s, 2, y)
            y += LINE_H
        scroll_mark(c, self.top, _ROWS, len(self.lines))
        c.text("OK", W - 14 - (4 if len(self.lines) > _ROWS else 0), 56)


def make(app, arg):
    return Note(app, arg)
