# About: what is running, on what, with how much memory left. A read-only page that
# scrolls with UP/DOWN; OK or BACK closes it.
from firmware.screens.base import ListScreen, W as _W
from firmware.keys import OK, KEY_MASK
from firmware import app as appmod


class About(ListScreen):
    title = "About"
    selectable = False

    def __init__(self, app):
        board = getattr(app.board, "NAME", None) or "unknown"
        mem = app.mem_free()
        s = app.settings
        store = app.store
        lines = (
            ("Phase 10 table", None),
            ("Version", appmod.VERSION),
            ("Board", board),
            ("Free memory", "%d B" % mem if mem >= 0 else "n/a"),
            ("Display", "SH1106" if s["sh1106"] else "SSD1306"),
            ("Buttons", "3" if s["three_button"] else "5"),
            ("Flash writes", str(getattr(store, "writes", 0))),
            ("Score pad, Twist", None),
            ("board, Dice roller.", None),
        )
        # A value too long to share its label's line (a board's full name) gets a line
        # of its own, right-aligned under the label.
        tw = app.canvas.text_width
        room = _W - 8  # left pad, gap and the scroll mark
        self.lines = []
        for label, v in lines:
            if v and tw(label) + tw(v) + tw(" ") > room:
                self.lines.append((label, None))
                self.lines.append(("", v))
            else:
                self.lines.append((label, v))
        ListScreen.__init__(self, app, len(self.lines))

    def label(self, i):
        return self.lines[i][0]

    def value(self, i):
        return self.lines[i][1]

    def key(self, k):
        if k & KEY_MASK == OK:
            self.app.pop()
            return True
        return ListScreen.key(self, k)


def make(app, arg):
    return About(app)
