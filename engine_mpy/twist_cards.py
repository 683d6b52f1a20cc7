# The ten Twist cards of Phase 10 Twist (docs/rules.md, "Twist"): what each asks, and the
# cards it lays down. Only a Twist game (and the Rules pages) loads this.

TWIST_TEXT = (
    "",
    "3 sets of 3",
    "4 sets of 2",
    "1 set of 5 + 1 run of 4",
    "2 sets of 3 + 1 run of 3",
    "1 set of 3 + 1 run of 6",
    "2 runs of 4",
    "4 of one colour + run of 4",
    "run of 5 all one colour",
    "8 cards of one colour",
    "9 cards of one colour",
)

TWIST_CARDS = b"\x00\x09\x08\x09\x09\x09\x08\x08\x05\x08\x09"


def twist_text(n):
    return TWIST_TEXT[n] if 1 <= n <= 10 else ""
