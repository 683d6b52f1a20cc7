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
from firmware.screens.base import Screen, title_bar, wrap, LINE_H, W
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

_OUT = const(0)
_PHASE = const(1)
_CARDS = const(2)
_ASK = const(3)
_REVIEW = const(4)

_FULL = const(10)        # the hand a player who did not complete holds
# Where the points stepper starts: ten cards score 50 at least and about 80 on average, a
# completed hand about 20; from 60 the hands of the deck (docs/performance.md, the presses
# per player) take the fewest presses with RIGHT/LEFT 25 and UP/DOWN 5.
_START_POINTS = const(60)
_SAVE = const(-1)        # the check page's cursor on its save line
_UNDO = const(24)        # presses a cards page can take back (4 counts each)
# The keys' kinds on the cards page: UP 10-12 (1), DOWN Wild (3), RIGHT Skip (2)
_KIND_OF = b"\x00\x01\x03\x00\x02"


class Hand(Screen):
    def __init__(self, app, index):
        Screen.__init__(self, app)
        g = app.session.game
        self.idx = index
        self.st = g.before(index)
        n = self.n = len(g.settings["players"])
        self.masters = g.KIND == "masters"
        self.deck = g.DECK
        self.pts = app.settings["entry"] == "points"
        # three-button mode (no LEFT/RIGHT): a column cursor, UP/DOWN change its count
        self.three = app.settings["three_button"]
        self.col = 0
        # the cards page's counts before each of its presses, to take them back (hold OK)
        self.undo = bytearray(4 * _UNDO)
        self.nundo = 0
        self.left = [_START_POINTS if self.pts else [_FULL, 0, 0, 0] for _ in range(n)]
        self.said = [None] * n
        self.phase = [0] * n
        # per player: 1 when the table gave the answer (kept while it fits), else the
        # check page fills in the likelier one; open: more than one answer fits
        self.typed = bytearray(n)
        self.open = bytearray(n)
        self.out = -1
        self.seq = bytearray()     # the steps after "who went out": kind << 3 | player
        self.pos = -1
        self.p = 0                 # the player the page is about
        self.named = 0             # (unnamed(): the phase set aside)
        self.row = _SAVE           # the check page's cursor: a player, or the save line
        self.stage = _OUT
        self.choice = 0
        self.opts = None           # Masters: the phases the current player may name
        self.points = self.done = None
        if index is not None:
            rec = g.records[index]
            self.choice = rec["out"]
            for p in range(n):
                e = rec["left"][p]
                if e is not None:
                    self.left[p] = e[:] if isinstance(e, list) else e
            if "done" in rec:
                self.said = rec["done"][:]
            if "phase" in rec:
                self.phase = rec["phase"][:]
            for p in range(n):
                self.typed[p] = 1     # the saved answers stand while they fit

    def game(self):
        return self.app.session.game

    # --- the steps ---------------------------------------------------------------------
    def start_steps(self):
        self.out = self.choice
        seq = self.seq = bytearray()
        if self.masters:
            seq.append(_PHASE << 3 | self.out)
        for p in range(self.n):
            if p != self.out:
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
            self.choice = self.out
            return
        if pos >= len(seq):
            self.review()
            return
        self.stage = seq[pos] >> 3
        self.col = 0
        self.nundo = 0
        p = self.p = seq[pos] & 7
        e = self.left[p]
        if self.stage == _CARDS and self.idx is not None and not self.three and \
                isinstance(e, list) and e[0] != _FULL:
            # Correcting a saved hand: the arrows only add (UP, DOWN, RIGHT) or take away
            # (LEFT), so the first press to take back is the page as a fresh one, ten 1-9
            # cards (hold OK: start over), to enter the player again.
            u = self.undo
            u[0] = _FULL
            u[1] = u[2] = u[3] = 0
            self.nundo = 1
        if self.stage == _PHASE:
            # who went out: any phase they have left, from the lowest
            opts = self.opts = self.game().remaining(p, self.st)
            v = self.phase[p]
            self.choice = opts.index(v) if v in opts else 0

    def fitting(self, p):
        """Masters: the answers player p's cards allow, none (0) first where it fits,
        then the phases left from the lowest."""
        g = self.game()
        e = self.left[p]
        ph = self.phase
        was = ph[p]
        opts = []
        for v in [0] + g.remaining(p, self.st):
            ph[p] = v
            if g.fits(self.st, p, e, ph):
                opts.append(v)
        ph[p] = was
        return opts

    def settle(self):
        """Before the check page: each answer the table did not give there (or that no
        longer fits), the likelier one the entries allow, and which players' answers
        stay open."""
        g = self.game()
        for p in range(self.n):
            self.open[p] = 0
            if p == self.out:
                continue
            e = self.left[p]
            if self.masters:
                opts = self.fitting(p)
                self.open[p] = len(opts) > 1
                if not (self.typed[p] and self.phase[p] in opts):
                    self.typed[p] = 0
                    self.phase[p] = opts[0] if opts else 0
            elif not isinstance(e, list) and g.points_open(self.st, p, e, None):
                # open only at 50 points or more (ten cards score at least 50), where
                # not completing is the likelier answer
                self.open[p] = 1
                if not self.typed[p] or self.said[p] is None:
                    self.said[p] = False
            else:
                self.said[p] = None

    def ask(self, p):
        """From the check page: player p's open answer on its own page."""
        self.p = p
        self.dirty = True
        if self.masters:
            self.stage = _PHASE
            self.opts = self.fitting(p)
            v = self.phase[p]
            self.choice = self.opts.index(v) if v in self.opts else 0
        else:
            self.stage = _ASK
            self.choice = 0 if self.said[p] else 1

    def record(self):
        n = self.n
        left = [None] * n
        said = [None] * n
        asked = False
        for p in range(n):
            if p != self.out:
                e = self.left[p]
                left[p] = e[:] if isinstance(e, list) else e
                said[p] = self.said[p]
                asked = asked or said[p] is not None
        rec = {"out": self.out, "left": left}
        if asked:
            rec["done"] = said
        if self.masters:
            rec["phase"] = self.phase[:]
        return rec

    def review(self):
        self.settle()
        self.row = _SAVE
        try:
            self.points, self.done = self.game().preview(self.record(), self.st)
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
        self.stage = _REVIEW

    def save(self):
        app = self.app
        if self.idx is None:
            msg = app.session.apply("add", self.record())
        else:
            msg = app.session.apply("replace", self.idx, self.record())
        if msg:
            app.push("note", msg)
            return
        app.pop()
        if self.idx is not None:
            app.pop()   # the sheet the hand was picked from: back to the standings
        st = app.session.game.state
        if st.over or st.tiebreak:
            app.push("gameover")

    # --- keys --------------------------------------------------------------------------
    def ahead(self):
        # the hand that ends the game opens the game-over screen
        return ("gameover",)

    def key(self, k):
        base = k & _KEY_MASK
        stage = self.stage
        if stage == _CARDS and base == _BACK and self.cards_back():
            return True
        asked = self.pos >= len(self.seq) and (stage == _PHASE or stage == _ASK)
        if base == _BACK or (base == _LEFT and stage != _CARDS):
            if stage == _OUT:
                return False    # leave: nothing was saved
            if asked:
                self.review()   # a question from the check page: back to it, unchanged
                return True
            if stage == _REVIEW:
                # three buttons: to who went out (their pages go forward on hold OK)
                self.pos = 0 if self.three else len(self.seq)
            self.go(-1)
            return True
        self.dirty = True
        if stage == _CARDS:
            p = self.p
            if base == _OK:
                if self.pts and self.refused(p):
                    return True
                if self.three and isinstance(self.left[p], list) and self.col < 3:
                    self.col += 1
                else:
                    self.go(1)
            elif self.three and isinstance(self.left[p], list):
                if base == _UP or base == _DOWN:
                    self.change3(p, base == _UP)
            else:
                self.change(p, base, k & _REPEAT)
            return True
        if stage == _REVIEW:
            if base == _UP or base == _DOWN:
                self.move_row(base == _DOWN)
            elif base == _OK or base == _RIGHT:
                if self.row == _SAVE:
                    self.save()
                else:
                    self.ask(self.row)
            return True
        if base == _UP or base == _DOWN:
            m = self.n if stage == _OUT else (len(self.opts) if stage == _PHASE else 2)
            # a list goes down with DOWN; the phase, a number shown alone, goes up with UP;
            # each stops at its ends
            d = 1 if (base == _UP) == (stage == _PHASE) else -1
            c = self.choice + d
            if 0 <= c < m:
                self.choice = c
            return True
        if base == _OK or base == _RIGHT:
            if stage == _OUT:
                self.start_steps()
            elif stage == _PHASE:
                self.phase[self.p] = self.opts[self.choice]
                if asked:
                    self.typed[self.p] = 1
                    self.review()
                else:
                    self.go(1)
            elif stage == _ASK:
                self.said[self.p] = self.choice == 0
                self.typed[self.p] = 1
                self.review()
        return True

    def move_row(self, down):
        """The check page's cursor: the players whose answer is open, top to bottom, then
        the save line; it stops at both ends."""
        r = self.row
        if down:
            if r == _SAVE:
                return
            for p in range(r + 1, self.n):
                if self.open[p]:
                    self.row = p
                    return
            self.row = _SAVE
            return
        for p in range((self.n if r == _SAVE else r) - 1, -1, -1):
            if self.open[p]:
                self.row = p
                return

    def cards_back(self):
        """Hold OK on a cards or points page: three buttons go on to the next player (as
        README and Help say), five buttons take back the cards page's last press. False:
        neither (the step before)."""
        e = self.left[self.p]
        if self.three:
            self.dirty = True
            if not (self.pts and self.refused(self.p)):
                self.go(1)
            return True
        if not isinstance(e, list):
            return False
        n = self.nundo
        if not n:
            return False
        n -= 1
        u = self.undo
        for f in range(4):
            e[f] = u[4 * n + f]
        self.nundo = n
        self.dirty = True
        return True

    def refused(self, p):
        """By points: points no player who did not go out can hold are refused here, with
        the engine's reason, before the next page."""
        ph = self.unnamed(p)
        try:
            self.game().check_points(self.st, p, self.left[p], ph)
        except RuleError as e:
            self.app.push("note", e.args[0])
            return True
        finally:
            if ph is not None:
                ph[p] = self.named
        return False

    def unnamed(self, p):
        """Masters: the phases with player p's set to none until put back from .named, so
        their cards or points are bounded by every phase they have left (the check page
        names theirs after, from what fits); Phase 10: None."""
        if not self.masters:
            return None
        ph = self.phase
        self.named = ph[p]
        ph[p] = 0
        return ph

    def change(self, p, base, repeat):
        e = self.left[p]
        if not isinstance(e, list):
            step = 25 if base == _RIGHT or base == _LEFT else (10 if repeat else 5)
            v = e + (step if base == _UP or base == _RIGHT else -step)
            self.left[p] = 0 if v < 0 else (250 if v > 250 else v)
            return
        if base != _LEFT and base != _RIGHT and base != _UP and base != _DOWN:
            return
        # kept to be taken back, then changed (a press that changes nothing keeps nothing)
        u = self.undo
        n = self.nundo
        if n == _UNDO:
            u[:-4] = u[4:]   # full (rare): the oldest press can no longer be taken back
            n -= 1
        for f in range(4):
            u[4 * n + f] = e[f]
        t = e[0] + e[1] + e[2] + e[3]
        if base == _LEFT:
            self.set_total(e, self.step_total(p, t, -1))
        else:
            self.more(e, _KIND_OF[base])
        for f in range(4):
            if u[4 * n + f] != e[f]:
                self.nundo = n + 1
                return

    def more(self, e, kind):
        """One more card of kind in place of a 1-9: none left to replace, or the deck has
        no more of that kind, and it stops."""
        top = self.deck[kind]
        if e[0] and e[kind] < (top if top < _FULL else _FULL):
            e[0] -= 1
            e[kind] += 1

    def step_total(self, p, t, d):
        """The cards held after t, one fewer (d = -1) or one more (d = 1), over what a hand
        can hold: one who completed their phase keeps 1 up to some (most), one who did not
        ten. Stops at 1 and at ten."""
        ph = self.unnamed(p)
        most = _FULL - self.game().phase_cards(self.st, p, ph)
        if ph is not None:
            ph[p] = self.named
        if d < 0:
            return most if t >= _FULL else (t - 1 if t > 1 else 1)
        return _FULL if t >= most else t + 1

    def set_total(self, e, t):
        # the 1-9s make up the difference; fewer than the other kinds: those go too, the
        # 10-12s first (what was typed last, the Wilds, stays longest)
        rest = e[1] + e[2] + e[3]
        if t >= rest:
            e[0] = t - rest
            return
        e[0] = 0
        for f in (1, 2, 3):
            cut = rest - t if rest - t < e[f] else e[f]
            e[f] -= cut
            rest -= cut

    def change3(self, p, up):
        # three buttons: UP/DOWN one more or fewer of the column's kind; on the 1-9
        # column the cards held (as LEFT, both ways)
        e = self.left[p]
        f = self.col
        if f:
            if up:
                self.more(e, f)
            elif e[f]:
                e[f] -= 1
                e[0] += 1
            return
        self.set_total(e, self.step_total(p, e[0] + e[1] + e[2] + e[3], 1 if up else -1))

    # --- drawing -----------------------------------------------------------------------
    def draw(self, c):
        g = self.game()
        names = g.settings["players"]
        stage = self.stage
        if stage == _OUT:
            title_bar(c, "Who went out?" if self.idx is None else "Hand %d: who out?" % (self.idx + 1))
            for p in range(self.n):
                y = LINE_H + p * LINE_H
                c.text(names[p], 10, y)
                if p == self.choice:
                    c.glyph("right", 1, y)
                    c.invert_rect(0, y, W, LINE_H)
            return
        if stage == _REVIEW:
            self.draw_review(c, g, names)
            return
        p = self.p
        if stage == _PHASE:
            from engine_mpy.phases import phase_text
            title_bar(c, "%s made phase" % names[p])
            v = self.opts[self.choice]
            s = str(v) if v else "-"
            c.big(s, (W - c.big_width(s)) // 2, 12)
            y = 32
            for line in wrap(phase_text(v) if v else "no phase this hand")[:2]:
                c.text(line, 2, y)
                y += LINE_H
            c.glyph("up", 2, 12)
            c.glyph("down", W - 10, 12)
            return
        ph = self.phase[p] if self.masters else g.attempted(self.st, p, None)
        e = self.left[p]
        if stage == _ASK:
            title_bar(c, "%s: phase %d" % (names[p], ph))
            y = LINE_H + 2
            for line in wrap("Did %s complete phase %d?" % (names[p], ph))[:3]:
                c.text(line, 2, y)
                y += LINE_H
            for i in range(2):
                y = 40 + i * LINE_H
                c.text("Yes" if i == 0 else "No", 10, y)
                if i == self.choice:
                    c.invert_rect(0, y, W, LINE_H)
            return
        # Masters names the phase on the check page: this page asks only the cards
        title_bar(c, "%s: %s" % (names[p], ("%s left" % ("cards" if isinstance(e, list) else "points"))
                                  if self.masters else (("phase %d" % ph) if ph else "no phase")))
        if isinstance(e, list):
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
        else:
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
        if self.three and isinstance(e, list):
            c.text("OK: next column" if self.col < 3 else "OK: next player", 2, 56)
        elif isinstance(e, list) and self.nundo:
            c.text("OK: next  hold: " + ("start over" if self.nundo == 1 and self.undo[0] == _FULL
                                         and self.idx is not None else "undo"), 2, 56)
        else:
            c.text("OK: next", 2, 56)

    def draw_review(self, c, g, names):
        title_bar(c, "Hand %d: check" % ((self.idx if self.idx is not None else g.state.hands) + 1))
        for p in range(self.n):
            y = LINE_H + p * LINE_H
            c.text(names[p][:9], 2, y)
            if self.masters and self.phase[p]:
                c.text("P%d" % self.phase[p], 64, y)
            if p == self.out:
                c.text("out", 84, y)
            else:
                c.glyph("check" if self.done[p] else "cross", 90, y)
            s = str(self.points[p])
            c.text(s, W - 2 - c.text_width(s), y)
            if p == self.row:
                c.invert_rect(0, y, W, LINE_H)
        if self.row != _SAVE:
            c.text("OK: which phase?" if self.masters else "OK: completed?", 2, 56)
            return
        c.text("OK: save", 2, 56)
        for p in range(self.n):
            if self.open[p]:
                # an answer filled in that the table may change: UP reaches it
                c.glyph("up", 76, 56)
                c.text("change", 86, 56)
                break
        c.invert_rect(0, 56, W, LINE_H)


def make(app, arg):
    return Hand(app, arg)
