# The buttons' pins as the app reads them (firmware/edges/buttons.py PinReader: read,
# edges, still), set by a test, and a press through them: for the tests that drive the
# whole app on both runtimes (test_app.py, test_stack.py).

# a key's bit in what read() returns (the board files' order: UP, DOWN, LEFT, RIGHT, OK)
BITS = {"UP": 1, "DOWN": 2, "LEFT": 4, "RIGHT": 8, "OK": 16}


class FakeReader:
    bits = 0

    def read(self):
        return self.bits

    def edges(self):
        return 0

    def still(self):
        return False      # no pin interrupts here: every sample reads the pins


def press(app, name, hold=50):
    """Hold key name for hold ms of the app's clock, then let it go and run 250 ms more."""
    app.reader.bits = BITS[name]
    app.run_for(hold)
    app.reader.bits = 0
    app.run_for(250)
