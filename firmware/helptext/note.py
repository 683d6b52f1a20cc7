# Help's keys for the note screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = b"UP/DOWN scroll, OK closes."
