# One hand as the table enters it, at its end or to correct a saved one: who went out, each
# other player's cards (or points) left, whether each made their phase (Masters: the phase
# each made), and the rules that keep the entry one the engine accepts. The hand screen
# (firmware/screens/hand.py) asks for it a page at a time and draws it; this holds no keys
# and draws nothing, so its rules are tested without a screen (tests/both/test_hand_entry.py).
try:
    from micropython import const
except ImportError:
    const = lambda x: x

_FULL = const(10)        # the hand a player who did not complete holds
# Where the points stepper starts: ten cards score 50 at least and about 80 on average, a
# completed hand about 20; from 60 the hands of the deck (docs/performance.md, the presses
# per player) take the fewest presses with RIGHT/LEFT 25 and UP/DOWN 5.
_START_POINTS = const(60)
_MOST_POINTS = const(250)
_UNDO = const(24)        # presses on a player's cards that can be taken back (4 counts each)


class HandEntry:
    def __init__(self, game, index, by_points):
        """game: the running game; index: the saved hand (0-based) to correct, None for the
        next hand; by_points: each player's points left are entered, not their cards."""
        self.game = game
        self.index = index
        self.before = game.before(index)     # the game's state before this hand
        n = self.n = len(game.settings["players"])
        self.masters = game.KIND == "masters"
        self.deck = game.DECK
        self.by_points = by_points
        self.out = -1                        # who went out (-1: not said yet)
        # per player: counts [1-9, 10-12, Skip, Wild] or points left (who went out: unused)
        self.left = [_START_POINTS if by_points else [_FULL, 0, 0, 0] for _ in range(n)]
        # per player: made their phase, True/False where the points leave it open, None
        # where the cards say it
        self.made = [None] * n
        self.phase = [0] * n                 # Masters: the phase each made (0: none)
        # per player: 1 when the table gave the answer (kept while it fits), else settle()
        # fills in the likelier one; open: more than one answer fits
        self.typed = bytearray(n)
        self.open = bytearray(n)
        # the counts before each press on a player's cards, to take them back
        self.undo = bytearray(4 * _UNDO)
        self.nundo = 0
        self.named = 0                       # (_unnamed(): the phase set aside)
        if index is not None:
            rec = game.records[index]
            self.out = rec["out"]
            for p in range(n):
                e = rec["left"][p]
                if e is not None:
                    self.left[p] = e[:] if isinstance(e, list) else e
            if "done" in rec:
                self.made = rec["done"][:]
            if "phase" in rec:
                self.phase = rec["phase"][:]
            for p in range(n):
                self.typed[p] = 1     # the saved answers stand while they fit

    # --- what the table says ------------------------------------------------------------
    def remaining(self, p):
        """Masters: the phases player p may still make, from the lowest."""
        return self.game.remaining(p, self.before)

    def attempted(self, p):
        """The phase player p attempts this hand (Masters: the one entered)."""
        return self.phase[p] if self.masters else self.game.attempted(self.before, p, None)

    def name_phase(self, p, v, answer):
        """Masters: player p made phase v (0: none). answer: the table's answer to the
        question the check page asks (kept while it fits); who went out names theirs
        before, and that is no answer (they may turn out not to be who went out)."""
        self.phase[p] = v
        if answer:
            self.typed[p] = 1

    def answer(self, p, made):
        """By points: whether player p made their phase, the table's answer."""
        self.made[p] = made
        self.typed[p] = 1

    def add_points(self, p, d):
        """Player p's points left, d more (fewer when negative), from 0 to 250."""
        v = self.left[p] + d
        self.left[p] = 0 if v < 0 else (_MOST_POINTS if v > _MOST_POINTS else v)

    # --- a player's cards left ----------------------------------------------------------
    def new_page(self, p):
        """Player p's cards are entered (again): nothing to take back, except when
        correcting a saved hand, where the presses only add (UP, DOWN, RIGHT) or take away
        (LEFT): there the first to take back is a fresh page, ten 1-9 cards, to enter the
        player again. (Three buttons take nothing back: this changes nothing there.)"""
        self.nundo = 0
        e = self.left[p]
        if self.index is not None and isinstance(e, list) and e[0] != _FULL:
            u = self.undo
            u[0] = _FULL
            u[1] = u[2] = u[3] = 0
            self.nundo = 1

    def press(self, p, kind):
        """One press on player p's cards: kind 0 one card fewer (fewer_cards), else one more
        of kind (1 a 10-12, 2 a Skip, 3 a Wild: more). Kept to be taken back when it
        changed something."""
        # (self.undo read each time, not held: this frame stays within the C stack's
        # budget, no heap allocation per press; tests/test_frames.py)
        e = self.left[p]
        n = self.nundo
        if n == _UNDO:
            # full (rare): the oldest press can no longer be taken back
            self.undo[:-4] = self.undo[4:]
            n -= 1
        for f in range(4):
            self.undo[4 * n + f] = e[f]
        if kind:
            self.more(p, kind)
        else:
            self.step_cards(p, -1)
        for f in range(4):
            if self.undo[4 * n + f] != e[f]:
                self.nundo = n + 1
                return

    def take_back(self, p):
        """Player p's cards as before the last press kept (press, new_page): False when
        there is none (or p's entry is points)."""
        e = self.left[p]
        n = self.nundo
        if not n or not isinstance(e, list):
            return False
        n -= 1
        u = self.undo
        for f in range(4):
            e[f] = u[4 * n + f]
        self.nundo = n
        return True

    def starts_over(self):
        """The one press left to take back is the fresh page of a saved hand (new_page)."""
        return self.nundo == 1 and self.undo[0] == _FULL and self.index is not None

    def more(self, p, kind):
        """One more card of kind in place of a 1-9: none left to replace, or the deck has
        no more of that kind, and it stops."""
        e = self.left[p]
        top = self.deck[kind]
        if e[0] and e[kind] < (top if top < _FULL else _FULL):
            e[0] -= 1
            e[kind] += 1

    def fewer(self, p, kind):
        """One card of kind fewer, a 1-9 in its place; none of that kind: it stops."""
        e = self.left[p]
        if e[kind]:
            e[kind] -= 1
            e[0] += 1

    def step_cards(self, p, d):
        """Player p holds one card more (d = 1) or fewer (d = -1), within what a hand can
        hold (step_total)."""
        e = self.left[p]
        t = self.step_total(p, e[0] + e[1] + e[2] + e[3], d)
        self.set_total(e, t)

    def step_total(self, p, t, d):
        """The cards held after t, one fewer (d = -1) or one more (d = 1), over what a hand
        can hold: one who completed their phase keeps 1 up to some (most), one who did not
        ten. Stops at 1 and at ten."""
        ph = self._unnamed(p)
        most = self.game.phase_cards(self.before, p, ph)
        most = _FULL - most
        self._renamed(p, ph)
        if d < 0:
            return most if t >= _FULL else (t - 1 if t > 1 else 1)
        return _FULL if t >= most else t + 1

    def set_total(self, e, t):
        """Counts e made to hold t cards: the 1-9s make up the difference; fewer than the
        other kinds: those go too, the 10-12s first (what was typed last, the Wilds, stays
        longest)."""
        rest = e[1] + e[2] + e[3]
        if t >= rest:
            e[0] = t - rest
            return
        e[0] = 0
        for f in range(1, 4):
            cut = rest - t if rest - t < e[f] else e[f]
            e[f] -= cut
            rest -= cut

    # --- the rules ----------------------------------------------------------------------
    def _unnamed(self, p):
        # Masters: the phases with player p's set to none until _renamed() puts it back
        # (from .named), so their cards or points are bounded by every phase they have left
        # (settle() names theirs after, from what fits); Phase 10: None.
        if not self.masters:
            return None
        ph = self.phase
        self.named = ph[p]
        ph[p] = 0
        return ph

    def _renamed(self, p, ph):
        if ph is not None:
            ph[p] = self.named

    def check_points(self, p):
        """By points: RuleError, naming player p, when their points cannot be the cards
        left of a player who did not go out (0, say), whatever phase they made."""
        ph = self._unnamed(p)
        try:
            self.game.check_points(self.before, p, self.left[p], ph)
        finally:
            self._renamed(p, ph)

    def fitting(self, p):
        """Masters: the answers player p's cards allow, none (0) first where it fits,
        then the phases left from the lowest."""
        g = self.game
        e = self.left[p]
        ph = self.phase
        was = ph[p]
        opts = []
        for v in [0] + g.remaining(p, self.before):
            ph[p] = v
            if g.fits(self.before, p, e, ph):
                opts.append(v)
        ph[p] = was
        return opts

    def settle(self):
        """Each answer the table did not give (or that no longer fits), the likelier one
        the entries allow (Masters: the phase made, none where ten cards allow it, else the
        lowest that fits; by points: not made where the points allow both, as ten cards
        seldom score under 50 and a completed hand seldom over), and which players'
        answers stay open."""
        g = self.game
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
            elif not isinstance(e, list) and g.points_open(self.before, p, e, None):
                # open only at 50 points or more (ten cards score at least 50), where
                # not completing is the likelier answer
                self.open[p] = 1
                if not self.typed[p] or self.made[p] is None:
                    self.made[p] = False
            else:
                self.made[p] = None

    def record(self):
        """The hand's record as the engine takes it (Game.add, Game.replace)."""
        n = self.n
        left = [None] * n
        made = [None] * n
        asked = False
        for p in range(n):
            if p != self.out:
                e = self.left[p]
                left[p] = e[:] if isinstance(e, list) else e
                made[p] = self.made[p]
                asked = asked or made[p] is not None
        rec = {"out": self.out, "left": left}
        if asked:
            rec["done"] = made
        if self.masters:
            rec["phase"] = self.phase[:]
        return rec

    def judge(self):
        """settle(), then the engine's verdict on the record, nothing saved: (points,
        completed) per player, or RuleError naming the player it is about."""
        self.settle()
        return self.game.preview(self.record(), self.before)
