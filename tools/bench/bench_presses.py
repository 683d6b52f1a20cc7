"""Presses per hand (make bench): how many button presses the table makes to enter a card
hand on the device, per player who did not go out (the presses for the hand itself left
out: opening the entry, who went out, saving; in Masters the phase of who went out).

Hands are drawn from a deck model, the keys for each come from tests/table_keys.py (the
one place that knows the hand screen's keys, shortest way), and a sample of them is played
on the simulated device to check those keys save exactly the hand drawn.

The deck model (docs/rules.md, the decks): Phase 10 has 96 numbered cards (1-12, two of
each in four colours), 8 Wilds and 4 Skips; Masters the same with 2 Skips. 2-6 players, the
one who went out chosen at random. Each other player completed their phase with chance
0.4 (then keeps 1 to the most their phase leaves, at random), else holds ten. The cards
held are dealt from the deck without replacement. Half the hands are Masters (a phase
named by each player who completed), half Classic; half entered by cards, half by points
(points worked out from the same cards).

A Dice turn with real dice: ten dice thrown at random (each die a fair face), the keys
from the turn's line on the Dice home screen to the turn saved (open the turn, Real dice,
the ten dice the shortest way as tests/table_keys.py enters them, Score, Stop, yes), over
TURNS throws; a sample played on the simulated device to check they save the dice thrown.

  python tools/bench/bench_presses.py [HANDS]    prints the figures as JSON
"""
import json
import os
import random
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

P_COMPLETED = 0.4
HANDS = 4000
CHECKED = 24          # hands of each kind played on the simulator
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Flo"]


def deck(masters):
    # kinds: 0 a 1-9, 1 a 10-12, 2 a Skip, 3 a Wild
    return [0] * 72 + [1] * 24 + [2] * (2 if masters else 4) + [3] * 8


def draw_hand(rng, n, masters):
    """(out, cards): cards[p] = [1-9, 10-12, Skip, Wild] counts, None for who went out;
    phase_cards: the cards a phase 1 lays (the first hand: everybody on phase 1)."""
    out = rng.randrange(n)
    cards = deck(masters)
    rng.shuffle(cards)
    left = []
    for p in range(n):
        if p == out:
            left.append(None)
            continue
        # phase 1 lays 6 cards: one who completed it keeps 1 to 4
        k = rng.randint(1, 4) if rng.random() < P_COMPLETED else 10
        e = [0, 0, 0, 0]
        for _ in range(k):
            e[cards.pop()] += 1
        left.append(e)
    return out, left


def points_of(e):
    return 5 * e[0] + 10 * e[1] + 15 * e[2] + 25 * e[3]


def keys_for(out, left, masters, by_points, three=False):
    """The keys of the hand page for this hand, each player the shortest way (counts and
    points from tests/table_keys.py); the answers the check page fills in (Masters: the
    phase named; by points: "Did they complete it?") changed there where they are not
    the cards drawn (tests/table_keys.py check())."""
    from tests import table_keys as K
    from engine_mpy.classic import Classic
    from engine_mpy.masters import Masters
    n = len(left)
    g = (Masters if masters else Classic)({"players": NAMES[:n], "dealer": 0})
    entries = []
    saved = []
    done = []
    for p in range(n):
        e = left[p]
        done.append(e is None or sum(e) < 10)
        if e is None:
            entries.append(None)
            saved.append(None)
        elif by_points:
            entries.append(K.points(points_of(e), three))
            saved.append(points_of(e))
        else:
            entries.append(K.counts3(e) if three else K.counts(e))
            saved.append(e)
    # Masters: who went out names the lowest phase left, offered first; everybody who
    # completed a phase on the first hand completed phase 1
    phase = [1 if d else 0 for d in done] if masters else None
    review = K.check(g, out, saved, done, phase)
    return K.hand(out, entries, "OK" if masters else "", review)


def count(keys):
    return len(keys.split())


def figures(hands=HANDS, seed=2026, three=False):
    """Per hand: presses per player who did not go out (the hand's own presses left out:
    opening the entry, who went out and its OK, the save, and in Masters the phase of the
    one who went out), and presses for the whole hand; the same hands for either mode."""
    rng = random.Random(seed)
    per_player = []
    per_hand = []
    for i in range(hands):
        masters = i % 2 == 1
        by_points = (i // 2) % 2 == 1
        n = rng.randint(2, 6)
        out, left = draw_hand(rng, n, masters)
        k = count(keys_for(out, left, masters, by_points, three))
        own = 3 + out + (1 if masters else 0)
        per_hand.append(k)
        per_player.append(round((k - own) / float(n - 1), 2))
    return per_player, per_hand


def percentile(values, p):
    v = sorted(values)
    i = max(0, int(-(-p * len(v) // 100)) - 1)
    return v[i]


THREE_KEYS = "DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP"   # Settings > 3 buttons: yes
POINTS_KEYS = "DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP"   # Settings > Hands by: points


def check_on_device(seed=7, each=CHECKED, three=False):
    """Play drawn hands on the simulator (a fresh game each, the first hand) and compare
    the saved record with the hand drawn. Returns the number checked."""
    from host_sim import script, sim
    from tests import table_keys as K
    sim.use_fake_machine()
    rng = random.Random(seed)
    checked = 0
    for masters in (False, True):
        for by_points in (False, True):
            for _ in range(each):
                n = rng.randint(2, 6)
                out, left = draw_hand(rng, n, masters)
                state = tempfile.mkdtemp(prefix="phase10-presses-")
                try:
                    dev = script.Device(state=state, mem_free=40000)
                    if three:
                        dev.play(script.parse(K.menu("settings") + " " + THREE_KEYS))
                    if by_points:
                        dev.play(script.parse(K.menu("settings") + " " + POINTS_KEYS))
                    dev.play(script.parse(K.new_game("masters" if masters else "classic", NAMES[:n], dealer=0)))
                    dev.play(script.parse(keys_for(out, left, masters, by_points, three)))
                    g = dev.app.session.game
                    assert g is not None and len(g.records) == 1, "hand not saved: %r" % ((masters, by_points, three, out, left),)
                    rec = g.records[0]
                    want = [None if e is None else (points_of(e) if by_points else e) for e in left]
                    assert rec["out"] == out and rec["left"] == want, (rec, out, want)
                    checked += 1
                finally:
                    shutil.rmtree(state, ignore_errors=True)
    return checked


TURNS = 2000
DICE_CHECKED = 24


def throw(rng):
    """Ten dice thrown: the texts they show ('7r', 'Wg'), die by die."""
    from engine_mpy.dice_eval import FACE_NUM, FACE_COL, COLOURS
    out = []
    for d in range(10):
        f = rng.randrange(6)
        n = FACE_NUM[d * 6 + f]
        out.append(("W" if n == 0 else str(n)) + COLOURS[FACE_COL[d * 6 + f]])
    return out


# The turn's own presses, not setting a die: its line on the home screen, Real dice (2),
# then Score, Stop, yes.
DICE_OWN = 6


def dice_keys(dice):
    from tests import table_keys as K
    return "OK " + K.entry_keys(dice)


def dice_figures(turns=TURNS, seed=2026):
    """(presses per turn, presses per die setting the ten dice) over random throws."""
    rng = random.Random(seed)
    per_turn = []
    per_die = []
    for _ in range(turns):
        k = count(dice_keys(throw(rng)))
        per_turn.append(k)
        per_die.append((k - DICE_OWN) / 10.0)
    return per_turn, per_die


def check_dice_on_device(seed=7, each=DICE_CHECKED):
    """Play thrown dice on the simulator (a fresh solitaire game each, its first turn) and
    compare the dice the saved turn shows with the dice thrown. Returns the number checked."""
    from host_sim import script, sim
    from tests import table_keys as K
    from engine_mpy.dice_eval import FACE_NUM, FACE_COL, parse_die
    sim.use_fake_machine()
    rng = random.Random(seed)
    checked = 0
    for _ in range(each):
        dice = throw(rng)
        state = tempfile.mkdtemp(prefix="phase10-dice-presses-")
        try:
            dev = script.Device(state=state, mem_free=40000)
            dev.play(script.parse(K.new_game("dice", ["Ann"]) + " OK " + dice_keys(dice)))
            g = dev.app.session.game
            assert g is not None and len(g.records) == 1, "turn not saved: %r" % (dice,)
            f = g.records[0]["faces"]
            shown = sorted((FACE_NUM[d * 6 + int(f[d])], FACE_COL[d * 6 + int(f[d])]) for d in range(10))
            assert shown == sorted(parse_die(t) for t in dice), (f, dice)
            checked += 1
        finally:
            shutil.rmtree(state, ignore_errors=True)
    return checked


def run():
    per_player, per_hand = figures()
    per_player3, _ = figures(three=True)
    per_turn, per_die = dice_figures()
    return {
        "dice_real_presses_p50": percentile(per_turn, 50),
        "dice_real_presses_per_die": round(sum(per_die) / len(per_die), 2),
        "dice_real_turns_checked": check_dice_on_device(),
        "presses_per_player_p50": percentile(per_player, 50),
        "presses_per_player_p90": percentile(per_player, 90),
        "presses_per_player_3btn_p50": percentile(per_player3, 50),
        "presses_per_hand_p50": percentile(per_hand, 50),
        "presses_per_hand_p90": percentile(per_hand, 90),
        "presses_hands_checked": check_on_device() + check_on_device(seed=8, each=CHECKED // 2, three=True),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1, sort_keys=True))
