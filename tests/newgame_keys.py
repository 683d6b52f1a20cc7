# Keys that start a game the way a table does, from the main menu of a device with an
# empty roster: New game, the game (and its variation), each player typed on the character
# picker, Next, the first dealer. For the simulator session tests (tests/test_sim_*.py).
from firmware.screens.picker import WHEEL, _FIRST

# The New game pages' rows (firmware/screens/newgame.py): the games, then the variations.
GAME = {"classic": "OK", "masters": "DOWN OK", "twist": "DOWN DOWN OK", "dice": "UP OK"}
VARIATION = {"standard": "OK", "ten_hands": "DOWN OK", "first_n": "DOWN DOWN OK",
             "even": "UP OK"}
_N0 = 5   # where the First N phases stepper starts


def _turn(frm, to, n):
    """The wheel's shorter way from frm to to: UP presses, or DOWN presses."""
    up = (to - frm) % n
    return ["UP"] * up if up <= n - up else ["DOWN"] * (n - up)


def type_name(name):
    """On an open picker: each letter (the wheel starts on "A", then on done right before
    "a"), then done."""
    k = []
    pos = _FIRST
    for ch in name:
        k += _turn(pos, WHEEL.index(ch), len(WHEEL))
        k.append("OK")
        pos = 0
    k.append("OK")   # the wheel is back on done
    return " ".join(k)


def seat(names):
    """On the players page of an empty roster: each name added through "+ New player"
    (it is seated, and the cursor lands on it), then Next."""
    k = []
    for i in range(len(names)):
        k.append("OK" if i == 0 else "DOWN OK")   # "+ New player" is just below
        k.append(type_name(names[i]))
    k.append("DOWN DOWN OK")   # Next
    return " ".join(k)


def new_game(kind, names, dealer=None, variation="standard", phases=None):
    """From the main menu (on its first row) to the game's home (the Dice turn-order roll
    for Dice)."""
    k = ["DOWN OK", GAME[kind]]
    if kind == "classic":
        k.append(VARIATION[variation])
        if variation == "first_n":
            d = phases - _N0
            k.append(" ".join(["UP"] * d if d > 0 else ["DOWN"] * -d) + " OK")
    k.append(seat(names))
    if kind != "dice":
        k.append(" ".join(["DOWN"] * (dealer + 1)) + " OK")   # below "Random"
    return " ".join([s.strip() for s in k if s.strip()])
