"""A fake `machine` module for the simulator and the micropython twin: put host_sim/twin
first on sys.path (CPython) or MICROPYPATH (micropython) and the firmware's own
`import machine` gets this. It behaves rather than stubs:

- Pin inputs read the shared key state `keys`: a button wired to ground with the pull-up
  on reads 1 released and 0 pressed; contact bounce can be switched on (keys.bounce = n
  makes the next n reads after each change alternate between the old and new level); a
  pin's interrupt handler (Pin.irq) runs at each change, as the chip's edge detector's does.
- I2C(id, scl=, sda=, freq=) talks to the devices on the shared bus `bus` (reset_world()
  puts one SSD1306 controller emulator at 0x3C, see host_sim/ssd1306_emu.py), counts the
  bytes on the wire (one address byte per transaction plus the payload) and the bus time
  (9 clocks a byte at freq), and raises OSError(19) (ENODEV) for an address nobody
  answers, as a real bus does.

- Timer(id).init(period=, callback=) runs its callback on the simulator's virtual clock
  (use_clock(); host_sim/vclock.py), so the buttons are sampled as time passes, also
  while the firmware is busy; the bus time of every I2C write is spent on that clock.

The heap measurements (the game-session twins, `make bench`) use host_sim/wire/machine.py
instead: the firmware's minimum, with the display a wire to a file.

Always import it as `machine`, so the firmware and the simulator share one world.
"""

_ENODEV = 19


# --- the world outside the board ------------------------------------------------------
class Keys:
    """Which buttons are held, by GPIO number, as the simulator or a test sets them."""

    def __init__(self):
        self.held = {}          # gpio -> True while pressed
        self.bounce = 0         # reads that chatter after each change
        self._chatter = {}      # gpio -> reads of chatter left
        self.edge = {}          # gpio -> its pin's interrupt handler (Pin.irq), if any

    def press(self, gpio):
        self.set(gpio, True)

    def release(self, gpio):
        self.set(gpio, False)

    def set(self, gpio, pressed):
        if bool(self.held.get(gpio)) != bool(pressed):
            if self.bounce:
                self._chatter[gpio] = self.bounce
            if pressed:
                self.held[gpio] = True
            else:
                self.held.pop(gpio, None)
            self._edge(gpio)

    def _edge(self, gpio):
        h = self.edge.get(gpio)
        if h is not None:
            # on the virtual clock, at this time but after what is changing the pins now
            # has changed them all (a chord's two buttons let go in one step): the order a
            # board's interrupt comes in, after the pin changed, without a half-done change
            c = _clock[0]
            if c is None:
                h()
            else:
                c.at(c.t, h)

    def release_all(self):
        for g in list(self.held):
            self.release(g)

    def pressed(self, gpio):
        """The contact as a pin sees it now (True = closed), chatter included."""
        now = bool(self.held.get(gpio))
        left = self._chatter.get(gpio, 0)
        if left:
            self._chatter[gpio] = left - 1
            if left & 1:                   # odd reads of the chatter show the old level
                # (so the contact still has to come back: an edge the pin latches, as
                # a real bounce's last edge comes after any read that saw it open)
                self._edge(gpio)
                return not now
        return now


class Bus:
    """The I2C devices wired to the board, by address, and the wire totals."""

    def __init__(self):
        self.devices = {}
        self.bytes = 0
        self.clocks = 0
        self.errors = []        # (address, message) for writes nobody answered

    def attach(self, addr, device):
        self.devices[addr] = device
        return device

    def detach(self, addr):
        self.devices.pop(addr, None)


keys = Keys()
bus = Bus()


def reset_world(controller="ssd1306", addr=0x3C):
    """Start over: no key held, one fresh display controller at addr; returns it."""
    keys.held.clear()
    keys._chatter.clear()
    keys.edge.clear()
    keys.bounce = 0
    bus.devices.clear()
    bus.bytes = bus.clocks = 0
    bus.errors = []
    # The emulator is imported only when a world with one is made.
    try:
        from host_sim import ssd1306_emu
    except ImportError:        # twin run with host_sim/ on the path instead of the root
        import ssd1306_emu
    return bus.attach(addr, ssd1306_emu.Controller(controller))


def panel(addr=0x3C):
    """The display controller emulator at addr (None if there is none)."""
    return bus.devices.get(addr)


# --- Pin --------------------------------------------------------------------------------
class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = Pin.IN
        self.pull = None
        self._out = 0
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self._out = 1 if value else 0

    def value(self, v=None):
        if v is not None:
            self._out = 1 if v else 0
            return None
        if self.mode == Pin.OUT:
            return self._out
        if keys.pressed(self.id):
            return 0                        # the button shorts the pin to ground
        return 1 if self.pull == Pin.PULL_UP else 0

    __call__ = value

    def on(self):
        self._out = 1

    def off(self):
        self._out = 0

    def irq(self, handler=None, trigger=0, hard=False):
        # called on every change of the contact (Keys.set), as the chip's edge detector
        # does: the buttons skip a sample when no edge came since the last one
        self.handler = handler
        if handler is None:
            keys.edge.pop(self.id, None)
        else:
            keys.edge[self.id] = lambda: handler(self)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


# --- I2C --------------------------------------------------------------------------------
class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.bytes = 0            # on this bus object: address bytes + payload
        self.clocks = 0
        self.writes = 0

    def _count(self, n):
        self.bytes += n
        self.clocks += 9 * n
        bus.bytes += n
        bus.clocks += 9 * n
        c = _clock[0]
        if c is not None:
            c.spend_us(9 * n * 1000000 // self.freq)   # the processor waits on the wire

    @property
    def bus_us(self):
        """Time the bytes took on the wire so far, in microseconds."""
        return self.clocks * 1000000 // self.freq

    def _device(self, addr):
        dev = bus.devices.get(addr)
        if dev is None:
            bus.errors.append((addr, "no device answered"))
            raise OSError(_ENODEV)
        return dev

    def scan(self):
        found = list(bus.devices)
        found.sort()
        return found

    def writeto(self, addr, buf, stop=True):
        self._count(1)                      # the address byte goes out either way
        dev = self._device(addr)
        self._count(len(buf))
        self.writes += 1
        if len(buf):                        # an empty write is a probe: nothing to decode
            dev.write(buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        # One transaction made of several buffers: join them as the wire would.
        data = bytearray()
        for b in vector:
            data.extend(b)
        return self.writeto(addr, data, stop)

    def readfrom_into(self, addr, buf, stop=True):
        self._count(1)
        dev = self._device(addr)
        self._count(len(buf))
        for i in range(len(buf)):
            buf[i] = dev.read()

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)


SoftI2C = I2C


# --- Timer ------------------------------------------------------------------------------
_clock = [None]


def use_clock(clock):
    """The virtual clock the timers run on and the bus time is spent on (None: none)."""
    _clock[0] = clock


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1):
        self.id = id

    def init(self, mode=PERIODIC, period=-1, callback=None, freq=-1):
        c = _clock[0]
        if c is None:
            raise OSError("no clock for the fake timers (machine.use_clock)")
        if freq > 0:
            period = 1000 // freq
        if period <= 0 or callback is None:
            raise ValueError("a period and a callback")
        c.add_timer(period, callback, self)

    def deinit(self):
        c = _clock[0]
        if c is not None:
            c.remove_timer(self)


# --- the rest the firmware touches ------------------------------------------------------
_freq = [125000000]


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz


def unique_id():
    return b"\x54\x57\x49\x4e\x00\x00\x00\x01"     # "TWIN" + serial 1


resets = [0]


def reset():
    """Counted, not performed: the simulator decides what a reset means."""
    resets[0] += 1


soft_reset = reset


def idle():
    pass


def lightsleep(ms=0):
    pass
