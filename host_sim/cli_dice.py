"""python -m host_sim dice score PHASE D1 ... D10 [--json]
python -m host_sim dice advise PHASE ROLLS_LEFT D1 ... D10 [--json] [--top N]

score: score ten Phase 10 Dice for a phase: for players of the physical game and for
checking the device. Each die is its number or W followed by its colour letter (r, o, b,
g), in any order, e.g. `10o Wg 7r`. Prints whether the phase is made, the best score and
the dice that make it; --json prints {"made": true|false, "score": N, "used": [positions
0-9]}. Dice the real set cannot show together are refused with the reason (exit 2).

advise: which dice to hold, with ROLLS_LEFT rolls left (1 or 2; 0: the turn ends with
these dice and only their score is printed). Prints the best holds (--top N, default 3)
ranked by the advisor's rule: the highest chance of making the phase by the end of the
turn; within 0.5 points of it, the highest expected score (a phase not made scores 0);
holding all ten means stopping now. Every figure is exact (every outcome of the re-rolled
dice over their real faces; with two rolls left, the best second hold for each first
outcome); docs/dice-advisor.md has the definitions and the times. --json prints
{"phase", "rolls_left", "dice": [texts], "holds": [{"hold": [positions], "reroll":
[positions], "stop": bool, "chance": float, "chance_exact": "p/q", "expected": float,
"expected_exact": "p/q"}], "stop_best": bool, "left_out": N, "matchings": N, "seconds": s}:
positions index the dice as given; left_out counts the holds (phase 8, two rolls left)
shown by a bound to be out of reach of the best and not computed; matchings counts the
ways these results fit on the real dice (the figures use the first: for every phase but
8 the others give the same figures, the low dice all rolling 1-4, W, W and the high ones
5-10).
"""

import json
import sys

from host_sim import hostio
from engine_mpy.game import RuleError
from engine_mpy.dice_eval import PHASE_LABEL, best, die_text, parse_die
from engine_mpy.dice_match import match_dice


def _usage(msg, which=1):
    """Refuse in one line, as argparse's own usage errors do (hostio.Parser)."""
    try:
        parsers()[which].error(msg)
    except hostio.Done as d:
        return d.args[0]


def _about(name):
    """The paragraph of the docstring about command name."""
    for p in __doc__.split("\n\n")[1:]:
        if p.startswith(name + ":"):
            return p[len(name) + 1:].strip()
    return ""


def parsers():
    """(the `dice` parser, its `score` parser, its `advise` parser)."""
    top = hostio.Parser(prog="python -m host_sim dice", description="Score ten dice for a phase, or ask which to hold.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    sc = sub.add_parser("score", help="score ten dice for a phase",
                        usage="%(prog)s [-h] [--json] PHASE D1 ... D10",
                        description=_about("score"))
    sc.add_argument("phase", metavar="PHASE", nargs="?", help="the phase, 1 to 10")
    sc.add_argument("dice", metavar="DIE", nargs="*",
                    help="ten dice: a number 1-10 or W, then the colour r, o, b or g (e.g. 10o, Wg)")
    sc.add_argument("--json", action="store_true", help='print {"made", "score", "used"} as JSON')
    ad = sub.add_parser("advise", help="which dice to hold: exact chance and expected score",
                        usage="%(prog)s [-h] [--json] [--top N] PHASE ROLLS_LEFT D1 ... D10",
                        description=_about("advise"))
    ad.add_argument("phase", metavar="PHASE", nargs="?", help="the phase, 1 to 10")
    ad.add_argument("rolls", metavar="ROLLS_LEFT", nargs="?", help="rolls left in the turn: 0, 1 or 2")
    ad.add_argument("dice", metavar="DIE", nargs="*",
                    help="ten dice: a number 1-10 or W, then the colour r, o, b or g (e.g. 10o, Wg)")
    ad.add_argument("--json", action="store_true", help="print the holds as JSON (see the description)")
    ad.add_argument("--top", metavar="N", default="3", help="how many holds to print (1-50, default 3)")
    return top, sc, ad


def score(argv):
    _, sc, _ = parsers()
    try:
        # intermixed: --json may come before, between or after the dice
        a = sc.parse_intermixed_args(argv)
    except hostio.Done as d:
        return d.args[0]
    as_json = a.json
    args = ([a.phase] if a.phase is not None else []) + a.dice
    if not args:
        return _usage("Give the phase (1-10) and the ten dice.")
    if not args[0].isdigit() or not 1 <= int(args[0]) <= 10:
        return _usage("The phase must be a number from 1 to 10, not %s." % args[0])
    phase = int(args[0])
    try:
        dice = [parse_die(t) for t in args[1:]]
        match_dice(dice)  # refuses what the real set cannot show
    except RuleError as e:
        sys.stderr.write("dice: %s\n" % e.args[0])
        return 2
    nums = bytearray([d[0] for d in dice])
    cols = bytearray([d[1] for d in dice])
    s, mask = best(phase, nums, cols)
    used = [i for i in range(10) if mask >> i & 1]
    if as_json:
        print(json.dumps({"made": s >= 0, "score": max(s, 0), "used": used}))
        return 0
    label = "Phase %d (%s)" % (phase, PHASE_LABEL[phase])
    if s < 0:
        print("%s: not made. Score 0." % label)
    else:
        print("%s: made. Score %d." % (label, s))
        print("Dice used: %s (positions %s)" % (" ".join([die_text(*dice[i]) for i in used]), " ".join([str(i) for i in used])))
    return 0


def _matchings(dice):
    """How many ways the ten results fit on the ten real dice (each die one result)."""
    from engine_mpy.dice_eval import N_DICE, N_LOW, face_of

    def count(k, free):
        if k == N_DICE:
            return 1
        num, col = dice[k]
        lo, hi = (0, N_LOW) if num <= 4 else (N_LOW, N_DICE)
        return sum(count(k + 1, free & ~(1 << d)) for d in range(lo, hi)
                   if free >> d & 1 and face_of(d, num, col) >= 0)

    return count(0, (1 << N_DICE) - 1)


def advise(argv):
    import time
    from fractions import Fraction
    from host_sim import dice_exact

    _, _, ad = parsers()
    try:
        a = ad.parse_intermixed_args(argv)
    except hostio.Done as d:
        return d.args[0]
    as_json = a.json
    if not a.top.isdigit() or not 1 <= int(a.top) <= 50:
        return _usage("--top takes a number from 1 to 50.", 2)
    top = int(a.top)
    args = [x for x in (a.phase, a.rolls) if x is not None] + a.dice
    if len(args) < 2:
        return _usage("Give the phase (1-10), the rolls left (0-2) and the ten dice.", 2)
    if not args[0].isdigit() or not 1 <= int(args[0]) <= 10:
        return _usage("The phase must be a number from 1 to 10, not %s." % args[0], 2)
    if args[1] not in ("0", "1", "2"):
        return _usage("The rolls left must be 0, 1 or 2 (a turn has three rolls), not %s." % args[1], 2)
    phase, rolls = int(args[0]), int(args[1])
    try:
        dice = [parse_die(t) for t in args[2:]]
        faces, where = match_dice(dice)
    except RuleError as e:
        sys.stderr.write("dice: %s\n" % e.args[0])
        return 2
    t0 = time.time()
    picks, left_out = dice_exact.advise(phase, rolls, list(faces), top)
    seconds = time.time() - t0
    entry = [0] * 10   # physical die -> position as given
    for k in range(10):
        entry[where[k]] = k
    full = (1 << 10) - 1
    holds = []
    for mask, p, e in picks:
        hold = sorted(entry[d] for d in range(10) if mask >> d & 1)
        holds.append({"hold": hold, "reroll": [k for k in range(10) if k not in hold],
                      "stop": mask == full,
                      "chance": p / dice_exact.UNIT, "chance_exact": str(Fraction(p, dice_exact.UNIT)),
                      "expected": e / dice_exact.UNIT, "expected_exact": str(Fraction(e, dice_exact.UNIT))})
    ways = _matchings(dice)
    if as_json:
        print(json.dumps({"phase": phase, "rolls_left": rolls, "dice": [die_text(*d) for d in dice],
                          "holds": holds, "stop_best": holds[0]["stop"], "left_out": left_out,
                          "matchings": ways, "seconds": round(seconds, 3)}))
        return 0
    texts = [die_text(*d) for d in dice]
    print("Phase %d (%s), %s, dice %s" % (phase, PHASE_LABEL[phase],
          {0: "no rolls left", 1: "1 roll left", 2: "2 rolls left"}[rolls], " ".join(texts)))
    if rolls == 0:
        s = best(phase, bytearray(d[0] for d in dice), bytearray(d[1] for d in dice))[0]
        print("No rolls left: %s." % (("made, score %d" % s) if s >= 0 else "not made, score 0"))
        return 0
    for i, h in enumerate(holds):
        if h["stop"]:
            what = "stop now (hold all ten)"
        elif not h["hold"]:
            what = "re-roll all ten"
        else:
            what = "hold %s, re-roll %s" % (" ".join(texts[k] for k in h["hold"]),
                                             " ".join(texts[k] for k in h["reroll"]) or "nothing")
        print("%d. %s: chance %.2f%%, expected score %.2f" % (i + 1, what, 100 * h["chance"], h["expected"]))
    if holds[0]["stop"]:
        print("Stop now: best (the phase is made and no re-roll raises the expected score).")
    if left_out:
        print("%d other holds cannot reach the best chance (bound) and were not computed." % left_out)
    if ways > 1 and phase == 8:
        print("These results fit %d ways on the real dice; the figures are for the first (the"
              " dice each re-rolled die is matters in phase 8)." % ways)
    print("(%.1f s)" % seconds)
    return 0


def main(argv):
    if argv and argv[0] == "score":
        return score(argv[1:])
    if argv and argv[0] == "advise":
        return advise(argv[1:])
    top = parsers()[0]
    if argv and argv[0] == "help":
        argv = ["--help"]
    try:
        top.parse_args(argv)
    except hostio.Done as d:
        return d.args[0]
    return _usage("give a command: score or advise", 0)
