# Help's keys for the twist_home screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick a line, OK opens it: a pawn says its space and phase; "
        b"\"Play hand\" asks a pawn on a Twist space first, then how the hand "
        b"ended; \"Board\"; \"Score sheet\"; \"Undo last hand\" asks first; "
        b"once over, \"Finish game\".")
