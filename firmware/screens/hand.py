# The end of a hand (arg None) or the correction of hand arg (0-based, prefilled from its
# record), built for few presses: who went out; then per other player their cards left on
# one page, starting at a full hand of ten 1-9 cards (a player who did not complete holds
# ten), where each arrow changes one thing and OK takes the player as shown:
#   UP    one more 10-12 card (in place of a 1-9; past the last, back to none)
#   DOWN  one more Wild        (the same)
#   RIGHT one more Skip        (the same; the game's deck has 4, Masters 2)
#   LEFT  fewer cards: 10, then what a player who completed keeps (1, 2 ... at most)
# By points (setting "Hands by"): UP/DOWN 5 more or fewer (faster when held), RIGHT/LEFT
# 25. Masters: the phase a player completed, asked only when their cards say they did (and
# first for the player who went out). "Did they complete it?" only when the engine says the
# points leave it open. Then a review with the engine's points and ticks; OK saves. A
# refused entry shows the engine's message and goes to the player it is about, keeping
# everything typed. Long OK: the step before (on the first step: leave, nothing saved).
from firmware.screens.base import Screen, title_bar, wrap, LINE_H, W
from engine_mpy.game import RuleError

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/keys.py has them all; tests/test_keys_inlined.py checks these)
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
_START_POINTS = const(50)
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
        self.left = [_START_POINTS if self.pts else [_FULL, 0, 0, 0] for _ in range(n)]
        self.said = [None] * n
        self.phase = [0] * n
        self.out = -1
        self.seq = bytearray()     # the steps after "who went out": kind << 3 | player
        self.pos = -1
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
                if self.masters:
                    seq.append(_PHASE << 3 | p)
                seq.append(_ASK << 3 | p)
        self.pos = -1
        self.go(1)

    def skip(self, kind, p):
        """Whether step kind for player p asks nothing this time."""
        e = self.left[p]
        if kind == _PHASE:
            # Masters: a player holding ten cards completed nothing
            if p != self.out and isinstance(e, list) and e[0] + e[1] + e[2] + e[3] == _FULL:
                self.phase[p] = 0
                return True
            return False
        if kind == _ASK:
            if isinstance(e, list) or not self.game().points_open(
                    self.st, p, e, self.phase if self.masters else None):
                self.said[p] = None
                return True
        return False

    def go(self, d):
        seq = self.seq
        pos = self.pos + d
        while 0 <= pos < len(seq) and self.skip(seq[pos] >> 3, seq[pos] & 7):
            pos += d
        self.enter(pos)

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
        p = seq[pos] & 7
        if self.stage == _PHASE:
            opts = self.game().remaining(p, self.st)
            if p != self.out:
                opts.insert(0, 0)
            self.opts = opts
            v = self.phase[p]
            if not v and p != self.out and len(opts) > 1 and (
                    not self.pts or self.left[p] < _START_POINTS):
                # their cards say they completed one (by points: under what ten cards
                # score, so likely): the lowest left first
                v = opts[1]
            self.choice = opts.index(v) if v in opts else 0
        elif self.stage == _ASK:
            # asked, the points fit ten cards: not completing is the likelier answer
            # (one who completed seldom keeps 50 points), so No is offered first
            said = self.said[p]
            e = self.left[p]
            self.choice = 0 if said else (1 if said is False or (
                not isinstance(e, list) and e >= _START_POINTS) else 0)

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
        try:
            self.points, self.done = self.game().preview(self.record(), self.st)
        except RuleError as e:
            # Refused: say why and go to the player it is about (else the last step),
            # everything typed kept.
            at = -1
            for i in range(len(self.seq)):
                if self.seq[i] >> 3 != _ASK:
                    at = i          # the last page that takes an entry, unless it is
                    if self.seq[i] & 7 == e.player:
                        break       # the first page of the player the rule is about
            self.enter(at)
            self.app.push("note", e.args[0])
            return
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
    def key(self, k):
        base = k & _KEY_MASK
        stage = self.stage
        if base == _BACK or (base == _LEFT and stage != _CARDS):
            if stage == _OUT:
                return False    # leave: nothing was saved
            if stage == _REVIEW:
                self.pos = len(self.seq)
            self.go(-1)
            return True
        self.dirty = True
        if stage == _CARDS:
            p = self.seq[self.pos] & 7
            if self.three and isinstance(self.left[p], list):
                if base == _OK:
                    self.col += 1
                    if self.col > 3:
                        self.col = 0
                        self.go(1)
                elif base == _UP or base == _DOWN:
                    self.change3(p, base == _UP)
            elif base == _OK:
                self.go(1)
            else:
                self.change(p, base, k & _REPEAT)
            return True
        if base == _UP or base == _DOWN:
            m = self.n if stage == _OUT else (len(self.opts) if stage == _PHASE else 2)
            # a list goes down with DOWN; the phase, a number shown alone, goes up with UP
            d = 1 if (base == _UP) == (stage == _PHASE) else -1
            if stage != _REVIEW:
                self.choice = (self.choice + d) % m
            return True
        if base == _OK or base == _RIGHT:
            if stage == _OUT:
                self.start_steps()
            elif stage == _PHASE:
                self.phase[self.seq[self.pos] & 7] = self.opts[self.choice]
                self.go(1)
            elif stage == _ASK:
                self.said[self.seq[self.pos] & 7] = self.choice == 0
                self.go(1)
            else:
                self.save()
        return True

    def change(self, p, base, repeat):
        e = self.left[p]
        if not isinstance(e, list):
            step = 25 if base == _RIGHT or base == _LEFT else (10 if repeat else 5)
            v = e + (step if base == _UP or base == _RIGHT else -step)
            self.left[p] = 0 if v < 0 else (250 if v > 250 else v)
            return
        if base == _LEFT:
            # fewer cards: the next total, the other kinds back to none
            e[0] = self.step_total(p, e[0] + e[1] + e[2] + e[3], 1)
            e[1] = e[2] = e[3] = 0
            return
        kind = _KIND_OF[base]
        top = self.deck[kind]
        if e[0] and e[kind] < (top if top < _FULL else _FULL):
            e[0] -= 1
            e[kind] += 1
        else:                 # past the last: back to none of that kind
            e[0] += e[kind]
            e[kind] = 0

    def step_total(self, p, t, d):
        """The total after t, d = 1 onward, -1 back, over the totals a hand can have:
        ten, then 1, 2 ... up to what one who completed their phase keeps."""
        most = _FULL - self.game().phase_cards(self.st, p, self.phase if self.masters else None)
        t = (1 if t >= _FULL else t + 1) if d > 0 else (most if t >= _FULL else t - 1)
        return _FULL if t > most or t < 1 else t

    def change3(self, p, up):
        # three buttons: UP/DOWN one more or fewer of the column's kind; on the 1-9
        # column the total, over the totals a hand can have (as LEFT, both ways)
        e = self.left[p]
        f = self.col
        if f:
            top = self.deck[f]
            if up and e[0] and e[f] < (top if top < _FULL else _FULL):
                e[0] -= 1
                e[f] += 1
            elif not up and e[f]:
                e[f] -= 1
                e[0] += 1
            return
        t = self.step_total(p, e[0] + e[1] + e[2] + e[3], 1 if up else -1)
        rest = e[1] + e[2] + e[3]
        if t >= rest:
            e[0] = t - rest
        else:
            e[0] = t
            e[1] = e[2] = e[3] = 0

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
        p = self.seq[self.pos] & 7
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
        title_bar(c, "%s: %s" % (names[p], ("phase %d" % ph) if ph else "no phase"))
        e = self.left[p]
        if stage == _ASK:
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
            c.glyph("left", 64, 42)
            c.glyph("right", 72, 42)
            c.text("25", 82, 42)
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
        c.text("OK: save", 2, 56)
        c.invert_rect(0, 56, W, LINE_H)


def make(app, arg):
    return Hand(app, arg)
