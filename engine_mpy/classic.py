# Phase 10 (Classic) with its three official variations (docs/rules.md, "Classic"): phases in
# order, at most one a hand. The hand records and everything shared with the Masters
# Edition are engine_mpy/cards.py.
from engine_mpy.cards import CardGame
from engine_mpy.game import check_int, RuleError

STANDARD = "standard"
TEN_HANDS = "ten_hands"
FIRST_N = "first_n"
EVEN = "even"
VARIATIONS = (STANDARD, TEN_HANDS, FIRST_N, EVEN)
VARIATION_NAMES = ("Standard", "Ten hands", "First N phases", "Even phases")


class Classic(CardGame):
    """Phase 10: phases in order, one per hand at most. Variations (settings "variation"):
    "ten_hands" (hand h: everyone attempts phase h; ten hands), "first_n" (the last phase
    is settings "phases"), "even" (phases 2, 4, 6, 8, 10)."""

    KIND = "classic"

    def check_settings(self, s):
        out = CardGame.check_settings(self, s)
        v = s.get("variation", STANDARD)
        if v not in VARIATIONS:
            raise RuleError("Unknown variation %r: choose one of %s." % (v, ", ".join(VARIATIONS)))
        out["variation"] = v
        if v == FIRST_N:
            out["phases"] = check_int(s.get("phases"), 1, 10, "The number of phases")
        return out

    def sequence(self):
        v = self.settings["variation"]
        if v == EVEN:
            return (2, 4, 6, 8, 10)
        if v == FIRST_N:
            return tuple(range(1, self.settings["phases"] + 1))
        return (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)

    def start(self):
        self._seq = self.sequence()
        return CardGame.start(self)

    def longest(self, n):
        if self.settings["variation"] == TEN_HANDS:
            return 10
        return n * (len(self._seq) - 1) + 1

    def attempted(self, st, p, chosen):
        if self.settings["variation"] == TEN_HANDS:
            return st.hands + 1 if st.hands < 10 else 0
        s = st.step[p]
        return self._seq[s] if s < len(self._seq) else 0

    def attempts(self, st, chosen):
        if self.settings["variation"] == TEN_HANDS:
            return [st.hands + 1 if st.hands < 10 else 0] * st.n
        seq = self._seq
        last = len(seq)
        out = list(st.step)       # (a loop, not a comprehension: no closure made a hand)
        for p in range(st.n):
            s = out[p]
            out[p] = seq[s] if s < last else 0
        return out

    def advance(self, st, p, phase):
        st.step[p] += 1

    def next_phase(self, st, p):
        if st.over:
            return None
        ph = self.attempted(st, p, None)
        return ph or None

    def phases_done(self, st, p):
        return st.step[p]

    def progress(self, st, p):
        # Ten hands: everyone attempts the same phase each hand; only the total ranks.
        if self.settings["variation"] == TEN_HANDS:
            return 0
        return st.step[p]

    def last_phase(self):
        return self._seq[-1]

    def check_end(self, st, completed, names):
        if self.settings["variation"] == TEN_HANDS:
            if st.hands == 10:
                self.settle(st, list(range(st.n)))
            return
        last = len(self._seq)
        step = st.step
        if max(step) < last:
            return            # nobody has completed the last phase (nearly every hand)
        finishers = None
        for p in range(st.n):
            if completed[p] and step[p] == last:
                if finishers is None:
                    finishers = []
                finishers.append(p)
        if finishers:
            self.settle(st, finishers)
