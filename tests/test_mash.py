# Random key mashing (issues 6 and 7), the short form: a few thousand events on the CPython
# simulator for a few seeds (no exception escapes the firmware, the saved game always loads
# and equals the game in RAM, no damaged file appears, a restart resumes the same game),
# together reaching every screen and starting and finishing every kind of game; and a
# shorter run whose keys the twin (micropython, .mpy) replays to the same screens and files.
# The long form: `make soak` (tools/checks/mash.py --events 100000).
import json
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]

import mash  # noqa: E402

SEEDS = (2, 6, 18)
EVENTS = 5000


def test_mashing_keeps_the_saves_whole_and_reaches_everything():
    runs = []
    for seed in SEEDS:
        m = mash.Mash(seed)
        try:
            m.run(EVENTS)    # raises MashError, with a replayable case, on any fault
        finally:
            m.close()
        runs.append(m)
        assert m.counts["power_cycle"] >= 1
    # Together the runs reach every screen and every game, start to finish.
    missing = set(runs[0].missing())
    for m in runs[1:]:
        missing &= set(m.missing())
    assert not missing, "\n\n".join(m.report() for m in runs)


def test_the_twin_takes_the_same_keys_to_the_same_screens_and_files():
    # Seed 1 starts a game of each kind (the twin runs every engine).
    started = set()
    for seed in (1,):
        m = mash.twin(2500, seed)
        assert m.n == 2500 and m.commits > 20
        started.update(k for k in mash.KINDS if m.started[k])
    assert started == set(mash.KINDS)


def _mash_with_game():
    m = mash.Mash(2)
    while m.app.session.game is None:
        m.run(50)
    return m


def test_a_save_that_differs_from_the_game_in_ram_is_caught():
    m = _mash_with_game()
    try:
        p = os.path.join(m.state, "game.json")
        with open(p) as f:
            lines = f.read().split("\n")      # the header, then a record a line
        d = json.loads(lines[0])
        d["settings"]["players"] = list(reversed(d["settings"]["players"]))
        with open(p, "w") as f:
            f.write("\n".join([json.dumps(d, separators=(",", ":"))] + lines[1:]))
        with pytest.raises(mash.MashError, match="differs from the game in RAM"):
            m.check_files()
    finally:
        m.close()


def test_a_damaged_file_left_on_the_flash_is_caught_with_a_replayable_case():
    m = _mash_with_game()
    try:
        with open(os.path.join(m.state, "game.json.bad"), "w") as f:
            f.write("{")
        with pytest.raises(mash.MashError) as e:
            m.check_files()
        msg = str(e.value)
        assert "game.json.bad is on the flash" in msg
        case = msg.split("--replay ")[1].split()[0]
        # The case: the folder as the device last started on it, how it started and the
        # keys since. Replayed, it leads to the same screen.
        dev = mash.replay(case)
        try:
            assert dev.rows() == m.dev.rows()
            assert [s.module for s in dev.app.stack] == [s.module for s in m.app.stack]
        finally:
            shutil.rmtree(case, ignore_errors=True)
            shutil.rmtree(dev.app.store.root, ignore_errors=True)
    finally:
        m.close()
