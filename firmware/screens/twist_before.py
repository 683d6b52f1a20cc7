# Phase 10 Twist, before a hand: each player whose pawn stands on a Twist space chooses
# the phase before it, the phase after it, or a Twist card (RULINGS.md, "Twist"). The
# device can be the Twist card holder: it draws a card (engine_mpy.twist.draw_twist_card
# with app.rng, never a card another player holds this hand) and shows it to that player
# alone: "Hand the device to Ann", OK reveals, OK hides. A card drawn from a real deck is
# entered instead. When everyone has chosen, the hand entry (twist_hand) takes over with
# the choices; they are saved with the hand, never before (nothing is committed here).
from firmware.screens.base import ListScreen, title_bar, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_OK = const(5)
_BACK = const(6)
_LEFT = const(3)
_KEY_MASK = const(0x7F)


_CHOOSE = const(0)
_HANDOVER = const(1)   # "Hand the device to Ann"
_SHOWN = const(2)      # the card face up
_ENTER = const(3)      # a card drawn by hand, entered with UP/DOWN

_OPTIONS = ("before", "after", "Draw a Twist card", "Card drawn by hand")


class Before(ListScreen):
    def __init__(self, app):
        ListScreen.__init__(self, app, len(_OPTIONS))
        g = app.session.game
        self.game = g
        n = g.state.n
        self.picks = [None] * n
        # The players to ask, in playing order (the one after the dealer first).
        first = g.first_player()
        self.who = bytearray([(first + k) % n for k in range(n) if g.on_twist((first + k) % n)])
        self.k = 0
        self.mode = _CHOOSE
        self.card = 0
        self.set_title()

    def player(self):
        return self.who[self.k]

    def name(self):
        return self.game.settings["players"][self.player()][:12]

    def set_title(self):
        self.title = "%s: Twist space" % self.name()[:6]
        # Nothing chosen until an arrow picks: a quick OK must not choose for the player.
        self.sel = -1
        self.top = 0

    def taken(self):
        return [c for c in self.picks if isinstance(c, int)]

    def label(self, i):
        if i < 2:
            return self.game.attempt_text(self.player(), _OPTIONS[i])[0] + " (" + _OPTIONS[i] + ")"
        return _OPTIONS[i]

    def choose(self, i):
        p = self.player()
        if i < 0:
            self.app.push("note", "%s: pick the phase before, the phase after or a Twist "
                                  "card with UP/DOWN, then OK." % self.name())
            return True
        if i < 2:
            self.picks[p] = _OPTIONS[i]
            self.next()
        elif i == 2:
            from engine_mpy.twist import draw_twist_card
            self.card = draw_twist_card(self.app.rng, self.taken())
            self.mode = _HANDOVER
        else:
            self.card = 0
            self.step_card(1)
            self.mode = _ENTER
        self.dirty = True
        return True

    def step_card(self, d):
        # A card another player holds this hand is not in the deck: skip it.
        taken = self.taken()
        c = self.card
        for _ in range(10):
            c = (c + d - 1) % 10 + 1
            if c not in taken:
                break
        self.card = c

    def next(self):
        self.k += 1
        self.mode = _CHOOSE
        if self.k < len(self.who):
            self.set_title()
            return
        # Everyone has chosen: the hand is played, then entered.
        app = self.app
        picks = self.picks
        app.pop()
        app.push("twist_hand", picks)

    def key(self, k):
        b = k & _KEY_MASK
        m = self.mode
        if m == _CHOOSE:
            if b == _BACK or b == _LEFT:
                if self.k == 0:
                    return False      # closes: back to the standings, nothing chosen
                self.k -= 1
                self.picks[self.player()] = None
                self.set_title()
                self.dirty = True
                return True
            return ListScreen.key(self, k)
        self.dirty = True
        if m == _HANDOVER:
            if b == _OK:
                self.mode = _SHOWN
            elif b == _BACK or b == _LEFT:
                self.mode = _CHOOSE    # not drawn after all: the card goes back
            return True
        if m == _SHOWN:
            if b == _OK or b == _BACK or b == _LEFT:
                self.picks[self.player()] = self.card
                self.next()
            return True
        # _ENTER
        if b == _UP:
            self.step_card(1)
        elif b == _DOWN:
            self.step_card(-1)
        elif b == _OK:
            self.picks[self.player()] = self.card
            self.next()
        elif b == _BACK or b == _LEFT:
            self.mode = _CHOOSE
        return True

    def draw(self, c):
        m = self.mode
        if m == _CHOOSE:
            ListScreen.draw(self, c)
            return
        if m == _HANDOVER:
            title_bar(c, "Twist card")
            c.text("Hand the device to", 4, 14)
            c.text(self.name(), 4, 24)
            c.text("Only %s looks." % self.name()[:8], 4, 36)
            c.text("OK: show the card", 4, 54)
            c.invert_rect(0, 52, W, LINE_H + 2)
            return
        from engine_mpy.twist_cards import twist_text
        if m == _SHOWN:
            title_bar(c, "%s's Twist card" % self.name()[:8])
            c.big(str(self.card), 4, 12)
            _lines(c, twist_text(self.card), 30, 12)
            c.text("OK: hide", 4, 54)
            c.invert_rect(0, 52, W, LINE_H + 2)
            return
        title_bar(c, "%s's card" % self.name()[:10])
        c.big(str(self.card), 4, 12)
        _lines(c, twist_text(self.card), 30, 12)
        c.text("UP/DOWN  OK: take it", 4, 54)


def _lines(c, text, x, y):
    """text in words on lines from x to the right edge."""
    cols = (W - x) // 6
    line = ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > cols:
            c.text(line, x, y)
            y += LINE_H
            line = w
        else:
            line = line + " " + w if line else w
    if line:
        c.text(line, x, y)


def make(app, arg):
    return Before(app)
