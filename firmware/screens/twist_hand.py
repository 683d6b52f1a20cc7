# Phase 10 Twist, the end of a hand: who went out, then for each other player the number
# of cards left in hand (the engine works out from it whether the phase was made), the
# value of those cards when the engine says the tie-break needs it, a review with the
# moves the engine derives, and Save. A refused hand shows the engine's message and keeps
# everything typed. After a new hand is saved, the moves on the board (twist_board).
# arg: the Twist choices from twist_before (a list per player, or None when no pawn was on
# a Twist space), or ("fix", i) to correct hand i (0-based) from the score sheet.
from firmware.screens.base import ListScreen, title_bar, LINE_H, W
from engine_mpy.game import RuleError

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
_REPEAT = const(0x80)

_OUT = const(0)
_CARDS = const(1)
_TOTAL = const(2)
_REVIEW = const(3)


class Hand(ListScreen):
    def __init__(self, app, arg):
        g = app.session.game
        n = g.state.n
        ListScreen.__init__(self, app, n)
        self.game = g
        self.n = n
        self.fix = None
        if isinstance(arg, tuple):
            # A correction: start from what was saved (copies: the saved hand is kept
            # unchanged until the correction is committed).
            self.fix = arg[1]
            r = g.records[self.fix]
            self.out = r["out"]
            self.left = list(r["left"])
            self.left[self.out] = 10
            pk = r.get("pick")
            self.pick = list(pk) if pk else None
            t = r.get("total")
            self.total = list(t) if t else [None] * n
            self.base = g.state_before(self.fix)
            self.sel = self.out
            self.hand = self.fix + 1
        else:
            self.out = -1
            self.left = [10] * n
            self.pick = arg
            self.total = [None] * n
            self.base = g.state
            self.hand = g.state.hands + 1
        self.page = _OUT
        self.k = 0          # the player whose count or total is being entered
        self.need = None    # players whose card totals the tie-break needs (bytearray)
        self.prev = None    # the engine's preview on the review page
        self.title = "Hand %d: who went out?" % self.hand if self.hand < 10 else "Hand %d: went out?" % self.hand

    # --- the record ---------------------------------------------------------------------
    def record(self):
        """A new record for the engine (never one it already keeps)."""
        left = list(self.left)
        left[self.out] = None
        r = {"out": self.out, "left": left}
        if self.pick:
            r["pick"] = list(self.pick)
        if self.need or [t for t in self.total if t is not None]:
            t = list(self.total)
            t[self.out] = None
            r["total"] = t
        return r

    def others(self):
        """The players who did not go out, in seating order, as a bytearray."""
        return bytearray([p for p in range(self.n) if p != self.out])

    # --- pages --------------------------------------------------------------------------
    def label(self, i):
        if self.page == _OUT:
            return self.game.settings["players"][i]
        return self.lines[i]

    def value(self, i):
        return None

    def choose(self, i):
        if self.page == _OUT:
            if i != self.out:
                self.total = [None] * self.n
            self.out = i
            self.page = _CARDS
            self.k = 0
        elif i == self.count - 1:
            self.save()
        self.dirty = True
        return True

    def review(self):
        """Ask the engine what the hand does: first without card totals, to learn whether
        the tie-break needs some (then ask for those, keeping values typed before), else the
        review page. A refusal shows its message; the entry stays as typed."""
        keep = self.total
        self.total = [None] * self.n
        self.need = None
        st = self.preview()
        if st is None or not st.need:
            return self.show(st)
        self.need = bytearray(st.need)
        for p in self.need:
            self.total[p] = keep[p] if keep[p] is not None else 0
        self.page = _TOTAL
        self.k = 0
        return True

    def preview(self):
        try:
            return self.game.preview(self.record(), self.fix)
        except RuleError as e:
            self.app.push("note", e.args[0])
            return None

    def show(self, st):
        """The review page: per player what was entered, the move and the space it
        reaches, the winner if the hand ends the game, then Save."""
        if st is None:
            return False
        g = self.game
        names = g.settings["players"]
        lines = []
        for p in range(self.n):
            e = "out" if p == self.out else "%d left" % self.left[p]
            m = st.moves[p]
            to = st.pos[p] + 1
            lines.append("%-5s %-7s %s%d>%s" % (names[p][:5], e, "+" if m > 0 else "", m,
                                               to if st.pos[p] <= g.red else "fin"))
        if st.over:
            w = st.winners
            if len(w) == 1:
                lines.append("Winner: " + names[w[0]][:12])
            else:
                lines.append("Co-winners: " + " ".join([names[p][:4] for p in w]))
        lines.append("Save correction" if self.fix is not None else "Save hand")
        self.lines = lines
        self.count = len(lines)
        self.sel = self.count - 1
        self.top = 0
        self.move(0, True)
        self.title = "Review hand %d" % self.hand
        self.page = _REVIEW
        return True

    def save(self):
        app = self.app
        g = self.game
        if self.fix is None:
            before = bytearray(g.state.pos)
            err = app.session.apply("add", self.record())
        else:
            err = app.session.apply("replace", self.fix, self.record())
        if err:
            app.push("note", err)
            return
        app.pop()
        if self.fix is None:
            app.push("twist_board", before)
        else:
            app.push("note", "Hand %d corrected. The standings are worked out again." % self.hand)

    def back(self):
        """One page back, keeping what was typed."""
        p = self.page
        if p == _OUT:
            return False
        if p == _CARDS:
            if self.k:
                self.k -= 1
            else:
                self.page = _OUT
                self.count = self.n
                self.sel = self.out
                self.top = 0
                self.move(0, True)
                self.title = "Hand %d: went out?" % self.hand
        elif p == _TOTAL:
            if self.k:
                self.k -= 1
            else:
                self.page = _CARDS
                self.k = self.n - 2
        else:
            if self.need:
                self.page = _TOTAL
                self.k = len(self.need) - 1
            else:
                self.page = _CARDS
                self.k = self.n - 2
        self.dirty = True
        return True

    def key(self, k):
        b = k & _KEY_MASK
        if b == _BACK or b == _LEFT:
            return self.back()
        p = self.page
        if p == _OUT or p == _REVIEW:
            return ListScreen.key(self, k)
        self.dirty = True
        if p == _CARDS:
            q = self.others()[self.k]
            if b == _UP or b == _DOWN:
                v = self.left[q] + (1 if b == _UP else -1)
                self.left[q] = 1 if v > 10 else (10 if v < 1 else v)
            elif b == _OK:
                self.k += 1
                if self.k >= self.n - 1:
                    self.k = self.n - 2
                    self.review()
            return True
        # _TOTAL: the value of a player's cards, for the tie-break
        q = self.need[self.k]
        if b == _UP or b == _DOWN:
            d = 5 if k & _REPEAT else 1
            v = self.total[q] + (d if b == _UP else -d)
            self.total[q] = 0 if v < 0 else (300 if v > 300 else v)
        elif b == _OK:
            self.k += 1
            if self.k >= len(self.need):
                self.k = len(self.need) - 1
                self.show(self.preview())
        return True

    # --- drawing ------------------------------------------------------------------------
    def draw(self, c):
        p = self.page
        if p == _OUT or p == _REVIEW:
            ListScreen.draw(self, c)
            return
        g = self.game
        names = g.settings["players"]
        if p == _CARDS:
            q = self.others()[self.k]
            title_bar(c, "Cards left  %d/%d" % (self.k + 1, self.n - 1))
            c.text(names[q], 2, 12)
            pk = self.pick[q] if self.pick else None
            try:
                ph, card = g.attempt(self.base, q, pk)
                c.text("Twist card %d" % card if card else "Phase %d" % ph, 2, 22)
            except RuleError:
                pass
            v = str(self.left[q])
            c.big(v, 120 - c.big_width(v), 14)
            c.text("UP/DOWN  OK: next", 2, 56)
            return
        q = self.need[self.k]
        title_bar(c, "Tie-break: card value")
        c.text(names[q], 2, 12)
        c.text("%d cards left" % self.left[q], 2, 22)
        c.text("Face values" if g.settings["values"] == "face" else "5/10 values", 2, 32)
        v = str(self.total[q])
        c.big(v, 120 - c.big_width(v), 14)
        c.text("UP/DOWN  OK: next", 2, 56)


def make(app, arg):
    return Hand(app, arg)
