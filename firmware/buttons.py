# The five buttons as a pure state machine: update(pressed_bits, now_ms) -> key code or 0.
# No pins, no clock: the loop reads the pins (PinReader) and passes the time, so tests can
# feed any bounce sequence and any tick values, including ones that wrap.
#
# What a player sees:
# - a short press fires when the button is let go (so a long press of OK can be BACK instead);
# - holding OK for LONG_MS fires BACK at once, while still held, and the release is silent;
# - holding UP or DOWN fires the key again (with the REPEAT flag) after REPEAT_DELAY_MS,
#   then faster and faster down to one every REPEAT_MIN_MS; the release after a repeat is silent;
# - contact bounce shorter than DEBOUNCE_MS is ignored;
# - a button already held when the device starts does nothing until it is let go.

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_LEFT = const(3)
_RIGHT = const(4)
_OK = const(5)
_BACK = const(6)
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


_N = const(5)  # up, down, left, right, ok: bit i of pressed_bits
_I_UP = const(0)
_I_DOWN = const(1)
_I_OK = const(4)
_M_OK = const(16)
_M_STEPPERS = const(3)  # UP and DOWN repeat
_ALL5 = const(0x1F)
_ALL3 = const(0x13)  # three-button mode: UP, DOWN, OK
_KEY_OF = bytes((_UP, _DOWN, _LEFT, _RIGHT, _OK))
_QLEN = const(4)


class Buttons:
    # Tuning, as class attributes so a board or a test can change them.
    DEBOUNCE_MS = 10       # a change counts once the contact has been steady this long
    LONG_MS = 700          # OK held this long is BACK
    REPEAT_DELAY_MS = 450  # UP/DOWN held this long starts repeating
    REPEAT_FIRST_MS = 200  # then the gap between repeats starts here...
    REPEAT_MIN_MS = 40     # ...and shrinks by a quarter each time, down to this

    def __init__(self, three_button=False):
        self.three_button = three_button
        self._mask = _ALL3 if three_button else _ALL5
        self.state = 0        # debounced pressed bits
        self._raw = 0         # last sample
        self._raw_t = [0] * _N  # when each button's raw contact last changed
        self._down_t = [0] * _N  # when each debounced press began
        self._next_rep = [0, 0]  # UP, DOWN: when the next repeat is due
        self._gap = [0, 0]       # UP, DOWN: current gap between repeats
        self._done = 0        # held buttons whose press already fired (BACK or a repeat)
        self._ignore = 0      # held buttons to ignore until released
        self._started = False
        self._q = bytearray(_QLEN)  # events not yet handed out (one per update call)
        self._qh = 0
        self._qn = 0

    def cancel(self):
        """Make every button now held do nothing until it is let go (e.g. the key that
        woke the screen)."""
        self._ignore |= self.state

    def _push(self, key):
        if self._qn < _QLEN:
            self._q[(self._qh + self._qn) % _QLEN] = key
            self._qn += 1

    def update(self, pressed_bits, now_ms):
        """Feed one sample of the buttons (bit0 UP, bit1 DOWN, bit2 LEFT, bit3 RIGHT,
        bit4 OK; 1 = pressed) taken at now_ms. Returns one key code, or 0."""
        bits = pressed_bits & self._mask
        if not self._started:
            self._started = True
            self._raw = self.state = self._ignore = bits
            for i in range(_N):
                self._raw_t[i] = now_ms
            return 0
        changed = bits ^ self._raw
        if changed:
            self._raw = bits
            for i in range(_N):
                if changed & (1 << i):
                    self._raw_t[i] = now_ms
        pending = self._raw ^ self.state
        if pending:
            for i in range(_N):
                m = 1 << i
                if pending & m and ticks_diff(now_ms, self._raw_t[i]) >= self.DEBOUNCE_MS:
                    if bits & m:
                        self._pressed(i, m, now_ms)
                    else:
                        self._released(i, m)
        held = self.state & ~(self._ignore | self._done)
        if held & _M_OK and ticks_diff(now_ms, self._down_t[_I_OK]) >= self.LONG_MS:
            self._done |= _M_OK
            self._push(_BACK)
        held = self.state & ~self._ignore & _M_STEPPERS
        if held:
            for i in (_I_UP, _I_DOWN):
                if held & (1 << i) and ticks_diff(now_ms, self._next_rep[i]) >= 0:
                    self._done |= 1 << i
                    self._push(_KEY_OF[i] | _REPEAT)
                    # Timed from now, not from when it was due: a slow loop gets fewer
                    # repeats, never a burst of them.
                    self._next_rep[i] = ticks_add(now_ms, self._gap[i])
                    self._gap[i] = max(self.REPEAT_MIN_MS, self._gap[i] * 3 // 4)
        if self._qn:
            key = self._q[self._qh]
            self._qh = (self._qh + 1) % _QLEN
            self._qn -= 1
            return key
        return 0

    def _pressed(self, i, m, now_ms):
        self.state |= m
        self._done &= ~m
        self._down_t[i] = now_ms
        if i <= _I_DOWN:
            self._next_rep[i] = ticks_add(now_ms, self.REPEAT_DELAY_MS)
            self._gap[i] = self.REPEAT_FIRST_MS

    def _released(self, i, m):
        self.state &= ~m
        if self._ignore & m:
            self._ignore &= ~m
        elif not self._done & m:
            self._push(_KEY_OF[i])
        self._done &= ~m


class PinReader:
    """Reads the buttons from machine.Pin inputs with pull-ups (pressed = 0). pins: up,
    down, left, right, ok in that order; None for a button that is not fitted."""

    def __init__(self, pins):
        self._pins = tuple(pins)

    def read(self):
        bits = 0
        m = 1
        for p in self._pins:
            if p is not None and not p.value():
                bits |= m
            m <<= 1
        return bits
