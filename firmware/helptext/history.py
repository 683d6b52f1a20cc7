# Help's keys for the history screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = b"UP/DOWN pick a game, OK shows its players and totals. Hold OK: back. The newest 1000 games are kept; when the flash is full the oldest go to make room, and a note says which."
