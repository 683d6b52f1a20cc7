# The one question asked before something saved is lost: "Undo hand 3?" (Phase 10,
# Masters, Twist) or "Undo turn 7?" (Dice), from a game's home or game-over screen.
#   push("confirm", "undo")  asks to undo the running game's last record.
# OK undoes it (through app.session.commit, so a refusal or a flash that refuses the
# write is said on a note and nothing changes), then this screen closes; long OK or LEFT
# closes it and changes nothing; the other keys do nothing. The screen below sees the
# change in its own tick (or draws from the game), as after any other change.
from firmware.screens.base import Screen, title_bar, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_OK = const(5)
_BACK = const(6)
_LEFT = const(3)
_KEY_MASK = const(0x7F)


_HINT_Y = const(48)
_LOST = "Its entry is lost."


class Confirm(Screen):
    def __init__(self, app, title, lines, yes):
        Screen.__init__(self, app)
        self.title = title
        self.lines = lines
        self.yes = yes   # None: nothing to confirm, OK just closes the message

    def key(self, k):
        b = k & _KEY_MASK
        if b == _OK:
            app = self.app
            yes = self.yes
            app.pop()
            msg = yes() if yes is not None else None
            if msg:
                app.push("note", msg)
        elif b == _BACK or b == _LEFT:
            self.app.pop()
        return True

    def draw(self, c):
        title_bar(c, self.title)
        y = LINE_H + 4
        for s in self.lines:
            c.text(s, 2, y)
            y += LINE_H + 2
        if self.yes is None:
            c.text("OK", W - 14, 56)
            return
        c.text("OK: undo  hold: keep", 2, _HINT_Y + 2)   # (hold OK: with 3 buttons too)
        c.invert_rect(0, _HINT_Y, W, LINE_H + 4)


def undo(app):
    """The question for the running game's last record: what it was and that it is lost."""
    s = app.session
    g = s.game
    n = len(g.records)
    if not n:
        return Confirm(app, "Undo", ("There is nothing", "to undo."), None)
    yes = lambda: s.apply("undo")
    if g.KIND == "dice":
        q, ph, sc = g.state.last
        return Confirm(app, "Undo turn %d?" % n, (
            "%s, phase %d:" % (g.name(q)[:10], ph),
            ("%d points" % sc) if sc >= 0 else "not made", _LOST), yes)
    return Confirm(app, "Undo hand %d?" % n, (_LOST,), yes)


def make(app, arg):
    if arg == "undo":
        return undo(app)
    title, lines, yes = arg
    return Confirm(app, title, lines, yes)
