# Help's keys for the players screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick a player, OK shows their games; OK there renames them. "
        b"\"+ New player\" types one.")
