# The host command `python -m host_sim dice score PHASE D1 ... D10 [--json]`.
import json
import os
import subprocess
import sys

from host_sim import cli_dice

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOK = "8g 8o 8b 10b 5b 6o Wr Wb 1o 3b".split()  # the book's phase 1 example: 8,8,8 + 10,W,W


def run(capsys, *argv):
    rc = cli_dice.main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_score_text(capsys):
    rc, out, err = run(capsys, "score", "1", *BOOK)
    assert rc == 0
    assert "made" in out and "Score 34." in out
    assert "8g 8o 8b 10b Wr Wb" in out


def test_score_json(capsys):
    rc, out, err = run(capsys, "score", "1", "--json", *BOOK)
    assert rc == 0
    assert json.loads(out) == {"made": True, "score": 34, "used": [0, 1, 2, 3, 6, 7]}
    # Phase 4 (run of 7): 5, 6, 8, 10 and two Wilds are only six dice.
    rc, out, err = run(capsys, "score", "4", "--json", *BOOK)
    assert json.loads(out) == {"made": False, "score": 0, "used": []}


def test_any_order_of_dice(capsys):
    rc, out, err = run(capsys, "score", "1", "--json", *reversed(BOOK))
    assert json.loads(out) == {"made": True, "score": 34, "used": [2, 3, 6, 7, 8, 9]}


def test_refusals_exit_2(capsys):
    cases = [
        (["10r", "10r", "1b", "2b", "3b", "4b", "5r", "6o", "7b", "8g"], "red 10 and red 10 together: only one die has"),
        (["10r", "9r", "1b", "2b", "3b", "5r", "6o", "7b", "8g", "9g"], "3 low and 7 high"),
        (BOOK[:9], "Ten dice"),
        (BOOK[:9] + ["12g"], "12g is not a die"),
        (BOOK[:9] + ["3x"], "3x is not a die"),
    ]
    for dice, words in cases:
        rc, out, err = run(capsys, "score", "1", *dice)
        assert rc == 2 and words in err and out == "", (dice, err)
    rc, out, err = run(capsys, "score", "11", *BOOK)
    assert rc == 2 and "1 to 10" in err
    rc, out, err = run(capsys, "roll")
    assert rc == 2


def test_through_python_m_host_sim():
    p = subprocess.run(
        [sys.executable, "-m", "host_sim", "dice", "score", "8", "--json"] + "3o 4o 1o 2o 9o 8o 10o 7o 8o 10o".split(),
        cwd=ROOT, capture_output=True, text=True,
    )
    assert p.returncode == 0, p.stderr
    # All orange: 10+10+9+8+8+7+4, the 1, 2 and 3 left out.
    assert json.loads(p.stdout) == {"made": True, "score": 56, "used": [1, 4, 5, 6, 7, 8, 9]}
