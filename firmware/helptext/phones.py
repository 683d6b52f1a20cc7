# Help's keys for the phones screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"A phone's camera on the code joins the Wi-Fi; RIGHT: the page's address "
        b"and its code, LEFT: back. OK closes. On a network set from the PC: its "
        b"address; if it cannot join, OK opens the device's own.")
