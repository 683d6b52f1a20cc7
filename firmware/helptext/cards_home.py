# Help's keys for the cards_home screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick a line, OK opens it: a player says their phase; \"End of "
        b"hand\" enters how a hand ended; \"Score sheet\"; \"Undo last hand\" "
        b"asks first; \"Correct a hand\" picks one on the sheet; \"Rules\".")
