# The ten phases, as the rulebooks give them (docs/rules.md); the Twist cards are
# engine_mpy/twist_cards.py. Tables are tuples/bytes so frozen firmware keeps them in flash.

# Phase 10 is "set of 5 + set of 3" (RULINGS.md: the website's "set of 4" is a typo).
PHASE_TEXT = (
    "",
    "2 sets of 3",
    "1 set of 3 + 1 run of 4",
    "1 set of 4 + 1 run of 4",
    "1 run of 7",
    "1 run of 8",
    "1 run of 9",
    "2 sets of 4",
    "7 cards of one colour",
    "1 set of 5 + 1 set of 2",
    "1 set of 5 + 1 set of 3",
)

# Cards laid down to make each phase (index = phase number): a player who completed a
# phase but did not go out keeps 1 .. 10 - this many cards.
PHASE_CARDS = b"\x00\x06\x07\x08\x07\x08\x09\x08\x07\x07\x08"

# Penalty points for a card left in hand (Classic and Masters): 1-9, 10-12, Skip, Wild.
CARD_POINTS = b"\x05\x0a\x0f\x19"
CARD_KINDS = ("1-9", "10-12", "Skip", "Wild")
# How many of each kind a deck holds: no hand can list more (RULINGS.md, "The decks").
# Classic (and Twist: its Twist cards are apart) 108 cards: 72 of 1-9, 24 of 10-12, 4 Skips,
# 8 Wilds; the Masters Edition has 2 Skips (its book: "two Skip cards").
DECK_COUNTS = b"\x48\x18\x04\x08"
MASTERS_DECK = b"\x48\x18\x02\x08"
HAND_SIZE = 10


def phase_text(n):
    return PHASE_TEXT[n] if 1 <= n <= 10 else ""
