# Help's keys for the confirm screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = b"OK does it; hold OK leaves everything as it was."
