"""Thousands of random valid card games (Classic, each variation, Masters): the invariants
of a score pad hold after every hand, and undo/replace/save never change a derived figure.
Counts: make test runs the short form, make soak (SOAK=1) 10,000 games of each engine."""
import random

import soak
from hypothesis import given, settings, strategies as st, HealthCheck

from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.game import RuleError
from engine_mpy.phases import PHASE_TEXT
from engine_mpy import savefile, saveload
from host_sim import report

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def laid(words):
    """The cards a phase lays, counted from its words as the rulebook gives them ("1 set
    of 5 + 1 set of 2": 7, "7 cards of one colour": 7), not from the engine's own table
    of them (engine_mpy/phases.py PHASE_CARDS, which the rules hold to these words)."""
    n = 0
    for part in words.split(" + "):
        w = part.split()
        n += int(w[0]) if w[1] == "cards" else int(w[0]) * int(w[-1])
    return n


# what each phase lays (index = phase number): a player who completed a phase but did
# not go out keeps 1 .. 10 - this many cards
LAID = [0] + [laid(PHASE_TEXT[n]) for n in range(1, 11)]


# A game is built from choices: ("int", lo, hi), ("bool",) or ("pick", seq). Hypothesis
# makes them in the short form (and shrinks a failure); the long form adds games made
# with a seeded random.Random, which runs ten times faster (each failure names its seed).
def INT(lo, hi):
    return ("int", lo, hi)


BOOL = ("bool",)


def PICK(seq):
    return ("pick", seq)


def hyp_draw(draw):
    def choose(c):
        if c[0] == "int":
            return draw(st.integers(c[1], c[2]))
        if c[0] == "bool":
            return draw(st.booleans())
        return draw(st.sampled_from(c[1]))
    return choose


def rng_draw(rng):
    def choose(c):
        if c[0] == "int":
            return rng.randint(c[1], c[2])
        if c[0] == "bool":
            return rng.random() < 0.5
        return rng.choice(c[1])
    return choose


def random_counts(draw, n_cards, p, skips=4):
    """n_cards split into the four kinds, so that six players together stay within the
    deck (8 Wilds, skips Skips: 4, the Masters deck 2; 24 cards of 10-12)."""
    wild = draw(INT(0, min(n_cards, 1)))
    skip = draw(INT(0, min(n_cards - wild, 1 if p < skips else 0)))
    hi = draw(INT(0, min(4, n_cards - wild - skip)))
    return [n_cards - wild - skip - hi, hi, skip, wild]


CLASSIC_KINDS = ["standard", "ten_hands", "first_n", "even"]


def build_game(draw, kinds):
    kind = draw(PICK(kinds))
    n = draw(INT(2, 6))
    s = {"players": NAMES[:n], "dealer": draw(INT(0, n - 1))}
    if kind == "masters":
        g = Masters(s)
    else:
        s["variation"] = kind
        if kind == "first_n":
            s["phases"] = draw(INT(1, 10))
        g = Classic(s)
    for _ in range(draw(INT(0, 25))):
        if g.state.over:
            break
        out = draw(INT(0, n - 1))
        left = []
        chosen = []
        skips = g.DECK[2]
        for p in range(n):
            if isinstance(g, Masters):
                rem = g.remaining(p)
                ph = draw(PICK(rem)) if (p == out or draw(BOOL)) else 0
                chosen.append(ph)
                ok = ph != 0
            else:
                ph = g.attempted(g.state, p, None)
                ok = p == out or draw(BOOL)
            if p == out:
                left.append(None)
            elif ok:
                left.append(random_counts(draw, draw(INT(1, 10 - LAID[ph])), p, skips))
            else:
                left.append(random_counts(draw, 10, p, skips))
        rec = {"out": out, "left": left}
        if isinstance(g, Masters):
            rec["phase"] = chosen
        g.add(rec)                      # every hand built this way is valid
        if g.state.tiebreak:
            g.add({"tiebreak": draw(PICK(g.state.tiebreak))})
    return g


@st.composite
def card_games(draw, kinds=CLASSIC_KINDS + ["masters"]):
    return build_game(hyp_draw(draw), kinds)


def run_games(kinds, short, long):
    """Check random games of kinds: short ones by hypothesis, then in the long form
    seeded ones up to long in all. Returns how many ran."""
    runs = [0]

    @settings(max_examples=short, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(card_games(kinds))
    def one(g):
        check_invariants(g)
        runs[0] += 1
    one()
    for seed in range(soak.count(0, long - runs[0])):
        g = build_game(rng_draw(random.Random(seed)), kinds)
        try:
            check_invariants(g)
        except AssertionError:
            print("game of seed %d, kinds %s: %s" % (seed, kinds, savefile.dumps(g)))
            raise
        runs[0] += 1
    return runs[0]


def test_invariants_of_random_classic_games():
    n = run_games(CLASSIC_KINDS, 900, 10000)
    soak.ran(n, "random Classic games (standard, ten hands, first N, even phases)")


def test_invariants_of_random_masters_games():
    n = run_games(["masters"], 250, 10000)
    soak.ran(n, "random Masters games")


def check_invariants(g):
    st_ = g.state
    n = st_.n
    sheet = report.card_sheet(g)
    # Totals are the sums of hand points, and the running totals on the sheet agree.
    for p in range(n):
        assert st_.total[p] == sum(row[3][p][0] for row in sheet)
        run = 0
        for row in sheet:
            run += row[3][p][0]
            assert row[3][p][3] == run
            assert row[3][p][0] >= 0   # a hand never takes points off: totals never decrease
    # Phases never go back; the one who went out scored 0 and completed.
    prev = [0] * n
    replay = type(g)(g.settings)
    for rec in g.records:
        replay.add(rec)
        done = [replay.phases_done(replay.state, p) for p in range(n)]
        assert all(done[p] >= prev[p] for p in range(n))
        assert all(done[p] - prev[p] <= 1 for p in range(n))   # one phase per hand at most
        prev = done
    for row in sheet:
        assert row[3][row[2]][0] == 0 and row[3][row[2]][1]
    # A finished game has exactly one winner or a pending tie-break (never both).
    summary = report.summary(g)
    if st_.over:
        assert (len(summary["winners"]) == 1) != bool(summary["tiebreak"])
    else:
        assert summary["winners"] == [] and summary["tiebreak"] == []
    # Ranks start at 1 and a winner ranks first.
    ranks = sorted(r["rank"] for r in g.players())
    assert ranks[0] == 1
    for w in st_.winners if g.over else []:
        assert g.players()[w]["rank"] == 1
    # Save/load and undo/redo are lossless.
    again = saveload.loads(savefile.dumps(g))
    assert again.players() == g.players() and report.card_sheet(again) == sheet
    if g.records:
        last = g.records[-1]
        before = g.players()
        g.undo()
        g.add(last)
        assert g.players() == before
        # Replacing a hand by itself changes nothing.
        g.replace(0, g.records[0])
        assert g.players() == before


def test_a_phase_completed_leaves_at_most_ten_less_the_cards_it_lays():
    # Masters: Bob completes the phase he chose, keeping the most cards it leaves (taken),
    # or one more (refused: he could not have laid it), for each of the ten phases
    for ph in range(1, 11):
        for n, ok in ((10 - LAID[ph], True), (11 - LAID[ph], False)):
            g = Masters({"players": ["Ann", "Bob"], "dealer": 0})
            try:
                g.add({"out": 0, "left": [None, [n, 0, 0, 0]], "phase": [1, ph]})
                taken = True
            except RuleError:
                taken = False
            assert taken == ok, "phase %d (%s) completed keeping %d cards: %s" % (
                ph, PHASE_TEXT[ph], n, "refused" if ok else "taken")
            if ok:
                assert g.phases_done(g.state, 1) == 1 and g.state.total[1] == 5 * n


def test_a_refused_entry_changes_nothing():
    n = soak.count(300, 3000)
    refused = [0, 0]

    @settings(max_examples=n, deadline=None)
    @given(card_games(), st.integers(0, 30), st.lists(st.integers(-2, 12), min_size=4, max_size=4))
    def one(g, where, counts):
        refused[1] += 1
        if try_entry(g, where, counts):
            refused[0] += 1
    one()
    soak.ran(refused[1], "random card entries on random games (%d refused, nothing changed)" % refused[0])


def try_entry(g, where, counts):
    """Any entry, valid or not: either it is accepted, or the game is exactly as before."""
    n = g.state.n
    before = savefile.dumps(g)
    rec = {"out": where % n, "left": [None if p == where % n else counts for p in range(n)]}
    if isinstance(g, Masters):
        rec["phase"] = [(where + p) % 11 for p in range(n)]
    try:
        if g.records and where % 3 == 0:
            g.replace(where % len(g.records), rec)
        else:
            g.add(rec)
    except RuleError as e:
        assert e.args[0]
        assert savefile.dumps(g) == before
        return True
    return False
