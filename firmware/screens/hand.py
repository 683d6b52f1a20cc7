# The end of a hand (arg None) or the correction of hand arg (0-based, prefilled from its
# record), built for few presses: who went out; then per other player their cards left on
# one page, starting at a full hand of ten 1-9 cards (a player who did not complete holds
# ten), where each arrow changes one thing one way, stops at its end, and OK takes the
# player as shown:
#   UP    one more 10-12 card (in place of a 1-9; none left to replace: it stops)
#   DOWN  one more Wild        (the same)
#   RIGHT one more Skip        (the same; the game's deck has 4, Masters 2)
#   LEFT  one card fewer: 10, then what a player who completed keeps at most, down to 1
#         (a 1-9 goes first: the kinds typed stay)
#   hold OK takes back the last of those presses on the page; with none, the step before.
# Three buttons (no LEFT/RIGHT): a column cursor; UP/DOWN one more or fewer of its kind (on
# the 1-9 column the cards held, as LEFT both ways); OK the next column, on the last one
# the next player; hold OK the next player from any column (and from a points page), and
# on the check page back to who went out, everything typed kept (a step at a time would
# need a key that is not there: hold OK on a page goes forward).
# By points (setting "Hands by"): UP/DOWN 5 more or fewer (faster when held), RIGHT/LEFT
# 25 (five buttons); points no hand can have (0: only who went out holds no card) are
# refused on the page. Masters: the phase of who went out is asked after them. Then the check page, with
# the engine's points and ticks, opening on "OK: save": what the entries leave open is
# filled in there with the likelier answer, so most hands take no question (Masters: the
# phase each other player completed, none where ten cards allow it, else the lowest left
# that fits; by points: "not completed" where the points allow both, as ten cards seldom
# score under 50 and a completed hand seldom over). UP/DOWN pick a player whose answer is
# open and OK opens their question (the phases that fit, or Yes/No); OK there takes it,
# back to the check page. Lists stop at their ends. A refused entry shows the engine's
# message and goes to the player it is about, keeping everything typed. Long OK: the step
# before (on the first step: leave, nothing saved).
# The entry's data and rules are firmware/game/hand_entry.py (HandEntry); this screen holds
# one, asks for it a page at a time (a stage: one key method and one draw method each) and
# draws it.
from firmware.screens.base import Screen, title_bar, wrap, LINE_H, W
from firmware.game.hand_entry import HandEntry
from engine_mpy.game import RuleError

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
_BACK = const(6)
_REPEAT = const(0x80)
_KEY_MASK = const(0x7F)

# The stages (Hand.stage), each a page: their order is that of Hand._KEY and Hand._DRAW
_OUT = const(0)          # who went out
_PHASE = const(1)        # Masters: the phase a player made
_CARDS = const(2)        # a player's cards (or points) left
_ASK = const(3)          # by points: did a player complete their phase?
_CHECK = const(4)        # the check page: the engine's points and ticks, then save

_FULL = const(10)        # the hand a player who did not complete holds
_SAVE = const(-1)        # the check page's cursor on its save line
# The keys' kinds on the cards page (HandEntry.press): UP 10-12 (1), DOWN Wild (3), RIGHT
# Skip (2), LEFT one card fewer (0)
_KIND_OF = b"\x00\x01\x03\x00\x02"


class Hand(Screen):
    def __init__(self, app, index):
        Screen.__init__(self, app)
        e = self.entry = HandEntry(app.session.game, index, app.settings["entry"] == "points")
        # three-button mode (no LEFT/RIGHT): a column cursor, UP/DOWN change its count
        self.three = app.settings["three_button"]
        self.col = 0
        self.seq = bytearray()     # the steps after "who went out": stage << 3 | player
        self.pos = -1
        self.p = 0                 # the player the page is about
        self.row = _SAVE           # the check page's cursor: a player, or the save line
        self.stage = _OUT
        self.choice = e.out if e.out > 0 else 0    # (a saved hand: who went out in it)
        self.opts = None           # Masters: the phases the current player may name
        self.points = self.completed = None        # the check page's: the engine's verdict

    # --- the steps ---------------------------------------------------------------------
    def start_steps(self):
        e = self.entry
        e.out = self.choice
        seq = self.seq = bytearray()
        if e.masters:
            seq.append(_PHASE << 3 | e.out)
        for p in range(e.n):
            if p != e.out:
                seq.append(_CARDS << 3 | p)
        self.pos = -1
        self.go(1)

    def go(self, d):
        self.enter(self.pos + d)

    def enter(self, pos):
        seq = self.seq
        self.pos = pos
        self.dirty = True
        if pos < 0:
            self.stage = _OUT
            self.choice = self.entry.out
            return
        if pos >= len(seq):
            self.check_page()
            return
        self.stage = seq[pos] >> 3
        self.col = 0
        p = self.p = seq[pos] & 7
        if self.stage == _CARDS:
            self.entry.new_page(p)
            return
        # who went out: any phase they have left, from the lowest
        opts = self.opts = self.entry.remaining(p)
        v = self.entry.phase[p]
        self.choice = opts.index(v) if v in opts else 0

    def ask(self, p):
        """From the check page: player p's open answer on its own page."""
        e = self.entry
        self.p = p
        self.dirty = True
        if e.masters:
            self.stage = _PHASE
            self.opts = e.fitting(p)
            v = e.phase[p]
            self.choice = self.opts.index(v) if v in self.opts else 0
        else:
            self.stage = _ASK
            self.choice = 0 if e.made[p] else 1

    def check_page(self):
        """The check page, what the entries leave open filled in; refused: the engine's
        message, and the player it is about."""
        self.row = _SAVE
        try:
            self.points, self.completed = self.entry.judge()
        except RuleError as e:
            # Refused: say why and go to the player it is about (else the last step),
            # everything typed kept.
            at = len(self.seq) - 1
            for i in range(len(self.seq)):
                if self.seq[i] & 7 == e.player:
                    at = i          # the first page of the player the rule is about
                    break
            self.enter(at)
            self.app.push("note", e.args[0])
            return
        self.pos = len(self.seq)
        self.stage = _CHECK

    def save(self):
        app = self.app
        idx = self.entry.index
        if idx is None:
            msg = app.session.apply("add", self.entry.record())
        else:
            msg = app.session.apply("replace", idx, self.entry.record())
        if msg:
            app.push("note", msg)
            return
        app.pop()
        if idx is not None:
            app.pop()   # the sheet the hand was picked from: back to the standings
        st = app.session.game.state
        if st.over or st.tiebreak:
            # once this key is done, when this screen's code has left RAM (Screens.after)
            app.screens.after = "gameover"

    # --- keys: one method a stage (_KEY) -----------------------------------------------
    def ahead(self):
        # the hand that ends the game opens the game-over screen
        return ("gameover",)

    def key(self, k):
        return self._KEY[self.stage](self, k)

    def back(self):
        # a question from the check page: back to it, unchanged; else the step before
        if self.pos >= len(self.seq):
            self.check_page()
        else:
            self.go(-1)
        return True

    def move(self, d, m):
        # a list's cursor (DOWN goes down) or the phase shown (UP goes up), m choices:
        # each stops at its ends
        c = self.choice + d
        if 0 <= c < m:
            self.choice = c

    def _key_out(self, k):
        b = k & _KEY_MASK
        if b == _BACK or b == _LEFT:
            return False    # leave: nothing was saved
        self.dirty = True
        if b == _UP or b == _DOWN:
            self.move(1 if b == _DOWN else -1, self.entry.n)
        elif b == _OK or b == _RIGHT:
            self.start_steps()
        return True

    def _key_phase(self, k):
        b = k & _KEY_MASK
        if b == _BACK or b == _LEFT:
            return self.back()
        self.dirty = True
        if b == _UP or b == _DOWN:
            self.move(1 if b == _UP else -1, len(self.opts))
        elif b == _OK or b == _RIGHT:
            asked = self.pos >= len(self.seq)
            self.entry.name_phase(self.p, self.opts[self.choice], asked)
            if asked:
                self.check_page()
            else:
                self.go(1)
        return True

    def _key_cards(self, k):
        b = k & _KEY_MASK
        if b == _BACK:
            return self.cards_back() or self.back()
        self.dirty = True
        p = self.p
        counts = isinstance(self.entry.left[p], list)
        if b == _OK:
            if self.entry.by_points and self.refused(p):
                return True
            if self.three and counts and self.col < 3:
                self.col += 1
            else:
                self.go(1)
        elif self.three and counts:
            if b == _UP or b == _DOWN:
                self.change3(p, b == _UP)
        else:
            self.change(p, b, k & _REPEAT)
        return True

    def _key_ask(self, k):
        b = k & _KEY_MASK
        if b == _BACK or b == _LEFT:
            return self.back()
        self.dirty = True
        if b == _UP or b == _DOWN:
            self.move(1 if b == _DOWN else -1, 2)
        elif b == _OK or b == _RIGHT:
            self.entry.answer(self.p, self.choice == 0)
            self.check_page()
        return True

    def _key_check(self, k):
        b = k & _KEY_MASK
        if b == _BACK or b == _LEFT:
            # three buttons: to who went out (their pages go forward on hold OK)
            self.pos = 0 if self.three else len(self.seq)
            self.go(-1)
            return True
        self.dirty = True
        if b == _UP or b == _DOWN:
            self.move_row(b == _DOWN)
        elif b == _OK or b == _RIGHT:
            if self.row == _SAVE:
                self.save()
            else:
                self.ask(self.row)
        return True

    _KEY = (_key_out, _key_phase, _key_cards, _key_ask, _key_check)

    def move_row(self, down):
        """The check page's cursor: the players whose answer is open, top to bottom, then
        the save line; it stops at both ends."""
        r = self.row
        e = self.entry
        if down:
            if r == _SAVE:
                return
            for p in range(r + 1, e.n):
                if e.open[p]:
                    self.row = p
                    return
            self.row = _SAVE
            return
        for p in range((e.n if r == _SAVE else r) - 1, -1, -1):
            if e.open[p]:
                self.row = p
                return

    def cards_back(self):
        """Hold OK on a cards or points page: three buttons go on to the next player (as
        README and Help say), five buttons take back the cards page's last press. False:
        neither (the step before)."""
        if self.three:
            self.dirty = True
            if not (self.entry.by_points and self.refused(self.p)):
                self.go(1)
            return True
        if self.entry.take_back(self.p):
            self.dirty = True
            return True
        return False

    def refused(self, p):
        """By points: points no player who did not go out can hold are refused here, with
        the engine's reason, before the next page."""
        try:
            self.entry.check_points(p)
        except RuleError as e:
            self.app.push("note", e.args[0])
            return True
        return False

    def change(self, p, b, repeat):
        # five buttons: points UP/DOWN 5 (10 held), RIGHT/LEFT 25; cards a press of a kind
        e = self.entry
        if not isinstance(e.left[p], list):
            step = 25 if b == _RIGHT or b == _LEFT else (10 if repeat else 5)
            e.add_points(p, step if b == _UP or b == _RIGHT else -step)
        elif b == _LEFT or b == _RIGHT or b == _UP or b == _DOWN:
            e.press(p, _KIND_OF[b])

    def change3(self, p, up):
        # three buttons: UP/DOWN one more or fewer of the column's kind; on the 1-9
        # column the cards held (as LEFT, both ways)
        e = self.entry
        f = self.col
        if not f:
            e.step_cards(p, 1 if up else -1)
        elif up:
            e.more(p, f)
        else:
            e.fewer(p, f)

    # --- drawing: one method a stage (_DRAW) -------------------------------------------
    def draw(self, c):
        self._DRAW[self.stage](self, c)

    def _draw_out(self, c):
        e = self.entry
        names = e.game.settings["players"]
        title_bar(c, "Who went out?" if e.index is None else "Hand %d: who out?" % (e.index + 1))
        for p in range(e.n):
            y = LINE_H + p * LINE_H
            c.text(names[p], 10, y)
            if p == self.choice:
                c.glyph("right", 1, y)
                c.invert_rect(0, y, W, LINE_H)

    def _draw_phase(self, c):
        from engine_mpy.phases import phase_text
        title_bar(c, "%s made phase" % self.entry.game.settings["players"][self.p])
        v = self.opts[self.choice]
        s = str(v) if v else "-"
        c.big(s, (W - c.big_width(s)) // 2, 12)
        y = 32
        for line in wrap(phase_text(v) if v else "no phase this hand")[:2]:
            c.text(line, 2, y)
            y += LINE_H
        c.glyph("up", 2, 12)
        c.glyph("down", W - 10, 12)

    def _draw_ask(self, c):
        name = self.entry.game.settings["players"][self.p]
        ph = self.entry.attempted(self.p)
        title_bar(c, "%s: phase %d" % (name, ph))
        y = LINE_H + 2
        for line in wrap("Did %s complete phase %d?" % (name, ph))[:3]:
            c.text(line, 2, y)
            y += LINE_H
        for i in range(2):
            y = 40 + i * LINE_H
            c.text("Yes" if i == 0 else "No", 10, y)
            if i == self.choice:
                c.invert_rect(0, y, W, LINE_H)

    def _draw_cards(self, c):
        en = self.entry
        p = self.p
        e = en.left[p]
        counts = isinstance(e, list)
        name = en.game.settings["players"][p]
        # Masters names the phase on the check page: this page asks only the cards
        if en.masters:
            title_bar(c, "%s: %s left" % (name, "cards" if counts else "points"))
        else:
            ph = en.attempted(p)
            title_bar(c, "%s: %s" % (name, ("phase %d" % ph) if ph else "no phase"))
        if counts:
            self.draw_counts(c, e)
        else:
            self.draw_points(c, e)
        if self.three and counts:
            c.text("OK: next column" if self.col < 3 else "OK: next player", 2, 56)
        elif counts and en.nundo:
            c.text("OK: next  hold: " + ("start over" if en.starts_over() else "undo"), 2, 56)
        else:
            c.text("OK: next", 2, 56)

    def draw_counts(self, c, e):
        t = e[0] + e[1] + e[2] + e[3]
        # four columns: the count of each kind, the key that adds one above it
        for f in range(4):
            x = f * 32
            c.text(("1-9", "10+", "Skp", "Wld")[f], x + 12, 10)
            if f and not self.three:
                c.glyph(("up", "right", "down")[f - 1], x + 2, 10)
            s = str(e[f])
            c.big(s, x + (32 - c.big_width(s)) // 2, 20)
        if self.three:
            c.invert_rect(self.col * 32, 10, 32, LINE_H)
        if not self.three:
            c.glyph("left", 2, 40)
        c.text("%d card%s: %s" % (t, "" if t == 1 else "s", "no phase" if t >= _FULL else "phase made"), 12, 40)

    def draw_points(self, c, e):
        s = str(e)
        c.big(s, (W - c.big_width(s)) // 2, 14)
        c.text("points left", 32, 32)
        c.glyph("up", 2, 42)
        c.glyph("down", 10, 42)
        c.text("5", 20, 42)
        if not self.three:
            c.glyph("left", 64, 42)
            c.glyph("right", 72, 42)
            c.text("25", 82, 42)

    def _draw_check(self, c):
        e = self.entry
        g = e.game
        names = g.settings["players"]
        title_bar(c, "Hand %d: check" % ((e.index if e.index is not None else g.state.hands) + 1))
        for p in range(e.n):
            y = LINE_H + p * LINE_H
            c.text(names[p][:9], 2, y)
            if e.masters and e.phase[p]:
                c.text("P%d" % e.phase[p], 64, y)
            if p == e.out:
                c.text("out", 84, y)
            else:
                c.glyph("check" if self.completed[p] else "cross", 90, y)
            s = str(self.points[p])
            c.text(s, W - 2 - c.text_width(s), y)
            if p == self.row:
                c.invert_rect(0, y, W, LINE_H)
        if self.row != _SAVE:
            c.text("OK: which phase?" if e.masters else "OK: completed?", 2, 56)
            return
        c.text("OK: save", 2, 56)
        for p in range(e.n):
            if e.open[p]:
                # an answer filled in that the table may change: UP reaches it
                c.glyph("up", 76, 56)
                c.text("change", 86, 56)
                break
        c.invert_rect(0, 56, W, LINE_H)

    _DRAW = (_draw_out, _draw_phase, _draw_cards, _draw_ask, _draw_check)


def make(app, arg):
    return Hand(app, arg)
