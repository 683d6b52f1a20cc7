# Help's keys for the newgame screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"One question a page: UP/DOWN pick, OK takes it. LEFT or hold OK: the "
        b"page before. Players: OK seats or unseats a name, \"+ New player\" types "
        b"one, \"Next\" goes on.")
