# Shared by the dice game tests (test_dice_game*.py): rolls that make each phase with its
# best score worked out by hand, a roll that makes nothing, and small helpers. No tests here.
from engine_mpy.dice_eval import FACE_NUM
from engine_mpy.dice import DiceGame


def faces_for(nums):
    """The record faces for dice L1..L4, H1..H6 showing nums (0 = Wild)."""
    out = ""
    for d in range(10):
        for f in range(6):
            if FACE_NUM[d * 6 + f] == nums[d]:
                out += str(f)
                break
        else:
            raise AssertionError("die %d has no %d" % (d, nums[d]))
    return out


# A roll that makes each phase, with its best score (by hand):
MAKE = {
    1: ([1, 2, 3, 4, 10, 10, 10, 10, 10, 10], 60),  # 10,10,10 + 10,10,10
    2: ([0, 1, 1, 1, 10, 10, 10, 10, 9, 8], 57),  # 10,10,10 + W,8,9,10
    3: ([0, 0, 1, 1, 10, 10, 10, 10, 10, 9], 59),  # 10 x4 + W,W,9,10
    4: ([4, 1, 1, 1, 5, 6, 7, 8, 9, 10], 49),  # 4..10
    5: ([3, 4, 1, 1, 5, 6, 7, 8, 9, 10], 52),  # 3..10
    6: ([2, 3, 4, 1, 5, 6, 7, 8, 9, 10], 54),  # 2..10
    7: ([0, 0, 1, 1, 10, 10, 10, 10, 10, 10], 60),  # 10 x4 + 10,10,W,W
    8: ("3o 4o 1o 2o 9o 8o 10o 7o 8o 10o", 56),  # all orange: 10,10,9,8,8,7,4
    9: ([0, 1, 1, 1, 10, 10, 10, 10, 10, 10], 60),  # 10 x5 + 10,W
    10: ([4, 4, 4, 1, 10, 10, 10, 10, 10, 10], 62),  # 10 x5 + 4,4,4
}
# Pairs only, four colours, no seven of one colour: makes no phase.
FAIL = [1, 1, 2, 2, 5, 5, 6, 6, 7, 7]
FAIL_FACES = faces_for(FAIL)


def rec(player, nums):
    if isinstance(nums, str):
        return {"player": player, "dice": nums.split()}
    return {"player": player, "faces": faces_for(nums)}


def play(g, made):
    """The player whose turn it is makes their phase (made) or fails."""
    p = g.state.player()
    nums = MAKE[g.state.phase[p]][0] if made else FAIL
    g.add(rec(p, nums))
    return p


def game(names, order=None):
    s = {"players": names}
    if order is not None:
        s["order"] = order
    return DiceGame(s)


def row(g, label):
    for lab, cells in g.sheet():
        if lab == label:
            return cells
    raise AssertionError("no row " + label)
