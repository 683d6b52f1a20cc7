# Help's keys for the phones screen (firmware/screens/help.py): a module of its own, so
# that Help loads only the text of the screen it opens over.
TEXT = (b"A phone's camera on the code joins the Wi-Fi; DOWN: the page's address and its code, UP: back. OK closes. "
        b"On a network set from the PC: its address; if it cannot join, OK opens the device's own.")
