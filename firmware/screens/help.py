# Help: hold OK and press UP, on any screen. The keys of the screen below (arg: its
# module), then what every screen shares, the dice colours with the pattern each is drawn
# in, and the ten phases. A read-only page: UP/DOWN scroll, OK closes it.
# The texts live here only, loaded for the press and dropped with the screen.
import sys
from firmware.screens.base import Screen, title_bar, scroll_mark, wrap, LINE_H

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_OK = const(5)
_KEY_MASK = const(0x7F)

# The keys of each screen, in the words the screen shows. Screens that share keys share
# a text (the tuple's first names are looked up in the second's place).
_SAME = {"dice_roller": "dice_turn", "twist_home": "cards_home", "dice_home": "cards_home",
         "about": "note", "twist_sheet": "sheet", "dice_sheet": "sheet",
         "twist_board": "twist_board"}
_KEYS = {
    "menu": "UP/DOWN pick a line, OK opens it. Continue goes back to the game running; "
            "New game starts one (the running one is asked about first).",
    "newgame": "One question a page: UP/DOWN pick, OK takes it. LEFT or hold OK: the "
               "page before. Players: OK seats or unseats a name, + New player types one.",
    "picker": "UP/DOWN turn the wheel under the cursor, OK or RIGHT takes its letter. "
              "The tick ends the name, the arrow deletes. LEFT deletes a letter. "
              "Hold OK: cancel.",
    "cards_home": "UP/DOWN pick a line, OK opens it: a player says their phase; Play "
                  "hand enters the end of a hand; Score sheet; Undo last hand asks first.",
    "hand": "Who went out: UP/DOWN, OK. Cards left start at 10 cards of 1-9 (no phase). "
            "UP one more 10-12, RIGHT one more Skip, DOWN one more Wild (past the last: "
            "none). LEFT fewer cards: 10, 1, 2... OK: next player. Points: UP/DOWN 5, "
            "RIGHT/LEFT 25. Three buttons: OK moves along the columns, UP/DOWN change one. "
            "Check page: OK saves. Hold OK: the step before.",
    "twist_hand": "Who went out: UP/DOWN, OK. Then each player's cards left with "
                  "UP/DOWN and OK. Check page: OK saves. Hold OK: the step before.",
    "twist_before": "UP/DOWN pick the phase before, after, or a Twist card; OK takes it. "
                    "A card drawn here is shown only after OK: pass the device first.",
    "dice_turn": "Arrows move the frame over the dice and the buttons below. OK on a die "
                 "holds it (drawn inverted) or lets it go; OK on Roll rolls; Stop saves "
                 "the turn; Hint marks the dice to hold with ^ and gives the chance. "
                 "Underlined: the dice the best score uses. Hold OK: leave the turn "
                 "(asks first once rolled). Real dice: OK on a die steps its number, then "
                 "its colour, with UP/DOWN.",
    "dice_order": "OK rolls a die for each player; the highest starts, ties roll again. "
                  "OK then starts the game. LEFT: back.",
    "sheet": "UP/DOWN scroll the hands; RIGHT or OK the other players (where there are "
             "more). OK on a hand corrects it. LEFT: back.",
    "gameover": "UP/DOWN pick, OK: Finish keeps the game in History; Score sheet; Undo "
                "last hand plays on. A tie-break asks who went out first.",
    "history": "UP/DOWN pick a game, OK shows its players and totals. LEFT: back.",
    "players": "UP/DOWN pick a player, OK shows their games; OK there renames them. "
               "+ New player types one.",
    "settings": "UP/DOWN pick a line, OK changes it: UP/DOWN the value, OK keeps it, "
                "LEFT or hold OK leaves it as it was.",
    "phones": "A phone's camera on the code joins the Wi-Fi; RIGHT: the page's address "
              "and its code, LEFT: back. OK closes.",
    "rules": "UP/DOWN or RIGHT/LEFT turn the pages: the phases, then the Twist cards. "
             "OK closes.",
    "note": "UP/DOWN scroll, OK closes.",
    "twist_board": "UP/DOWN pick a pawn: its player and space are named below. OK "
                   "closes.",
    "confirm": "OK does it; LEFT or hold OK leaves everything as it was.",
}
_ALL = ("Everywhere: LEFT or hold OK goes back. Hold OK and press UP: this help. A key "
        "that wakes the dimmed screen does nothing else.")
_COLOURS = ("red", "orange", "blue", "green")
_PATTERNS = ("solid", "hatched", "dotted", "striped")
_GLYPHS = ("colour_r", "colour_o", "colour_b", "colour_g")


_ROWS = const(7)     # lines under the title bar


class Help(Screen):
    # The lines are made again for each frame, never kept: Help opens over any screen,
    # the fullest included (a Dice turn, a hand half entered), on the heap that screen
    # leaves (App._help).
    def __init__(self, app, under):
        Screen.__init__(self, app)
        self.keys = _KEYS.get(_SAME.get(under, under))
        self.had_phases = "engine_mpy.phases" in sys.modules
        self.top = 0
        n = 0
        for _ in self.lines():
            n += 1
        self.count = n

    def lines(self):
        """(text, colour glyph index or -1), line by line."""
        for t in (self.keys, _ALL):
            if t:
                for s in wrap(t, 20):
                    yield s, -1
        yield "Dice colours:", -1
        for i in range(4):
            yield "   %s %s" % (_COLOURS[i], _PATTERNS[i]), i
        yield "Phases:", -1
        from engine_mpy.phases import PHASE_TEXT
        for n in range(1, 11):
            for s in wrap("%d %s" % (n, PHASE_TEXT[n]), 20):
                yield s, -1

    def key(self, k):
        base = k & _KEY_MASK
        if base == _OK:
            self.app.pop()
            return True
        if base == _UP or base == _DOWN:
            t = self.top + (1 if base == _DOWN else -1)
            if 0 <= t <= self.count - _ROWS:
                self.top = t
                self.dirty = True
            return True
        return False    # LEFT, long OK: back

    def draw(self, c):
        title_bar(c, "Help")
        r = -self.top
        for s, g in self.lines():
            if 0 <= r < _ROWS:
                y = LINE_H + r * LINE_H
                c.text(s, 2, y)
                if g >= 0:
                    c.glyph(_GLYPHS[g], 4, y)
            r += 1
        scroll_mark(c, self.top, _ROWS, self.count)

    def closed(self):
        # the phases' texts came for this screen only: they go with it
        if not self.had_phases:
            from firmware.app import _unload
            _unload("engine_mpy.phases")


def make(app, arg):
    return Help(app, arg)
