# Phase 10 Twist: the board game with pawns and Twist cards (seeds/twist.txt, decided in
# RULINGS.md, "Twist"). Same shape as every game: settings plus hand records; pawns,
# dealer, end and winner are derived by replaying the records, never stored.
#
# Settings: {"players": [2-6 names], "dealer": first dealer (index), "layout": the board
# as space codes (engine_mpy/board_layout.py; kept in the save so a game stays valid when the
# layout file changes), "values": "face" (default) or "classic" card values for the
# tie-break}.
#
# A hand record, as saved:
#   {"out": 1, "left": [10, null, 2], "pick": [null, "after", 7], "total": [null, null, 14]}
#     out    the player who went out (index in seating order); exactly one per hand
#     left   per player the number of cards left in hand, null for the player who went out.
#            It tells whether the phase was completed (engine_mpy/handcheck.py).
#     pick   (only when someone stood on a Twist space) per player "before" / "after"
#            (the phase printed on that side of the Twist space) or a Twist card 1-10;
#            null for players on a numbered space
#     total  (only when the tie-break needs it) per player the value of the cards left,
#            for players who moved past the red space without going out
# A record handed to add() or replace() that is already in this form is kept as it is
# (not copied, to halve the heap a loaded game needs): build a new one for every hand.
from engine_mpy.game import Game, RuleError, check_names, check_int
from engine_mpy.modules import forget
from engine_mpy.phases import PHASE_CARDS

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# The board (engine_mpy/board_layout.py) is read once, when the settings are checked, and
# that module leaves RAM; the texts (engine_mpy/twist_cards.py, the phases') and the
# hand check's wording of an unusual count are loaded when a screen or a refusal needs
# them. A Twist game in play holds only what a hand needs.
_TWIST = const(0)       # _TWIST: a Twist space's entry in self.phases
# Cards laid down for each Twist card (engine_mpy/twist_cards.py TWIST_CARDS; a test
# checks they agree)
TWIST_CARDS = b"\x00\x09\x08\x09\x09\x09\x08\x08\x05\x08\x09"

BEFORE = "before"
AFTER = "after"
# What TwistState.log says was chosen on a Twist space (a Twist card is its number, 1-10)
PICK_NONE = 0
PICK_BEFORE = 11
PICK_AFTER = 12
FACE = "face"
CLASSIC = "classic"


def _int(v):
    return isinstance(v, int) and v is not True and v is not False


def draw_twist_card(rng, taken=()):
    """Draw a Twist card at random for a player, as the Twist card holder would: none of
    the cards already taken this hand (all cards return before the next hand). rng is
    any object with randrange(n) or getrandbits(k) (random module, random.Random, a fake)."""
    free = [c for c in range(1, 11) if c not in taken]
    if not free:
        raise RuleError("All ten Twist cards are taken this hand.")
    n = len(free)
    if hasattr(rng, "randrange"):
        return free[rng.randrange(n)]
    # getrandbits only: rejection sampling keeps every free card equally likely.
    while True:
        k = rng.getrandbits(4)
        if k < n:
            return free[k]


def move(pos, steps, red):
    """Where a pawn on space pos (0-based) ends after a move of steps spaces (-1: back
    one, a failed Twist card). red is the index of the red space; red + 1 means the pawn
    moved past it (it has finished)."""
    if steps < 0:
        return pos - 1 if pos > 0 else 0
    if pos == red:
        # No 1-space move off the red space; completing Phase 10 (2 or 3) moves past it.
        return red + 1 if steps >= 2 else red
    to = pos + steps
    # Moving past the red space needs Phase 10 completed on it, except a move of 2 or more
    # from one of the two spaces before it, which jumps it (the Twist rulebook: "You may
    # skip over the 10th Phase space by earning a 2 or 3-space move from one of the two
    # preceding spaces"), even one that would end on it. A move from further back stops
    # on the red space.
    if steps >= 2 and pos >= red - 2 and to >= red:
        return red + 1
    if to <= red:
        return to
    return red


def tie_total_possible(total, cards, values):
    """Whether cards cards left can be worth total in the tie-break count."""
    if not _int(total) or total < 0:
        return False
    if values == CLASSIC:
        from engine_mpy.handcheck import points_possible
        return points_possible(total, cards)
    # Face values: number cards 1-12 (8 of each), Skip 15 (4 in the deck), Wild 25 (8).
    for w in range(min(cards, 8) + 1):
        for s in range(min(cards - w, 4) + 1):
            k = cards - w - s
            rest = total - 25 * w - 15 * s
            lo = k if k <= 8 else 8 + 2 * (k - 8)
            hi = 12 * k if k <= 8 else 96 + 11 * (k - 8)
            if lo <= rest <= hi:
                return True
    return False


class TwistState:
    """Everything the board screen shows, derived from the hand records."""

    def __init__(self, n):
        self.n = n
        self.pos = [0] * n     # space index of each pawn; red + 1 once past the red space
        self.hands = 0
        # The moves the last hand earned (3, 2, 1, Twist card 6, 4, -1), even where the red
        # space held a pawn back; earlier hands' moves are not kept (replay a prefix for them).
        self.moves = [0] * n
        self.passed = []       # players who moved past the red space (in the last hand)
        self.over = False
        self.winners = []
        # Every hand as it was played, 2 bytes a player: the move + 1 and what was chosen on
        # a Twist space (PICK_NONE, a Twist card 1-10, PICK_BEFORE, PICK_AFTER). The score
        # sheet and the history's line read it: no replay of the game from the flash.
        self.log = bytearray()


class Twist(Game):
    KIND = "twist"
    # step() checks a whole hand before it moves any pawn, so add() applies a new hand to
    # the live state without replaying the game.
    STEP_CHECKS_FIRST = True

    def check_settings(self, s):
        if not isinstance(s, dict):
            raise RuleError("settings must be an object")
        players = check_names(s.get("players"), 2, 6)
        dealer = check_int(s.get("dealer", 0), 0, len(players) - 1, "The first dealer")
        layout = s.get("layout")
        from engine_mpy import board_layout
        if layout is None:
            codes = board_layout.default_layout()
        elif isinstance(layout, str):
            codes = board_layout.parse_layout(layout)
        else:
            codes = board_layout.check_codes(layout)
        values = s.get("values", FACE)
        if values not in (FACE, CLASSIC):
            raise RuleError("Card values must be \"face\" or \"classic\".")
        # The board is read here once; every replay uses the table.
        self.phases = board_layout.space_phases(codes)
        self.red = len(codes) - 1
        board_layout = None
        forget("engine_mpy.board_layout")
        return {"players": players, "dealer": dealer, "layout": " ".join(codes), "values": values}

    _probe = False

    def start(self):
        n = len(self.settings["players"])
        # Scratch for one hand's moves and pawns, kept between hands: a hand then leaves
        # no garbage between the records it keeps (the heap never moves objects).
        self._moves = [0] * n
        self._new = [0] * n
        return TwistState(n)

    # --- what a pawn attempts --------------------------------------------------------
    def on_twist(self, p):
        """Whether player p's pawn stands on a Twist space (must choose before the hand)."""
        pos = self.state.pos[p]
        return pos <= self.red and self.phases[pos] == _TWIST

    def attempt(self, st, p, pick):
        """What player p attempts from their space with pick: (phase, card), one of them
        0, or raises RuleError when the pick does not fit the space."""
        a = self._attempt(st, p, pick)
        return (0, a - 10) if a > 10 else (a, 0)

    def _attempt(self, st, p, pick):
        # One small int, no allocation (this runs for every player of every hand replayed):
        # 1-10 a phase, 11-20 a Twist card.
        pos = st.pos[p]
        ph = self.phases[pos]
        if ph != _TWIST:
            if pick is not None:
                raise RuleError("%s is not on a Twist space, so has no choice to make." % self.settings["players"][p])
            return ph
        if pick == BEFORE:
            return self.phases[pos - 1]
        if pick == AFTER:
            return self.phases[pos + 1]
        if _int(pick) and 1 <= pick <= 10:
            return 10 + pick
        name = self.settings["players"][p]
        if pick is None:
            raise RuleError("%s is on a Twist space: choose the phase before it, the phase after it, or a Twist card." % name)
        raise RuleError("%s: the choice is \"before\", \"after\" or a Twist card 1-10." % name)

    def attempt_text(self, p, pick=None):
        """(label, text) of what player p attempts next hand, for the screen: e.g.
        ("Phase 3", "1 set of 4 + 1 run of 4"), ("Twist card 2", "4 sets of 2"). On a Twist
        space with no pick yet: ("Twist", "phase 2, phase 3 or a Twist card")."""
        pos = self.state.pos[p]
        if pos > self.red:
            return "Finished", "moved past the red space"
        if pick is None and self.phases[pos] == _TWIST:
            return "Twist", "phase %d, phase %d or a Twist card" % (self.phases[pos - 1], self.phases[pos + 1])
        ph, card = self.attempt(self.state, p, pick)
        if card:
            from engine_mpy.twist_cards import twist_text
            return "Twist card %d" % card, twist_text(card)
        from engine_mpy.phases import phase_text
        return "Phase %d" % ph, phase_text(ph)

    def dealer(self):
        """Who deals the next hand (the deal passes to the left each hand)."""
        return (self.settings["dealer"] + self.state.hands) % self.state.n

    def first_player(self):
        return (self.dealer() + 1) % self.state.n

    def space(self, p):
        """Player p's space, 1-based as printed on the board (len(layout) + 1: finished)."""
        return self.state.pos[p] + 1

    # --- one hand --------------------------------------------------------------------
    def step(self, st, rec, index):
        names = self.settings["players"]
        if not isinstance(rec, dict):
            raise RuleError("a hand must be an object")
        if st.over:
            raise RuleError("The game is over: %s won." % " and ".join([names[w] for w in st.winners]))
        n = st.n
        out = rec.get("out")
        if not _int(out) or not 0 <= out < n:
            raise RuleError("Say who went out: exactly one player ends each hand.")
        left = rec.get("left")
        if not isinstance(left, list) or len(left) != n:
            raise RuleError("Enter the cards left for every player.")
        pick = rec.get("pick")
        if pick is not None and (not isinstance(pick, list) or len(pick) != n):
            raise RuleError("Twist choices must list every player.")
        total = rec.get("total")
        if total is not None and (not isinstance(total, list) or len(total) != n):
            raise RuleError("Card totals must list every player.")

        cards_seen = 0  # bit c: Twist card c already taken this hand
        moves = self._moves
        entries = [None] * n
        for p in range(n):
            pk = pick[p] if pick else None
            a = self._attempt(st, p, pk)
            card = a - 10 if a > 10 else 0
            if card:
                if cards_seen & (1 << card):
                    raise RuleError("Two players hold Twist card %d; there is one of each." % card)
                cards_seen |= 1 << card
                size = TWIST_CARDS[card]
            else:
                size = PHASE_CARDS[a]
            c = left[p]
            if p == out:
                if c is not None and c != 0:
                    raise RuleError("%s went out, so %s has no cards left." % (names[p], names[p]))
                went_out = done = True
            else:
                if not _int(c):
                    raise RuleError("%s: enter the number of cards left." % names[p])
                went_out = False
                # The common answers without building a message; handcheck words the rest.
                if c == 10:
                    done = False
                elif 1 <= c <= 10 - size:
                    done = True
                else:
                    label = ("Twist card %d" % card) if card else ("Phase %d" % a)
                    from engine_mpy.handcheck import completed_from_count
                    done = completed_from_count(names[p], c, size, label)
                entries[p] = c
            if card:
                moves[p] = 6 if went_out else (4 if done else -1)
            else:
                moves[p] = 3 if went_out else (2 if done else 1)

        # Where the pawns end; the state itself changes only after every check below.
        new = self._new
        for p in range(n):
            new[p] = move(st.pos[p], moves[p], self.red)
        passed = [p for p in range(n) if new[p] > self.red] if max(new) > self.red else None
        totals = None
        if total:
            # Totals are checked against the cards left even where the tie-break does not
            # need them (they are kept: a correction may make them needed).
            totals = [None] * n
            values = self.settings["values"]
            for p in range(n):
                t = total[p]
                if t is None:
                    continue
                if p == out:
                    raise RuleError("%s went out: no cards left to count." % names[p])
                if not tie_total_possible(t, entries[p], values):
                    raise RuleError(
                        "%s: %d cards left cannot be worth %s (%s values)."
                        % (names[p], entries[p], t, "face" if values == FACE else "Classic 5/10")
                    )
                totals[p] = t
        winners = None
        if passed:
            # The book's order: the one who went out; else the lowest card total; co-winners.
            if out in passed:
                winners = [out]
            elif len(passed) == 1:
                winners = passed
            else:
                best = -1
                for p in passed:
                    t = totals[p] if totals else None
                    if t is None:
                        if self._probe:
                            # preview(): say whose totals the tie-break needs, decide nothing.
                            st.need = passed
                            return None
                        raise RuleError(
                            "%s moved past the red space with others: enter the value of %s's cards left." % (names[p], names[p])
                        )
                    if best < 0 or t < best:
                        best = t
                winners = [p for p in passed if totals[p] == best]

        log = st.log
        for p in range(n):
            st.pos[p] = new[p]
            st.moves[p] = moves[p]
            pk = pick[p] if pick else None
            log.append(moves[p] + 1)
            log.append(PICK_NONE if pk is None else (PICK_BEFORE if pk == BEFORE else (PICK_AFTER if pk == AFTER else pk)))
        st.hands += 1
        if passed:
            st.passed = passed
            st.over = True
            st.winners = winners
        norm = {"out": out, "left": entries}
        if pick:
            for x in pick:
                if x is not None:
                    # Every entry was checked against its player's space above.
                    norm["pick"] = list(pick)
                    break
        if totals and [t for t in totals if t is not None]:
            norm["total"] = totals
        # A record already in saved form (loading a save, replaying after a correction) is
        # kept as it is: the game then holds one copy of its hands, not two.
        return rec if rec == norm else norm

    # --- for the screens: a hand before it is committed, and every hand's moves ----------
    def state_before(self, index):
        """The state before hand number index (0-based): the pawns a correction of that
        hand starts from. A fresh copy; the game is not changed."""
        return self.state_at(index)[0]

    def preview(self, rec, index=None):
        """What hand rec would do, committing nothing: a TwistState after it (pos, moves,
        passed, over, winners), or RuleError as add() would raise. index: preview it as a
        correction of that hand (later hands are not checked: replace() does that). When
        the tie-break needs card totals rec does not hold yet, the state's .need lists the
        players whose totals to ask for (pawns not moved, nothing decided) instead."""
        if index is None:
            cur = self.state
            st = TwistState(cur.n)
            st.pos = cur.pos[:]
            st.hands = cur.hands
            st.over = cur.over
            st.winners = cur.winners
            index = len(self.records)
        else:
            st = self.state_before(index)
        st.need = None
        self._probe = True
        try:
            self.step(st, rec, index)
        finally:
            self._probe = False
        return st

    def moves_by_hand(self):
        """Every hand's moves (the state's log): bytes of hands * players entries, each the
        move (3, 2, 1, 6, 4, or -1 for a failed Twist card) plus 1, hand by hand in seating
        order (the score sheet)."""
        log = self.state.log
        out = bytearray(len(log) // 2)
        for i in range(len(out)):
            out[i] = log[2 * i]
        return out

    # --- standings -------------------------------------------------------------------
    def standings(self):
        """Players from the leading pawn back: (player, space 1-based, label, text)."""
        order = list(range(self.state.n))
        # Ties keep seating order (MicroPython's sort is not stable, so say it in the key).
        order.sort(key=lambda p: p - 8 * self.state.pos[p])
        return [(p, self.space(p)) + self.attempt_text(p) for p in order]
