"""Twist on CPython only: thousands of random legal games and random layouts, and brute
force checks of the tie-break card totals and the Twist card draw."""
import itertools
import json
import random

import soak
from hypothesis import given, settings, strategies as st

from engine_mpy.game import RuleError
from engine_mpy import board_layout as board, handcheck, savefile, saveload
from engine_mpy.phases import PHASE_CARDS
from engine_mpy.twist_cards import TWIST_CARDS
from engine_mpy.twist import Twist, draw_twist_card, tie_total_possible, BEFORE, AFTER, CLASSIC, FACE


def random_layout(rng):
    """A valid layout: 1S, then numbered spaces with single Twist spaces between, 10R."""
    codes = ["1S"]
    for _ in range(rng.randrange(0, 40)):
        if codes[-1] != "T" and rng.random() < 0.35:
            codes.append("T")
        else:
            codes.append(str(rng.randrange(1, 10)))
    codes.append("10R")
    return codes


def play_random_game(rng, g, max_hands=80):
    """Add random legal hands until the game ends; returns the records added."""
    n = g.state.n
    for _ in range(max_hands):
        if g.state.over:
            break
        out = rng.randrange(n)
        pick = [None] * n
        left = [None] * n
        taken = []
        for p in range(n):
            if g.on_twist(p):
                r = rng.random()
                if r < 0.3:
                    pick[p] = BEFORE
                elif r < 0.6:
                    pick[p] = AFTER
                else:
                    c = draw_twist_card(rng, taken)
                    taken.append(c)
                    pick[p] = c
            ph, card = g.attempt(g.state, p, pick[p])
            size = TWIST_CARDS[card] if card else PHASE_CARDS[ph]
            if p != out:
                left[p] = 10 if rng.random() < 0.5 else rng.randrange(1, 10 - size + 1)
        rec = {"out": out, "left": left}
        if any(x is not None for x in pick):
            rec["pick"] = pick
        try:
            g.add(rec)
        except RuleError as e:
            assert "value of" in e.args[0], e.args[0]
            # Several passed without going out: give every player still holding cards a total.
            vals = g.settings["values"]
            rec["total"] = [None if left[p] is None else (5 * left[p] if vals == CLASSIC else 2 * left[p]) for p in range(n)]
            g.add(rec)
    return g.records


def test_random_games_keep_every_rule():
    runs = [0]

    @settings(max_examples=soak.count(300, 10000), deadline=None)
    @given(st.integers(0, 2**32 - 1))
    def one(seed):
        check_random_game(seed)
        runs[0] += 1
    one()
    soak.ran(runs[0], "random Twist games on random layouts")


def check_random_game(seed):
    rng = random.Random(seed)
    codes = random_layout(rng)
    n = rng.randrange(2, 7)
    values = rng.choice([FACE, CLASSIC])
    s = {"players": ["P%d" % i for i in range(n)], "dealer": rng.randrange(n), "layout": codes, "values": values}
    g = Twist(s)
    red = len(codes) - 1
    before = [0] * n
    for k in range(80):
        if g.state.over:
            break
        play_random_game(rng, g, max_hands=1)
        rec = g.records[-1]
        moves = g.state.moves
        after = g.state.pos
        for p in range(n):
            a, b = before[p], after[p]
            assert 0 <= b <= red + 1
            went_out = p == rec["out"]
            twist_card = isinstance((rec.get("pick") or [None] * n)[p], int)
            if twist_card:
                assert moves[p] in (6, 4, -1)
            else:
                assert moves[p] in (3, 2, 1)
            assert (moves[p] in (3, 6)) == went_out
            if moves[p] == -1:
                assert b == max(a - 1, 0)
            elif a == red:
                # On the red space: stay unless Phase 10 was completed, then pass it.
                assert b == (red + 1 if moves[p] >= 2 else red)
            elif moves[p] >= 2 and a >= red - 2:
                # A move of 2 or more from one of the two spaces before the red space
                # jumps it (one that would end on it too).
                assert b == red + 1
            elif a + moves[p] > red:
                # From further back the pawn stops on it.
                assert b == red
            else:
                assert b == a + moves[p]
        passed = [p for p in range(n) if after[p] > red]
        assert g.state.over == bool(passed)
        if passed:
            assert set(g.state.winners) <= set(passed) and g.state.winners
            if rec["out"] in passed:
                assert g.state.winners == [rec["out"]]
        before = list(after)
    # The live state built hand by hand equals a replay from the save.
    h = saveload.loads(savefile.dumps(g))
    assert h.state.pos == g.state.pos and h.state.winners == g.state.winners
    assert h.records == g.records and h.state.moves == g.state.moves
    # Re-entering any hand unchanged changes nothing; undo then the same hand again
    # neither; a hand after the game is over is refused and changes nothing.
    if g.records:
        saved = savefile.dumps(g)
        i = rng.randrange(len(g.records))
        g.replace(i, json.loads(json.dumps(g.records[i])))
        assert g.state.pos == h.state.pos
        last = g.records[-1]
        g.undo()
        g.add(last)
        assert savefile.dumps(g) == saved
        if g.state.over:
            try:
                g.add({"out": 0, "left": [None] + [10] * (n - 1)})
                raise AssertionError("a hand after the end was accepted")
            except RuleError as e:
                assert e.args[0] and savefile.dumps(g) == saved


def test_any_layout_text_is_accepted_or_refused_with_a_message():
    runs = [0]

    @settings(max_examples=soak.count(500, 10000), deadline=None)
    @given(st.lists(st.sampled_from(["1S", "1", "5", "9", "T", "10R", "10", "X", "#", "\n", "t", "10r"]), max_size=80))
    def one(tokens):
        check_layout_text(tokens)
        runs[0] += 1
    one()
    soak.ran(runs[0], "random layout texts (hypothesis)")


def check_layout_text(tokens):
    text = " ".join(tokens)
    try:
        codes = board.parse_layout(text)
    except RuleError as e:
        assert e.args[0]
        return
    assert 2 <= len(codes) <= board.MAX_SPACES
    assert codes[-1] == "10R" and codes.count("10R") == 1 and codes[0] in ("1S", "1")
    for i, c in enumerate(codes):
        if c == "T":
            assert codes[i - 1] != "T" and codes[i + 1] != "T"
    # A valid layout can start a game and survives the save.
    g = Twist({"players": ["A", "B"], "layout": text})
    assert saveload.loads(savefile.dumps(g)).settings["layout"] == " ".join(codes)


def test_random_layouts_are_valid():
    rng = random.Random(4)
    for _ in range(500):
        codes = random_layout(rng)
        assert board.check_codes(codes) == codes


def _brute_totals(m, values):
    # Every multiset of m cards the deck can give: numbers 1-12 (8 each), Skip (4), Wild (8).
    kinds = list(range(1, 13)) + ["S", "W"]
    limit = {"S": 4, "W": 8}
    seen = set()
    for combo in itertools.combinations_with_replacement(kinds, m):
        if any(combo.count(k) > limit.get(k, 8) for k in set(combo)):
            continue
        t = 0
        for c in combo:
            if c == "S":
                t += 15
            elif c == "W":
                t += 25
            elif values == CLASSIC:
                t += 5 if c <= 9 else 10
            else:
                t += c
        seen.add(t)
    return seen


def test_tie_totals_match_brute_force():
    for values in (FACE, CLASSIC):
        for m in range(1, 6):
            truth = _brute_totals(m, values)
            got = {t for t in range(0, 300) if tie_total_possible(t, m, values)}
            assert got == truth, (values, m)


def test_twist_draw_is_fair_and_never_repeats():
    rng = random.Random(10)
    counts = [0] * 11
    for _ in range(2000):
        taken = []
        for _ in range(6):
            c = draw_twist_card(rng, taken)
            assert c not in taken
            taken.append(c)
        counts[taken[0]] += 1
    # First draws spread over all ten cards (expected 200 each).
    assert all(120 < counts[c] < 280 for c in range(1, 11)), counts


def test_draw_with_getrandbits_only_source_covers_all_free_cards():
    class BitsOnly:
        def __init__(self, seed):
            self.r = random.Random(seed)

        def getrandbits(self, k):
            return self.r.getrandbits(k)

    src = BitsOnly(3)
    seen = {draw_twist_card(src, [2, 7]) for _ in range(500)}
    assert seen == {1, 3, 4, 5, 6, 8, 9, 10}


def test_completion_from_count_agrees_with_handcheck_for_twist_cards():
    # Twist card sizes 9, 8, 9, 9, 9, 8, 8, 5, 8, 9 (RULINGS.md): completed keeps 1..10-size.
    sizes = [9, 8, 9, 9, 9, 8, 8, 5, 8, 9]
    for c in range(1, 11):
        assert TWIST_CARDS[c] == sizes[c - 1]
        for n in range(1, 11):
            ok = n <= 10 - sizes[c - 1] or n == 10
            try:
                handcheck.completed_from_count("X", n, TWIST_CARDS[c], "Twist card %d" % c)
            except RuleError:
                assert not ok
            else:
                assert ok
