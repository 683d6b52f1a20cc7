# Help: hold OK and press UP, on any screen. The keys of the screen below (arg: its
# module), then what every screen shares, the dice colours with the pattern each is drawn
# in, and the ten phases. A read-only page: DOWN/UP a page, RIGHT the phases (again: the
# top; with three buttons the phases come last, a few pages down), OK closes it.
# The texts live here only, loaded for the press and dropped with the screen. They are
# bytes, wrapped as bytes, and only the lines on the page become str: on MicroPython every
# new str (a constant loaded from a .mpy, a word split off, a line joined) is first looked
# up among all the names loaded so far, a search that grows with every .mpy module in
# RAM; a new bytes is not (on the .mpy install Help over a Dice turn spent about a third of
# its time in that search).
import sys
from engine_mpy.modules import forget
from firmware.screens.base import Screen, title_bar, scroll_mark, wrap, LINE_H

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_RIGHT = const(4)
_OK = const(5)
_KEY_MASK = const(0x7F)

# The keys of each screen, in the words the screen shows: what a screen shows is quoted
# ("End of hand"), and tests/test_sim_help.py checks every quoted item and every key named
# against the screen itself. Each screen's text is a module of its own
# (firmware/helptext/<screen>.py, its TEXT), loaded as Help opens and dropped at once: the
# texts of every screen together took about 6 KB of heap on the .mpy install, where Help
# over a Dice turn is the fullest moment of a game. Screens that share keys share a text
# (the first names are looked up in the second's place).
# A piece that starts with b"\x05" is for five buttons only, b"\x03" for three only (Settings
# > 3 buttons): with three, Help names only UP, DOWN and OK, and what they do there.
_SAME = {"about": "note"}
_ALL = (b"\x05Everywhere: LEFT or hold OK goes back. Hold OK and press UP: this help. A key "
        b"that wakes a dimmed screen acts; one that lights a dark screen does nothing else. "
        b"Here: DOWN/UP a page, RIGHT the phases, OK closes.",
        b"\x03Everywhere: hold OK goes back. Hold OK and press UP: this help. A key "
        b"that wakes a dimmed screen acts; one that lights a dark screen does nothing else. "
        b"Here: DOWN/UP a page (the phases at the end), OK closes.")
_FIVE = const(5)
_THREE = const(3)
_COLOURS = (b"red", b"orange", b"blue", b"green")
_PATTERNS = (b"solid", b"hatched", b"dotted", b"striped")
_GLYPHS = ("colour_r", "colour_o", "colour_b", "colour_g")


_ROWS = const(7)     # lines under the title bar
# The lines the ten phases take (engine_mpy/phases.py PHASE_TEXT wrapped, each after its
# number; tests/test_sim_help.py holds it to them): Help counts its lines as it opens
# without loading the phases' texts, which come only for a page that shows them.
_PHASE_LINES = const(15)


def keys_text(under, keep=False):
    """The keys of screen under (its module's name), in the words it shows (a text, or a
    tuple of its pieces, as bytes), or None. Its module leaves RAM at once unless keep (a
    heap with room, where Memory.prefetch loaded it ahead and Memory.evict drops it): the text
    stays as long as Help holds it (frozen into an image, it stays in the flash)."""
    name = "firmware.helptext." + _SAME.get(under, under)
    try:
        return __import__(name, None, None, ("TEXT",)).TEXT
    except ImportError:
        return None
    finally:
        if not keep:
            forget(name, True)


class Help(Screen):
    # Only the lines of the page shown are kept (made again when the page turns): Help
    # opens over any screen, the fullest included (a Dice turn, a hand half entered), on
    # the heap that screen leaves (App._help).
    def __init__(self, app, under):
        Screen.__init__(self, app)
        self.keys = keys_text(under, not app.memory.small)
        self.other = _FIVE if app.settings["three_button"] else _THREE   # its pieces are left out
        self.had_phases = "engine_mpy.phases" in sys.modules
        self.top = 0
        n = 0
        self.phases = 0      # the line "Phases:" (RIGHT goes there)
        page = []            # the first page, from the lines counted
        for s in self.lines(False):
            if n < _ROWS:
                page.append(s)
            n += 1
        self.phases = n - 1
        self.count = n + _PHASE_LINES
        self.page = page
        self.page_top = 0    # the line self.page starts at

    def lines(self, phases=True):
        """(text as bytes, colour glyph index or -1), line by line (without phases, up to
        the line "Phases:")."""
        for t in (self.keys, _ALL):
            if t:
                # a text, or short pieces of one (the Dice screens'), each starting a line
                for part in (t if isinstance(t, tuple) else (t,)):
                    if part[0] <= _FIVE:
                        if part[0] == self.other:
                            continue
                        part = part[1:]
                    for s in wrap(part, 20):
                        yield s, -1
        yield b"Dice colours:", -1
        for i in range(4):
            yield b"   " + _COLOURS[i] + b" " + _PATTERNS[i], i
        yield b"Phases:", -1
        if not phases:
            return
        from engine_mpy.phases import PHASE_TEXT
        for n in range(1, 11):
            for s in wrap(b"%d " % n + PHASE_TEXT[n].encode(), 20):
                yield s, -1

    def key(self, k):
        base = k & _KEY_MASK
        if base == _OK:
            self.app.pop()
            return True
        last = self.count - _ROWS
        if base == _UP or base == _DOWN:
            # a page at a time, stopping at the ends
            t = self.top + (_ROWS if base == _DOWN else -_ROWS)
            t = 0 if t < 0 else (last if t > last else t)
        elif base == _RIGHT:      # (five buttons)
            # the phases, one press away; from there, back to the top
            t = self.phases if self.top < self.phases else 0
            t = last if t > last else t
        else:
            return False    # LEFT, long OK: back
        if t != self.top:
            self.top = t
            self.dirty = True
        return True

    def draw(self, c):
        title_bar(c, "Help")
        if self.page_top != self.top:
            self.page = None
            page = []
            r = -self.top
            for s in self.lines():
                if r >= _ROWS:
                    break       # the lines below the screen are never made (wrapped)
                if r >= 0:
                    page.append(s)
                r += 1
            self.page = page
            self.page_top = self.top
        y = LINE_H
        for s, g in self.page:
            c.text(s.decode(), 2, y)
            if g >= 0:
                c.glyph(_GLYPHS[g], 4, y)
            y += LINE_H
        scroll_mark(c, self.top, _ROWS, self.count)

    def closed(self):
        # the phases' texts came for this screen only: they go with it
        if not self.had_phases:
            forget("engine_mpy.phases")


def make(app, arg):
    return Help(app, arg)
