# About: what is running, on what, with how much memory left. A read-only page that
# scrolls with UP/DOWN; OK or BACK closes it.
from firmware.screens.base import Page, W as _W


class About(Page):
    title = "About"

    def __init__(self, app):
        board = getattr(app.board, "NAME", None) or "unknown"
        mem = app.mem_free()
        s = app.settings
        store = app.store
        lines = (
            ("Phase 10 table", None),
            ("Version", app.VERSION),
            ("Board", board),
            ("Free memory", "%d B" % mem if mem >= 0 else "n/a"),
            ("Display", "SSD1306" if getattr(app.board, "PANEL", None) or not s["sh1106"] else "SH1106"),
            ("Buttons", "3" if s["three_button"] else "5"),
            ("Flash writes", str(getattr(store, "writes", 0))),
            ("Score pad, Twist", None),
            ("board, Dice roller.", None),
        )
        # A value too long to share its label's line (a board's full name) gets a line
        # of its own, right-aligned under the label.
        tw = app.canvas.text_width
        room = _W - 8  # left pad, gap and the scroll mark
        out = []
        for label, v in lines:
            if v and tw(label) + tw(v) + tw(" ") > room:
                out.append((label, None))
                out.append(("", v))
            else:
                out.append((label, v))
        Page.__init__(self, app, out)


def make(app, arg):
    return About(app)
