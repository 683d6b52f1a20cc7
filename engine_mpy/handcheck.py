# What the cards left in a player's hand say about their hand (RULINGS.md, "Card games:
# what a hand tells the score pad"). Every player draws one and discards one per turn, so
# between turns a hand holds 10 cards:
#   - went out: 0 cards, phase completed;
#   - did not complete the phase: exactly 10 cards;
#   - completed but did not go out: 1 .. 10 - (cards in the phase).
# Shared by Classic, Masters and Twist (Twist passes its own phase/card sizes).
from engine_mpy.game import RuleError
from engine_mpy.phases import CARD_POINTS, CARD_KINDS, DECK_COUNTS, MASTERS_DECK, HAND_SIZE

# A counts entry is [n 1-9, n 10-12, n Skip, n Wild].


def card_points(counts):
    return counts[0] * CARD_POINTS[0] + counts[1] * CARD_POINTS[1] + counts[2] * CARD_POINTS[2] + counts[3] * CARD_POINTS[3]


def _deck(deck):
    """How a message names the deck: the game's own where it differs from Classic's."""
    return "the Masters Edition deck" if deck == MASTERS_DECK else "the deck"


def check_counts(name, counts, deck=DECK_COUNTS):
    """Normalise a counts entry (a list of four whole numbers) or raise RuleError. deck:
    the game's deck (DECK_COUNTS or MASTERS_DECK), what one hand can hold at most."""
    if not isinstance(counts, (list, tuple)) or len(counts) != 4:
        raise RuleError("%s: cards left must be four counts (1-9, 10-12, Skip, Wild)." % name)
    out = []
    for k in range(4):
        c = counts[k]
        if not isinstance(c, int) or c is True or c is False or c < 0:
            raise RuleError("%s: the count of %s cards must be a whole number, 0 or more." % (name, CARD_KINDS[k]))
        if c > deck[k]:
            raise RuleError("%s holds %d %s cards; %s has only %d." % (name, c, CARD_KINDS[k], _deck(deck), deck[k]))
        out.append(c)
    return out


def completed_from_count(name, n, phase_cards, phase_label):
    """Whether a player who did not go out completed their phase, from how many cards
    they hold. phase_cards is the number of cards that phase lays down."""
    if n == HAND_SIZE:
        return False
    most = HAND_SIZE - phase_cards
    if n == 0:
        raise RuleError("%s has no cards left, but only the player who went out can have none." % name)
    if n > HAND_SIZE:
        raise RuleError("%s holds %d cards; a hand holds 10 between turns." % (name, n))
    if n > most:
        raise RuleError(
            "%s holds %d cards: a player who did not complete %s holds exactly 10, one who completed it keeps at most %d."
            % (name, n, phase_label, most)
        )
    return True


# Sums of exactly m cards (m = 0..10) that are possible, in units of 5 points (0..50):
# _SUMS[m * 51 + s] is 1 when m cards can total 5*s points. Built once, on first use.
_SUMS = None


def _sums():
    global _SUMS
    if _SUMS is None:
        t = bytearray(11 * 51)
        # Enumerate counts of Skip (<= 4) and Wild (<= 8); the rest split 1-9 / 10-12.
        # (The Masters deck's 2 Skips give the same sums: any total three or four Skips
        # make with m cards, other cards of m make too.)
        for m in range(11):
            for w in range(min(m, 8) + 1):
                for s in range(min(m - w, 4) + 1):
                    rest = m - w - s
                    for hi in range(rest + 1):
                        units = (rest - hi) + 2 * hi + 3 * s + 5 * w
                        t[m * 51 + units] = 1
        _SUMS = t
    return _SUMS


def points_possible(points, m):
    if points % 5 or points < 0 or points > 250:
        return False
    return _sums()[m * 51 + points // 5] == 1


def completed_from_points(name, points, phase_cards, phase_label, said):
    """Whether a player who did not go out completed their phase, from their points.
    said is what the table said (True/False) or None; it is needed only when the points
    allow both. Raises RuleError when the points are impossible or the answer is needed."""
    if not isinstance(points, int) or points is True or points is False or points < 0:
        raise RuleError("%s: points must be a whole number, 0 or more." % name)
    if points % 5:
        raise RuleError("%s: %d points is not a multiple of 5; every card counts 5, 10, 15 or 25." % (name, points))
    most = HAND_SIZE - phase_cards
    done_ok = False
    for m in range(1, most + 1):
        if points_possible(points, m):
            done_ok = True
            break
    fail_ok = points_possible(points, HAND_SIZE)
    if not done_ok and not fail_ok:
        if points == 0:
            raise RuleError("%s has 0 points, but only the player who went out has no cards left." % name)
        raise RuleError(
            "%s: %d points cannot be the cards left (10 cards if %s was not completed, 1 to %d if it was)."
            % (name, points, phase_label, most)
        )
    if said is not None and said is not True and said is not False:
        raise RuleError("%s: completed must be yes or no." % name)
    if done_ok and fail_ok:
        if said is None:
            raise RuleError("%s: %d points fits both; say whether %s completed %s." % (name, points, name, phase_label))
        return said
    result = done_ok
    if said is not None and said != result:
        if result:
            raise RuleError("%s: %d points is under 10 cards' worth, so %s completed %s." % (name, points, name, phase_label))
        raise RuleError("%s: %d points is more than %d cards can hold, so %s did not complete %s." % (name, points, most, name, phase_label))
    return result


def check_deck(names, entries, deck=DECK_COUNTS):
    """Counts across the table cannot exceed the game's deck (8 Wilds, 4 Skips, ...: the
    Masters Edition has 2 Skips)."""
    for k in range(4):
        total = 0
        for e in entries:
            if isinstance(e, list):
                total += e[k]
        if total > deck[k]:
            raise RuleError("This hand lists %d %s cards; %s has only %d." % (total, CARD_KINDS[k], _deck(deck), deck[k]))
