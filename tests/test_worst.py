# The worst legal cases (tests/worst.py) played on the simulator, checked against what the
# rules and the history's limits say; and on the twin (the micropython binary, .mpy files)
# at one capped heap: saves of 5, 30 and 55 hands loaded and played on, and a history of
# 1,000 games finished into, browsed and shown, every screen the simulator's.
import json
import os
import shutil
import tempfile

from host_sim import script, sim
from tests import histfile, worst
from tests import table_keys as K

sim.use_fake_machine()
# One cap for all three on the 64-bit unix port (make bench's min_heap_kb is the smallest
# heap over every session; this is a round figure above it). The Classic tie-break's finish
# and History pass at 126K and fail at 124K today (that session alone, tests/test_twin.py
# play(), three runs at each cap). Within the whole suite the same run failed once at 132K
# (the finish), so the cap keeps 14K over the figure alone: the unix port's conservative
# collector and the test's own paths (interned as module and file names) move the last KB
# between runs; at 124K, 4K over the figure measured before, it failed one run in two.
# (Issue 13's budget, 112K, is not met yet; make bench's min_heap_kb is the product's figure.)
# 140K to 148K with issue 25's split functions and read-ahead: in a fresh clone (another
# path) the 5-player game ran short at 140K after its second chunk and passed at 144K.
# 148K to 156K with issue 43's screen stack and memory policy as classes and the module
# names as one table (about 4.8 KB more of this heap): it failed at 148K (as it had at
# 144K) and passed at 152K.
HEAP = "156K"

_tmp = []


def sessions():
    if not _tmp:
        d = tempfile.mkdtemp(prefix="phase10-worst-")
        _tmp.append(d)
        _tmp.append(dict((s["name"], s) for s in worst.sessions(d)))
    return _tmp[1]


def teardown_module(module):
    if _tmp:
        shutil.rmtree(_tmp[0], ignore_errors=True)


def play_sim(s):
    """The session on the simulator over a copy of its start: (device, folder, screens)."""
    d = tempfile.mkdtemp(prefix="phase10-worst-run-")
    shutil.rmtree(d)
    shutil.copytree(s["start"], d)
    dev = script.Device(state=d)
    screens = []
    for keys, want in zip(s["chunks"], s["expect"]):
        dev.play(script.parse(keys))
        assert dev.app.top().module == want, (s["name"], keys[:40], dev.app.top().module)
        screens.append("\n".join(dev.rows()) + "\n")
    return dev, d, screens


def _archives(d):
    return sorted(int(n[8:-5]) for n in os.listdir(d) if n.startswith("history.") and n[8:-5].isdigit())


def test_a_55_hand_game_ends_in_a_tie_break_and_finishes_into_a_full_history():
    for kind in ("classic", "masters"):
        s = sessions()["worst_%s_tiebreak" % kind]
        with open(os.path.join(s["start"], "roster.json")) as f:
            before = dict((r[0], r) for r in json.load(f))
        dev, d, _ = play_sim(s)
        try:
            assert dev.app.session.game is None and not os.path.exists(os.path.join(d, "game.json"))
            # 1,000 games were history.1 to .9 and history.json; the 1,001st moved the
            # full history.json aside as history.10 and the oldest (history.1) went
            assert _archives(d) == list(range(2, 11))
            with open(os.path.join(d, "history.json")) as f:
                lines = f.read().splitlines()
            assert len(lines) == 2
            e = json.loads(lines[1])
            # By hand (tests/worst.py): all six on phase 10 after 54 hands, Ann 2,255 and
            # the others 2,250; hand 55 Ann out, Bob completes keeping one card: both
            # 2,255 (the others fail again: 2,300), a tie-break, which Bob wins.
            assert e["n"] == 1001 and e["game"] == kind and e["winners"] == ["Bob"]
            assert e["hands"] == 56 and e["totals"] == [2255, 2255, 2300, 2300, 2300, 2300]
            assert e["made"] == [10, 10, 9, 9, 9, 9] and e["sheet"].endswith(",T1")
            with open(os.path.join(d, "roster.json")) as f:
                after = dict((r[0], r) for r in json.load(f))
            # every player a game, Bob a win, their points and the 55 hands (not the
            # tie-break); the other 14 names untouched
            for name in worst.SIX:
                b, a = before[name], after[name]
                won = 1 if name == "Bob" else 0
                assert a == [name, b[1] + 1, b[2] + won, b[3] + e["totals"][worst.SIX.index(name)], b[4] + 55]
            for name in worst.NAMES20[6:]:
                assert after[name] == before[name]
        finally:
            shutil.rmtree(d, ignore_errors=True)


def test_the_longest_twist_and_dice_games_finish():
    s = sessions()["worst_twist"]
    dev, d, _ = play_sim(s)
    try:
        e = histfile.games(d)[-1]
        # the game as tests/worst.py built it, to the end, on the 64-space board
        g = worst.twist_game()
        assert e["game"] == "twist" and e["hands"] == len(g.records)
        assert e["winners"] == [worst.SIX[w] for w in g.state.winners]
        assert len(e["layout"].split()) == 64 and "cut" not in e
    finally:
        shutil.rmtree(d, ignore_errors=True)
    s = sessions()["worst_dice"]
    dev, d, _ = play_sim(s)
    try:
        e = histfile.games(d)[-1]
        g, _ = worst.dice_turns()
        assert e["game"] == "dice" and e["hands"] == 300 and len(e["players"]) == 8
        assert e["totals"] == [g.total(p) for p in range(8)] and e["winners"] == [worst.EIGHT[w] for w in g.winners()]
        assert len(e["sheet"]) == 300 * 4 - 1 and "cut" not in e
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _card_session(tmp, hands):
    """A 6-player Classic save of `hands` hands beside the full history and roster:
    continued, the sheet scrolled, the next hand entered, the sheet again."""
    d = os.path.join(tmp, "cards_%d" % hands, "start")
    worst.write_start(d, worst.card_game("classic", hands))
    out = hands % 6
    h = K.hand(out, [None if p == out else K.counts(worst.FAIL) for p in range(6)])
    return {"start": d, "chunks": [worst.CONTINUE, worst.SHEET, h, worst.SHEET]}


def test_saves_of_5_30_and_55_hands_and_a_1000_game_history_at_one_capped_heap():
    from tests.test_twin import play
    tmp = tempfile.mkdtemp(prefix="phase10-worst-twin-")
    try:
        cases = [_card_session(tmp, 5), _card_session(tmp, 30), sessions()["worst_classic_tiebreak"]]
        for c in cases:
            want = []
            d = os.path.join(tmp, "sim")
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(c["start"], d)
            dev = script.Device(state=d)
            for keys in c["chunks"]:
                dev.play(script.parse(keys))
                want.append("\n".join(dev.rows()) + "\n")
            twin = os.path.join(tmp, "twin")
            shutil.rmtree(twin, ignore_errors=True)
            shutil.copytree(c["start"], twin)
            got = play(twin, c["chunks"], heap=HEAP)
            for i in range(len(want)):
                if got[i] != want[i]:
                    g, w = got[i].split("\n"), want[i].split("\n")
                    rows = ["row %d twin %s\nrow %d sim  %s" % (y, g[y], y, w[y])
                            for y in range(min(len(g), len(w))) if g[y] != w[y]]
                    raise AssertionError("twin differs after chunk %d %r of %s:\n%s\ntwin:\n%s" % (
                        i, c["chunks"][i][:60], c["start"], "\n".join(rows[:12]), got[i]))
            # the same files on both: the hand saved, or the game finished into the history
            # (line by line as JSON: MicroPython's dicts write their keys in another order)
            assert sorted(os.listdir(d)) == sorted(os.listdir(twin))
            for name in sorted(os.listdir(d)):
                with open(os.path.join(d, name), "rb") as a, open(os.path.join(twin, name), "rb") as b:
                    la, lb = a.read().splitlines(), b.read().splitlines()
                assert [json.loads(x) for x in la] == [json.loads(x) for x in lb], name
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
