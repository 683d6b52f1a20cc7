# Help's keys for the newgame screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"One question a page: UP/DOWN pick, OK takes it. Hold OK: the page before. Players: OK seats or unseats a name, "
        b"\"+ New player\" types one, \"Next\" goes on.")
