# The simulator's time: a clock that moves only when the firmware sleeps or spends time on
# work (spend_us: the bus, the flash, the processor, as the simulator charges them), with the
# methods of the board's (firmware/edges/clock.py). As it moves it fires what falls due on the way,
# in time order: the fake machine.Timer's callbacks (the buttons' sampling) and the changes
# a key script makes to the pins at their times. So a press made while the firmware is
# busy with a long step is sampled when it happens, as a board's timer samples it.
# Cost below is the time the firmware's own work takes. Runs under CPython and the
# micropython twin.

# MicroPython's millisecond counter wraps at 2**30 on every port; the virtual clock wraps at
# the same point so the app's arithmetic is exercised the same way.
_PERIOD = 1 << 30
_HALF = 1 << 29
# The simulator's time of day (wall()): 28 Nov 2026, 20:00, standing still. The same on every
# run and both runtimes whatever the keys' timing (a tap during a save, the twin's own
# charge for the firmware's work), so the same keys make the same files and screens.
WALL = 1795896000


class VirtualClock:
    """A clock that only moves when slept on or spent: the simulator's time. t is the time
    in ms since the clock's own start (never wraps); ticks_ms() the board's wrapped view."""

    def __init__(self, start=0):
        self.start = start & (_PERIOD - 1)
        self.t = 0
        self._us = 0            # spent time not yet a whole millisecond
        self._timers = []       # [due, period, callback(timer), timer]
        self._at = []           # [due, seq, fn()]: one-shot actions, in order
        self._seq = 0
        self._firing = False

    def ticks_ms(self):
        return (self.start + self.t) & (_PERIOD - 1)

    def ticks_diff(self, a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def wall(self):
        """The table's time (firmware/edges/clock.py wall): WALL."""
        return WALL

    # --- time passing --------------------------------------------------------------------
    def sleep_ms(self, ms):
        if ms > 0:
            self.run_to(self.t + ms)

    advance = sleep_ms

    def wait(self, ms, ready):
        """Sleep up to ms, but stop as soon as ready() is true after something fired (a
        key event queued by the sampling): the board's loop waits the same way."""
        end = self.t + ms
        while self.t < end:
            due = self._next_due()
            if due is None or due > end:
                self.run_to(end)
                return
            self.run_to(due if due > self.t else self.t)
            if ready():
                return

    def spend_us(self, us):
        """Time the firmware spent working (the bus, the flash, the processor)."""
        us += self._us
        self._us = us % 1000
        if us >= 1000:
            self.run_to(self.t + us // 1000)

    def run_to(self, target):
        """Move to target (ms since the clock's start), firing what falls due on the way."""
        if self._firing:          # a callback reading the time does not move it
            return
        while True:
            due = self._next_due()
            if due is None or due > target:
                break
            if due > self.t:
                self.t = due
            self._fire(due)
        if target > self.t:
            self.t = target

    def _next_due(self):
        due = None
        for tm in self._timers:
            if due is None or tm[0] < due:
                due = tm[0]
        if self._at and (due is None or self._at[0][0] <= due):
            due = self._at[0][0]
        return due

    def _fire(self, due):
        self._firing = True
        try:
            # one-shot actions first (a pin changed at t is seen by a sample at t)
            while self._at and self._at[0][0] <= due:
                self._at.pop(0)[2]()
            for tm in self._timers:
                if tm[0] <= due:
                    tm[0] = due + tm[1]
                    tm[2](tm[3])
        finally:
            self._firing = False

    # --- what fires --------------------------------------------------------------------
    def at(self, t, fn):
        """Call fn() when the clock reaches t (ms since its start)."""
        self._seq += 1
        item = [t, self._seq, fn]
        i = len(self._at)
        while i > 0 and (self._at[i - 1][0], self._at[i - 1][1]) > (t, self._seq):
            i -= 1
        self._at.insert(i, item)

    def add_timer(self, period, callback, timer):
        """A periodic timer (the fake machine.Timer): callback(timer) every period ms."""
        self.remove_timer(timer)
        self._timers.append([self.t + period, period, callback, timer])

    def remove_timer(self, timer):
        for i in range(len(self._timers)):
            if self._timers[i][3] is timer:
                self._timers.pop(i)
                return


# --- time passing while the processor works ----------------------------------------------
# On a board time passes by itself. Here, after each step of the firmware's loop
# (App.charge), the clock is moved on by what the step did, at rates estimated for an
# RP2040 at 125 MHz, so a key pressed while a game loads or a screen opens arrives during
# that work and waits in the buttons' queue, as on the board. The bus time of what went to
# the display is spent by the fake I2C itself (the exact wire time). The rates are round
# figures from make bench's measurements of the same work on the micropython binary scaled
# to the RP2040 (tools/bench/bench.py); the model counts only what the app counts the same way on
# CPython and on the twin (keys, screens built, frames, flash writes), so both see the same
# time pass and draw the same screens at the same moments.
KEY_US = 2500        # a key handed to a screen (a cursor, a stepper, a hold)
SCREEN_US = 25000    # a screen built: its module read from flash if need be, its rows
DRAW_US = 3000       # a frame drawn into the buffer
WRITE_US = 8000      # a file written on the flash (open, write, close, rename)
BYTE_US = 30         # a byte written to the flash
GAME_US = 100000     # a game taken into RAM: its rules' modules read from flash
RECORD_US = 6000     # each of its records read and replayed (a 30-hand game: ~0.3 s)


class Cost:
    def __init__(self, app):
        self.app = app
        self._snap()

    def _snap(self):
        a = self.app
        st = a.store
        self.h = a.handled
        self.m = a.screens.made
        self.r = a.redraws
        self.w = st.writes if st is not None else 0
        self.b = st.bytes_written if st is not None else 0
        s = a.session
        self.g = s.taken if s is not None else 0

    def __call__(self):
        a = self.app
        st = a.store
        us = (a.handled - self.h) * KEY_US + (a.screens.made - self.m) * SCREEN_US + (a.redraws - self.r) * DRAW_US
        if st is not None:
            us += (st.writes - self.w) * WRITE_US + (st.bytes_written - self.b) * BYTE_US
        s = a.session
        g = s.game if s is not None else None
        if g is not None and s.taken != self.g:
            us += GAME_US + len(g.records) * RECORD_US
        self._snap()
        if us:
            a.clock.spend_us(us)
