"""Check the claim host_sim/dice_exact.py makes for phase 8 (seven of one colour) with one
roll left: a hold of dice of two or more colours never comes within 0.5 points of the
best chance, unless only one colour can still reach seven (then dropping the other
colours' dice does at least as well on chance and expected score, by coupling).

  python tools/checks/verify_phase8.py        about a minute and a half; exit 1 if the claim fails

The chance depends only on the colour each die shows and on which dice are re-rolled. Dice
with the same two colours on two faces each (a kind: 3, 2, 3 and 2 dice) roll colours
alike, so the patterns of colours are taken up to the order within a kind (40,000 of
them). For each, every hold of dice of two or more colours that leaves two or more
colours able to reach seven is compared with the best of holding every die of one colour.
Prints the smallest margin found (points) and the pattern where it is.
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from host_sim import dice_exact as X  # noqa: E402


def main():
    p8 = X._Phase8()
    tail = p8.tail
    pop = X._POP
    kinds = {}
    for d in range(X.N_DICE):
        kinds.setdefault(tuple(len(p8.cfaces[d][c]) for c in range(4)), []).append(d)
    groups = list(kinds.values())
    worst = None
    count = 0
    for assign in itertools.product(*[list(itertools.combinations_with_replacement(range(4), len(g)))
                                      for g in groups]):
        col = [0] * X.N_DICE
        for g, a in zip(groups, assign):
            for d, c in zip(g, a):
                col[d] = c
        cm = [sum(1 << d for d in range(X.N_DICE) if col[d] == c) for c in range(4)]
        count += 1

        def chance(held):
            r = X._FULL ^ held
            nr = pop[r]
            t = 0
            for c in range(4):
                h = pop[held & cm[c]]
                if h + nr >= 7:
                    n2 = pop[r & p8.dbl[c]]
                    t += tail[max(0, 7 - h)][n2][nr - n2]
            return t

        one = max(chance(cm[c]) for c in range(4))
        two = 0
        for held in range(X._FULL + 1):
            hs = [pop[held & cm[c]] for c in range(4)]
            if sum(1 for h in hs if h) < 2:
                continue
            nr = X.N_DICE - pop[held]
            if sum(1 for h in hs if h + nr >= 7) < 2:
                continue
            two = max(two, chance(held))
        gap = one - two
        if worst is None or gap < worst[0]:
            worst = (gap, col)
    pts = 100.0 * worst[0] / X.UNIT
    print("%d patterns of colours; smallest margin %.3f points (colours %s, r o b g = 0 1 2 3)"
          % (count, pts, worst[1]))
    return 0 if 200 * worst[0] > X.UNIT else 1


if __name__ == "__main__":
    sys.exit(main())
