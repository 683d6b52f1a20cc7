"""The card games judge the common entry (four counts that break no rule, the player who
went out with none) without building any message (engine_mpy/cards.py, CardGame._judge):
that quick judging must give exactly what judging every player in words gives, the same
points and completions or the same refusal naming the same player, for any entry."""
import random

from test_cards_property import build_game, rng_draw, CLASSIC_KINDS

from engine_mpy import handcheck
from engine_mpy.game import RuleError
from engine_mpy.masters import Masters


def in_words(g, st, rec):
    """Every player judged by CardGame.judge (the wording), then the deck."""
    names = g.settings["players"]
    out, left, said = rec["out"], rec["left"], rec.get("done")
    try:
        chosen = g.chosen_phases(st, rec, out, names)
        res = []
        for p in range(st.n):
            try:
                res.append(g.judge(st, p, out, left[p], said[p] if said else None, chosen, names))
            except RuleError as x:
                return ("refused", x.args[0], p)
        entries = [r[0] for r in res]
        handcheck.check_deck(names, entries, g.DECK)
    except RuleError as x:
        return ("refused", x.args[0], x.player)
    return ("ok", entries, [r[1] for r in res], [r[2] for r in res], [r[3] for r in res],
            [g.attempted(st, p, chosen) for p in range(st.n)])


def quick(g, st, rec):
    try:
        r = g._judge(st, rec, g.settings["players"])
    except RuleError as x:
        return ("refused", x.args[0], x.player)
    flags = r[5] if r[5] is not None else [None] * len(r[2])    # None: no flag to save
    return ("ok", r[2], r[3], r[4], flags, r[7])


ODD = [None, 0, True, 1.5, "3", -1, [0, 0, 0, 0], [1, 2, 3], [10, 0, 0, 0, 0], (10, 0, 0, 0),
       [True, 9, 0, 0], [9.0, 1, 0, 0], [None, 0, 0, 0], [-1, 11, 0, 0], [73, 0, 0, 0],
       [0, 0, 5, 5], [0, 0, 0, 9], 5, 50, 100, 35, 250, 255]


def entry(rng, done):
    """Mostly an entry that fits (done: the cards of one who completed the phase), else
    anything."""
    r = rng.random()
    if r < 0.85:
        k = rng.randint(1, 2) if done else 10
        a = rng.randint(0, k)
        b = rng.randint(0, k - a)
        c = rng.randint(0, min(1, k - a - b))
        return [a, b, c, k - a - b - c]
    if r < 0.9:
        return [rng.randint(0, 10), rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 2)]
    if r < 0.95:
        return rng.randint(0, 60) * 5
    return rng.choice(ODD)


def test_quick_judging_gives_what_judging_in_words_gives():
    rng = random.Random(25)
    agreed = {"ok": 0, "refused": 0}
    for seed in range(160):
        g = build_game(rng_draw(random.Random(seed)), CLASSIC_KINDS + ["masters"])
        st = g.state
        if st.over or st.tiebreak:
            continue
        n = st.n
        for _ in range(40):
            out = rng.randint(0, n - 1)
            done = [rng.random() < 0.4 for _ in range(n)]
            rec = {"out": out}
            if isinstance(g, Masters):
                rec["phase"] = [rng.choice(g.remaining(p, st)) if done[p] else 0 for p in range(n)]
                if rng.random() < 0.1:
                    rec["phase"][rng.randint(0, n - 1)] = rng.randint(0, 10)
            left = [entry(rng, done[p]) for p in range(n)]
            if rng.random() < 0.9:
                left[out] = None
            rec["left"] = left
            if rng.random() < 0.1:
                rec["done"] = [rng.choice([None, True, False]) for _ in range(n)]
            want = in_words(g, st, rec)
            got = quick(g, st, rec)
            assert got == want, (savefile_text(g), rec)
            agreed[want[0]] += 1
    # both verdicts came up often (the check above is not one-sided)
    assert agreed["ok"] > 500 and agreed["refused"] > 500, agreed


def savefile_text(g):
    from engine_mpy import savefile
    return savefile.dumps(g)
