# Help's keys for the hand screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"Who went out: UP/DOWN, OK. Cards left start at 10 cards of 1-9 (no phase). "
        b"UP one more 10-12, RIGHT one more Skip, DOWN one more Wild, each in place of a "
        b"1-9. LEFT one card fewer: 10, then what a completed phase leaves, down to 1. "
        b"Hold OK: undo. OK: next. Points start at 60: UP/DOWN 5, RIGHT/LEFT 25. Three "
        b"buttons: OK moves along the columns, UP/DOWN change one, OK on \"Wld\" or "
        b"hold OK: next player. Check page: OK saves. What the cards or points leave "
        b"open (Masters: the phase) shows the likelier answer; \"change\": UP/DOWN "
        b"pick the player, OK asks it. Hold OK: the step before.")
