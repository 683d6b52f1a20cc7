# A message the player must see once: a damaged file set aside at start-up, a save the
# flash refused. Word-wrapped under a title; OK or BACK closes it.
from firmware.screens.base import Screen, title_bar, LINE_H, W
from firmware.keys import OK, KEY_MASK

_COLS = (W - 4) // 6


def wrap(text, cols=_COLS):
    """Lines of at most cols characters, broken at spaces where there are any."""
    out = []
    for word in text.split():
        while len(word) > cols:
            out.append(word[:cols])
            word = word[cols:]
        if out and len(out[-1]) + 1 + len(word) <= cols:
            out[-1] = out[-1] + " " + word
        else:
            out.append(word)
    return out


class Note(Screen):
    def __init__(self, app, text):
        Screen.__init__(self, app)
        self.lines = wrap(text or "")[:6]

    def key(self, k):
        if k & KEY_MASK == OK:
            self.app.pop()
            return True
        return False

    def draw(self, c):
        title_bar(c, "Note")
        y = LINE_H + 2
        for s in self.lines:
            c.text(s, 2, y)
            y += LINE_H
        c.text("OK", W - 14, 56)


def make(app, arg):
    return Note(app, arg)
