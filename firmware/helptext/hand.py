# Help's keys for the hand screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"Who went out: UP/DOWN, OK.",
        b"\x05Cards left start at 10 cards of 1-9 (no phase). UP one more 10-12, RIGHT one more Skip, DOWN one more "
        b"Wild, each in place of a 1-9. LEFT one card fewer: 10, then what a completed phase leaves, down to 1. "
        b"Hold OK: undo. OK: next. Points start at 60: UP/DOWN 5, RIGHT/LEFT 25.",
        b"\x03Cards left start at 10 cards of 1-9 (no phase): OK moves along the columns, UP/DOWN change the one "
        b"marked; OK on \"Wld\" or hold OK: next player. Points start at 60: UP/DOWN 5; OK or hold OK: next player.",
        b"Check page: OK saves. What the cards or points leave open (Masters: the phase) shows the likelier "
        b"answer; \"change\": UP/DOWN pick the player, OK asks it.",
        b"\x05Hold OK: the step before.",
        b"\x03Hold OK: back to who went out, everything kept; there, hold OK leaves.")
