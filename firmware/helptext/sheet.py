# Help's keys for the sheet screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN scroll the hands; OK: the other players (with 5 or 6). On \"Correct which hand?\" UP/DOWN pick a "
        b"hand and OK corrects it. Hold OK: back.")
