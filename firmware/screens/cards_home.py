# Standings, the home screen of a running Phase 10 or Masters game: every player (2-6) at
# once, then the actions. A player row: dealer mark, name, a tick when they completed a
# phase in the last hand, a dot for the leader, the phase (Masters: phases done), total.
# OK on a player: their phase in words (Masters: done and still to do). Everything shown
# comes from the engine; this screen never works out a rule.
from firmware.screens.base import ListScreen, LINE_H

_ACTIONS = ("End of hand", "Score sheet", "Undo last hand", "Correct a hand", "Rules")
_SHORT = {"ten_hands": "Ten hands", "first_n": "First %d", "even": "Even phases"}


def kind_label(g):
    if g.KIND == "masters":
        return "Masters"
    v = g.settings["variation"]
    s = _SHORT.get(v, "Phase 10")
    return s % g.settings["phases"] if v == "first_n" else s


class Home(ListScreen):
    def __init__(self, app):
        g = app.session.game
        ListScreen.__init__(self, app, len(g.settings["players"]) + len(_ACTIONS))
        self.n = len(g.settings["players"])
        self.kept = None     # (the game's id and change count, what the standings show)
        # Start on "End of hand": with six players the whole table still shows above it.
        self.move(self.n, True)

    def park(self):
        # The standings keep their place whatever the hand did (as before parking), and
        # what they showed (strings only: a parked screen must not keep a game alive).
        return self.park_place() + (self.kept,)

    def resume(self, s):
        self.resume_place(s)
        self.kept = s[2]

    def game(self):
        return self.app.session.game

    def over(self):
        st = self.game().state
        return st.over or st.tiebreak

    def label(self, i):
        i -= self.n
        if i == 0 and self.over():
            return "Game over" if not self.game().state.tiebreak else "Tie-break"
        return _ACTIONS[i]

    def ahead(self):
        # "End of hand" (or the game-over screen), "Score sheet"
        return ("gameover",) if self.over() else ("hand", "sheet")

    def choose(self, i):
        app = self.app
        g = self.game()
        if i < self.n:
            app.push("note", self.about(g, i))
            return True
        i -= self.n
        if i == 0:
            app.push("gameover" if self.over() else "hand")
        elif i == 1 or i == 3:
            if not g.state.rows:
                app.push("note", "No hand has been played yet.")
            else:
                app.push("sheet", "pick" if i == 3 else None)
        elif i == 2:
            app.push("confirm", "undo")
        else:
            app.push("rules")
        return True

    def about(self, g, p):
        """A player's line on demand: their phase in words, or Masters' phases."""
        r = g.players()[p]
        if g.KIND == "masters":
            left = " ".join([str(x) for x in g.remaining(p)]) or "none"
            return "%s: %d phases done; still to do: %s. Total %d." % (
                r["name"], r["phases_done"], left, r["total"])
        if r["phase"] is None:
            return "%s: all phases done. Total %d." % (r["name"], r["total"])
        return "%s: phase %d, %s. Total %d." % (r["name"], r["phase"], r["phase_text"], r["total"])

    def draw(self, c):
        g = self.game()
        key = (id(g), g.changes)
        if self.kept is None or self.kept[0] != key:
            self.kept = (key,) + _standings(g)
        self.title = self.kept[1]
        self.lines = self.kept[2]
        ListScreen.draw(self, c)

    def draw_row(self, c, i):
        if i >= self.n:
            ListScreen.draw_row(self, c, i)
            return
        row = self.lines[i]    # dealer, name, done, lead, score, phase
        y = self.y
        if row[0]:
            c.glyph("dealer", 0, y)
        c.text(row[1], 9, y)
        if row[2]:
            c.glyph("check", 52, y)
        if row[3]:
            c.glyph("bullet", 61, y)
        c.text(row[4], 70, y)
        self.right_text(c, row[5], y)
        if i == self.sel:
            self.mark(c, y)


# What the standings show, worked out from the engine once per change of the game (kept
# by the screen, parked with it): a cursor move, or the way back from the score sheet,
# draws from it (on an RP2040 the engine's answers took most of the screen's 8 ms).
def _standings(g):
    """(title, one line a player: dealer, name, completed last hand, leads, phase, total)"""
    st = g.state
    # The leaders (equal standing shares first place)
    lead = 0
    if st.hands:
        for p, rank in g.ranking():
            if rank == 1:
                lead |= 1 << p
    # A tie-break hand is dealt like any other hand: the mark stays until the result.
    dealer = -1 if g.over else g.dealer()
    done = st.rows[-1][2] if st.rows else None
    lines = []
    for i, name in enumerate(g.settings["players"]):
        if g.KIND == "masters":
            s = "%d/10" % g.phases_done(st, i)
        else:
            ph = g.next_phase(st, i)
            s = "P%d" % ph if ph else "done"
        lines.append((dealer == i, name[:7], bool(done and done[i]), lead >> i & 1, s, str(st.total[i])))
    return "Hand %d  %s" % (st.hands + 1, kind_label(g)), lines


def make(app, arg):
    return Home(app)
