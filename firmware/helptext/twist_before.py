# Help's keys for the twist_before screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"Nothing is picked at first: UP/DOWN pick the phase before, after, "
        b"\"Draw a Twist card\" or \"Card drawn by hand\"; OK takes it. A card "
        b"drawn here is shown only after OK: pass the device first.")
