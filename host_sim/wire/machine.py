"""The smallest `machine` the firmware runs on, for measuring the firmware's own heap: the
game-session twins (tests/twin_play.py with TWIN_WIRE set) and `make bench`'s min_heap put
host_sim/wire first on MICROPYPATH. A board's machine module is in its firmware, taking no
heap; everything here is heap the firmware under test cannot use, so it holds only what the
firmware touches: Pin inputs with pull-ups reading the shared key state, and an I2C bus whose
display is a wire: every write goes to a file as a frame (address, length low, length high,
the bytes) for the controller emulator in the test process to replay (tests/test_twin.py
play()). The full fake machine with the emulator in-process is host_sim/twin/machine.py."""


class _Keys:
    """Which button GPIOs are held (script.Device sets them)."""

    def __init__(self):
        self.held = {}
        self.bounce = 0          # no contact bounce on this machine

    def set(self, gpio, pressed):
        if pressed:
            self.held[gpio] = 1
        else:
            self.held.pop(gpio, None)


class _Bus:
    def __init__(self):
        self.bytes = 0           # on the wire: one address byte per transaction + payload
        self.clocks = 0
        self.f = None
        self.head = bytearray(3)


keys = _Keys()
bus = _Bus()


class Wire:
    """The display end of the bus as script.Device sees it (Device.panel())."""

    def mark(self):
        bus.f.write(b"\xff\x00\x00")

    def close(self):
        bus.f.close()


_WIRE = Wire()


def reset_world(controller="wire:", addr=0x3C):
    """Start over with the display wired to the file named after "wire:"."""
    if not controller.startswith("wire:"):
        raise ValueError("this machine only has a wired display (wire:PATH)")
    keys.held.clear()
    if bus.f is not None:
        bus.f.close()
    bus.f = open(controller[5:], "wb")
    bus.head[0] = addr
    bus.bytes = bus.clocks = 0
    return _WIRE


def panel(addr=0x3C):
    return _WIRE


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id

    def value(self, v=None):
        # A button shorts its pull-up input to ground.
        return 0 if self.id in keys.held else 1


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.freq = freq

    def writeto(self, addr, buf, stop=True):
        n = len(buf)
        bus.bytes += 1 + n
        bus.clocks += 9 * (1 + n)
        if addr != bus.head[0]:
            raise OSError(19)    # ENODEV: nobody answers at that address
        if n:                    # an empty write is a probe
            h = bus.head
            h[1] = n & 0xFF
            h[2] = n >> 8
            bus.f.write(h)
            bus.f.write(buf)
        return n

    def readfrom_into(self, addr, buf, stop=True):
        bus.bytes += 1 + len(buf)
        bus.clocks += 9 * (1 + len(buf))
        if addr != bus.head[0]:
            raise OSError(19)
        for i in range(len(buf)):
            buf[i] = 0x43        # status: display on, ready
