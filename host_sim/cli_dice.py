"""python -m host_sim dice score PHASE D1 ... D10 [--json]

Score ten Phase 10 Dice for a phase: for players of the physical game and for checking the
device. Each die is its number or W followed by its colour letter (r, o, b, g), in any
order, e.g. `10o Wg 7r`. Prints whether the phase is made, the best score and the dice that
make it; --json prints {"made": true|false, "score": N, "used": [positions 0-9]}.
Dice the real set cannot show together are refused with the reason (exit 2).
"""
import json
import sys

from host_sim import hostio
from engine_mpy.game import RuleError
from engine_mpy.dice_eval import PHASE_LABEL, best, die_text, parse_die
from engine_mpy.dice_match import match_dice


def _usage(msg):
    sys.stderr.write("%s\n%s" % (msg, parsers()[1].format_usage()))
    return 2


def parsers():
    """(the `dice` parser, its `score` parser)."""
    top = hostio.Parser(prog="python -m host_sim dice", description=__doc__.split("\n\n", 1)[1].strip())
    sub = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    sc = sub.add_parser("score", help="score ten dice for a phase",
                        usage="%(prog)s [-h] [--json] PHASE D1 ... D10",
                        description=__doc__.split("\n\n", 1)[1].strip())
    sc.add_argument("phase", metavar="PHASE", nargs="?", help="the phase, 1 to 10")
    sc.add_argument("dice", metavar="DIE", nargs="*",
                    help="ten dice: a number 1-10 or W, then the colour r, o, b or g (e.g. 10o, Wg)")
    sc.add_argument("--json", action="store_true", help='print {"made", "score", "used"} as JSON')
    return top, sc


def score(argv):
    _, sc = parsers()
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


def main(argv):
    if argv and argv[0] == "score":
        return score(argv[1:])
    top, _ = parsers()
    if argv and argv[0] == "help":
        argv = ["--help"]
    try:
        top.parse_args(argv)
    except hostio.Done as d:
        return d.args[0]
    # no command given
    top.print_usage(sys.stderr)
    sys.stderr.write("python -m host_sim dice: give a command: score\n")
    return 2
