# What every screen shares: the Screen protocol the app drives, the title bar, and the
# scrolling list (menus, settings, read-only pages) with its position mark. The app's screens
# are one module each in firmware/screens/, imported when pushed and dropped when popped
# (firmware/app.py); each has make(app, arg) -> a base.Screen.
from firmware.draw import gfx

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# The home screen of a running game, by the engine's KIND (the app opens it; the menu loads
# its code ahead, Screen.ahead)
HOME = {"classic": "cards_home", "masters": "cards_home", "twist": "twist_home",
        "dice": "dice_home"}

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_RIGHT = const(4)
_OK = const(5)
_KEY_MASK = const(0x7F)
_REPEAT = const(0x80)

W = gfx.WIDTH
H = gfx.HEIGHT
LINE_H = gfx.LINE_H
_TITLE_H = gfx.LINE_H
_BAR_W = const(3)  # the scroll position mark on the right edge
_PAD = const(2)


class Screen:
    """The app calls key(k) for each key event (return True when handled; an unhandled
    BACK or LEFT closes the screen), tick(now_ms) every poll, draw(canvas) when .dirty,
    and closed() when popped."""

    parked = False

    def __init__(self, app):
        self.app = app
        self.dirty = True
        self.module = ""
        self.arg = None

    def park(self):
        """The few values this screen needs to come back as it was after the app drops it
        while other screens are on top (see Screens.top, firmware/stack.py); None keeps it
        whole (the default: a screen holding what the player typed, or one that others call
        back)."""
        return None

    def resume(self, state):
        """Rebuilt by make() after being parked: take back what park() kept."""
        pass

    def key(self, k):
        return False

    def tick(self, now):
        """Called every poll while on top (now: the clock's ms). True when it did some
        work ahead (read what the next key will need): the loop then polls again soon."""
        return False

    def draw(self, c):
        pass

    def closed(self):
        pass


def title_bar(c, s):
    """The screen's name, inverted across the top line."""
    c.text(s, _PAD, 0)
    c.invert_rect(0, 0, W, _TITLE_H)


def list_title(c, s):
    """A list's title bar, its last pixel row dark: a line selected right under it
    (inverted too) does not run into it, and the bar looks the same wherever the selection
    is. (A function of its own: ListScreen.draw's frame stays within the C stack's 11 words.)"""
    title_bar(c, s)
    c.fill_rect(0, _TITLE_H - 1, W, 1, 0)


# Word wrap lives here, with the other shared pieces, so a screen that wraps text (a hand's
# phase, the rules) does not load the note screen's module for it.
_COLS = (W - 4) // 6   # small characters on a line between 2-pixel margins


def wrap(text, cols=_COLS):
    """Lines of at most cols characters, broken at spaces where there are any. text may
    be bytes (ASCII), and the lines are then bytes: on MicroPython every new str is first
    looked up among all the names loaded (a long search once many .mpy modules are in),
    a new bytes is not (firmware/screens/help.py)."""
    out = []
    sp = b" " if type(text) is bytes else " "
    for word in text.split():
        while len(word) > cols:
            out.append(word[:cols])
            word = word[cols:]
        if out and len(out[-1]) + 1 + len(word) <= cols:
            out[-1] = out[-1] + sp + word
        else:
            out.append(word)
    return out


def scroll_mark(c, top, shown, total, y0=_TITLE_H):
    """A track on the right edge with a thumb whose place and length say which part of a
    long list is on screen. Nothing when everything fits. (In three pieces: one frame
    within the 11 words MicroPython holds on the C stack, as ListScreen.draw.)"""
    if total > shown:
        c.vline(W - 2, y0, H - y0, 1)
        top = _thumb(H - y0, shown, total, top)
        _fill_thumb(c, y0, top)


def _thumb(h, shown, total, top):
    # the thumb on a track h high: its offset << 8 | its length
    th = h * shown // total
    if th < 4:
        th = 4
    return (h - th) * top // (total - shown) << 8 | th


def _fill_thumb(c, y0, t):
    c.fill_rect(W - _BAR_W, y0 + (t >> 8), _BAR_W, t & 255, 1)


class ListScreen(Screen):
    """A titled list: UP/DOWN move the selection (wrapping on a single press, stopping at
    the ends while a key repeats), OK or RIGHT chooses. The list turns a page when the
    selection leaves the screen. Subclasses give label(i) / value(i) and choose(i)."""

    title = ""
    selectable = True

    def __init__(self, app, count):
        Screen.__init__(self, app)
        self.count = count
        self.sel = 0
        self.top = 0
        self.y = _TITLE_H     # the row being drawn (draw())
        self.right = W - _PAD  # where its value ends

    def rows(self):
        return (H - _TITLE_H) // LINE_H

    def park_place(self, g=None):
        """park() for a list: its selection and scroll, and for a game's home the game and
        hand count it showed (ids only: a parked screen must not keep a game alive)."""
        if g is None:
            return (self.sel, self.top)
        return (self.sel, self.top, id(g), g.changes)

    def resume_place(self, s, g=None):
        """Back to the kept place; a home whose game changed meanwhile keeps the fresh
        place its rebuild chose, as it would have on seeing the change."""
        if g is not None and s[2:] != (id(g), g.changes):
            return
        if s[0] < self.count:
            self.sel = s[0]
            self.top = s[1]

    def label(self, i):
        return ""

    def value(self, i):
        return None

    def choose(self, i):
        return False

    def move(self, d, repeat=False):
        n = self.count
        if not n:
            return
        if self.selectable:
            t = self._select(d, repeat)
        else:
            # A read-only page turns a page a press.
            t = self.top + d * self.rows()
        last = n - self.rows()
        if last < 0:
            last = 0
        self.top = 0 if t < 0 else (last if t > last else t)
        self.dirty = True

    def _select(self, d, repeat):
        # the selection moved by d; returns the first row to show
        n = self.count
        s = self.sel + d
        if s < 0:
            s = 0 if repeat else n - 1
        elif s >= n:
            s = n - 1 if repeat else 0
        self.sel = s
        rows = self.rows()
        # A page at a time: the selection that leaves the screen turns the page (on
        # its first line going down, its last going up; the last page is a full one).
        # Moving within a page changes two lines on the display's bus; a scroll by a
        # line changes them all (23 ms at 400 kHz).
        t = self.top
        if s < t:
            t = s - rows + 1
        elif s >= t + rows:
            t = s
        return t

    def key(self, k):
        base = k & _KEY_MASK
        if base == _UP:
            self.move(-1, k & _REPEAT)
            return True
        if base == _DOWN:
            self.move(1, k & _REPEAT)
            return True
        if base == _OK or base == _RIGHT:
            return self.choose(self.sel)
        return False

    # draw() and draw_row() run for every frame and row: each keeps its frame within the
    # 11 words MicroPython holds on the C stack (a bigger one is a heap allocation per
    # call, 0.1 ms or more on an RP2040), so a row's place and the values' right edge are
    # on the screen (self.y, self.right) rather than passed along.
    def draw(self, c):
        list_title(c, self.title)
        shown = self.rows()
        self.right = W - _BAR_W - 2 if self.count > shown else W - _PAD
        i = self.top
        end = i + shown
        if end > self.count:
            end = self.count
        while i < end:
            self.y = _TITLE_H + (i - self.top) * LINE_H
            self.draw_row(c, i)
            i += 1
        scroll_mark(c, self.top, shown, self.count)

    def draw_row(self, c, i):
        """Row i at self.y: its label, its value against self.right, inverted when
        selected."""
        y = self.y
        c.text(self.label(i), _PAD, y)
        v = self.value(i)
        if v:
            self.right_text(c, v, y)
        if self.selectable and i == self.sel:
            self.mark(c, y)

    def right_text(self, c, s, y):
        c.text(s, self.right - c.text_width(s), y)

    def mark(self, c, y):
        """The selected row at y, inverted up to the values' right edge."""
        c.invert_rect(0, y, self.right + 1, LINE_H)


class GameHome(ListScreen):
    """A running game's home that rebuilds its lines from the game (refresh() sets
    self.game): parked under a hand or a turn, it keeps its place unless the game changed."""

    def park(self):
        return self.park_place(self.game)

    def resume(self, s):
        self.resume_place(s, self.game)


class Page(ListScreen):
    """A read-only page of (label, value) lines that scrolls by a line; OK closes it.
    Subclasses fill self.lines and may give OK another meaning (key())."""

    selectable = False

    def __init__(self, app, lines):
        self.lines = lines
        ListScreen.__init__(self, app, len(lines))

    def label(self, i):
        return self.lines[i][0]

    def value(self, i):
        return self.lines[i][1]

    def key(self, k):
        if k & _KEY_MASK == _OK:
            self.app.pop()
            return True
        return ListScreen.key(self, k)
