# Help's keys for the rules screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = b"UP/DOWN turn the pages: the phases, then the Twist cards. OK closes."
