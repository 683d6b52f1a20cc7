# Phase 10 Dice's turn-order roll (seeds/dice.txt, RULINGS.md "Dice"), played once before
# the game starts. Its own module so that a game in progress does not keep its code in RAM.
from engine_mpy.game import RuleError
from engine_mpy.dice_eval import FACE_NUM, N_LOW
from engine_mpy.dice import roll_face


class OrderRoll:
    """Each player rolls one high die; highest plays first; players who tie roll again among
    themselves. waiting lists the seats that must roll now; give their results to enter()
    (real dice) or call roll(rng). When done, order is the seats in turn order."""

    def __init__(self, n):
        self.groups = [list(range(n))]  # tied groups, best first
        self.waiting = []
        self._next()

    def _next(self):
        self.waiting = []
        for g in self.groups:
            if len(g) > 1:
                self.waiting.extend(g)

    def done(self):
        return not self.waiting

    def order(self):
        return [g[0] for g in self.groups] if self.done() else None

    def enter(self, values):
        """values[k] is the roll (5-10) of seat waiting[k]."""
        if len(values) != len(self.waiting):
            raise RuleError("%d rolls are needed." % len(self.waiting))
        got = {}
        for k in range(len(values)):
            v = values[k]
            if not isinstance(v, int) or not 5 <= v <= 10:
                raise RuleError("A high die shows 5 to 10.")
            got[self.waiting[k]] = v
        out = []
        for g in self.groups:
            if len(g) == 1:
                out.append(g)
                continue
            for v in range(10, 4, -1):
                same = [p for p in g if got[p] == v]
                if same:
                    out.append(same)
        self.groups = out
        self._next()

    def roll(self, rng):
        """Roll one high die (any of H1-H6: all show 5-10) for every waiting seat."""
        vals = [FACE_NUM[N_LOW * 6 + roll_face(rng)] for p in self.waiting]
        self.enter(vals)
        return vals
