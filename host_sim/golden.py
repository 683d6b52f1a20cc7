"""python -m host_sim.golden [--update] [NAME ...]

Expected screens kept as text art in tests/golden/NAME.txt ('#' lit, '.' dark, 64 lines of
128), each produced by a key script on a fresh simulated device. Without --update: compare
and list the screens that differ (exit 1). With --update: rewrite them; a deliberate act,
after looking at the new screens (python -m host_sim --headless --keys "...").
"""
import os
import shutil
import sys
import tempfile

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(_ROOT, "tests", "golden")
MEM_FREE = 40000   # the About screen's free-memory figure, fixed so the screen is stable

# Twist: New game, Twist, players A and B added, Next, A deals; then one hand (A out, B 10).
_TW = "DOWN OK DOWN DOWN OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK DOWN OK"
_TH = "OK OK OK OK OK"
_TW2 = " ".join([_TW, _TH, _TH])   # A on space 7, B on the Twist space 3
_TW_OVER = " ".join([_TW, _TH, _TH, "OK " + _TH, _TH, _TH, "OK " + _TH, _TH, _TH, "OK " + _TH])

# name -> key script from start-up
CASES = (
    ("menu", ""),
    ("menu_scrolled", "UP"),
    ("settings", "DOWN DOWN DOWN DOWN DOWN OK"),
    ("settings_edit", "DOWN DOWN DOWN DOWN DOWN OK DOWN OK UP"),
    ("about", "UP OK"),
    # Engineer A: the menu's entries, New game, the picker, Players, History, Rules.
    ("continue_none", "OK"),
    ("newgame_game", "DOWN OK"),
    ("newgame_variation", "DOWN OK OK"),
    ("newgame_first_n", "DOWN OK OK DOWN DOWN OK DOWN DOWN"),
    ("picker", "DOWN OK OK OK OK UP UP"),
    ("newgame_players", "DOWN OK OK OK OK OK OK DOWN OK UP OK OK"),
    ("newgame_dealer", "DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK"),
    ("newgame_abandon", "DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK DOWN OK LONG_OK OK"),
    ("players_list", "DOWN DOWN DOWN DOWN OK OK OK OK"),
    ("players_detail", "DOWN DOWN DOWN DOWN OK OK OK OK OK"),
    ("history_empty", "DOWN DOWN DOWN OK"),
    ("history", "DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK DOWN OK LONG_OK "
                "OK DOWN OK DOWN OK OK DOWN OK DOWN DOWN OK DOWN OK LONG_OK DOWN DOWN OK"),
    ("rules_phase", "UP UP OK DOWN"),
    ("rules_twist", "UP UP OK UP"),
    # Engineer C: Twist. A new game of A and B on the default board (A deals); in every
    # hand A goes out (+3) and B keeps 10 cards (+1), B taking the phase before on a Twist space.
    ("twist_home", _TW),
    ("twist_cards_left", _TW + " OK OK"),
    ("twist_review", _TW + " OK OK DOWN DOWN DOWN DOWN DOWN DOWN DOWN OK"),
    ("twist_moves", _TW + " OK OK DOWN DOWN DOWN DOWN DOWN DOWN DOWN OK OK"),
    ("twist_home_hand3", _TW2),
    ("twist_board", _TW2 + " DOWN OK DOWN"),
    ("twist_before", _TW2 + " OK"),
    ("twist_handover", _TW2 + " OK DOWN DOWN OK"),
    ("twist_card", _TW2 + " OK DOWN DOWN OK OK"),
    ("twist_over", _TW_OVER),
    ("twist_sheet", _TW_OVER + " DOWN DOWN DOWN DOWN OK"),
    # Engineer B: Phase 10 and Masters (a game started through New game, then its screens).
    ('cards_standings', 'DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN DOWN OK OK OK UP UP OK OK OK UP OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK'),
    ('cards_hand_counts', 'DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN DOWN OK OK OK UP UP OK'),
    ('cards_hand_points', 'DOWN DOWN DOWN DOWN DOWN OK DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP OK OK OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK DOWN OK OK OK UP UP UP UP UP UP UP UP UP UP UP UP'),
    ('cards_ask', 'DOWN DOWN DOWN DOWN DOWN OK DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP OK OK OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK DOWN OK OK OK UP UP UP UP UP UP UP UP UP UP UP UP OK'),
    ('cards_masters_phase', 'DOWN OK DOWN OK OK OK OK DOWN OK UP OK OK DOWN DOWN OK DOWN OK OK OK OK DOWN DOWN'),
    ('cards_review', 'DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN DOWN OK OK OK UP UP OK OK OK UP OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK'),
    ('cards_refusal', 'DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN DOWN OK OK OK UP UP UP UP UP OK OK OK OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK'),
    ('cards_sheet', 'DOWN OK OK OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN DOWN OK OK OK UP UP OK OK OK UP OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK OK DOWN OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK DOWN OK'),
    ('cards_tiebreak', 'DOWN OK OK DOWN DOWN OK DOWN DOWN DOWN OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN OK OK OK UP OK OK OK OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK OK DOWN OK UP OK OK OK OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK'),
    ('cards_gameover', 'DOWN OK OK DOWN DOWN OK DOWN DOWN DOWN OK OK OK OK DOWN OK UP OK OK DOWN OK UP UP OK OK DOWN DOWN OK DOWN OK OK OK UP OK OK OK OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK OK DOWN OK UP OK OK OK OK UP UP UP UP UP UP UP UP UP UP OK OK OK OK OK OK'),
)


def render(keys, board="pico"):
    from host_sim import sim, script
    sim.use_fake_machine()
    state = tempfile.mkdtemp(prefix="phase10-golden-")
    try:
        dev = script.Device(board=board, state=state, mem_free=MEM_FREE)
        dev.play(script.parse(keys))
        return "\n".join(dev.rows()) + "\n"
    finally:
        shutil.rmtree(state, ignore_errors=True)


def path(name):
    return os.path.join(DIR, name + ".txt")


def main(argv):
    update = "--update" in argv
    only = [a for a in argv if not a.startswith("-")]   # --update NAME...: just those
    bad = []
    for name, keys in CASES:
        if only and name not in only:
            continue
        got = render(keys)
        p = path(name)
        if update:
            os.makedirs(DIR, exist_ok=True)
            with open(p, "w") as f:
                f.write(got)
            print("wrote", os.path.relpath(p, _ROOT))
            continue
        try:
            with open(p) as f:
                want = f.read()
        except OSError:
            want = None
        if got != want:
            bad.append(name)
            print("differs:", name, "(keys: %r)" % keys)
    if bad:
        print("%d of %d screens differ; look, then run python -m host_sim.golden --update" % (len(bad), len(CASES)))
        return 1
    if not update:
        print("%d screens match" % len(CASES))
    return 0


if __name__ == "__main__":
    if _ROOT not in sys.path:
        sys.path.insert(0, _ROOT)
    sys.exit(main(sys.argv[1:]))
