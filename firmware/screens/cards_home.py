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
        # Start on "End of hand": with six players the whole table still shows above it.
        self.move(self.n, True)

    def park(self):
        # The standings keep their place whatever the hand did (as before parking).
        return self.park_place()

    def resume(self, s):
        self.resume_place(s)

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
        self.title = "Hand %d  %s" % (g.state.hands + 1, kind_label(g))
        # The leaders (equal standing shares first place), as bits: once per drawing.
        self.lead = 0
        if g.state.hands:
            for p, rank in g.ranking():
                if rank == 1:
                    self.lead |= 1 << p
        ListScreen.draw(self, c)

    def draw_row(self, c, i, y, right):
        if i >= self.n:
            ListScreen.draw_row(self, c, i, y, right)
            return
        g = self.game()
        st = g.state
        # A tie-break hand is dealt like any other hand: the mark stays until the result.
        if not g.over and g.dealer() == i:
            c.glyph("dealer", 0, y)
        c.text(g.settings["players"][i][:7], 9, y)
        if st.rows and st.rows[-1][2][i]:
            c.glyph("check", 52, y)
        if self.lead >> i & 1:
            c.glyph("bullet", 61, y)
        if g.KIND == "masters":
            s = "%d/10" % g.phases_done(st, i)
        else:
            ph = g.next_phase(st, i)
            s = "P%d" % ph if ph else "done"
        c.text(s, 70, y)
        t = str(st.total[i])
        c.text(t, right - c.text_width(t), y)
        if i == self.sel:
            c.invert_rect(0, y, right + 1, LINE_H)


def make(app, arg):
    return Home(app)
