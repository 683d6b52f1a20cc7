# Help's keys for the picker screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"UP/DOWN turn the wheel under the cursor, OK takes its letter. The tick ends the name, the arrow deletes.",
        b"\x05LEFT deletes a letter too.",
        b"Hold OK: cancel.")
