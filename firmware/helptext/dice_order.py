# Help's keys for the dice_order screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = b"OK rolls a die for each player; the highest starts, ties roll again. OK then starts the game. Hold OK: back."
