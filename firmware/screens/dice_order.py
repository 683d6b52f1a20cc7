# Phase 10 Dice: the turn-order roll that starts a game.
#
# For the new-game screens: push("dice_order", settings) with settings = {"players":
# [names in seating order]} once the players are chosen; nothing else. This screen rolls
# one high die for every player (OK; app.rng), the highest plays first, players who tie
# roll again among themselves (engine_mpy.dice_order.OrderRoll) until the order is settled.
# Then OK starts the game: session.start("dice", settings + "order"), every screen above
# the main menu closes and the Dice home screen ("dice_home") opens. A refused start
# (bad names, the flash refused the save) is said in a note and nothing is started.
# Solitaire (one player) has no order to roll: OK starts at once.
# Leaving before the start (BACK/LEFT) starts nothing.
from firmware.screens.base import Screen, title_bar, scroll_mark, W, LINE_H
from engine_mpy.dice_order import OrderRoll

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_OK = const(5)
_RIGHT = const(4)
_KEY_MASK = const(0x7F)


_ROWS = const(6)


class DiceOrder(Screen):
    def __init__(self, app, settings):
        Screen.__init__(self, app)
        self.settings = settings
        self.names = settings["players"]
        n = len(self.names)
        self.roll = OrderRoll(n)
        self.vals = bytearray(n)   # each player's latest roll (0: none yet)
        self.rolls = 0
        self.top = 0

    def closed(self):
        # The roll is over (or given up): its rules go with this screen.
        from engine_mpy.modules import forget
        forget("engine_mpy.dice_order")

    def key(self, k):
        b = k & _KEY_MASK
        if b == _UP or b == _DOWN:
            t = self.top + (1 if b == _DOWN else -1)
            if 0 <= t <= len(self.names) - _ROWS:
                self.top = t
                self.dirty = True
            return True
        if b == _OK or b == _RIGHT:
            if self.roll.done():
                self.start()
            else:
                seats = self.roll.waiting[:]
                got = self.roll.roll(self.app.rng)
                for k in range(len(seats)):
                    self.vals[seats[k]] = got[k]
                self.rolls += 1
                self.dirty = True
            return True
        return False

    def start(self):
        s = dict(self.settings)
        s["order"] = self.roll.order()
        app = self.app
        err = app.session.start("dice", s)
        if err:
            app.push("note", err)
            return
        while len(app.stack) > 1:
            app.pop()
        app.push("dice_home")

    def draw(self, c):
        title_bar(c, "Turn order")
        r = self.roll
        done = r.done()
        order = r.order() if done else None
        n = len(self.names)
        for i in range(_ROWS):
            k = self.top + i
            if k >= n:
                break
            y = LINE_H + i * LINE_H
            # Settled: the players in turn order with their place; else in seating order.
            p = order[k] if done else k
            c.text(("%d " % (k + 1) if done and n > 1 else "  ") + self.names[p], 1, y)
            if self.vals[p]:
                s = str(self.vals[p])
                c.text(s, 110 - c.text_width(s), y)
            if not done and p in r.waiting and self.rolls:
                c.text("?", 116, y)   # tied: rolls again
        scroll_mark(c, self.top, _ROWS, n)
        if n == 1:
            s = "Solitaire. OK: start"
        elif done:
            s = "OK: start the game"
        elif self.rolls:
            s = "Tie! OK: roll again"
        else:
            s = "OK: roll a high die"
        c.text(s, 1, 56)
        c.invert_rect(0, 56, W, 8)


def make(app, arg):
    return DiceOrder(app, arg)
