# Whole Phase 10 Dice games, played at random, against a plain step-by-step reading of the
# book's flow (normal play round by round, then each other player's last tries in turn
# order): who plays each turn, final phases, bonuses, penalties, totals and winners.
# The reference below is written from seeds/dice.txt, not from the engine.
# 400 games in make test, 10,000 in make soak (SOAK=1).
import random

import soak
from engine_mpy.game import RuleError

from engine_mpy.dice import DiceGame
from engine_mpy.dice_eval import FACE_COL, FACE_NUM, best
from engine_mpy import savefile, saveload

def faces_for(nums):
    out = ""
    for d in range(10):
        out += str([FACE_NUM[d * 6 + f] for f in range(6)].index(nums[d]))
    return out


# Rolls that make each phase (worked in test_dice_game.py) and one that makes none.
MAKES = {
    1: faces_for([1, 2, 3, 4, 10, 10, 10, 10, 10, 10]),
    2: faces_for([0, 1, 1, 1, 10, 10, 10, 10, 9, 8]),
    3: faces_for([0, 0, 1, 1, 10, 10, 10, 10, 10, 9]),
    4: faces_for([4, 1, 1, 1, 5, 6, 7, 8, 9, 10]),
    5: faces_for([3, 4, 1, 1, 5, 6, 7, 8, 9, 10]),
    6: faces_for([2, 3, 4, 1, 5, 6, 7, 8, 9, 10]),
    7: faces_for([0, 0, 1, 1, 10, 10, 10, 10, 10, 10]),
    8: "2301435235",  # L1 3o, L2 4o, L3 1o, L4 2o, H1 9o, H2 8o, H3 10o, H4 7o, H5 8o, H6 10o
    9: faces_for([0, 1, 1, 1, 10, 10, 10, 10, 10, 10]),
    10: faces_for([4, 4, 4, 1, 10, 10, 10, 10, 10, 10]),
}
FAIL = faces_for([1, 1, 2, 2, 5, 5, 6, 6, 7, 7])


def outcome(phase, faces):
    nums = bytes(FACE_NUM[d * 6 + int(faces[d])] for d in range(10))
    cols = bytes(FACE_COL[d * 6 + int(faces[d])] for d in range(10))
    return best(phase, nums, cols)[0]


def reference(n, order, choose):
    """choose(player, phase) -> faces of that turn. Returns (turns, phase, scores, fails, ff)."""
    phase = [1] * n
    scores = [[] for p in range(n)]
    fails = [0] * n
    tries10 = [0] * n
    ff = [False] * n
    turns = []

    def turn(p):
        faces = choose(p, phase[p])
        turns.append((p, faces))
        if phase[p] == 10:
            tries10[p] += 1
        s = outcome(phase[p], faces)
        if s < 0:
            fails[p] += 1
            return False
        scores[p].append(s)
        phase[p] += 1
        return True

    # Normal play: rounds in turn order until someone completes phase 10.
    first_pos = None
    while first_pos is None:
        for pos in range(n):
            p = order[pos]
            turn(p)
            if phase[p] == 11:
                first_pos = pos
                break
    first = order[first_pos]
    if n == 1:
        ff[first] = tries10[first] == 1  # solitaire: phase 10 on its first try
    else:
        ff[first] = True
        was_on_10 = [phase[q] == 10 for q in range(n)]
        # "each of the remaining players gets one last try", in turn order after the finisher;
        # a success earns another turn, until a failure or phase 10 is done.
        for k in range(1, n):
            pos = (first_pos + k) % n
            q = order[pos]
            while turn(q):
                if phase[q] == 11:
                    # "already in Phase 10" and "did not start the game ahead of" the finisher
                    ff[q] = was_on_10[q] and pos > first_pos
                    break
    return turns, phase, scores, fails, ff


def expected_total(n, scores, fails, ff, p):
    s = scores[p]
    t = sum(s)
    if len(s) >= 5 and sum(s[:5]) > 220:
        t += 40
    if ff[p]:
        t += 40
    if n == 1:
        t -= 5 * fails[p]
    return t


def test_random_games_follow_the_book():
    rnd = random.Random(31)
    games = soak.count(400, 10000)
    refused = 0
    for g_no in range(games):
        n = rnd.choice((1, 1, 2, 3, 4, 5, 8))
        order = list(range(n))
        rnd.shuffle(order)
        p_make = rnd.choice((0.3, 0.6, 0.9))

        def choose(p, ph):
            r = rnd.random()
            if r < p_make:
                return MAKES[ph]
            if r < p_make + 0.1:
                return "".join(str(rnd.randrange(6)) for d in range(10))
            return FAIL

        turns, phase, scores, fails, ff = reference(n, order, choose)
        g = DiceGame({"players": ["P%d" % i for i in range(n)], "order": order})
        prev_phase = [1] * n
        for p, faces in turns:
            assert g.state.player() == p
            if n > 1 and rnd.random() < 0.04:
                # a turn by someone else, or with a die that has no such face: refused,
                # and the game is exactly as before
                before = savefile.dumps(g)
                bad = {"player": (p + 1) % n, "faces": faces} if rnd.random() < 0.5 else \
                    {"player": p, "faces": faces[:9] + "6"}
                try:
                    g.add(bad)
                    raise AssertionError("accepted %r" % (bad,))
                except RuleError as e:
                    assert e.args[0] and savefile.dumps(g) == before
                refused += 1
            g.add({"player": p, "faces": faces})
            # phases never go back and never skip one
            now = g.state.phase
            assert all(prev_phase[q] <= now[q] <= prev_phase[q] + 1 for q in range(n))
            prev_phase = list(now)
        if g.records and rnd.random() < 0.3:
            # undo then the same turn again: the same game
            before = savefile.dumps(g)
            last = g.records[-1]
            g.undo()
            assert not g.state.over or len(g.records) == 0
            g.add(last)
            assert savefile.dumps(g) == before
        st = g.state
        assert st.over and st.player() == -1
        assert st.phase == phase
        assert st.ff_bonus == ff
        assert [st.fails[p] for p in range(n)] == fails
        totals = [expected_total(n, scores, fails, ff, p) for p in range(n)]
        assert [g.total(p) for p in range(n)] == totals
        top = max(totals)
        assert g.winners() == [p for p in order if totals[p] == top]
        # The grand total row of the sheet is the same figure, column by turn order.
        assert g.sheet()[-1] == ("GRAND TOTAL", [totals[p] for p in order])
        # The save replays to the same game.
        h = saveload.loads(savefile.dumps(g))
        assert [h.total(p) for p in range(n)] == totals and h.state.ff_bonus == ff
    soak.ran(games, "random Dice games against the book (%d refused turns changed nothing)" % refused)
