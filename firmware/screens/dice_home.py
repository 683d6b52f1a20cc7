# Phase 10 Dice: the home screen of a running game (Continue opens it for a "dice" game),
# and the game-over screen once the engine says the game is over.
#
# Running: the first line starts the turn of the player whose turn it is (OK opens
# "dice_turn"); then the last turn's result, every player in turn order with the phase
# they attempt next and their total ('>' marks whose turn it is, '*' the leader), Score
# sheet ("dice_sheet") and Undo last turn (asks first, on "confirm").
# Over: the winner or co-winners, the ranking by grand total, Score sheet, Undo last turn,
# and Finish game, which moves the game to the history and updates the roster
# (firmware.game.endgame.end_game), then goes back to the main menu.
# Every figure comes from the engine (DiceGame: state, total(), winners()).
from firmware.screens.base import ListScreen, GameHome

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# What OK does on a line.
_NONE = const(0)
_TURN = const(1)
_SHEET = const(2)
_UNDO = const(3)
_FINISH = const(4)


class DiceHome(GameHome):
    def __init__(self, app):
        ListScreen.__init__(self, app, 0)
        self.refresh()

    def refresh(self):
        """Rebuild the lines from the game: on opening and after every change (never on a
        plain cursor move)."""
        g = self.app.session.game
        self.game = g
        st = g.state
        self.labels = []
        self.values = []
        self.acts = []
        order = st.order
        tops = [g.total(p) for p in order]
        if st.over:
            self._over_lines(g, order, tops)
        else:
            self._turn_lines(g, st, order, tops)
        self._line("Score sheet", None, _SHEET)
        self._line("Undo last turn", None, _UNDO)
        if st.over:
            self._line("Finish game", None, _FINISH)
        self.count = len(self.labels)
        if self.sel >= self.count:
            self.sel = 0
            self.top = 0
        self.seen = g.changes
        self.dirty = True


    # The lines are built by small steps: a board loads each function's code as one block,
    # and small blocks still fit a heap that a long game has left in pieces.
    def _line(self, label, value, act):
        self.labels.append(label)
        self.values.append(value)
        self.acts.append(act)

    def _over_lines(self, g, order, tops):
        self.title = "Game over"
        win = g.winners()
        self._line("Winner" if len(win) == 1 else "Co-winners", None, _NONE)
        for p in win:
            self._line("  " + g.name(p), str(g.total(p)), _NONE)
        ranked = sorted(range(len(order)), key=lambda i: -tops[i])
        place = 0
        for k in range(len(ranked)):
            i = ranked[k]
            if k == 0 or tops[i] != tops[ranked[k - 1]]:
                place = k + 1
            self._line("%d %s" % (place, g.name(order[i])), str(tops[i]), _NONE)

    def _turn_lines(self, g, st, order, tops):
        p = st.player()
        top = max(tops)
        # the turn of the player named below: their own turns, not the table's
        self.title = "Dice: last tries" if st.last_tries() else "Dice  turn %d" % (st.turns_of(p) + 1)
        self._line("Roll: %s" % g.name(p), "P%d" % st.phase[p], _TURN)
        if st.last:
            q, ph, sc = st.last
            self._line("Last %s P%d" % (g.name(q)[:6], ph), str(sc) if sc >= 0 else "not made", _NONE)
        for i in range(len(order)):
            q = order[i]
            mark = ">" if q == p else ("*" if st.turns and tops[i] == top else " ")
            ph = st.phase[q]
            self._line(mark + g.name(q)[:10], ("P%d " % ph if ph <= 10 else "done ") + "%4d" % tops[i], _NONE)
    def label(self, i):
        return self.labels[i]

    def value(self, i):
        return self.values[i]

    def tick(self, now):
        # Back from a turn, the sheet or a note: show what changed.
        g = self.app.session.game
        if g is not None and (g is not self.game or g.changes != self.seen):
            self.sel = 0
            self.top = 0
            self.refresh()

    def ahead(self):
        # "Roll", "Score sheet"
        return ("dice_turn", "dice_sheet")

    def choose(self, i):
        a = self.acts[i]
        if a == _TURN:
            # The turn takes this screen's place (RAM) and opens a new home when done.
            self.app.pop()
            self.app.push("dice_turn")
        elif a == _SHEET:
            self.app.push("dice_sheet")
        elif a == _UNDO:
            self.app.push("confirm", "undo")
        elif a == _FINISH:
            self.finish()
        return True

    def finish(self):
        # Roster stats, the history entry, the save forgotten, back to the menu.
        from firmware.game import endgame
        endgame.finish_and_leave(self.app)


def make(app, arg):
    return DiceHome(app)
