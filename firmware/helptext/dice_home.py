# Help's keys for the dice_home screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
# Short pieces, each starting a line: a long text needs a long free stretch of a heap
# in pieces, and Help over a Dice turn is where it is fullest.
TEXT = (b"UP/DOWN pick a line, OK opens it:",
        b"\"Roll\": the player named takes their turn;",
        b"\"Score sheet\"; \"Undo last turn\" asks first.",
        b"> marks whose turn it is, * the leader.",
        b"Game over: \"Finish game\" keeps it in History.")
