# The Masters Edition (docs/rules.md, "Masters Edition"): each hand every player attempts a
# phase of their choice among those not yet completed. The hand records and everything
# shared with Phase 10 are engine_mpy/cards.py.
from engine_mpy.cards import CardGame
from engine_mpy.game import RuleError
from engine_mpy.phases import MASTERS_DECK, PHASE_CARDS

try:
    from micropython import const
except ImportError:
    const = lambda x: x

_ALL_PHASES = const(0x7FE)  # bits 1..10: every phase completed (Masters)


class Masters(CardGame):
    """Masters Edition: each hand every player attempts one phase of their choice among
    those not yet completed; a completed phase is never attempted again."""

    KIND = "masters"
    DECK = MASTERS_DECK     # 2 Skips, not 4

    def chosen_phases(self, st, rec, out, names):
        ph = rec.get("phase")
        if not isinstance(ph, list) or len(ph) != st.n:
            raise RuleError("Masters: enter the phase each player completed (0 for none).")
        norm = []
        for p in range(st.n):
            v = ph[p]
            if v is None:
                v = 0
            if not isinstance(v, int) or v is True or v is False or not 0 <= v <= 10:
                raise RuleError("%s: a phase is a number from 1 to 10 (0 for none)." % names[p], 0, p)
            if v and st.done[p] & (1 << v):
                raise RuleError("%s completed phase %d already; a completed phase is never attempted again." % (names[p], v), 0, p)
            if p == out and not v:
                raise RuleError("%s went out, so completed a phase: say which." % names[p], 0, p)
            norm.append(v)
        return norm

    NAMED = True

    def attempted(self, st, p, chosen):
        return chosen[p] if chosen else 0

    def attempts(self, st, chosen):
        return list(chosen) if chosen else [0] * st.n

    def phase_cards(self, st, p, chosen):
        if chosen[p]:
            return PHASE_CARDS[chosen[p]]
        # No phase named: the widest range a completed phase could leave, so a count that
        # can only mean "completed" is caught and the player is asked which phase.
        fewest = 10
        for ph in range(1, 11):
            if not st.done[p] & (1 << ph) and PHASE_CARDS[ph] < fewest:
                fewest = PHASE_CARDS[ph]
        return fewest

    def known_completion(self, st, p, chosen):
        return chosen[p] != 0

    def agree(self, st, p, ok, chosen, name, n):
        if ok and not chosen[p]:
            raise RuleError("%s holds %d cards, so completed a phase: say which." % (name, n))
        if not ok and chosen[p]:
            raise RuleError("%s holds 10 cards, so did not complete phase %d." % (name, chosen[p]))
        return ok

    def fits(self, st, p, entry, chosen):
        """Whether entry (counts or points) can be the cards left of player p, who did
        not go out, when chosen[p] is the phase they completed (0: none): the hand page
        offers only the phases that fit."""
        try:
            self.judge(st, p, -1, entry, None, chosen, self.settings["players"])
        except RuleError:
            return False
        return True

    def advance(self, st, p, phase):
        st.done[p] |= 1 << phase

    def remaining(self, p, st=None):
        """The phases player p may still choose (before the hand of state st), lowest first."""
        d = (st or self.state).done[p]
        return [ph for ph in range(1, 11) if not d & (1 << ph)]

    def next_phase(self, st, p):
        # Masters has no single next phase: report the lowest not yet completed.
        if st.over:
            return None
        d = st.done[p]
        for ph in range(1, 11):
            if not d & (1 << ph):
                return ph
        return None

    def phases_done(self, st, p):
        d = st.done[p]
        c = 0
        for ph in range(1, 11):
            if d & (1 << ph):
                c += 1
        return c

    def check_end(self, st, completed, names):
        finishers = [p for p in range(st.n) if st.done[p] == _ALL_PHASES]
        if finishers:
            self.settle(st, finishers)
