# Key scripts and the shared start-up of the simulated device. Runs under CPython (the
# simulator) and under the micropython binary (the twin, host_sim/twin_run.py), so both
# press the same buttons at the same virtual times and must show the same screens.
#
# A key is pressed by driving the fake machine.Pin inputs at its time on the virtual clock;
# the firmware's own timer (the fake machine.Timer on that clock), PinReader and Buttons
# turn that into key events, exactly as on a board. The presses keep their times whatever
# the firmware is doing: each step of the firmware costs time (host_sim/vclock.py, Cost), and a
# press made while it works waits in the buttons' queue, as on the board.

# Button bits as PinReader reports them (bit0 UP ... bit4 OK).
KEY_BITS = {"UP": 1, "DOWN": 2, "LEFT": 4, "RIGHT": 8, "OK": 16}
_ORDER = ("UP", "DOWN", "LEFT", "RIGHT", "OK")

PRESS_MS = 80    # a finger on a button for a short press
GAP_MS = 150     # between presses: longer than the debounce, so every press counts
LONG_MS = 1000   # LONG_OK: well past the buttons' long-press time (600 ms)
BOOT_MS = 100    # let the first screen draw before the script starts

HELP = ("keys: UP DOWN LEFT RIGHT OK LONG_OK (hold OK past the long-press time), "
        "HELP (OK held, UP pressed), WAIT:ms, HOLD_<KEY>:ms (e.g. HOLD_UP:2000 for "
        "auto-repeat), TAP_<KEY>:hold:gap (a press of hold ms, the next gap ms after it)")


class ScriptError(ValueError):
    pass


def _ms(tok, s):
    try:
        v = int(s)
    except ValueError:
        raise ScriptError("bad time in %r (whole milliseconds); %s" % (tok, HELP))
    if v < 0 or v > 86400000:
        raise ScriptError("time out of range in %r; %s" % (tok, HELP))
    return v


def parse(text):
    """A key script as a list of (pressed_bits, hold_ms, then_ms). Raises ScriptError
    naming the first word it does not know."""
    steps = []
    for tok in text.replace(",", " ").split():
        u = tok.upper()
        if u in KEY_BITS:
            steps.append((KEY_BITS[u], PRESS_MS, GAP_MS))
        elif u == "LONG_OK":
            steps.append((KEY_BITS["OK"], LONG_MS, GAP_MS))
        elif u == "HELP":
            steps.append((KEY_BITS["UP"] | KEY_BITS["OK"], PRESS_MS, GAP_MS))
        elif u.startswith("TAP_") and u.count(":") == 2:
            name, hold, gap = u[4:].split(":")
            if name not in KEY_BITS:
                raise ScriptError("unknown key %r in %r; %s" % (name, tok, HELP))
            steps.append((KEY_BITS[name], _ms(tok, hold), _ms(tok, gap)))
        elif u.startswith("WAIT:"):
            steps.append((0, 0, _ms(tok, u[5:])))
        elif u.startswith("HOLD_") and ":" in u:
            name, _, t = u[5:].partition(":")
            if name not in KEY_BITS:
                raise ScriptError("unknown key %r in %r; %s" % (name, tok, HELP))
            steps.append((KEY_BITS[name], _ms(tok, t), GAP_MS))
        else:
            raise ScriptError("unknown key %r; %s" % (tok, HELP))
    return steps


AHEAD_MS = 1000  # how long before its time a press is put on the clock


def play(app, set_bits, steps, clock):
    """Run the app's loop through a parsed script; set_bits(bits) drives the fake pins. The
    presses are at fixed times from now on: a press comes when its time comes, whether or
    not the firmware is done with the one before (it queues, as on the board). Then the
    loop runs until every key is handled."""
    t = clock.t
    for bits, hold, then in steps:
        # each press goes on the clock a second before its time, so a long step meets it
        # when it comes; one later than a step longer than that is made when it ends
        # (tests/twin_play.py plays keys the same way)
        run_until(app, clock, t - AHEAD_MS)
        if t < clock.t:
            t = clock.t
        if bits:
            clock.at(t, lambda b=bits: set_bits(b))
            clock.at(t + hold, lambda: set_bits(0))
        t += hold + then
    run_until(app, clock, t)
    settle(app, clock)


def run_until(app, clock, t):
    while clock.t < t:
        app.step()


def settle(app, clock, most=60000):
    """Step until no key is waiting in the buttons' queue (the firmware caught up)."""
    end = clock.t + most
    while app.buttons.pending() and clock.t < end:
        app.step()


class Device:
    """The firmware app built by firmware.main.build() on the fake machine: the board's
    pins read the shared fake key state, its I2C feeds the controller emulator, its clock
    is virtual and its filesystem is the folder state."""

    def __init__(self, board="pico", state=".", mem_free=None, bounce=0, panel="ssd1306",
                 start_ms=0, seed=1):
        import machine
        try:
            from host_sim.vclock import VirtualClock, Cost
        except ImportError:      # the twin: host_sim/ itself on the path
            from vclock import VirtualClock, Cost
        from firmware import main
        self.machine = machine
        machine.reset_world(panel)
        machine.keys.bounce = bounce
        from firmware.edges.board import Board
        try:
            self.board = Board(board)
        except (ValueError, ImportError):
            raise ScriptError("no board file firmware/boards/%s.py" % board)
        self.gpios = self.board.BUTTONS
        self.clock = VirtualClock(start_ms)
        machine.use_clock(self.clock)
        mf = None
        if mem_free is not None:
            mf = lambda: mem_free
        # A fixed seed by default: the same script rolls the same dice on both runtimes.
        self.app = main.build(self.board, self.clock, state, mf, seed)
        self.app.charge = Cost(self.app)
        # the table on phones (a board with Wi-Fi) serves on the PC's port 8080, not 80
        # (python -m host_sim --phones PORT chooses another)
        self.app.server_port = 8080
        self.app.run_for(BOOT_MS)

    def set_bits(self, bits):
        keys = self.machine.keys
        for i in range(len(self.gpios)):
            g = self.gpios[i]
            if g is not None:
                keys.set(g, bool(bits & (1 << i)))

    def play(self, steps):
        play(self.app, self.set_bits, steps, self.clock)

    def panel(self):
        return self.machine.panel()

    def rows(self):
        """What the glass shows: 64 strings of 128 characters, '#' lit, '.' dark."""
        return self.panel().rows()

    def bus(self):
        """(bytes on the I2C wire, their time in microseconds) since start-up."""
        b = self.machine.bus
        return b.bytes, b.clocks * 1000000 // self.board.I2C_FREQ
