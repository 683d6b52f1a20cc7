# Rules: the ten phases, then the ten Twist cards, one per screen. UP/DOWN or RIGHT/LEFT
# page (LEFT on the first page goes back, as everywhere); OK or long OK close it.
from firmware.screens.base import Screen, title_bar, scroll_mark, wrap, W
from engine_mpy.phases import PHASE_TEXT, PHASE_CARDS
from engine_mpy.twist_cards import TWIST_TEXT, TWIST_CARDS

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


_PAGES = const(20)   # phases 1-10, Twist cards 1-10


class Rules(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.page = 0

    def key(self, k):
        base = k & _KEY_MASK
        if base == _DOWN or base == _RIGHT:
            d = 1
        elif base == _UP or (base == _LEFT and self.page):
            d = -1
        elif base == _OK:
            self.app.pop()
            return True
        else:
            return False    # BACK, or LEFT on the first page
        p = self.page + d
        if p < 0 or p >= _PAGES:
            if k & _REPEAT:
                return True   # a held key stops at the ends
            p %= _PAGES
        self.page = p
        self.dirty = True
        return True

    def draw(self, c):
        p = self.page
        twist = p >= 10
        n = p - 9 if twist else p + 1
        title_bar(c, "Rules: Twist card" if twist else "Rules: Phase")
        c.big(str(n), 4, 12)
        c.text("%d/10" % n, W - 38, 12)
        cards = (TWIST_CARDS if twist else PHASE_CARDS)[n]
        c.text("%d cards" % cards, W - 50, 20)
        y = 32
        for s in wrap((TWIST_TEXT if twist else PHASE_TEXT)[n], 19):
            c.text(s, 4, y)
            y += 8
        scroll_mark(c, p, 1, _PAGES)


def make(app, arg):
    return Rules(app)
