# Phase 10 Dice: one turn of the running game, and (arg "free") the free roller.
#
# The ten dice in two rows (4 low above, 6 high below), each with its number and colour
# glyph; a held die is drawn inverted, the dice the best score uses are underlined, the
# cursor is a frame. Every arrow moves the cursor over the dice and the action buttons on
# the last line (DOWN and RIGHT onward, UP and LEFT back: no arrow leaves the turn); OK
# presses what it is on: a die is held or released, Roll rolls, Stop asks to save the turn
# (OK saves it through app.session.apply, any other key goes on rolling). "Real dice"
# enters what real dice show instead: OK on a die steps its number, then its colour, with
# UP/DOWN; Score checks them against the set (engine_mpy.dice_match). Leaving is its own
# choice, a long OK: after a roll it asks first, on Stay, saying that the dice are lost.
# Hint (engine_mpy.dice_advise, loaded for the press and dropped after) marks the dice to
# hold with a ^ under them and shows the chance and expected score; on real dice each
# press assumes one roll fewer left (2, 1, none), shown on the phase line.
# In a game the turn takes the place of the home screen on the stack (both at once do not
# fit beside the engine in a small heap) and puts it back when it closes.
# The engine scores everything (Turn.best); this screen only draws and asks.
from firmware.screens.base import Screen, title_bar
from engine_mpy.dice import Turn, PHASE_LABEL, FACE_NUM, FACE_COL, N_DICE, N_LOW, RuleError

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
_KEY_MASK = const(0x7F)


_CELL = const(21)
_LOW_Y = const(9)
_HIGH_Y = const(25)
_NUM = (" W", " 1", " 2", " 3", " 4", " 5", " 6", " 7", " 8", " 9", "10")
_COLG = ("colour_r", "colour_o", "colour_b", "colour_g")
# Action buttons, by mode: the labels on the last line.
_GAME0 = ("Roll", "Real dice")
_GAME = ("Roll", "Stop", "Hint")
_LAST = ("Stop", "Hint")
_ENTER = ("Score", "Stop")
_ENTERED = ("Score", "Stop", "Hint")
_FREE = ("Roll", "Phase", "New")
_FREE_ROLLED = ("Roll", "Phase", "New", "Hint")
_LOW_NUMS = b"\x01\x02\x03\x04\x00"


def short_label(ph):
    # "1 set of 3 & 1 run of 4" is 23 characters; the line holds 21.
    return PHASE_LABEL[ph].replace(" & 1 ", " + ")


def cell_xy(d):
    if d < N_LOW:
        return 22 + d * _CELL, _LOW_Y
    return 1 + (d - N_LOW) * _CELL, _HIGH_Y


class DiceTurn(Screen):
    def __init__(self, app, free):
        Screen.__init__(self, app)
        self.free = free
        self.turn = Turn()
        self.phase = 1
        self.player = -1
        if not free:
            g = app.session.game
            self.player = g.state.player()
            self.phase = g.state.phase[self.player]
            self.name = g.name(self.player)
        self.label = short_label(self.phase)
        self.score = -1
        self.used = 0
        self.count = 0      # rolls shown (the free roller goes past three)
        self.entering = False
        self.where = None   # entered dice: which real die each slot is on
        self.edit = 0       # 1: stepping a die's number, 2: its colour
        self.ask = 0        # 1: save the turn?  2: leave and lose the dice?
        self.quit = False   # on "leave?": Leave chosen (else Stay)
        self.sel = N_DICE   # the cursor: dice 0-9, then the action buttons
        self.hint = None    # (dice to mark, line, real dice: rolls assumed left) or None
        self.nums = self.turn.nums
        self.cols = self.turn.cols

    # --- what is on the last line --------------------------------------------------------
    def actions(self):
        if self.free:
            return _FREE_ROLLED if self.count else _FREE
        if self.entering:
            return _ENTERED if self.where is not None else _ENTER
        if self.count == 0:
            return _GAME0
        return _GAME if self.turn.can_roll() else _LAST

    def action(self):
        a = self.actions()
        i = self.sel - N_DICE
        return a[i] if 0 <= i < len(a) else None

    # --- keys --------------------------------------------------------------------------
    def key(self, k):
        b = k & _KEY_MASK
        if self.ask == 1:
            # "Save?": OK saves, any other key goes back to the dice
            if b == _OK:
                self.save()
            else:
                self.ask = 0
                self.dirty = True
            return True
        if self.ask == 2:
            # "Leave?": the arrows choose Stay or Leave, OK does it (Stay first)
            if b == _OK:
                if self.quit:
                    self.leave()
                else:
                    self.ask = 0
            elif b != _BACK:
                self.quit = not self.quit
            self.dirty = True
            return True
        if self.edit:
            return self.key_edit(b)
        if b == _UP or b == _DOWN or b == _LEFT or b == _RIGHT:
            # every arrow moves the cursor (over the dice, then the buttons): none leaves
            n = N_DICE + len(self.actions())
            self.sel = (self.sel + (1 if b == _DOWN or b == _RIGHT else -1)) % n
            self.dirty = True
            return True
        if b == _OK:
            self.press()
            return True
        if b == _BACK:
            # leaving is its own choice (long OK), and says what it loses
            if self.free or not (self.count or self.where is not None):
                self.leave()
            else:
                self.ask = 2
                self.quit = False
                self.dirty = True
            return True
        return False

    def leave(self):
        if self.free:
            self.app.pop()
            return
        # The turn took the home screen's place on the stack (RAM): give it back.
        self.app.pop()
        self.app.push("dice_home")

    def press(self):
        s = self.sel
        self.dirty = True
        if s < N_DICE:
            if self.entering:
                self.edit = 1
                self.where = None
                self.score = -1
                self.hint = None
            elif 1 <= self.turn.rolls <= 2:
                self.turn.hold(s, not self.turn.is_held(s))
            return
        a = self.action()
        if a == "Roll":
            self.roll()
        elif a == "Stop":
            if self.count or self.where is not None:
                self.ask = 1
            else:
                self.app.push("note", "Roll the dice, or score the real dice, first.")
        elif a == "Real dice":
            self.entering = True
            t = self.turn
            for d in range(N_DICE):
                # Each slot starts on a face its row's dice have; the player steps it.
                t.nums[d] = FACE_NUM[d * 6]
                t.cols[d] = FACE_COL[d * 6]
            self.nums = bytearray(t.nums)
            self.cols = bytearray(t.cols)
            self.sel = 0
        elif a == "Score":
            self.score_entered()
        elif a == "Hint":
            self.show_hint()
        elif a == "Phase":
            self.phase = self.phase % 10 + 1
            self.label = short_label(self.phase)
            self.evaluate()
        elif a == "New":
            self.hint = None
            self.turn = Turn()
            self.nums = self.turn.nums
            self.cols = self.turn.cols
            self.count = 0
            self.score = -1
            self.used = 0

    def key_edit(self, b):
        d = self.sel
        if b == _UP or b == _DOWN:
            step = 1 if b == _UP else -1
            if self.edit == 2:
                self.cols[d] = (self.cols[d] + step) % 4
            elif d < N_LOW:
                i = _LOW_NUMS.find(bytes((self.nums[d],)))
                self.nums[d] = _LOW_NUMS[(i + step) % 5]
            else:
                self.nums[d] = (self.nums[d] - 5 + step) % 6 + 5
        elif b == _OK or b == _RIGHT:
            if self.edit == 1:
                self.edit = 2
            else:
                self.edit = 0
                self.sel = d + 1   # on to the next die; after the last, Score
        elif b == _BACK or b == _LEFT:
            self.edit = 0
        self.dirty = True
        return True

    # --- the turn ------------------------------------------------------------------------
    def roll(self):
        t = self.turn
        if self.free and t.rolls >= 3:
            t.rolls = 2   # the free roller keeps rolling, holds and all
        elif not t.can_roll():
            return
        t.roll(self.app.rng)
        self.count += 1
        self.evaluate()
        if not self.free and not t.can_roll():
            self.sel = N_DICE   # the third roll: Stop is all that is left

    def show_hint(self):
        import gc
        from engine_mpy.modules import forget

        h = self.hint
        self.hint = None
        # Room for the advisor: real dice's matching is not needed again until Score, and
        # the advisor's code loads into one tidy stretch of the heap.
        forget("engine_mpy.dice_match")
        gc.collect()
        from engine_mpy import dice_advise
        if self.where is not None:
            left = 2 if h is None or not h[2] else h[2] - 1
        else:
            left = 3 - self.turn.rolls
        m, s = dice_advise.hint(self.phase, left, self.turn.faces, self.score)
        dice_advise = None
        forget("engine_mpy.dice_advise")
        self.hint = (m, s, left if self.where is not None else 0)

    def evaluate(self):
        self.hint = None
        if self.count or self.where is not None:
            self.score, self.used = self.turn.best(self.phase)

    def score_entered(self):
        pairs = []
        for d in range(N_DICE):
            pairs.append((self.nums[d], self.cols[d]))
        try:
            self.where = self.turn.enter(pairs)
        except RuleError as e:
            self.where = None
            self.app.push("note", e.args[0])
            return
        self.evaluate()
        self.sel = N_DICE + 1

    def save(self):
        self.ask = 0
        try:
            rec = self.turn.record(self.player)
        except RuleError as e:
            self.app.push("note", e.args[0])
            return
        err = self.app.session.apply("add", rec)
        if err:
            # Refused: the dice stay on screen as they were.
            self.app.push("note", err)
            return
        self.leave()

    def marked(self, m, d):
        if self.where is not None:
            return m >> self.where[d] & 1
        return m >> d & 1

    # --- drawing -------------------------------------------------------------------------
    def draw(self, c):
        if self.free:
            title_bar(c, "Roller  P%d" % self.phase)
            s = "Roll %d" % self.count
        else:
            title_bar(c, "%s  P%d" % (self.name[:8], self.phase))
            s = "Real dice" if self.entering else "Roll %d/3" % self.count
        # Drawn in the inverted font over the title bar's lit line.
        c.text(s, 126 - c.text_width(s), 0, 0)
        shown = self.count or self.entering
        for d in range(N_DICE):
            x, y = cell_xy(d)
            if shown:
                c.text(_NUM[self.nums[d]], x + 1, y + 2)
                c.glyph(_COLG[self.cols[d]], x + 12, y + 2)
            else:
                c.text(" -", x + 1, y + 2)
            if self.turn.held >> d & 1:
                c.invert_rect(x + 1, y + 1, 19, 10)
            if d == self.sel:
                c.rect(x, y, _CELL, 12)
                if self.edit:
                    # The part being stepped is underlined inside the frame.
                    if self.edit == 1:
                        c.hline(x + 2, y + 10, 11)
                    else:
                        c.hline(x + 12, y + 10, 7)
            if self.hint:
                if self.marked(self.hint[0], d):
                    c.hline(x + 9, y + 13, 3)   # a small ^: hold this one
                    c.hline(x + 8, y + 14, 5)
            elif self.score >= 0 and self.marked(self.used, d):
                c.fill_rect(x + 3, y + 13, 15, 2)
        # The result line and the phase.
        if self.ask == 1:
            s = "Save: %s?" % (("%d points" % self.score) if self.score >= 0 else "not made")
        elif self.ask == 2:
            s = ("Leave? These dice" if self.where is not None else "Leave? Roll %d" % self.count)
        elif self.edit:
            s = "%s: UP/DOWN, OK" % ("Number" if self.edit == 1 else "Colour")
        elif self.hint:
            s = self.hint[1]
        elif self.count or self.where is not None:
            s = ("Best %d" % self.score) if self.score >= 0 else "Not made"
        elif self.entering:
            s = "Set each die, Score"
        else:
            s = "Phase %d:" % self.phase
        c.text(s, 1, 40)
        s = self.label
        if self.ask == 2:
            s = "are lost, unsaved."
        elif self.hint and self.where is not None:
            n = self.hint[2]
            s = ("If %d rolls left" % n) if n > 1 else ("If 1 roll left" if n else "If no rolls left")
        c.text(s, 1, 48)
        if self.ask == 1:
            c.text("OK: save  other: back", 1, 56)
            return
        x = 1
        a = ("Stay", "Leave") if self.ask else self.actions()
        sel = N_DICE + (1 if self.quit else 0) if self.ask else self.sel
        for i in range(len(a)):
            x0 = x
            x = c.text(a[i], x + 2, 56) + 2
            if sel == N_DICE + i:
                c.invert_rect(x0, 56, x - x0, 8)
            else:
                c.rect(x0, 56, x - x0, 8)
            x += 3


def make(app, arg):
    return DiceTurn(app, arg == "free")
