# Phase 10 Dice on the simulated device, from the first key to game over: New game, Dice,
# the players typed on the picker, the turn-order roll, turns rolled with the seeded random
# source and turns entered from real dice, solitaire and two players, the score sheet,
# undo, the game-over screen and Finish. The final figures of the entered sessions are
# worked out by hand from the rules (comments). Table.chunks keeps the keys so check_twin()
# replays them on the twin (micropython, .mpy, capped heap) from the same empty start, and
# every snapped screen must be the same there.
import json

from tests import histfile
import os
import shutil
import sys
import tempfile

from host_sim import script, sim
from engine_mpy.dice import N_DICE
from engine_mpy import savefile, saveload
from tests.table_keys import new_game, entry_keys, presses, dice_path

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Table:
    """A new device (empty flash) on the main menu, keys recorded for the twin. The first
    keys start a Dice game of names: New game, Dice, the players, Next: the turn-order
    roll ("dice_order")."""

    def __init__(self, state, names):
        self.dev = script.Device(state=state, mem_free=40000)
        self.app = self.dev.app
        self.chunks = []
        self.screens = []
        self.cur = []
        self.keys(new_game("dice", names))
        assert self.top().module == "dice_order" and self.top().names == names
        assert self.game() is None   # the turn-order roll starts it

    def keys(self, s):
        self.cur.append(s)
        self.dev.play(script.parse(s))

    def snap(self):
        """End a chunk: the twin prints the screen here, and so do we."""
        self.chunks.append(" ".join(self.cur))
        self.cur = []
        self.screens.append("\n".join(self.dev.rows()) + "\n")
        return self.screens[-1]

    def top(self):
        return self.app.top()

    def game(self):
        return self.app.session.game

    def saved(self):
        with open(os.path.join(self.app.store.root, "game.json")) as f:
            return saveload.loads(f.read())


def play_entered(t, turns):
    for dice in turns:
        t.keys("OK")                 # home: the first line opens the turn
        assert t.top().module == "dice_turn"
        t.keys(entry_keys(dice.split()))
        assert t.top().module == "dice_home", "turn %r not saved" % dice


def check_twin(t):
    """The same chunks on the twin from the same empty start (a new device), with the same
    seeded dice: the same screens at every snap."""
    from tests.test_twin import play
    state = tempfile.mkdtemp(prefix="phase10-dice-")
    try:
        got = play(state, t.chunks)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    for i in range(len(got)):
        assert got[i] == t.screens[i], "twin differs after chunk %d" % i


# --- solitaire, real dice entered ----------------------------------------------------------
# Ten phases in eleven turns, one failed. By hand, from the rules (set: n dice of a number,
# run: consecutive numbers, Wilds score 0, the best way counts):
SOLO = (
    # P1 2 sets of 3: 10+10+10 and 9+9+9 = 57
    "1b 1r 1o 1g 10g 10r 10o 9r 9r 9g",
    # P2 set of 3 + run of 4: the run 7-10 (34) leaves two 10s, so the set is three 1s (3):
    # 37; a set of 10s (30) leaves no run. 37
    "1b 1r 1o 1g 10g 10r 10o 9r 8b 7g",
    # P3 set of 4 + run of 4: only 1s and 5s, no run: not made (solitaire: -5)
    "1b 1r 1o 1g 5r 5g 5o 5r 5b 5b",
    # P3 again: four 1s (4) + run 7-10 (34) = 38
    "1b 1r 1o 1g 5r 6r 7r 8b 9r 10o",
    # P4 run of 7: 4-10 = 49
    "1b 2b 3r 4r 5r 6r 7r 8b 9r 10o",
    # P5 run of 8: 3-10 = 52. Phases 1-5: 57+37+38+49+52 = 233 > 220: bonus +40 -> 273
    "1b 2b 3r 4r 5r 6r 7r 8b 9r 10o",
    # P6 run of 9: 2-10 = 54
    "1b 2b 3r 4r 5r 6r 7r 8b 9r 10o",
    # P7 2 sets of 4: four 10s (40) + two 9s and two Wilds (18) = 58
    "Wr Wb Wg Wr 10g 10r 10o 10b 9r 9g",
    # P8 7 of one colour: red 1+5+10+7+9+9+8 = 49
    "1b 1r 1o 1g 5r 10r 7r 9r 9r 8r",
    # P9 set of 5 + set of 2: five 10s (50) + two 1s (2) = 52
    "1b 1r 1o 1g 10g 10r 10o 10b 10g 9g",
    # P10 set of 5 + set of 3: five 10s (50) + three 1s (3) = 53, on its first try: +40
    "1b 1r 1o 1g 10g 10r 10o 10b 10g 9g",
)
# Grand total: 273 + 54+58+49+52+53 (266) + 40 - 5 = 574
SOLO_SCORES = [57, 37, 38, 49, 52, 54, 58, 49, 52, 53]


def test_solitaire_real_dice_to_game_over(tmp_path):
    t = Table(str(tmp_path), ["Ann"])
    t.keys("OK")   # solitaire: no order roll, the game starts
    assert [s.module for s in t.app.stack] == ["menu", "dice_home"]
    play_entered(t, SOLO)
    assert t.game().state.over and t.top().title == "Game over"
    # Undo the last turn from the game-over screen (Undo is second from the bottom; asked
    # first): the game runs again on phase 10. The same dice entered again end it as before.
    t.keys("UP UP OK")
    assert t.top().module == "confirm" and t.top().title == "Undo turn 11?"
    t.keys("OK")
    g = t.game()
    assert t.top().module == "dice_home" and t.top().title != "Game over"
    assert not g.state.over and g.state.phase[0] == 10 and len(g.records) == 10
    assert list(t.saved().records) == list(g.records)
    play_entered(t, SOLO[-1:])
    g = t.game()
    assert g.state.over
    assert g.state.scores[0] == SOLO_SCORES
    assert g.five_bonus(0) == 40 and g.state.ff_bonus[0] and g.state.fails[0] == 1
    assert g.total(0) == 574 and g.winners() == [0]
    assert t.top().title == "Game over" and t.top().values[1] == "574"
    over = t.snap()
    # The sheet: the last rows show the failed turn and the grand total.
    t.keys("UP UP UP OK")   # Score sheet (three from the bottom, wrapping round)
    assert t.top().module == "dice_sheet"
    t.keys("DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN")
    sheet = t.snap()
    # The saved game on flash tells the same story.
    assert t.saved().total(0) == 574
    # Finish: history and roster, the running game forgotten, back to the menu.
    t.keys("LEFT DOWN DOWN OK")
    assert [s.module for s in t.app.stack] == ["menu"]
    assert t.app.session.game is None
    assert not os.path.exists(tmp_path / "game.json")
    hist = histfile.games(tmp_path)
    assert hist[-1]["game"] == "dice" and hist[-1]["winners"] == ["Ann"]
    roster = json.loads((tmp_path / "roster.json").read_text())
    assert ["Ann", 1, 1] == roster[0][:3] if isinstance(roster, list) else True
    final = t.snap()
    assert len({over, sheet, final}) == 3
    check_twin(t)


# --- two players, the seeded virtual dice ---------------------------------------------------
def test_two_players_rolled_with_the_seeded_dice_to_game_over(tmp_path):
    # Ann and Bob roll the turn order (seeded: the same dice on both runtimes), then play
    # every turn with the virtual dice: roll up to three times, stop as soon as the phase
    # is made (the table reads the screen), never hold.
    t = Table(str(tmp_path), ["Ann", "Bob"])
    order = t.top().roll
    for _ in range(10):
        if order.done():
            break
        t.keys("OK")
    t.snap()
    t.keys("OK")   # start the game
    g = t.game()
    assert g is not None and sorted(g.settings["order"]) == [0, 1]
    home = None
    turns = 0
    while not g.state.over:
        assert turns < 400
        t.keys("OK")       # the turn of the player named on the first line
        scr = t.top()
        assert scr.module == "dice_turn"
        for r in range(3):
            t.keys("OK")   # Roll (the cursor stays on it)
            if scr.score >= 0 or r == 2:
                break
        if turns == 3:
            home = t.snap()
        # Stop (the only button after the third roll), then yes.
        t.keys("OK OK" if scr.turn.rolls == 3 else "RIGHT OK OK")
        assert t.top().module == "dice_home"
        turns += 1
    # Every figure on the game-over screen is the saved game's, replayed from flash.
    saved = t.saved()
    tot = [saved.total(p) for p in range(2)]
    assert [g.total(p) for p in range(2)] == tot
    win = [p for p in range(2) if tot[p] == max(tot)]
    assert saved.winners() == win
    scr = t.top()
    assert scr.title == "Game over"
    assert scr.labels[0] == ("Winner" if len(win) == 1 else "Co-winners")
    # The grand total of each player: the phases made, +40 for over 220 after phase 5,
    # +40 to the first to finish (and only to them: the other was not on phase 10).
    for p in range(2):
        s = saved.state.scores[p]
        assert tot[p] == sum(x for x in s if x > 0) + saved.five_bonus(p) + (40 if saved.state.ff_bonus[p] else 0)
    assert saved.state.ff_bonus[saved.state.first]
    over = t.snap()
    assert home != over
    check_twin(t)


# --- the Hint --------------------------------------------------------------------------------
def test_hint_on_rolled_and_real_dice(tmp_path):
    # Solitaire: roll once, Hint (the dice to hold marked, chance and expected score from the
    # advisor), hold what it says and roll: the hint goes. Then the third roll and Hint: no
    # rolls left, just the score. Next turn on real dice: Score, then Hint three times
    # (two rolls left, one, none). The twin shows the same screens throughout.
    from engine_mpy import dice_advise
    t = Table(str(tmp_path), ["Ann"])
    t.keys("OK")   # solitaire: the game starts
    t.keys("OK OK")   # the turn, first roll (the cursor stays on Roll)
    scr = t.top()
    assert scr.module == "dice_turn" and scr.actions() == ("Roll", "Stop", "Hint")
    t.keys("RIGHT RIGHT OK")
    m, p, e, stop = dice_advise.advise(1, 2, scr.turn.faces)
    assert not stop and scr.hint == (m, "Hold ^ %d%% exp %d" % (p // 2, e), 0)
    hint = t.snap()
    # Hold the marked dice: from Hint the arrows to each die on the layout, OK on each.
    acts = scr.actions()
    keys = []
    pos = N_DICE + 2
    for d in range(N_DICE):
        if m >> d & 1:
            keys.append(dice_path(pos, d, acts) + " OK")
            pos = d
    t.keys(" ".join(keys))
    assert scr.turn.held == m and scr.hint is not None    # holding keeps the hint
    held = t.snap()
    assert held != hint
    t.keys(dice_path(pos, N_DICE, acts) + " OK")   # Roll
    assert scr.turn.rolls == 2 and scr.hint is None
    for d in range(N_DICE):
        if m >> d & 1:
            assert scr.turn.is_held(d)
    t.keys("OK")   # the third roll: the cursor goes to Stop
    assert scr.actions() == ("Stop", "Hint")
    t.keys("RIGHT OK")
    s = scr.score
    assert scr.hint[1] == (("No rolls: best %d" % s) if s >= 0 else "No rolls: not made")
    norolls = t.snap()
    t.keys("LEFT OK OK")   # Stop, yes: saved
    assert t.top().module == "dice_home" and len(t.game().records) == 1
    # Real dice: 1 2 3 4 and six 10s make phase 1 and phase 2 (whichever Ann is on).
    dice = "1b 2b 3r 4r 10g 10r 10o 10b 10g 10o".split()
    t.keys("OK")
    scr = t.top()
    t.keys(entry_keys(dice)[:-len(" OK OK OK")] + " OK")   # everything but Stop, yes
    assert scr.where is not None and scr.actions() == ("Score", "Stop", "Hint") and scr.score > 0
    lines = []
    for left in (2, 1, 0, 2):
        t.keys("RIGHT OK" if not lines else "OK")
        assert scr.hint[2] == left
        lines.append(scr.hint[1])
        if left:
            m, p, e, stop = dice_advise.advise(scr.phase, left, scr.turn.faces)
            want = ("Stop now: best %d" % scr.score) if stop else "Hold ^ %d%% exp %d" % (p // 2, e)
            assert scr.hint[1] == want
        t.snap()
    assert lines[2] == "No rolls: best %d" % scr.score and lines[3] == lines[0]
    t.keys("LEFT OK OK")   # Stop, yes
    assert t.top().module == "dice_home" and len(t.game().records) == 2
    assert t.saved().records == t.game().records
    check_twin(t)


# --- the keys of a turn (issue 26, finding 4) ------------------------------------------------
def test_the_arrows_move_on_the_layout_as_drawn(tmp_path):
    from firmware.screens.dice_turn import move
    from firmware.edges.keys import UP, DOWN, LEFT, RIGHT
    game = ("Roll", "Stop", "Hint")
    # DOWN from a die of the upper row: the die drawn below it; again: Roll (the first
    # button). UP from a button: a die of the lower row, never another button.
    assert move(0, DOWN, game) == 5 and move(5, DOWN, game) == N_DICE
    assert move(9, DOWN, game) == N_DICE and move(N_DICE, DOWN, game) == N_DICE
    for b in range(N_DICE, N_DICE + 3):
        assert 4 <= move(b, UP, game) < N_DICE
    assert move(5, UP, game) == 0 and move(0, UP, game) == 0
    # LEFT/RIGHT along a row, stopping at its ends
    assert [move(d, RIGHT, game) for d in (0, 3, 4, 9, N_DICE + 2)] == [1, 3, 5, 9, N_DICE + 2]
    assert [move(d, LEFT, game) for d in (0, 1, 4, N_DICE, N_DICE + 1)] == [0, 0, 4, N_DICE, N_DICE]
    # On the device: rolled once, a die of the upper row is two presses from Roll
    t = Table(str(tmp_path), ["Ann"])
    t.keys("OK OK OK")      # the game, the turn, Roll
    scr = t.top()
    assert scr.module == "dice_turn" and scr.sel == N_DICE and scr.turn.rolls == 1
    t.keys("UP UP OK")
    assert scr.turn.held == 1 << 0
    t.keys("DOWN DOWN")
    assert scr.action() == "Roll"
    t.keys("RIGHT RIGHT UP")        # from Hint, UP: the die drawn above it
    assert scr.sel == 7
    # Leaving after one roll says what is lost, in the singular
    t.keys("LONG_OK")
    assert scr.ask == 2 and scr.result_lines() == ("Leave? Roll 1", "is lost, unsaved.")
    t.keys("OK DOWN OK")       # Stay; Roll again
    t.keys("LONG_OK")
    assert scr.result_lines() == ("Leave? Rolls 1-2", "are lost, unsaved.")


def test_real_dice_start_as_a_real_roll_and_move_on_by_themselves(tmp_path):
    t = Table(str(tmp_path), ["Ann"])
    t.keys("OK OK RIGHT OK")        # the game, the turn, Real dice
    scr = t.top()
    assert scr.entering and scr.sel == 0 and scr.edit == 3
    # The dice start as a roll the set can show: Score takes them as they stand
    t.keys("LONG_OK DOWN DOWN")
    assert scr.action() == "Score"
    t.keys("OK")
    assert scr.where is not None and scr.score >= 0
    # OK on a die sets it: UP/DOWN its number, LEFT/RIGHT its colour, OK takes it and
    # the frame moves on by itself; the next die not set yet starts on the same number,
    # in a colour no die set before it takes.
    t.keys(dice_path(scr.sel, 0, scr.actions()) + " OK UP UP RIGHT")
    assert scr.edit == 3 and (scr.nums[0], scr.cols[0]) == (3, 1)
    assert scr.result_lines() == ("UP/DOWN: number", "L/R: colour  OK: next")
    t.keys("OK")
    assert scr.sel == 1 and scr.edit == 3 and scr.nums[1] == 3 and scr.cols[1] != 1
    t.keys(" ".join(["OK"] * 9))    # dice 1 to 9 taken as they are: the frame is on Score
    assert scr.sel == N_DICE and scr.edit == 0 and scr.action() == "Score"
    # long OK with dice set asks before they are lost
    t.keys("LONG_OK")
    assert scr.result_lines() == ("Leave? These dice", "are lost, unsaved.")


def test_real_dice_take_under_three_presses_a_die(tmp_path):
    # The bench's figure (make bench, dice_real_presses_per_die) on a few throws, each
    # played on the device: the dice saved are the dice thrown.
    sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
    import bench_presses
    per_turn, per_die = bench_presses.dice_figures(turns=200)
    assert sum(per_die) / len(per_die) <= 3
    assert bench_presses.check_dice_on_device(each=3) == 3


def test_the_home_title_counts_that_players_turns(tmp_path):
    t = Table(str(tmp_path), ["Ann", "Bob"])
    order = t.top().roll
    while not order.done():
        t.keys("OK")
    t.keys("OK")      # the game starts
    g = t.game()
    first, second = g.settings["order"]
    for _ in range(3):      # three turns: the first player, the second, the first
        t.keys("OK OK RIGHT OK OK")     # the turn, Roll, Stop, yes
    assert g.state.turns == 3 and g.state.player() == second
    # the second player's second turn, the table's fourth
    assert t.top().module == "dice_home" and t.top().title == "Dice  turn 2"


def test_one_player_reads_in_the_singular(tmp_path):
    dev = script.Device(state=str(tmp_path), mem_free=40000)
    keys = new_game("dice", ["Ann"])
    dev.play(script.parse(keys[:-len(" OK")]))      # on "Next", not yet pressed
    scr = dev.app.top()
    assert scr.module == "newgame" and scr.label(scr.sel) == "Next: 1 player"


def test_real_dice_with_three_buttons(tmp_path):
    # Settings > 3 buttons: no LEFT/RIGHT, so UP/DOWN go through the dice and buttons in a
    # line, and a real die is set in two steps: UP/DOWN its number, OK, its colour, OK.
    from tests.table_keys import menu
    dev = script.Device(state=str(tmp_path), mem_free=40000)
    dev.play(script.parse(menu("settings") + " DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP"))
    assert dev.app.settings["three_button"] is True
    dev.play(script.parse(new_game("dice", ["Ann"]) + " OK OK DOWN OK"))   # Real dice
    scr = dev.app.top()
    assert scr.entering and scr.sel == 0 and scr.edit == 1
    dev.play(script.parse("UP OK"))
    assert scr.nums[0] == 2 and scr.edit == 2
    c = scr.cols[0]
    dev.play(script.parse("UP OK"))
    assert scr.cols[0] == (c + 1) % 4 and scr.sel == 1 and scr.edit == 1 and scr.nums[1] == 2
    dev.play(script.parse("LONG_OK DOWN"))     # done setting; DOWN: the next in the line
    assert scr.edit == 0 and scr.sel == 2


def test_the_marks_under_the_dice_leave_a_blank_row_before_what_follows():
    # The underlines (dice the score uses) and the Hint's ^ marks sit below each row with
    # a blank row after them: under the upper row before the lower row's frames, under the
    # lower row before the result line (row 40), on every screen that shows them.
    from host_sim import golden
    cases = dict(golden.CASES)
    for name in ("dice_turn_made", "dice_turn_hint", "dice_entry_hint"):
        rows = golden.render(cases[name]).split("\n")
        lit = [y for y in range(64) if "#" in rows[y]]
        marks = [y for y in (21, 22, 36, 37) if "#" in rows[y]]
        assert marks, name                         # the screen shows marks
        for y in (20, 23, 38, 39):
            assert y not in lit, "%s: row %d is not blank" % (name, y)
        assert 40 in lit or 41 in lit, name        # the result line follows
