# A message the player must see once: a damaged file set aside at start-up, a save the
# flash refused. Word-wrapped under a title; OK or BACK closes it.
from firmware.screens.base import Screen, title_bar, wrap, LINE_H, W
from firmware.keys import OK, KEY_MASK

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
