# The book's highest possible score, 649, from the engine by exhaustive search over every
# roll the real dice can show (up to what cannot change the phase's score).
import itertools

from engine_mpy.dice_eval import FACE_COL, FACE_NUM, best

# By hand: 1: six 10s (60); 2: 10,10,10 + W,8,9,10 (57); 3: 10x4 + W,W,9,10 (59);
# 4: 4..10 (49); 5: 3..10 (52); 6: 2..10 (54); 7: 10x4 + 10,10,W,W (60);
# 8: all orange 10,10,9,8,8,7,4 (56, see below); 9: 10x5 + 10,W (60); 10: 10x5 + 4,4,4 (62).
BOOK_MAX = {1: 60, 2: 57, 3: 59, 4: 49, 5: 52, 6: 54, 7: 60, 8: 56, 9: 60, 10: 62}


def number_phase_max(phase):
    # Sets and runs read only the numbers. Every low die shows 1-4 or W and every high die
    # 5-10, so the numbers a roll can show are exactly: any 4 of {W,1,2,3,4} with any 6 of
    # {5..10}; the order of the dice does not change the score. 70 x 462 multisets.
    top = -1
    cols = bytes(10)
    for lo in itertools.combinations_with_replacement((0, 1, 2, 3, 4), 4):
        for hi in itertools.combinations_with_replacement((5, 6, 7, 8, 9, 10), 6):
            s = best(phase, bytes(lo + hi), cols)[0]
            if s > top:
                top = s
    return top


def colour_phase_max():
    # Seven of one colour x reads only the dice showing x. For each x, every die either shows
    # one of its x faces or any other face (one stands for all: it cannot add to colour x,
    # and a roll making 7 in another colour is counted under that colour). <= 3^10 rolls each.
    top = -1
    for x in range(4):
        choices = []
        for d in range(10):
            mine = [f for f in range(6) if FACE_COL[d * 6 + f] == x]
            other = [f for f in range(6) if FACE_COL[d * 6 + f] != x][0]
            choices.append(mine + [other])
        for faces in itertools.product(*choices):
            nums = bytes(FACE_NUM[d * 6 + faces[d]] for d in range(10))
            cols = bytes(FACE_COL[d * 6 + faces[d]] for d in range(10))
            s = best(8, nums, cols)[0]
            if s > top:
                top = s
    return top


def test_highest_possible_score_is_649():
    found = {ph: number_phase_max(ph) for ph in (1, 2, 3, 4, 5, 6, 7, 9, 10)}
    found[8] = colour_phase_max()
    assert found == BOOK_MAX
    # Phases 1-5 make 277 > 220, so the five-phase bonus; plus the first-finish bonus.
    assert sum(found[p] for p in range(1, 6)) > 220
    assert sum(found.values()) + 40 + 40 == 649
