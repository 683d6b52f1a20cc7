# The five buttons. A timer samples the pins every PERIOD_MS (on the board a machine.Timer,
# firmware/main.py; or the loop itself where there is none), an edge on a pin asks for a
# sample at once (its interrupt schedules one), and each sample goes to
# Buttons.sample(), which turns presses into key events in a small queue; the loop takes
# them with get(), in order, whenever it is free. So a press made while the loop is busy
# (a game loading, a screen opening, a save) is caught when it happens and acted on after.
# No pins, no clock here: the caller passes the bits and the time, so tests feed any
# bounce sequence and any tick values, including ones that wrap.
#
# While the flash is erased or written (a save), the chip runs no code and no timer: a tap
# made and let go in that time falls between two samples. The pin interrupts still latch
# its two edges (PinReader.catch_edges), and the next sample gets them as `edges`: a button
# whose level did not change but which saw an edge since a sample that came late (over
# DEBOUNCE_MS after the one before) was pressed and let go in the gap, and counts as that
# tap, in its place. Samples on time ignore edges: a pulse that fits between two of them is
# shorter than a bounce, never a tap.
#
# What a player feels:
# - an arrow acts when pressed (not when let go); UP and DOWN held repeat after
#   REPEAT_DELAY_MS, faster and faster down to one every REPEAT_MIN_MS;
# - OK acts when let go, so that OK held for LONG_MS can be BACK (at once, while held;
#   its release is then silent);
# - UP or DOWN pressed while OK is held is HELP (OK's release is then silent): OK does
#   nothing until let go, so the chord never lets a stray key through first;
# - a change in a contact counts at once, then the contact is not read for DEBOUNCE_MS
#   (its bounce);
# - a button already held when the device starts does nothing until it is let go;
# - cancel() makes the buttons held now do nothing more until let go (the press that
#   woke the screen).

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_LEFT = const(3)
_RIGHT = const(4)
_OK = const(5)
_BACK = const(6)
_HELP = const(7)
_REPEAT = const(0x80)

try:
    from time import ticks_diff, ticks_add
except ImportError:
    # CPython: the same modular arithmetic as MicroPython (ticks wrap at 2**30), so tests
    # on the PC feed wrapped values and get the answers a board gets.
    _PERIOD = const(1 << 30)
    _HALF = const(1 << 29)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def ticks_add(a, b):
        return (a + b) & (_PERIOD - 1)


_N = const(5)  # up, down, left, right, ok: bit i of the bits sampled
_I_UP = const(0)
_I_DOWN = const(1)
_I_OK = const(4)
_M_UPDOWN = const(3)
_M_OK = const(16)
_ALL5 = const(0x1F)
_ALL3 = const(0x13)  # three-button mode: UP, DOWN, OK
_KEY_OF = b"\x01\x02\x03\x04\x05"
_SAMPLE_ORDER = b"\x04\x00\x01\x02\x03"
_QMASK = const(15)   # the queue holds 15 events (a power of two, less one)


class Buttons:
    # Tuning, as class attributes so a board or a test can change them.
    PERIOD_MS = 5          # how often the pins are sampled
    DEBOUNCE_MS = 20       # a contact is not read again this long after it changed
    LONG_MS = 600          # OK held this long is BACK
    REPEAT_DELAY_MS = 400  # UP/DOWN held this long starts repeating
    REPEAT_FIRST_MS = 160  # then the gap between repeats starts here...
    REPEAT_MIN_MS = 40     # ...and shrinks by a quarter each time, down to this

    def __init__(self, three_button=False):
        self.three_button = three_button
        self._mask = _ALL3 if three_button else _ALL5
        self.state = 0           # held buttons, as counted
        self._quiet = [0] * _N   # per button: not read until this time (its bounce)
        self._down_t = 0         # when OK was pressed
        self._next_rep = [0, 0]  # UP, DOWN: when the next repeat is due
        self._gap = [0, 0]       # UP, DOWN: the gap between repeats now
        self._done = 0           # held buttons whose release is silent (already acted)
        self._ignore = 0         # held buttons to ignore until let go
        self._started = False
        self._last = 0           # when the last sample was taken
        self._prev = 0           # (the one before, for _change)
        # nothing held, nothing read as pressed at the last sample and every bounce time
        # over: with every pin's edges caught, a sample with no edge since then would
        # change nothing (Sampler._tick then skips it)
        self.calm = False
        self._settled = 0        # when the last contact that changed is read again
        # The queue: sample() writes at _w, get() reads at _r, each index moved only by
        # its own side (the timer and the loop never touch the same one).
        self._q = bytearray(_QMASK + 1)
        self._w = 0
        self._r = 0
        self.lost = 0            # events dropped on a full queue (never, at a human pace)

    def use_three(self, on):
        """Three-button mode (UP, DOWN, OK) on or off; held buttons wait to be let go."""
        self.three_button = on
        self._mask = _ALL3 if on else _ALL5
        self.cancel()

    def cancel(self):
        """Every button held now does nothing more until it is let go."""
        self._ignore |= self.state

    def get(self):
        """The next key event (a key code, REPEAT flag for a repeat), or 0 when none."""
        r = self._r
        if r == self._w:
            return 0
        k = self._q[r]
        self._r = (r + 1) & _QMASK
        return k

    def pending(self):
        return self._r != self._w

    def _push(self, key):
        w = self._w
        n = (w + 1) & _QMASK
        if n == self._r:
            self.lost += 1
            return
        self._q[w] = key
        self._w = n

    def sample(self, bits, now, edges=0):
        """One sample of the buttons (bit0 UP, bit1 DOWN, bit2 LEFT, bit3 RIGHT, bit4 OK;
        1 = pressed) taken at now (ms); edges: the buttons (same bits) whose pin saw an edge
        since the last sample (0 where nothing latches them). Allocates nothing: it may run
        from a timer. (Split in three so that no frame passes the 11 words MicroPython
        keeps on the C stack: a bigger one is a heap allocation at every sample, 0.1 to
        0.5 ms on an RP2040 with a full heap, taken from the key being worked on.)"""
        bits &= self._mask
        last = self._last
        self._last = now
        if bits != self.state or not self._started or (
                edges and ticks_diff(now, last) > self.DEBOUNCE_MS):
            self._prev = last
            if self._change(bits, now, edges):
                return
        if self.state & ~(self._ignore | self._done):
            self._held(now)
        self.calm = not (bits | self.state) and ticks_diff(now, self._settled) >= 0

    def _change(self, bits, now, edges):
        # A sample whose levels changed, or a late one with edges; True: the first sample
        if not self._started:
            self._started = True
            self.state = self._ignore = bits
            self._settled = now
            q = self._quiet
            for i in range(_N):
                q[i] = now       # (0 could lie ahead of a counter about to wrap)
            return True
        last = self._prev
        changed = bits ^ self.state
        if ticks_diff(now, last) > self.DEBOUNCE_MS:
            # a late sample (the flash held the timer up): an edge on a button whose level
            # is as it was is a press and a let-go both made in the gap
            pulsed = edges & self._mask & ~changed
        else:
            pulsed = 0
        if not changed | pulsed:
            return False
        q = self._quiet
        for i in _SAMPLE_ORDER:   # OK first: OK and UP in one sample are the chord
            m = 1 << i
            if changed & m:
                if ticks_diff(now, q[i]) < 0:
                    continue
            elif not pulsed & m or ticks_diff(last, q[i]) < 0:
                # (edges that came while the last change could still bounce: bounce)
                continue
            q[i] = self._settled = ticks_add(now, self.DEBOUNCE_MS)
            if pulsed & m:
                # both edges in the gap: the tap it was (held: let go, pressed again)
                if bits & m:
                    self._released(m)
                    self._pressed(i, m, now)
                else:
                    self._pressed(i, m, now)
                    self._released(m)
            elif bits & m:
                self._pressed(i, m, now)
            else:
                self._released(m)
        return False

    def _held(self, now):
        # Buttons held that still act: OK long enough is BACK; UP and DOWN repeat
        held = self.state & ~(self._ignore | self._done)
        if held & _M_OK and ticks_diff(now, self._down_t) >= self.LONG_MS:
            self._done |= _M_OK
            self._push(_BACK)
        if held & 1 and ticks_diff(now, self._next_rep[_I_UP]) >= 0:
            self._repeat(_I_UP, now)
        if held & 2 and ticks_diff(now, self._next_rep[_I_DOWN]) >= 0:
            self._repeat(_I_DOWN, now)

    def _repeat(self, i, now):
        self._push(_KEY_OF[i] | _REPEAT)
        # Timed from now, not from when it was due: a late sample gives fewer repeats,
        # never a burst of them.
        self._next_rep[i] = ticks_add(now, self._gap[i])
        g = self._gap[i] * 3 // 4
        self._gap[i] = g if g > self.REPEAT_MIN_MS else self.REPEAT_MIN_MS

    def _pressed(self, i, m, now):
        self.state |= m
        self._done &= ~m
        if i == _I_OK:
            self._down_t = now
            return
        if m & _M_UPDOWN:
            if self.state & _M_OK and not (self._ignore | self._done) & _M_OK:
                # OK held, then UP or DOWN: HELP; neither acts again until let go
                self._done |= _M_OK | m
                self._push(_HELP)
                return
            self._next_rep[i] = ticks_add(now, self.REPEAT_DELAY_MS)
            self._gap[i] = self.REPEAT_FIRST_MS
        self._push(_KEY_OF[i])

    def _released(self, m):
        self.state &= ~m
        if self._ignore & m:
            self._ignore &= ~m
        elif m == _M_OK and not self._done & m:
            self._push(_OK)
        self._done &= ~m


try:
    from micropython import schedule
except ImportError:
    schedule = None      # CPython: the timer's samples alone


def _edge_counter(r, n, i):
    # A pin's interrupt handler: counts the edges of button i in n[i] (mod 256), then asks
    # for a sample at once (r.wake, set by Sampler.start): a press acts when the code
    # running lets the sample run, not at the timer's next tick (2.5 ms sooner on average
    # with a 5 ms period). Made once per pin at start; runs as a hard interrupt, so it
    # allocates nothing (the callback is bound once, and schedule() queues it as it is).
    def edge(pin):
        n[i] = (n[i] + 1) & 255
        w = r.wake
        if w is not None:
            try:
                schedule(w, None)
            except RuntimeError:    # the queue is full: the timer's next sample sees it
                pass
    return edge


class PinReader:
    """Reads the buttons from machine.Pin inputs with pull-ups (pressed = 0). pins: up,
    down, left, right, ok in that order; None for a button that is not fitted."""

    def __init__(self, pins):
        self._pins = tuple(pins)
        # edges counted per button by its pin interrupt (written only there) and the counts
        # edges() last handed on (written only there): neither side ever waits for the other
        self._n = bytearray(_N)
        self._seen = bytearray(_N)
        self.watched = False     # every fitted pin's edges are counted (catch_edges)
        self.wake = None         # what an edge schedules (Sampler.start): a sample now

    def catch_edges(self):
        """A pin interrupt on both edges of every fitted button, so that a tap made while
        the flash is written (no code runs, the timer waits) is still seen: the chip latches
        the edges and the handler counts them once the write is over. Returns how many
        pins have one (0 where the pins take no interrupt: the sampling alone then)."""
        got = 0
        for i in range(_N):
            p = self._pins[i]
            if p is None:
                continue
            try:
                trig = p.IRQ_FALLING | p.IRQ_RISING
                h = _edge_counter(self, self._n, i)
                try:
                    p.irq(handler=h, trigger=trig, hard=True)
                except TypeError:     # a port without hard interrupts on pins
                    p.irq(handler=h, trigger=trig)
                got += 1
            except (AttributeError, OSError, ValueError):
                pass
        self.watched = got > 0 and got == len(self._pins) - self._pins.count(None)
        return got

    def still(self):
        """No edge on any button since the last edges(), and every fitted pin's edges
        are counted: the levels are as the last read() found them."""
        return self.watched and self._n == self._seen

    def edges(self):
        """The buttons (bit i for button i) whose pin saw an edge since the last call."""
        n = self._n
        s = self._seen
        e = 0
        for i in range(_N):
            c = n[i]
            if c != s[i]:
                s[i] = c
                e |= 1 << i
        return e

    def read(self):
        bits = 0
        m = 1
        for p in self._pins:
            if p is not None and not p.value():
                bits |= m
            m <<= 1
        return bits


class Sampler:
    """The timer's side: every Buttons.PERIOD_MS, read the pins and hand the sample to
    the buttons. start() runs it on timer (a machine.Timer); where that fails (a board
    without one free) the loop calls poll() instead (App.step). The one callback is made
    once here: a timer firing allocates nothing."""

    def __init__(self, reader, buttons, clock):
        self.reader = reader
        self.buttons = buttons
        self.clock = clock
        self.timer = None
        self._cb = self._tick

    def _tick(self, t):
        r = self.reader
        b = self.buttons
        now = self.clock.ticks_ms()
        if b.calm and r.still():
            # nothing held, nothing pressed and no edge since: the sample would only note
            # its time. Skipped, because sample()'s frame is too big for the C stack (a
            # heap allocation 200 times a second is most of an idle device's work).
            b._last = now
            return
        # the edges before the levels: an edge that comes in between is in the level read
        # now and counted again, as an edge, only at the next sample, inside its bounce time
        e = r.edges()
        b.sample(r.read(), now, e)

    def poll(self):
        if self.timer is None:
            self._tick(None)

    def start(self, timer):
        """Run on timer (machine.Timer(id)); True when it runs."""
        try:
            timer.init(mode=timer.PERIODIC, period=self.buttons.PERIOD_MS, callback=self._cb)
        except Exception:     # no such timer on this board: the loop samples instead
            return False
        self.timer = timer
        if schedule is not None and getattr(self.reader, "watched", False):
            self.reader.wake = self._cb      # and an edge asks for one at once
        return True

    def stop(self):
        t = self.timer
        if t is not None:
            self.timer = None
            if getattr(self.reader, "wake", None) is not None:
                self.reader.wake = None
            try:
                t.deinit()
            except Exception:
                pass
