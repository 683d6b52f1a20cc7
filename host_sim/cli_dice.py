"""python -m host_sim dice score PHASE D1 ... D10 [--json]

Score ten Phase 10 Dice for a phase: for players of the physical game and for checking the
device. Each die is its number or W followed by its colour letter (r, o, b, g), in any
order, e.g. `10o Wg 7r`. Prints whether the phase is made, the best score and the dice that
make it; --json prints {"made": true|false, "score": N, "used": [positions 0-9]}.
Dice the real set cannot show together are refused with the reason (exit 2).
"""
import json
import sys

from engine_mpy.game import RuleError
from engine_mpy.dice_eval import PHASE_LABEL, best, die_text, parse_die
from engine_mpy.dice_match import match_dice


def _usage(msg):
    sys.stderr.write("%s\nusage: python -m host_sim dice score PHASE D1 ... D10 [--json]\n" % msg)
    return 2


def score(argv):
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
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
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if argv[0] == "score":
        return score(argv[1:])
    return _usage("Unknown dice command %s." % argv[0])
