# The hand page's keys, as a new player meets them (issue 26): every stepper and list moves
# one way for each key and stops at its ends, nothing typed is reset by a key going past its
# end, a press can be taken back; Masters' phase stepper goes down with DOWN, its points
# page says what it asks, 0 points are refused where they are typed; a Twist space's choice
# starts on nothing. On the simulated device from its first key.
import shutil
import tempfile

from host_sim import script, sim
from tests import table_keys as K

sim.use_fake_machine()

POINTS = K.menu("settings") + " DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP"


class Dev:
    def __init__(self, kind, names, settings=""):
        self.state = tempfile.mkdtemp(prefix="phase10-handkeys-")
        self.dev = script.Device(state=self.state, mem_free=40000)
        if settings:
            self.keys(settings)
        self.keys(K.new_game(kind, names, dealer=0))

    def keys(self, k):
        self.dev.play(script.parse(k))
        return self.dev.app.top()

    def drawn(self):
        """The texts the top screen draws, in order (the first: its title)."""
        out = []
        app = self.dev.app
        c = app.canvas
        text = c.text
        c.text = lambda s, *a, **k: (out.append(s), text(s, *a, **k))[1]
        try:
            app.redraw()
        finally:
            c.text = text
        return out

    def close(self):
        shutil.rmtree(self.state, ignore_errors=True)


def test_kind_keys_stop_at_their_end_and_left_takes_one_card_fewer():
    t = Dev("classic", ["Ann", "Bob"])
    try:
        h = t.keys("OK OK")                      # Ann went out: Bob's page, ten 1-9
        assert h.module == "hand" and h.stage == 2 and h.entry.left[1] == [10, 0, 0, 0]
        # the deck has 4 Skips: a fifth RIGHT stays at 4, nothing reset
        t.keys("RIGHT RIGHT RIGHT RIGHT")
        assert h.entry.left[1] == [6, 0, 4, 0]
        t.keys("RIGHT")
        assert h.entry.left[1] == [6, 0, 4, 0]
        # a 10-12 in place of each 1-9 left, then no more
        t.keys(" ".join(["UP"] * 7))
        assert h.entry.left[1] == [0, 6, 4, 0]
        # LEFT: one card fewer, always: ten, then 4 (phase 1 lays 6), 3, 2, 1, and there
        # it stops; the 10-12s go before the Skips
        seen = []
        for _ in range(6):
            t.keys("LEFT")
            seen.append(list(h.entry.left[1]))
        assert seen == [[0, 0, 4, 0], [0, 0, 3, 0], [0, 0, 2, 0], [0, 0, 1, 0],
                        [0, 0, 1, 0], [0, 0, 1, 0]]
    finally:
        t.close()


def test_left_from_three_cards_goes_to_two_keeping_the_mix():
    t = Dev("classic", ["Ann", "Bob"])
    try:
        h = t.keys("OK OK LEFT LEFT UP DOWN")    # 3 cards: a 1-9, a 10-12, a Wild
        assert h.entry.left[1] == [1, 1, 0, 1]
        t.keys("LEFT")
        assert h.entry.left[1] == [0, 1, 0, 1]         # the 1-9 went; the 10-12 and Wild stay
        t.keys("LEFT")
        assert h.entry.left[1] == [0, 0, 0, 1]
    finally:
        t.close()


def test_hold_ok_takes_presses_back_then_goes_to_the_step_before():
    t = Dev("classic", ["Ann", "Bob", "Cid"])
    try:
        h = t.keys("OK OK LEFT UP UP")           # Bob: 4 cards, two 10-12
        assert h.entry.left[1] == [2, 2, 0, 0]
        t.keys("UP UP UP")                       # (the third stops: no 1-9 left)
        assert h.entry.left[1] == [0, 4, 0, 0]
        t.keys("LONG_OK")
        assert h.entry.left[1] == [1, 3, 0, 0]
        t.keys("LONG_OK LONG_OK LONG_OK")
        assert h.entry.left[1] == [4, 0, 0, 0]
        t.keys("LONG_OK")
        assert h.entry.left[1] == [10, 0, 0, 0] and h.stage == 2
        t.keys("LONG_OK")                        # nothing left to take back: who went out
        assert h.stage == 0 and h.entry.left[1] == [10, 0, 0, 0]
        # a page gone back to keeps its entry: hold OK there goes back, it resets nothing
        t.keys("OK LEFT OK")                     # Bob 4 cards; Cid's page
        assert h.seq[h.pos] & 7 == 2
        t.keys("LONG_OK")
        assert h.seq[h.pos] & 7 == 1 and h.entry.left[1] == [4, 0, 0, 0]
        t.keys("LONG_OK")
        assert h.stage == 0 and h.entry.left[1] == [4, 0, 0, 0]
    finally:
        t.close()


def test_who_went_out_stops_at_its_ends():
    t = Dev("classic", ["Ann", "Bob", "Cid"])
    try:
        h = t.keys("OK UP")
        assert h.stage == 0 and h.choice == 0
        t.keys("DOWN DOWN DOWN DOWN")
        assert h.choice == 2
    finally:
        t.close()


def test_masters_phase_stepper_goes_down_with_down_and_stops():
    t = Dev("masters", ["Ann", "Bob"])
    try:
        h = t.keys("OK OK")                      # Ann went out: her phase, from 1
        assert h.stage == 1 and h.opts[h.choice] == 1
        t.keys("DOWN")
        assert h.opts[h.choice] == 1             # (no "none" for who went out)
        t.keys("UP UP")
        assert h.opts[h.choice] == 3
        t.keys("DOWN")
        assert h.opts[h.choice] == 2
        t.keys("UP UP UP UP UP UP UP UP UP UP")
        assert h.opts[h.choice] == 10
        # Bob completed (3 cards): the check page fills in the lowest phase that fits;
        # UP picks his row, OK opens his phase page: only the phases that leave 3 cards
        # (6 or 7 laid), no "none" (he holds fewer than ten); DOWN stops at 1
        t.keys("OK " + K.counts([3, 0, 0, 0])[:-len(" OK")])
        assert t.drawn()[0] == "Bob: cards left"
        t.keys("OK")
        assert h.stage == 4 and h.entry.phase == [10, 1] and h.row == -1
        t.keys("UP OK")
        assert h.stage == 1 and h.opts == [1, 2, 4, 8, 9] and h.opts[h.choice] == 1
        t.keys("DOWN")
        assert h.opts[h.choice] == 1
        t.keys("UP UP")
        assert h.opts[h.choice] == 4
        t.keys("OK")                         # taken: back on the check page's save line
        assert h.stage == 4 and h.entry.phase == [10, 4] and h.row == -1
        t.keys("OK")
        assert t.dev.app.session.game.records[0]["phase"] == [10, 4]
    finally:
        t.close()


def test_masters_points_page_says_points_and_refuses_zero_there():
    t = Dev("masters", ["Ann", "Bob"], settings=POINTS)
    try:
        assert t.dev.app.settings["entry"] == "points"
        h = t.keys("OK OK OK")                   # Ann out, her phase 1; Bob's points
        assert h.stage == 2 and h.entry.left[1] == 60    # the stepper starts at 60
        assert t.drawn()[0] == "Bob: points left"    # not "no phase": that is on the check page
        n = t.keys("LEFT LEFT DOWN DOWN OK")     # 0 points: refused on this page
        assert n.module == "note" and "0 points" in " ".join(n.lines)
        h = t.keys("OK")
        assert h.module == "hand" and h.stage == 2 and h.seq[h.pos] & 7 == 1 and h.entry.left[1] == 0
        assert list(t.dev.app.session.game.records) == []
        t.keys("RIGHT RIGHT OK OK")              # 50 points (none filled in), save
        assert t.dev.app.session.game.records[0]["left"] == [None, 50]
    finally:
        t.close()


def test_twist_space_choice_starts_on_nothing():
    t = Dev("twist", ["Ann", "Bob"])
    try:
        # Hands 1-2: Ann out (+3 each), Bob holds ten (+1 each): Bob on the Twist space 3
        t.keys("OK OK OK OK OK OK OK OK OK OK")
        b = t.keys("OK")
        assert b.module == "twist_before" and b.sel == -1
        n = t.keys("OK")                         # a quick OK chooses nothing
        assert n.module == "note" and "pick" in " ".join(n.lines)
        b = t.keys("OK")
        assert b.module == "twist_before" and b.picks == [None, None]
        h = t.keys("DOWN OK")                    # DOWN: the phase before; OK takes it
        assert h.module == "twist_hand" and h.pick[1] == "before"
    finally:
        t.close()


def test_masters_does_not_ask_a_phase_the_cards_leave_no_choice_about():
    t = Dev("masters", ["Ann", "Bob"])
    try:
        # Ann went out with phase 1; Bob holds 4 cards: only phase 1 (6 cards) leaves 4,
        # so his row on the check page is not open: UP stays on the save line
        h = t.keys("OK OK OK LEFT OK")
        assert h.stage == 4 and h.entry.phase == [1, 1] and list(h.entry.open) == [0, 0]
        t.keys("UP")
        assert h.row == -1
        # 3 cards fit phases of 7 cards too: open, phase 1 filled in (the lowest that fits)
        t.keys("LONG_OK")
        assert h.stage == 2
        t.keys("LEFT OK")
        assert h.stage == 4 and h.entry.phase == [1, 1] and list(h.entry.open) == [0, 1]
        t.keys("UP")
        assert h.row == 1
        t.keys("UP")
        assert h.row == 1                    # stops at the top open row
        t.keys("DOWN DOWN")
        assert h.row == -1                   # and at the save line
        # a question opened and left with hold OK changes nothing
        t.keys("UP OK UP LONG_OK")
        assert h.stage == 4 and h.entry.phase == [1, 1] and h.row == -1
    finally:
        t.close()


def test_a_correction_keeps_the_answers_given_on_the_check_page():
    t = Dev("masters", ["Ann", "Bob"])
    try:
        # Ann out with phase 1; Bob kept 3 cards and completed phase 4, named on the
        # check page (the phases that leave 3 cards: 1, 2, 4, 8, 9)
        t.keys("OK OK OK " + K.counts([3, 0, 0, 0]) + " UP OK UP UP OK OK")
        g = t.dev.app.session.game
        assert g.records[0]["phase"] == [1, 4]
        # Correct a hand (the sheet opens on hand 1): through its pages unchanged, the
        # check page still names phase 4, not the lowest that fits
        h = t.keys("DOWN DOWN DOWN OK OK")
        assert h.module == "hand" and h.entry.index == 0
        t.keys("OK OK OK")
        assert h.stage == 4 and h.entry.phase == [1, 4]
        # one card fewer, where phase 4 still fits: it stays
        t.keys("LONG_OK LEFT OK")
        assert h.stage == 4 and h.entry.left[1] == [2, 0, 0, 0] and h.entry.phase == [1, 4]
        t.keys("OK")
        assert g.records[0]["phase"] == [1, 4] and g.records[0]["left"] == [None, [2, 0, 0, 0]]
    finally:
        t.close()


def test_a_phase_named_on_the_check_page_does_not_bound_the_points_typed_after():
    t = Dev("masters", ["Ann", "Bob"], settings=POINTS)
    try:
        # Ann out with phase 1; Bob 25 points (one Wild), phase 6 named on the check page
        # (9 cards laid, one kept)
        h = t.keys("OK OK OK LEFT DOWN DOWN OK UP OK UP UP UP UP UP OK")
        assert h.stage == 4 and h.entry.left[1] == 25 and h.entry.phase == [1, 6]
        # back to his points: 45 cannot be one card, but other phases leave more: taken,
        # and the check page, phase 6 no longer fitting, names the lowest that fits
        t.keys("LONG_OK UP UP UP UP OK")
        assert t.dev.app.top() is h and h.stage == 4 and h.entry.left[1] == 45 and h.entry.phase == [1, 1]
        t.keys("OK")
        assert t.dev.app.session.game.records[0]["phase"] == [1, 1]
    finally:
        t.close()
