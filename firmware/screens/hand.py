# The end of a hand (arg None) or the correction of hand arg (0-based, prefilled from its
# record). Steps: who went out; then per player (Masters: the phase they completed, from
# their remaining phases), the cards left as four steppers (1-9, 10-12, Skip, Wild) or as
# points (setting "Hands by"), and "did they complete it?" only when the engine says the
# points leave it open; then a review with the engine's points and ticks; OK saves. A
# refused entry shows the engine's message and keeps everything typed.
# OK or RIGHT: next; LEFT (on the first stepper) or long OK: the step before.
from firmware.screens.base import Screen, title_bar, wrap, LINE_H, W
from engine_mpy.game import RuleError
from engine_mpy.phases import phase_text

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
_KEY_MASK = const(0x7F)

_OUT = const(0)
_PHASE = const(1)
_CARDS = const(2)
_ASK = const(3)
_REVIEW = const(4)

_KINDS = ("1-9", "10-12", "Skip", "Wild")
# Stepper tops: a hand holds 10 cards between turns, the deck 4 Skips and 8 Wilds. The
# engine still judges every count; these only stop a stepper where no entry can stand.
_TOP = b"\x0a\x0a\x04\x08"


class Hand(Screen):
    def __init__(self, app, index):
        Screen.__init__(self, app)
        g = app.session.game
        self.idx = index
        self.st = g.before(index)
        n = self.n = len(g.settings["players"])
        self.masters = g.KIND == "masters"
        pts = app.settings["entry"] == "points"
        self.left = [0 if pts else [0, 0, 0, 0] for _ in range(n)]
        self.said = [None] * n
        self.phase = [0] * n
        self.out = -1
        self.seq = bytearray()     # the steps after "who went out": kind << 3 | player
        self.pos = -1
        self.stage = _OUT
        self.choice = 0
        self.field = 0
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
                if self.masters:
                    seq.append(_PHASE << 3 | p)
                seq.append(_CARDS << 3 | p)
                seq.append(_ASK << 3 | p)
        self.pos = -1
        self.go(1)

    def needed(self, p):
        """Whether the table must say if player p completed: only the engine knows."""
        e = self.left[p]
        if isinstance(e, list):
            return False
        return self.game().points_open(self.st, p, e, self.phase if self.masters else None)

    def go(self, d):
        seq = self.seq
        pos = self.pos + d
        while 0 <= pos < len(seq) and seq[pos] >> 3 == _ASK and not self.needed(seq[pos] & 7):
            self.said[seq[pos] & 7] = None
            pos += d
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
        p = seq[pos] & 7
        self.field = 0
        if self.stage == _PHASE:
            opts = self.game().remaining(p, self.st)
            if p != self.out:
                opts.insert(0, 0)
            self.opts = opts
            self.choice = opts.index(self.phase[p]) if self.phase[p] in opts else 0
        elif self.stage == _ASK:
            self.choice = 1 if self.said[p] is False else 0

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
            ph = self.phase[:]
            rec["phase"] = ph
        return rec

    def review(self):
        try:
            self.points, self.done = self.game().preview(self.record(), self.st)
        except RuleError as e:
            # Refused: say why and stay on the last step, everything typed kept.
            self.pos = len(self.seq)
            self.go(-1)
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
        if base == _BACK or (base == _LEFT and (stage != _CARDS or not self.field)):
            if stage == _OUT:
                return False    # leave: nothing was saved
            if stage == _REVIEW:
                self.pos = len(self.seq)
            self.go(-1)
            return True
        self.dirty = True
        if stage == _CARDS:
            return self.step_key(base)
        if base == _UP or base == _DOWN:
            m = self.n if stage == _OUT else (len(self.opts) if stage == _PHASE else 2)
            if stage != _REVIEW:
                self.choice = (self.choice + (1 if base == _DOWN else -1)) % m
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

    def step_key(self, base):
        p = self.seq[self.pos] & 7
        e = self.left[p]
        counts = isinstance(e, list)
        if base == _UP or base == _DOWN:
            d = 1 if base == _UP else -1
            if counts:
                v = e[self.field] + d
                if 0 <= v <= _TOP[self.field]:
                    e[self.field] = v
            else:
                v = e + 5 * d
                if 0 <= v <= 250:
                    self.left[p] = v
        elif base == _LEFT:
            self.field -= 1
        elif base == _OK or base == _RIGHT:
            if counts and self.field < 3:
                self.field += 1
            else:
                self.go(1)
        return True

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
        ph = self.phase[p] if self.masters else g.attempted(self.st, p, None)
        if stage == _PHASE:
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
            for f in range(4):
                x = f * 32
                lab = _KINDS[f]
                c.text(lab, x + (32 - c.text_width(lab)) // 2, 12)
                s = str(e[f])
                c.big(s, x + (32 - c.big_width(s)) // 2, 24)
                if f == self.field:
                    c.invert_rect(x + 1, 10, 30, 32)
            c.text("%d cards left" % (e[0] + e[1] + e[2] + e[3]), 2, 48)
        else:
            s = str(e)
            c.big(s, (W - c.big_width(s)) // 2, 16)
            c.text("points left", 32, 36)
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
