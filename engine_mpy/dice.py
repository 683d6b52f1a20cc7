# Phase 10 Dice (seeds/dice.txt, RULINGS.md "Dice"): the roller and the
# game (settings plus one record per finished turn, standings derived by replaying). The
# dice table and the evaluator live in dice_eval.py, matching real dice in dice_match.py,
# the turn-order roll (played once, before the game) in dice_order.py.
# Runs unchanged on MicroPython and CPython; randomness comes in as an argument.
from engine_mpy.game import Game, RuleError, check_names
from engine_mpy.dice_eval import (  # noqa: F401 (re-exported: the game's one import)
    COLOURS, COLOUR_NAMES, DICE_TABLE, FACE_NUM, FACE_COL, N_DICE, N_LOW, WILD, PHASE_LABEL,
    best, die_text, faces_text, parse_die, show_faces,
)


def match_dice(dice):
    from engine_mpy.dice_match import match_dice as m

    return m(dice)


# --- the roller ------------------------------------------------------------------------------
def roll_face(rng):
    """A fair face index 0-5 from any source with getrandbits (MicroPython's random has it
    on every port; randrange is optional there). Rejection keeps it unbiased."""
    while True:
        f = rng.getrandbits(3)
        if f < 6:
            return f


class Turn:
    """The turn in progress (kept in RAM, never saved): up to three rolls, any die held or
    released before the second and third, stop after any roll. Or ten dice entered from a
    real roll. record(player) gives the finished turn to commit to the game."""

    def __init__(self):
        self.faces = bytearray(N_DICE)
        self.nums = bytearray(N_DICE)
        self.cols = bytearray(N_DICE)
        self.held = 0  # bit d set: die d is set aside
        self.rolls = 0
        self.entered = False

    def can_roll(self):
        return not self.entered and self.rolls < 3 and (self.rolls == 0 or self.held != (1 << N_DICE) - 1)

    def roll(self, rng):
        if self.entered:
            raise RuleError("These dice were entered from real dice; there is nothing to roll.")
        if self.rolls >= 3:
            raise RuleError("A turn has at most three rolls.")
        if self.rolls == 0:
            self.held = 0  # the first roll is always all ten dice
        for d in range(N_DICE):
            if not self.held >> d & 1:
                self.faces[d] = roll_face(rng)
        self.rolls += 1
        show_faces(self.faces, self.nums, self.cols)

    def hold(self, die, on=True):
        """Set die aside (on) or take it back (off): only between rolls of a turn."""
        if self.entered or not 1 <= self.rolls <= 2:
            raise RuleError("Dice can be held only between the first and the third roll.")
        if not 0 <= die < N_DICE:
            raise RuleError("There is no die %d." % (die + 1))
        if on:
            self.held |= 1 << die
        else:
            self.held &= ~(1 << die)

    def is_held(self, die):
        return bool(self.held >> die & 1)

    def enter(self, dice):
        """Results read off real dice: a list of ten texts ('10o', 'Wg', ...) or (num, col)."""
        pairs = [parse_die(t) if isinstance(t, str) else t for t in dice]
        faces, where = match_dice(pairs)
        self.faces[:] = faces
        show_faces(self.faces, self.nums, self.cols)
        self.entered = True
        self.held = 0
        return where

    def best(self, phase):
        return best(phase, self.nums, self.cols)

    def record(self, player):
        if not self.entered and self.rolls == 0:
            raise RuleError("Roll the dice first.")
        if self.entered:
            return {"player": player, "faces": faces_text(self.faces), "how": "entered"}
        return {"player": player, "faces": faces_text(self.faces)}


# --- the game --------------------------------------------------------------------------------
FIVE_PHASE_BONUS = 40
FIVE_PHASE_OVER = 220  # the bonus needs more than this (221 or more)
FIRST_FINISH_BONUS = 40
SOLITAIRE_FAIL = 5


class DiceState:
    """Everything derived by replaying the turns. Lists are indexed by seat."""

    def __init__(self, n, order):
        self.order = order  # seats in turn order
        self.phase = [1] * n  # the phase each player attempts next (11: all done)
        self.scores = [[-1] * 10 for p in range(n)]  # -1: phase not made (yet)
        self.fails = [0] * n
        self.tries10 = [0] * n  # turns spent on phase 10
        self.ff_bonus = [False] * n
        self.turns = 0
        self.at = 0  # position in order of the player whose turn it is
        self.first = -1  # seat of the first player to finish phase 10
        self.chain = None  # last tries: seats still to take them, in turn order
        self.eligible = None  # seats that can still earn the first-finish bonus
        self.over = False
        self.last = None  # (seat, phase, score) of the last turn, score -1 = failed
        # every turn's (seat, phase, score + 1), 3 bytes a turn: the history's sheet is read
        # off it (engine_mpy/summary.py) instead of replaying the game (300 turns took a
        # finish most of a second on a Pico)
        self.log = bytearray()

    def player(self):
        """The seat whose turn it is, or -1 when the game is over."""
        return -1 if self.over else self.order[self.at]

    def turns_of(self, p):
        """The turns player p has taken: each made a phase or failed."""
        return self.phase[p] - 1 + self.fails[p]

    def last_tries(self):
        return self.first >= 0 and not self.over


class DiceGame(Game):
    KIND = "dice"
    # step() reads and checks the whole turn before it touches the state, so a new turn is
    # applied to the live state (no replay of the game on every turn).
    STEP_CHECKS_FIRST = True

    def new_records(self):
        # in RAM (the host, the tests): a turn as one small int (engine_mpy/packed.py)
        from engine_mpy.packed import Turns
        return Turns()

    def check_settings(self, settings):
        names = check_names(settings.get("players"), 1, 8)
        n = len(names)
        order = settings.get("order")
        if order is None:
            order = list(range(n))
        if not isinstance(order, list) or len(order) != n:
            raise RuleError("The turn order must list every player once.")
        for p in order:
            if not isinstance(p, int) or p is True or p is False or not 0 <= p < n or order.count(p) != 1:
                raise RuleError("The turn order must list every player once.")
        return {"players": names, "order": list(order)}

    def start(self):
        return DiceState(len(self.settings["players"]), self.settings["order"])

    def name(self, seat):
        return self.settings["players"][seat]

    def solitaire(self):
        return len(self.settings["players"]) == 1

    def _faces(self, rec):
        """(faces, how, text): the face index each die shows, from a record's "faces" (ten
        digits 0-5, die by die) or "dice" (ten results read off real dice, any order), and
        the faces as saved (faces_text)."""
        if "dice" in rec:
            pairs = [parse_die(t) for t in rec["dice"]]
            faces = match_dice(pairs)[0]
            return faces, "entered", faces_text(faces)
        f = rec["faces"]
        if not isinstance(f, str) or len(f) != N_DICE:
            raise RuleError("A turn needs the faces of all ten dice.")
        if f.strip("012345"):
            # a character that is no face: named below (the common turn skips this loop)
            for d in range(N_DICE):
                k = ord(f[d]) - 48
                if not 0 <= k <= 5:
                    raise RuleError("A die has faces 0 to 5; die %d shows %s." % (d + 1, f[d]))
        faces = bytearray(f.encode())      # ten digits, so ten bytes
        for d in range(N_DICE):
            faces[d] -= 48
        how = rec.get("how", "rolled")
        if how not in ("rolled", "entered"):
            raise RuleError("A turn is rolled or entered, not %s." % (how,))
        return faces, how, f      # f is already the faces' text

    def step(self, st, rec, index):
        if st.over:
            raise RuleError("The game is over; no more turns can be played.")
        p = rec["player"]
        if not isinstance(p, int) or p is True or p is False or not 0 <= p < len(st.phase):
            raise RuleError("There is no player %s." % (p,))
        want = st.order[st.at]
        if p != want:
            raise RuleError("It is %s's turn, not %s's." % (self.name(want), self.name(p)))
        faces, how, text = self._faces(rec)
        nums = bytearray(N_DICE)
        cols = bytearray(N_DICE)
        show_faces(faces, nums, cols)
        ph = st.phase[p]
        score = best(ph, nums, cols)[0]
        st.turns += 1
        if ph == 10:
            st.tries10[p] += 1
        if score >= 0:
            st.scores[p][ph - 1] = score
            st.phase[p] = ph + 1
        else:
            st.fails[p] += 1
        st.last = (p, ph, score)
        log = st.log
        log.append(p)
        log.append(ph)
        log.append(score + 1)
        finished = score >= 0 and ph == 10
        if st.first < 0:
            if finished:
                self._first_finish(st, p)
            else:
                st.at = (st.at + 1) % len(st.order)
        else:
            if finished and p in st.eligible:
                st.ff_bonus[p] = True
            if score < 0 or finished:
                self._next_in_chain(st)
            # a made phase short of 10: the same player goes on
        # "how" is saved only for entered dice: rolled is the default and most turns are rolled.
        if how == "entered":
            return {"player": p, "faces": text, "how": how}
        return {"player": p, "faces": text}

    def _first_finish(self, st, p):
        st.first = p
        n = len(st.order)
        if n == 1:
            # Solitaire: the bonus only for making phase 10 on its first try.
            st.ff_bonus[p] = st.tries10[p] == 1
            st.over = True
            return
        st.ff_bonus[p] = True
        pos = st.at
        # Others may earn the bonus only if already on phase 10 now and later in turn order.
        st.eligible = [st.order[k] for k in range(pos + 1, n) if st.phase[st.order[k]] == 10]
        st.chain = [st.order[(pos + k) % n] for k in range(1, n)]
        self._next_in_chain(st)

    def _next_in_chain(self, st):
        if not st.chain:
            st.over = True
            return
        p = st.chain.pop(0)
        st.at = st.order.index(p)

    # --- figures for the score sheet ----------------------------------------------------------
    def five_bonus(self, seat):
        s = self.state.scores[seat]
        if s[4] < 0:
            return 0
        return FIVE_PHASE_BONUS if s[0] + s[1] + s[2] + s[3] + s[4] > FIVE_PHASE_OVER else 0

    def total(self, seat):
        """The running grand total: phases made, both bonuses, solitaire penalties."""
        st = self.state
        t = 0
        for s in st.scores[seat]:
            if s > 0:
                t += s
        t += self.five_bonus(seat)
        if st.ff_bonus[seat]:
            t += FIRST_FINISH_BONUS
        if self.solitaire():
            t -= SOLITAIRE_FAIL * st.fails[seat]
        return t

    def winners(self):
        """Seats with the highest grand total once the game is over (several: co-winners)."""
        if not self.state.over:
            return []
        order = self.state.order
        top = max([self.total(p) for p in order])
        return [p for p in order if self.total(p) == top]

    def sheet(self):
        """The score sheet of the book, columns in turn order: a list of (label, cells);
        a cell is a number or None (blank)."""
        st = self.state
        cols = st.order
        rows = [("", [self.name(p) for p in cols])]
        for ph in range(1, 6):
            rows.append((PHASE_LABEL[ph], [(st.scores[p][ph - 1] if st.scores[p][ph - 1] >= 0 else None) for p in cols]))
        rows.append(("Five Phase Bonus +40", [(self.five_bonus(p) or None) if st.scores[p][4] >= 0 else None for p in cols]))
        five = []
        for p in cols:
            s = st.scores[p]
            five.append(s[0] + s[1] + s[2] + s[3] + s[4] + self.five_bonus(p) if s[4] >= 0 else None)
        rows.append(("FIVE PHASE TOTAL", five))
        for ph in range(6, 11):
            rows.append((PHASE_LABEL[ph], [(st.scores[p][ph - 1] if st.scores[p][ph - 1] >= 0 else None) for p in cols]))
        rows.append(("First Finish Bonus +40", [FIRST_FINISH_BONUS if st.ff_bonus[p] else None for p in cols]))
        if self.solitaire():
            rows.append(("Failed turns -5", [-SOLITAIRE_FAIL * st.fails[p] or None for p in cols]))
        rows.append(("GRAND TOTAL", [self.total(p) for p in cols]))
        return rows
