# Phase 10 Dice: one turn of the running game, and (arg "free") the free roller.
#
# The ten dice in two rows (4 low above, 6 high below), each with its number and colour
# glyph; a held die is drawn inverted, the dice the best score uses are underlined, the
# cursor is a frame. The arrows move the frame on the layout as it is drawn: LEFT/RIGHT
# along a row, UP/DOWN to the row above or below (the die nearest; DOWN from the lower
# row goes to the first button, Roll); no arrow leaves the turn. With three buttons
# (Settings) there is no LEFT/RIGHT, so UP/DOWN step through the dice and the buttons in
# a line. OK presses what it is on: a die is held or released, Roll rolls, Stop asks to
# save the turn (OK saves it through app.session.apply, any other key goes on rolling).
# "Real dice" enters what real dice show instead: the frame starts on the first die,
# drawn inverted while it is set: UP/DOWN its number, LEFT/RIGHT its colour (three
# buttons: UP/DOWN the number, OK, UP/DOWN the colour), OK takes it and moves on by
# itself; a die not set yet starts on the number of the one before (dice entered from the
# lowest up take the fewest presses) in the colour the dice left most often show with it.
# The ten start as a roll the set can show. Score checks them (engine_mpy.dice_match).
# Leaving is its own choice, a long OK: after a roll it asks first, on Stay, saying that
# the dice are lost.
# Hint (engine_mpy.dice_advise, loaded for the press and dropped after) marks the dice to
# hold with a ^ under them and shows the chance and expected score; on real dice each
# press assumes one roll fewer left (2, 1, none), shown on the phase line.
# In a game the turn takes the place of the home screen on the stack (both at once do not
# fit beside the engine in a small heap) and puts it back when it closes.
# The engine scores everything (Turn.best); this screen only draws and asks.
from firmware.screens.base import Screen, title_bar
from engine_mpy.dice import Turn, PHASE_LABEL, FACE_NUM, FACE_COL, N_DICE, N_LOW, RuleError
from engine_mpy.dice_eval import face_of

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
_KEY_MASK = const(0x7F)


_CELL = const(21)
_CELL_H = const(11)     # the frame; the marks under a die leave a blank row either side
_MARK_Y = const(12)     # the underline and the Hint's ^, below the frame
_LOW_Y = const(9)
_HIGH_Y = const(24)
_CHAR_W = const(6)      # firmware/draw/gfx.py CHAR_W: where the buttons lie, for UP from them
_ALL = const(0x3FF)
# Setting a real die (edit): both parts at once (five buttons), or one after the other.
_NUMBER = const(1)
_COLOUR = const(2)
_BOTH = const(3)
# A die's number, right before its colour's pattern with a dark column between them (a
# digit's right edge beside a solid red die read as one shape): one character at the
# cell's x + 6, or a 10 kerned a pixel to fit the same place
_NUM = ("W", "1", "2", "3", "4", "5", "6", "7", "8", "9")
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


def _centre(sel, acts):
    # the middle of a die or a button as drawn (draw() below lays the buttons out)
    # (no tuple from cell_xy: an arrow press allocates nothing)
    if sel < N_LOW:
        return 22 + sel * _CELL + _CELL // 2
    if sel < N_DICE:
        return 1 + (sel - N_LOW) * _CELL + _CELL // 2
    x = 1
    for j in range(sel - N_DICE):
        x += len(acts[j]) * _CHAR_W + 7
    return x + (len(acts[sel - N_DICE]) * _CHAR_W + 4) // 2


def _nearest(lo, hi, cx, acts):
    best = lo
    for d in range(lo + 1, hi):
        if abs(_centre(d, acts) - cx) < abs(_centre(best, acts) - cx):
            best = d
    return best


def move(sel, b, acts):
    """Where arrow b takes the frame from sel (dice 0-9, then the buttons acts) on the
    layout as drawn; it stops at the edges. Pure: tests and tools walk the turn with it."""
    n = N_DICE + len(acts)
    row_lo = 0 if sel < N_LOW else (N_LOW if sel < N_DICE else N_DICE)
    row_hi = N_LOW if sel < N_LOW else (N_DICE if sel < N_DICE else n)
    if b == _LEFT:
        return sel - 1 if sel > row_lo else sel
    if b == _RIGHT:
        return sel + 1 if sel + 1 < row_hi else sel
    cx = _centre(sel, acts)
    if b == _DOWN:
        if sel < N_LOW:
            return _nearest(N_LOW, N_DICE, cx, acts)
        return N_DICE if sel < N_DICE else sel   # from the dice: Roll (the first button)
    if sel >= N_DICE:
        return _nearest(N_LOW, N_DICE, cx, acts)
    if sel >= N_LOW:
        return _nearest(0, N_LOW, cx, acts)
    return sel


# --- setting real dice (pure: tests/table_keys.py enters dice through the same steps) -----
def step_number(d, num, step):
    """Die d's number one step up (1) or down (-1) round its faces."""
    if d < N_LOW:
        i = 0
        while _LOW_NUMS[i] != num:
            i += 1
        return _LOW_NUMS[(i + step) % 5]
    return (num - 5 + step) % 6 + 5


def shown_by(d, num, col):
    """How many dice of d's row show num in colour col."""
    lo, hi = (0, N_LOW) if d < N_LOW else (N_LOW, N_DICE)
    k = 0
    for r in range(lo, hi):
        if face_of(r, num, col) >= 0:
            k += 1
    return k


def step_colour(d, num, col, step):
    """The next colour (step 1 or -1) a die of d's row shows with num."""
    for _ in range(4):
        col = (col + step) % 4
        if shown_by(d, num, col):
            break
    return col


def likely_colour(nums, cols, fresh, d):
    """The colour the dice of d's row show most often with d's number, less those the
    row's dice already set (fresh bit clear) take: the likeliest, never one no die has."""
    num = nums[d]
    lo, hi = (0, N_LOW) if d < N_LOW else (N_LOW, N_DICE)
    best = cols[d]
    most = -99
    for c in range(4):
        k = shown_by(d, num, c)
        if not k:
            continue
        for e in range(lo, hi):
            if e != d and not fresh >> e & 1 and nums[e] == num and cols[e] == c:
                k -= 1
        if k > most:
            best = c
            most = k
    return best


def taken(nums, cols, fresh, d):
    """Die d is set: the next one, if not set yet and in the same row, starts on d's
    number (dice entered lowest first need the fewest presses). Returns the new fresh."""
    fresh &= ~(1 << d)
    e = d + 1
    if e < N_DICE and fresh >> e & 1 and (e < N_LOW) == (d < N_LOW):
        nums[e] = nums[d]
        cols[e] = likely_colour(nums, cols, fresh, e)
    return fresh


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
        self.edit = 0       # setting a real die: _BOTH, or _NUMBER then _COLOUR
        self.fresh = 0      # real dice: bit d set while die d was not set by the player
        self.col_set = False   # the colour of the die being set was chosen by hand
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
            # every arrow moves the cursor: none leaves
            a = self.actions()
            if self.app.settings["three_button"]:
                # no LEFT/RIGHT to cross a row: UP/DOWN go through everything in a line
                n = N_DICE + len(a)
                self.sel = (self.sel + (1 if b == _DOWN else -1)) % n
            else:
                self.sel = move(self.sel, b, a)
            self.dirty = True
            return True
        if b == _OK:
            self.press()
            return True
        if b == _BACK:
            # leaving is its own choice (long OK), and says what it loses
            if self.free or not (self.count or self.entering):
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
                self.set_die()
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
                # Each die starts on its first face: together a roll the set can show.
                t.nums[d] = FACE_NUM[d * 6]
                t.cols[d] = FACE_COL[d * 6]
            self.nums = bytearray(t.nums)
            self.cols = bytearray(t.cols)
            self.fresh = _ALL
            self.sel = 0
            self.set_die()
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

    def set_die(self):
        # OK on a real die: set it (what was scored or hinted from the dice goes)
        self.edit = _NUMBER if self.app.settings["three_button"] else _BOTH
        self.col_set = False
        self.where = None
        self.score = -1
        self.hint = None

    def key_edit(self, b):
        d = self.sel
        e = self.edit
        if (b == _UP or b == _DOWN) and e != _COLOUR:
            step = 1 if b == _UP else -1
            self.nums[d] = step_number(d, self.nums[d], step)
            if not self.col_set:
                self.cols[d] = likely_colour(self.nums, self.cols, self.fresh, d)
        elif (b == _UP or b == _DOWN) or (e == _BOTH and (b == _LEFT or b == _RIGHT)):
            self.col_set = True
            step = 1 if b == _UP or b == _RIGHT else -1
            self.cols[d] = step_colour(d, self.nums[d], self.cols[d], step)
        elif b == _OK:
            if e == _NUMBER:
                self.edit = _COLOUR
            else:
                self.next_die(d)
        elif b == _BACK:
            self.edit = 0
        self.dirty = True
        return True

    def next_die(self, d):
        # The die is taken; the frame moves on by itself (after the last, to Score).
        self.fresh = taken(self.nums, self.cols, self.fresh, d)
        if d + 1 >= N_DICE:
            self.edit = 0
            self.sel = N_DICE
            return
        self.sel = d + 1
        self.set_die()

    # --- the turn ------------------------------------------------------------------------
    def roll(self):
        t = self.turn
        if not t.can_roll():
            return
        t.roll(self.app.rng)
        if self.free and t.rolls >= 3:
            t.rolls = 2   # the free roller keeps rolling, and dice can still be held
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

    def result_lines(self):
        """The two lines under the dice: the result (or the question), the phase."""
        if self.ask == 1:
            s = "Save: %s?" % (("%d points" % self.score) if self.score >= 0 else "not made")
        elif self.ask == 2:
            n = self.count
            s = ("Leave? These dice" if self.entering else
                 ("Leave? Roll 1" if n == 1 else "Leave? Rolls 1-%d" % n))
        elif self.edit == _BOTH:
            s = "UP/DOWN: number"
        elif self.edit:
            s = "%s: UP/DOWN, OK" % ("Number" if self.edit == _NUMBER else "Colour")
        elif self.hint:
            s = self.hint[1]
        elif self.count or self.where is not None:
            s = ("Best %d" % self.score) if self.score >= 0 else "Not made"
        elif self.entering:
            s = "Set each die, Score"
        else:
            s = "Phase %d:" % self.phase
        t = self.label
        if self.ask == 2:
            t = ("is lost, unsaved." if self.count == 1 and not self.entering else "are lost, unsaved.")
        elif self.edit == _BOTH:
            t = "L/R: colour  OK: next"
        elif self.hint and self.where is not None:
            n = self.hint[2]
            t = ("If %d rolls left" % n) if n > 1 else ("If 1 roll left" if n else "If no rolls left")
        return s, t

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
                n = self.nums[d]
                if n == 10:
                    c.text("1", x + 1, y + 2)
                    c.text("0", x + 6, y + 2)
                else:
                    c.text(_NUM[n], x + 6, y + 2)
                c.glyph(_COLG[self.cols[d]], x + 12, y + 2)
            else:
                c.text(" -", x + 1, y + 2)
            if self.turn.held >> d & 1:
                c.invert_rect(x + 1, y + 1, 19, _CELL_H - 2)
            if d == self.sel:
                c.rect(x, y, _CELL, _CELL_H)
                e = self.edit
                if e:
                    # the die being set is inverted (with three buttons, the part stepped)
                    c.invert_rect(x + (11 if e == _COLOUR else 1), y + 1,
                                  19 if e == _BOTH else (10 if e == _NUMBER else 8), _CELL_H - 2)
            if self.hint:
                if self.marked(self.hint[0], d):
                    c.hline(x + 9, y + _MARK_Y, 3)   # a small ^: hold this one
                    c.hline(x + 8, y + _MARK_Y + 1, 5)
            elif self.score >= 0 and self.marked(self.used, d):
                c.fill_rect(x + 3, y + _MARK_Y, 15, 2)
        # The result line and the phase.
        s, t = self.result_lines()
        c.text(s, 1, 40)
        c.text(t, 1, 48)
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
