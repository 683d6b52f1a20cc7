# Help's keys for the settings screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = b"UP/DOWN pick a line, OK changes it: UP/DOWN the value, OK keeps it, hold OK leaves it as it was."
