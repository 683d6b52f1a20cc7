# The character picker: a name typed with UP/DOWN (also with three buttons). The cell after
# the name is a wheel: UP/DOWN turn it, OK (or RIGHT) takes its letter and moves on; the
# wheel also holds "done" (a tick) and "delete" (a left arrow). LEFT deletes the last letter
# (and, on an empty name, goes back); long OK cancels.
#
# app.push("picker", (title, initial_text, done)): done(name) is called on "done" with the
# name trimmed; it returns None (accepted: the picker closes) or a message, which is shown
# while the picker keeps what was typed.
from firmware.screens.base import Screen, title_bar, W

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
_REPEAT = const(0x80)


_DONE = "\x01"
_DEL = "\x02"
# The wheel is ordered for few presses. After the first letter it starts on "done", with
# the lower case letters upward from it, the ones names use most first (a, e, n, i, r...),
# and "delete" one step down. A name's first letter starts on M among the capitals, the
# ones names start with most nearest to it either way (A, S, D... upward; J, C, K...
# downward). Holding UP or DOWN turns the wheel on.
WHEEL = (_DONE + "aenirlosthdymcukbjgvpfwzxq" + " -.'" + "0123456789"
         + "QYIVFPGTRKCJ" + "MASDLBENHWZOUX" + _DEL)
_FIRST = WHEEL.index("M")   # where the wheel starts for a name's first letter
MAX_LEN = 12         # as the engines take names
_X0 = const(4)
_Y = const(28)              # the name's line
_CW = const(6)


class Picker(Screen):
    def __init__(self, app, arg):
        Screen.__init__(self, app)
        self.title, text, self.done = arg
        self.text = text or ""
        self.pos = self._start()

    def _start(self):
        return 0 if self.text else _FIRST

    def key(self, k):
        base = k & _KEY_MASK
        if base == _UP or base == _DOWN:
            n = len(WHEEL)
            p = self.pos + (1 if base == _UP else -1)
            if p < 0:
                p = 0 if k & _REPEAT else n - 1
            elif p >= n:
                p = n - 1 if k & _REPEAT else 0
            self.pos = p
            self.dirty = True
            return True
        if base == _OK or base == _RIGHT:
            ch = WHEEL[self.pos]
            if ch == _DONE:
                self._finish()
            elif ch == _DEL:
                self._delete()
            elif len(self.text) < MAX_LEN:
                self.text += ch
                self.pos = 0
            self.dirty = True
            return True
        if base == _LEFT and self.text:
            self._delete()
            return True
        return False   # BACK, or LEFT on an empty name: the app closes the picker

    def _delete(self):
        self.text = self.text[:-1]
        self.pos = self._start()
        self.dirty = True

    def _finish(self):
        msg = self.done(self.text.strip())
        if msg:
            self.app.push("note", msg)
        else:
            self.app.pop()

    def _cell(self, c, ch, x, y, inv=False):
        if ch == _DONE:
            c.glyph("check", x - 1, y)
        elif ch == _DEL:
            c.glyph("left", x - 1, y)
        else:
            c.text(ch, x, y)
        if inv:
            c.invert_rect(x - 1, y, _CW + 1, 8)

    def draw(self, c):
        title_bar(c, self.title)
        t = self.text
        c.text(t, _X0, _Y)
        n = len(WHEEL)
        x = _X0 + len(t) * _CW
        # The wheel: what UP gives above, what DOWN gives below, the choice framed.
        self._cell(c, WHEEL[(self.pos + 1) % n], x, _Y - 10)
        self._cell(c, WHEEL[self.pos], x, _Y, True)
        self._cell(c, WHEEL[(self.pos - 1) % n], x, _Y + 10)
        c.hline(_X0 - 1, _Y + 9, (MAX_LEN + 1) * _CW + 1, 1)
        ch = WHEEL[self.pos]
        c.text("OK: " + ("done" if ch == _DONE else "delete" if ch == _DEL else "add letter"), _X0, 48)
        c.text("%d/%d" % (len(t), MAX_LEN), W - 32, 48)
        c.text("Hold OK: cancel", _X0, 56)


def make(app, arg):
    return Picker(app, arg)
