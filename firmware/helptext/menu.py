# Help's keys for the menu screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick a line, OK opens it. \"Continue\" goes back to the game running; "
        b"\"New game\" starts one (the running one is asked about first).")
