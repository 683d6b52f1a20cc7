# Phase 10 Twist: the home screen of a running game (Continue opens it), and the game-over
# screen once the engine says a pawn moved past the red space.
#
# Running: every pawn from the leading one back (dealer mark, name, a dot for the leading
# pawn(s), its space, what it attempts next: "P3", "T?" on a Twist space before choosing,
# "fin" once past the red space); OK on a pawn says its space and phase in words. Then
# Play hand (Twist choices first when a pawn stands on a Twist space), Board, Score sheet
# (OK on a hand corrects it), Undo last hand (asks first, on "confirm").
# Over: the winner or co-winners, the ranking by pawn, Board, Score sheet, Undo last hand,
# Finish game (roster and history: firmware.game.endgame.end_game), back to the main menu.
# Every figure comes from the engine (engine_mpy.twist.Twist).
from firmware.screens.base import ListScreen, GameHome, LINE_H

_PLAY = "Play hand"
_BOARD = "Board"
_SHEET = "Score sheet"
_UNDO = "Undo last hand"
_FINISH = "Finish game"


class Home(GameHome):
    def __init__(self, app):
        ListScreen.__init__(self, app, 0)
        self.refresh()

    def refresh(self):
        """Re-read the game: on opening and after a change (never on a cursor move)."""
        g = self.app.session.game
        self.game = g
        st = g.state
        self.n = st.n
        # (player, space, label, text), the leading pawn first
        self.stand = g.standings()
        self.head = 0
        if st.over:
            self.title = "Game over"
            self.head = 1
            acts = (_BOARD, _SHEET, _UNDO, _FINISH)
            # The winners first (the book's order decided them), then the other pawns.
            w = st.winners
            self.stand.sort(key=lambda r: (0 if r[0] in w else 1000) - 8 * r[1] + r[0])
            # Places: pawns on the same space share one (co-winners share the first).
            pl = bytearray(st.n)
            for k in range(st.n):
                r = self.stand[k]
                q = self.stand[k - 1] if k else None
                same = q is not None and q[1] == r[1] and (q[0] in w) == (r[0] in w)
                pl[k] = pl[k - 1] if same else k + 1
            self.place = pl
        else:
            self.title = "Twist  hand %d" % (st.hands + 1)
            acts = (_PLAY, _BOARD, _SHEET, _UNDO)
        self.acts = acts
        self.count = self.head + self.n + len(acts)
        self.sel = self.head + self.n if not st.over else 0
        self.top = 0
        self.move(0, True)
        self.seen = g.changes
        self.dirty = True

    def tick(self, now):
        # Back from a hand, a correction or a note: show what changed.
        g = self.app.session.game
        if g is not None and (g is not self.game or g.changes != self.seen):
            self.refresh()

    def label(self, i):
        i -= self.head + self.n
        return self.acts[i] if i >= 0 else ""

    def ahead(self):
        # "Play hand" (a pawn on a Twist space first), "Score sheet"
        return ("twist_hand", "twist_before", "twist_sheet")

    def choose(self, i):
        app = self.app
        g = self.game
        if i < self.head:
            return True
        i -= self.head
        if i < self.n:
            app.push("note", self.about(self.stand[i]))
            return True
        a = self.acts[i - self.n]
        if a == _PLAY:
            for p in range(self.n):
                if g.on_twist(p):
                    app.push("twist_before")
                    return True
            app.push("twist_hand")
        elif a == _BOARD:
            app.push("twist_board")
        elif a == _SHEET:
            if g.records:
                app.push("twist_sheet")
            else:
                app.push("note", "No hand has been played yet.")
        elif a == _UNDO:
            app.push("confirm", "undo")
        elif a == _FINISH:
            self.finish()
        return True

    def about(self, r):
        g = self.game
        p, sp, label, text = r
        name = g.settings["players"][p]
        if sp > g.red + 1:
            return "%s moved past the red space." % name
        where = _space_name(g, sp - 1)
        if label == "Twist":
            return "%s is on %s: %s." % (name, where, text)
        return "%s is on %s. Next: %s, %s." % (name, where, label, text)

    def finish(self):
        from firmware.game import endgame
        endgame.finish_and_leave(self.app)

    def draw_row(self, c, i):
        if i < self.head:
            self._winners(c)
        elif i < self.head + self.n:
            self._standing(c, i - self.head)
        else:
            ListScreen.draw_row(self, c, i)
            return
        if i == self.sel:
            self.mark(c, self.y)

    def _winners(self, c):
        w = self.game.state.winners
        if len(w) == 1:
            c.text("Winner: " + self.game.settings["players"][w[0]], 2, self.y)
        else:
            c.text("Co-winners:", 2, self.y)

    def _standing(self, c, k):
        # the k-th player in the standings: place or dealer, name, space, phase or Twist
        # (few names: a frame within the C stack's 11 words, see ListScreen.draw)
        g = self.game
        row = self.stand[k]    # player, space, label, text
        y = self.y
        if g.state.over:
            c.text(str(self.place[k]), 0, y)
            if row[0] in g.state.winners:
                c.glyph("check", 52, y)
        elif g.dealer() == row[0]:
            c.glyph("dealer", 0, y)
        c.text(g.settings["players"][row[0]][:7], 9, y)
        if not g.state.over and g.state.hands and row[1] == self.stand[0][1]:
            c.glyph("bullet", 52, y)
        if row[1] > g.red + 1:
            k = "fin"
        else:
            c.text("%2d" % row[1], 64, y)
            k = "T?" if row[2] == "Twist" else "P%d" % g.phases[row[1] - 1]
        self.right_text(c, k, y)

def make(app, arg):
    return Home(app)


def _space_name(g, i):
    """How the device names space i (0-based) to players."""
    ph = g.phases[i]
    if ph == 0:
        return "Twist space %d" % (i + 1)
    if i == 0:
        return "1/Start"
    if i == g.red:
        return "red Phase 10 space"
    return "space %d (phase %d)" % (i + 1, ph)
