# Help's keys for the twist_hand screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"Who went out: UP/DOWN, OK. Then each player's cards left with "
        b"UP/DOWN and OK. \"Save hand\" on the check page saves. Hold OK: the "
        b"step before.")
