# Help's keys for the dice_sheet screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
# Short pieces, each starting a line: a long text needs a long free stretch of a heap
# in pieces, and Help over a Dice turn is where it is fullest.
TEXT = (b"UP/DOWN scroll the rows;",
        b"OK the next players (where there are more than three).",
        b"Hold OK: back.")
