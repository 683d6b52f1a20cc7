# Help's keys for the twist_board screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick a pawn: its player and space are named below. OK "
        b"closes.")
