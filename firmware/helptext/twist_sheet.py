# Help's keys for the twist_sheet screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick a hand: the move each pawn made, and the spaces now (\"sp\"). OK corrects the hand picked. "
        b"Hold OK: back.")
