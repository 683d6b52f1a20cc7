# Phase 10 Dice, physical dice: which real die shows which entered result. Loaded only
# when results are typed in from real dice (or by the host command).
from engine_mpy.game import RuleError
from engine_mpy.dice_eval import COLOUR_NAMES, N_DICE, N_LOW, WILD, face_of


def _words(num, col):
    return "%s %s" % (COLOUR_NAMES[col], "Wild" if num == WILD else num)

# --- physical dice: which real die shows which entered result -------------------------------
def match_dice(dice):
    """dice: ten (num, col) pairs in any order, as read off real dice. Returns (faces, where):
    faces[die] = face index each real die shows, where[k] = the die entry k was put on.
    Raises RuleError when the real set cannot show these ten results together."""
    if len(dice) != N_DICE:
        raise RuleError("Ten dice are needed; %d given." % len(dice))
    low = 0
    for num, col in dice:
        if num <= 4:
            low += 1
    if low != N_LOW:
        raise RuleError(
            "The set has 4 low dice (1-4 and W) and 6 high dice (5-10); these are %d low and %d high." % (low, N_DICE - low)
        )
    for num, col in dice:
        lo, hi = (0, N_LOW) if num <= 4 else (N_LOW, N_DICE)
        for d in range(lo, hi):
            if face_of(d, num, col) >= 0:
                break
        else:
            raise RuleError("No die has a %s." % _words(num, col))
    # Bipartite matching entries -> dice (Kuhn's augmenting paths; 10 x 10, tiny).
    owner = [-1] * N_DICE  # die -> entry
    for k in range(N_DICE):
        seen = [False] * N_DICE
        if not _augment(dice, k, owner, seen):
            # Hall's condition fails for k and the entries reachable from it: name them.
            # said in what the screen shows, colours and numbers, never the dice's names
            group = [k] + [owner[d] for d in range(N_DICE) if seen[d]]
            group.sort()
            names = [_words(dice[j][0], dice[j][1]) for j in group]
            n = 0
            for d in range(N_DICE):
                if seen[d]:
                    n += 1
            who = "no die has" if not n else ("only one die has" if n == 1 else "only %d dice have" % n)
            raise RuleError("The real dice cannot show %s and %s together: %s those faces." % (
                ", ".join(names[:-1]), names[-1], who))
    faces = bytearray(N_DICE)
    where = [0] * N_DICE
    for d in range(N_DICE):
        k = owner[d]
        faces[d] = face_of(d, dice[k][0], dice[k][1])
        where[k] = d
    return faces, where


def _augment(dice, k, owner, seen):
    num, col = dice[k]
    lo, hi = (0, N_LOW) if num <= 4 else (N_LOW, N_DICE)
    for d in range(lo, hi):
        if not seen[d] and face_of(d, num, col) >= 0:
            seen[d] = True
            if owner[d] < 0 or _augment(dice, owner[d], owner, seen):
                owner[d] = k
                return True
    return False
