# Help's keys for the dice_turn screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
# Short pieces, each starting a line: a long text needs a long free stretch of a heap
# in pieces, and Help over a Dice turn is where it is fullest.
TEXT = (b"\x05The arrows move the frame as the screen is laid out:",
        b"\x05LEFT/RIGHT along a row, UP/DOWN to the row above or below;",
        b"\x05DOWN from the dice goes to the first button.",
        b"\x03UP/DOWN move the frame through the dice and buttons in a line.",
        b"OK on a die holds it (drawn inverted) or lets it go;",
        b"\"Roll\" rolls (three rolls); \"Stop\" saves the turn;",
        b"\"Hint\" marks the dice to hold with ^ and gives the chance.",
        b"Underlined: the dice the best score uses.",
        b"Hold OK: leave the turn (asks first once rolled).",
        b"Real dice: the die being set is inverted:",
        b"\x05UP/DOWN its number, LEFT/RIGHT its colour,",
        b"\x05OK takes it and the frame moves on by itself to the next die,",
        b"\x03UP/DOWN its number, OK, UP/DOWN its colour, OK takes it",
        b"\x03and the frame moves on by itself to the next die,",
        b"which starts on the same number: enter them lowest first.",
        b"Score checks them.")
