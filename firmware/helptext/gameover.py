# Help's keys for the gameover screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN pick, OK: \"Finish game\" keeps the game in History; \"Score "
        b"sheet\"; \"Undo last hand\" plays on. A tie-break asks \"Who went out "
        b"first?\"")
