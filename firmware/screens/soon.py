# Placeholder for a menu entry whose screens are not written yet.
from firmware.screens.base import Screen, title_bar, LINE_H
from firmware.keys import OK, KEY_MASK

_LINES = ("Coming soon:", "this part arrives", "in a later update.", "", "OK: back")


class Soon(Screen):
    def __init__(self, app, title):
        Screen.__init__(self, app)
        self.title = title or ""

    def key(self, k):
        if k & KEY_MASK == OK:
            self.app.pop()
            return True
        return False

    def draw(self, c):
        title_bar(c, self.title)
        y = LINE_H + 4
        for s in _LINES:
            c.text(s, 2, y)
            y += LINE_H

def make(app, arg):
    return Soon(app, arg)
