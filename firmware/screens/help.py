# Help: hold OK and press UP, on any screen. The keys of the screen below (arg: its
# module), then what every screen shares, the dice colours with the pattern each is drawn
# in, and the ten phases. A read-only page: DOWN/UP a page, RIGHT the phases (again: the
# top), OK closes it.
# The texts live here only, loaded for the press and dropped with the screen. They are
# bytes, wrapped as bytes, and only the lines on the page become str: on MicroPython every
# new str (a constant loaded from a .mpy, a word split off, a line joined) is first looked
# up among all the names loaded so far, a search that grows with every .mpy module in
# RAM; a new bytes is not (on the .mpy install Help over a Dice turn spent about a third of
# its time in that search).
import sys
from firmware.screens.base import Screen, title_bar, scroll_mark, wrap, LINE_H

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_RIGHT = const(4)
_OK = const(5)
_KEY_MASK = const(0x7F)

# The keys of each screen, in the words the screen shows: what a screen shows is quoted
# ("End of hand"), and tests/test_sim_help.py checks every quoted item and every key named
# against the screen itself. Screens that share keys share a text (the first names are
# looked up in the second's place).
_SAME = {"about": "note"}
_KEYS = {
    "menu": b"UP/DOWN pick a line, OK opens it. \"Continue\" goes back to the game running; "
            b"\"New game\" starts one (the running one is asked about first).",
    "newgame": b"One question a page: UP/DOWN pick, OK takes it. LEFT or hold OK: the "
               b"page before. Players: OK seats or unseats a name, \"+ New player\" types "
               b"one, \"Next\" goes on.",
    "picker": b"UP/DOWN turn the wheel under the cursor, OK or RIGHT takes its letter. "
              b"The tick ends the name, the arrow deletes. LEFT deletes a letter. "
              b"Hold OK: cancel.",
    "cards_home": b"UP/DOWN pick a line, OK opens it: a player says their phase; \"End of "
                  b"hand\" enters how a hand ended; \"Score sheet\"; \"Undo last hand\" "
                  b"asks first; \"Correct a hand\" picks one on the sheet; \"Rules\".",
    "twist_home": b"UP/DOWN pick a line, OK opens it: a pawn says its space and phase; "
                  b"\"Play hand\" asks a pawn on a Twist space first, then how the hand "
                  b"ended; \"Board\"; \"Score sheet\"; \"Undo last hand\" asks first; "
                  b"once over, \"Finish game\".",
    "hand": b"Who went out: UP/DOWN, OK. Cards left start at 10 cards of 1-9 (no phase). "
            b"UP one more 10-12, RIGHT one more Skip, DOWN one more Wild, each in place of a "
            b"1-9. LEFT one card fewer: 10, then what a completed phase leaves, down to 1. "
            b"Hold OK: undo. OK: next. Points start at 60: UP/DOWN 5, RIGHT/LEFT 25. Three "
            b"buttons: OK moves along the columns, UP/DOWN change one, OK on \"Wld\" or "
            b"hold OK: next player. Check page: OK saves. What the cards or points leave "
            b"open (Masters: the phase) shows the likelier answer; \"change\": UP/DOWN "
            b"pick the player, OK asks it. Hold OK: the step before.",
    "twist_hand": b"Who went out: UP/DOWN, OK. Then each player's cards left with "
                  b"UP/DOWN and OK. \"Save hand\" on the check page saves. Hold OK: the "
                  b"step before.",
    "twist_before": b"Nothing is picked at first: UP/DOWN pick the phase before, after, "
                    b"\"Draw a Twist card\" or \"Card drawn by hand\"; OK takes it. A card "
                    b"drawn here is shown only after OK: pass the device first.",
    "dice_order": b"OK rolls a die for each player; the highest starts, ties roll again. "
                  b"OK then starts the game. LEFT: back.",
    "sheet": b"UP/DOWN scroll the hands; RIGHT or OK: the other players (with 5 or 6). On "
             b"\"Correct which hand?\" UP/DOWN pick a hand and OK corrects it. LEFT: back.",
    "twist_sheet": b"UP/DOWN pick a hand: the move each pawn made, and the spaces now "
                   b"(\"sp\"). OK corrects the hand picked. LEFT: back.",
    "gameover": b"UP/DOWN pick, OK: \"Finish game\" keeps the game in History; \"Score "
                b"sheet\"; \"Undo last hand\" plays on. A tie-break asks \"Who went out "
                b"first?\"",
    "history": b"UP/DOWN pick a game, OK shows its players and totals. LEFT: back. "
               b"The newest 1000 games are kept; when the flash is full the oldest go "
               b"to make room, and a note says which.",
    "players": b"UP/DOWN pick a player, OK shows their games; OK there renames them. "
               b"\"+ New player\" types one.",
    "settings": b"UP/DOWN pick a line, OK changes it: UP/DOWN the value, OK keeps it, "
                b"LEFT or hold OK leaves it as it was.",
    "phones": b"A phone's camera on the code joins the Wi-Fi; RIGHT: the page's address "
              b"and its code, LEFT: back. OK closes. On a network set from the PC: its "
              b"address; if it cannot join, OK opens the device's own.",
    "rules": b"UP/DOWN or RIGHT/LEFT turn the pages: the phases, then the Twist cards. "
             b"OK closes.",
    "note": b"UP/DOWN scroll, OK closes.",
    "twist_board": b"UP/DOWN pick a pawn: its player and space are named below. OK "
                   b"closes.",
    "confirm": b"OK does it; LEFT or hold OK leaves everything as it was.",
    # the Dice screens: short pieces, each starting a line (a long text needs a long
    # free stretch of a heap in pieces, and Help over a Dice turn is where it is fullest)
    "dice_turn": (b"The arrows move the frame as the screen is laid out:",
                  b"LEFT/RIGHT along a row, UP/DOWN to the row above or below;",
                  b"DOWN from the dice goes to the first button.",
                  b"OK on a die holds it (drawn inverted) or lets it go;",
                  b"\"Roll\" rolls (three rolls); \"Stop\" saves the turn;",
                  b"\"Hint\" marks the dice to hold with ^ and gives the chance.",
                  b"Underlined: the dice the best score uses.",
                  b"Hold OK: leave the turn (asks first once rolled).",
                  b"Real dice: the die being set is inverted:",
                  b"UP/DOWN its number, LEFT/RIGHT its colour,",
                  b"OK takes it and the frame moves on by itself to the next die,",
                  b"which starts on the same number: enter them lowest first.",
                  b"Score checks them.",
                  b"3 buttons: UP/DOWN go through the dice and buttons in a line;",
                  b"on a real die UP/DOWN the number, OK, UP/DOWN the colour, OK."),
    "dice_roller": (b"The arrows move the frame as the screen is laid out:",
                    b"LEFT/RIGHT along a row, UP/DOWN to the row above or below;",
                    b"DOWN from the dice goes to Roll.",
                    b"OK on a die holds it (drawn inverted) or lets it go;",
                    b"\"Roll\" rolls, as often as you like;",
                    b"\"Phase\": the next phase to score; \"New\": start again;",
                    b"\"Hint\" marks the dice to hold with ^.",
                    b"Underlined: the dice the best score uses.",
                    b"3 buttons: UP/DOWN go through the dice and buttons in a line.",
                    b"Hold OK: back to the menu."),
    "dice_home": (b"UP/DOWN pick a line, OK opens it:",
                  b"\"Roll\": the player named takes their turn;",
                  b"\"Score sheet\"; \"Undo last turn\" asks first.",
                  b"> marks whose turn it is, * the leader.",
                  b"Game over: \"Finish game\" keeps it in History."),
    "dice_sheet": (b"UP/DOWN scroll the rows;",
                   b"RIGHT or OK the next players, LEFT the ones before (where there are "
                   b"more than three).",
                   b"LEFT: back."),
}
_ALL = (b"Everywhere: LEFT or hold OK goes back. Hold OK and press UP: this help. A key "
        b"that wakes a dimmed screen acts; one that lights a dark screen does nothing else. "
        b"Here: DOWN/UP a page, RIGHT the phases, OK closes.")
_COLOURS = (b"red", b"orange", b"blue", b"green")
_PATTERNS = (b"solid", b"hatched", b"dotted", b"striped")
_GLYPHS = ("colour_r", "colour_o", "colour_b", "colour_g")


_ROWS = const(7)     # lines under the title bar
# The lines the ten phases take (engine_mpy/phases.py PHASE_TEXT wrapped, each after its
# number; tests/test_sim_help.py holds it to them): Help counts its lines as it opens
# without loading the phases' texts, which come only for a page that shows them.
_PHASE_LINES = const(15)


def keys_text(under):
    """The keys of screen under (its module's name), in the words it shows (a text, or a
    tuple of its pieces, as bytes), or None."""
    return _KEYS.get(_SAME.get(under, under))


class Help(Screen):
    # Only the lines of the page shown are kept (made again when the page turns): Help
    # opens over any screen, the fullest included (a Dice turn, a hand half entered), on
    # the heap that screen leaves (App._help).
    def __init__(self, app, under):
        Screen.__init__(self, app)
        self.keys = keys_text(under)
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
        elif base == _RIGHT:
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
            from engine_mpy.modules import forget
            forget("engine_mpy.phases")


def make(app, arg):
    return Help(app, arg)
