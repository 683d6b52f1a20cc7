# Help's keys for the dice_roller screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
# Short pieces, each starting a line: a long text needs a long free stretch of a heap
# in pieces, and Help over a Dice turn is where it is fullest.
TEXT = (b"\x05The arrows move the frame as the screen is laid out:",
        b"\x05LEFT/RIGHT along a row, UP/DOWN to the row above or below;",
        b"\x05DOWN from the dice goes to Roll.",
        b"\x03UP/DOWN move the frame through the dice and buttons in a line.",
        b"OK on a die holds it (drawn inverted) or lets it go;",
        b"\"Roll\" rolls, as often as you like;",
        b"\"Phase\": the next phase to score; \"New\": start again;",
        b"\"Hint\" marks the dice to hold with ^.",
        b"Underlined: the dice the best score uses.",
        b"Hold OK: back to the menu.")
