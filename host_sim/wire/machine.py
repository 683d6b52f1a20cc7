"""The smallest `machine` the firmware runs on, for measuring the firmware's own heap: the
twin runner (tests/twin_play.py, compiled with this into the build's runner/ folder) runs on
it for the game-session tests and make bench's heap figures. A board's machine module is in
its firmware, taking no heap; everything here is heap the firmware under test cannot use,
so it holds only what the firmware touches: Pin inputs with pull-ups reading which buttons
are held, and an I2C bus whose display is a wire: every write goes to a file as a frame
(address, length low, length high, the bytes) for the controller emulator in the test
process to replay (tests/test_twin.py play()). The full fake machine, with the emulator
in the same process, is host_sim/twin/machine.py."""

held = {}                 # GPIO -> 1 while its button is pressed
_clock = [None]
_head = bytearray(b"\x3c\x00\x00")
_f = []


def wire(path):
    """Wire the display to the file at path."""
    _f.append(open(path, "wb"))


def mark():
    """A mark in the wire file: the screen after a chunk of keys."""
    _f[0].write(b"\xff\x00\x00")


def close():
    _f[0].close()


def use_clock(clock):
    """The virtual clock the timers run on and the bus time is spent on."""
    _clock[0] = clock


class Timer:
    PERIODIC = 1

    def __init__(self, id=-1):
        pass

    def init(self, mode=1, period=5, callback=None):
        _clock[0].add_timer(period, callback, self)

    def deinit(self):
        _clock[0].remove_timer(self)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id

    def value(self, v=None):
        # A button shorts its pull-up input to ground.
        return 0 if self.id in held else 1


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        pass

    def writeto(self, addr, buf, stop=True):
        n = len(buf)
        if addr != 0x3C:
            raise OSError(19)    # ENODEV: nobody answers at that address
        if n:                    # an empty write is a probe
            h = _head
            h[1] = n & 0xFF
            h[2] = n >> 8
            f = _f[0]
            f.write(h)
            f.write(buf)
        # the processor waits on the wire: 9 clocks a byte at 400 kHz, the address too,
        # charged as the CPython simulator's bus (host_sim/twin/machine.py) charges them,
        # the address and the data apart, each rounded down: the twin's clock keeps step
        c = _clock[0]
        c.spend_us(45 // 2)
        c.spend_us(n * 45 // 2)
        return n
