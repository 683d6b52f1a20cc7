"""python -m host_sim.golden [--update] [NAME ...]

Expected screens kept as text art in tests/golden/NAME.txt ('#' lit, '.' dark, 64 lines of
128), each produced by a key script on a fresh simulated device (a script that starts with
"GAME:NAME" starts on the saved game SAVED[NAME]() instead: a whole Dice game played key
by key to its end is seconds of rolls; tests/test_sim_dice.py plays those). Without
--update: compare and list the screens that differ (exit 1). With --update: rewrite them;
a deliberate act, after looking at the new screens (python -m host_sim --headless --keys
"...").
"""
import os
import shutil
import sys
import tempfile

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(_ROOT, "tests", "golden")
MEM_FREE = 40000   # the About screen's free-memory figure, fixed so the screen is stable

if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
# The keys come from tests/table_keys.py, the one place that knows each screen's keys.
from tests.table_keys import new_game, seat, type_name, hand, counts, points, menu, FAIL

# Twist: New game, Twist, players A and B added, Next, A deals; then one hand (A out, B 10).
_TW = new_game("twist", ["A", "B"], dealer=0)
_TH = "OK OK OK OK OK"
_TW2 = " ".join([_TW, _TH, _TH])   # A on space 7, B on the Twist space 3
_TW_OVER = " ".join([_TW, _TH, _TH, "OK DOWN " + _TH, _TH, _TH, "OK DOWN " + _TH, _TH, _TH,
                     "OK DOWN " + _TH])   # (on a Twist space nothing is picked: DOWN, before)

# Dice: New game, Dice, players A and B added, Next: the turn-order roll (seeded: a tie of
# 5s, then A rolls higher). Then A's turn: roll 1 and 2 not made, roll 3 makes phase 1 (30).
_DI = new_game("dice", ["A", "B"])
_DI_HOME = _DI + " OK OK OK"
_DI_ROLL1 = _DI_HOME + " OK OK"
_DI_HAND2 = _DI_HOME + " OK OK OK OK OK OK"   # A saved 30 for phase 1; B's turn

# Phase 10: A, B and C, B deals. Hand 1: B goes out, A completes and keeps a 1-9, a 10-12
# and a Skip (30 points), C holds ten (50). Hand 2: A out, B and C hold ten.
_CA = new_game("classic", ["A", "B", "C"], dealer=1)
_CA_H1 = hand(1, [counts([1, 1, 1, 0]), None, FAIL])
_CA_H2 = hand(0, [None, FAIL, FAIL])
# By points (Settings > Hands by), A and B, A deals.
_PTS = " ".join([menu("settings"), "DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP",
                 new_game("classic", ["A", "B"], dealer=0)])
# First 2 phases, A and B: each completes both in two hands with 5 points left: a tie.
_TIE = " ".join([new_game("classic", ["A", "B"], dealer=0, variation="first_n", phases=2),
                 hand(0, [None, counts([1, 0, 0, 0])]), hand(1, [counts([1, 0, 0, 0]), None])])
_MA = new_game("masters", ["A", "B"], dealer=0)
# Masters by points, A and B, A deals; Phase 10 with three buttons (Settings > 3 buttons).
_MA_PTS = " ".join([menu("settings"), "DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP",
                    new_game("masters", ["A", "B"], dealer=0)])
_THREE = " ".join([menu("settings"), "DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP",
                   new_game("classic", ["A", "B", "C"], dealer=1)])


def _dice_over():
    """Ann and Bob to the end of a Dice game, each turn's dice as the faces of the ten
    dice (0-5 per die, engine_mpy.dice_eval). Ann makes every phase, one a turn, with
    the best dice below; Bob the median ones, failing twice on the way and on his last
    try. By the rules: Ann 48+46+54+45+46 = 239 > 220: +40; then 54+47+51+52+50 and +40
    for finishing first: 573. Bob 33+36+40+35+39 + 44+36 = 263, on phase 8."""
    from engine_mpy.dice import DiceGame
    best = ("4144405455", "4232251341", "4455315555", "5144125043", "3432300245",
            "3112524103", "5044245454", "1550324154", "2433353353", "5142444422")
    median = ("2135004024", "4451021335", "3504415042", "1322130250", "4424312250",
              "2314241320", "5404331315")
    miss = "2100355423"   # makes no phase
    bob = [median[0], miss, median[1], median[2], miss, median[3], median[4], median[5],
           median[6], miss]
    g = DiceGame({"players": ["Ann", "Bob"], "order": [0, 1]})
    for t in range(10):
        g.add({"player": 0, "faces": best[t]})
        g.add({"player": 1, "faces": bob[t]})
    return g


SAVED = {"dice_over": _dice_over}

# The table on phones (Settings > Phones on a Pico W): a script that starts with "PHONES"
# runs on a Pico W whose settings hold this network, with the page's address an access
# point has (192.168.4.1) and the Phones screen opened as turning the setting on opens it;
# the server itself is not started here (tests/test_table_page.py serves the page).
PHONES = {"wifi_ssid": "Phase10-3F7A", "wifi_pw": "k7mqx2vh9d", "table": True}
PHONES_URL = "http://192.168.4.1/"
# "WIFI": a Pico W as it comes (the table off): its Settings screen has the Phones line the
# Pico's has not (make bench-board BOARD=pico_w checks its image against it).
WIFI = "WIFI "
# "JOIN": the same on a network set from the PC (wifi.json), with the setting on "join Wi-Fi";
# OPEN then shows it joined at JOIN_URL, JOINING still joining, FAILED unable to join.
JOIN = {"ssid": "Kitchen 5G", "pw": "correct horse"}
JOIN_URL = "http://192.168.1.57/"

# name -> key script from start-up
CASES = (
    ("menu", ""),
    ("menu_wrapped", "UP"),
    ("settings", menu("settings")),
    ("settings_edit", menu("settings") + " DOWN OK UP"),
    ("about", menu("about")),
    ("help_menu", "HELP"),
    # Engineer A: the menu's entries, New game, the picker, Players, History, Rules.
    ("newgame_game", "OK"),
    ("newgame_variation", "OK OK"),
    ("newgame_first_n", "OK OK DOWN DOWN OK DOWN DOWN"),
    ("picker", "OK OK OK OK UP UP"),
    ("newgame_players", "OK OK OK " + seat(["A", "B"])[:-len(" DOWN DOWN OK")]),
    ("newgame_dealer", "OK OK OK " + seat(["A", "B"])),
    ("newgame_abandon", new_game("classic", ["A", "B"], dealer=0) + " LONG_OK "
                        + menu("new game", game=True)),
    ("players_list", menu("players") + " OK " + type_name("A")),
    ("players_detail", menu("players") + " OK " + type_name("A") + " OK"),
    ("history_empty", menu("history")),
    ("history", " ".join([new_game("classic", ["A", "B"], dealer=0), "LONG_OK",
                          menu("new game", game=True), "DOWN OK DOWN OK OK DOWN OK DOWN DOWN OK DOWN OK",
                          "LONG_OK", menu("history", game=True)])),
    ("rules_phase", menu("rules") + " DOWN"),
    ("rules_twist", menu("rules") + " UP"),
    # Engineer C: Twist. A new game of A and B on the default board (A deals); in every
    # hand A goes out (+3) and B keeps 10 cards (+1), B taking the phase before on a Twist space.
    ("twist_home", _TW),
    ("twist_cards_left", _TW + " OK OK"),
    ("twist_review", _TW + " OK OK DOWN DOWN DOWN DOWN DOWN DOWN DOWN OK"),
    ("twist_moves", _TW + " OK OK DOWN DOWN DOWN DOWN DOWN DOWN DOWN OK OK"),
    ("twist_home_hand3", _TW2),
    ("twist_board", _TW2 + " DOWN OK DOWN"),
    ("twist_before", _TW2 + " OK"),
    ("twist_handover", _TW2 + " OK DOWN DOWN DOWN OK"),
    ("twist_card", _TW2 + " OK DOWN DOWN DOWN OK OK"),
    ("twist_over", _TW_OVER),
    ("twist_sheet", _TW_OVER + " DOWN DOWN DOWN DOWN OK"),
    # Engineer B: Phase 10 and Masters (a game started through New game, then its screens).
    ("cards_standings", _CA + " " + _CA_H1),
    ("cards_undo", _CA + " " + _CA_H1 + " DOWN DOWN OK"),
    ("cards_hand_counts", _CA + " OK DOWN OK LEFT LEFT UP RIGHT"),
    ("cards_hand_three", _THREE + " OK DOWN OK DOWN DOWN OK UP"),
    ("cards_hand_three_last", _THREE + " OK DOWN OK OK OK OK"),
    ("cards_points_refused", _PTS + " OK OK LEFT LEFT DOWN DOWN OK"),
    ("cards_masters_points", _MA_PTS + " OK OK OK"),
    ("cards_hand_full", _CA + " OK DOWN OK"),
    ("cards_hand_points", _PTS + " OK OK RIGHT RIGHT DOWN"),
    # by points, 60 fits ten cards and a completed phase: the check page fills in "not
    # completed" and offers the row (UP); OK on it asks
    ("cards_check_open", _PTS + " OK OK " + points(60)),
    ("cards_check_row", _PTS + " OK OK " + points(60) + " UP"),
    ("cards_ask", _PTS + " OK OK " + points(60) + " UP OK"),
    # Masters, 3 cards left: phase 1 filled in on the check page; the phases that fit
    ("cards_masters_check", _MA + " OK OK OK " + counts([3, 0, 0, 0])),
    ("cards_masters_phase", _MA + " OK OK OK " + counts([3, 0, 0, 0]) + " UP OK UP"),
    ("cards_review", _CA + " " + _CA_H1[:-len(" OK")]),
    ("cards_refusal", _CA + " OK DOWN OK " + counts([0, 0, 3, 0]) + " " + counts([8, 0, 2, 0])),
    ("cards_sheet", " ".join([_CA, _CA_H1, _CA_H2, "DOWN OK"])),
    ("cards_tiebreak", _TIE),
    # back on the standings while the tie-break hand is due: its dealer is marked
    ("cards_tiebreak_standings", _TIE + " LONG_OK"),
    ("cards_gameover", _TIE + " OK"),
    ("help_hand", _CA + " OK DOWN OK HELP"),
    # Dice: the turn-order roll (a tie, then settled), the standings, a turn rolled (not
    # made), two dice held, the third roll making the phase (its dice underlined), real
    # dice being entered, the Undo question, the free roller, and a saved game at its end:
    # game over and the score sheet's last rows.
    ("dice_order_tie", _DI + " OK"),
    ("dice_order", _DI + " OK OK"),
    ("dice_home", _DI_HAND2),
    ("dice_turn_rolled", _DI_ROLL1),
    ("dice_turn_held", _DI_ROLL1 + " UP OK UP OK"),     # Roll, UP: the high die above, UP: the low one
    ("dice_turn_made", _DI_HOME + " OK OK OK OK"),
    ("dice_turn_leave", _DI_ROLL1 + " LONG_OK"),
    # real dice: the first die set to 3 (OK takes it), the second starting on 3, one up, a colour on
    ("dice_entry", _DI_HAND2 + " OK RIGHT OK UP UP OK UP RIGHT"),
    # The Hint: after the first roll (the dice to hold marked ^, the chance and expected
    # score), after the third (just the score), and on real dice (each die on its first
    # face: phase 1 made with six 5s): with two rolls left re-rolling the 1s may still
    # score more, with one stopping is best.
    ("dice_turn_hint", _DI_ROLL1 + " RIGHT RIGHT OK"),
    ("dice_turn_norolls", _DI_HOME + " OK OK OK OK RIGHT OK"),
    ("dice_entry_hint", _DI_HAND2 + " OK RIGHT OK LONG_OK DOWN DOWN OK RIGHT OK"),
    ("dice_entry_stop", _DI_HAND2 + " OK RIGHT OK LONG_OK DOWN DOWN OK RIGHT OK OK"),
    ("dice_undo", _DI_HAND2 + " UP OK"),
    ("dice_roller", menu("dice roller") + " OK RIGHT OK"),
    ("help_dice", menu("dice roller") + " HELP"),
    ("help_colours", "HELP DOWN DOWN DOWN"),
    ("help_phases", "HELP RIGHT"),
    ("dice_over", "GAME:dice_over OK"),
    ("dice_sheet", "GAME:dice_over OK UP UP UP OK DOWN DOWN DOWN DOWN DOWN DOWN DOWN DOWN"),
    ("settings_phones_off", WIFI + menu("settings")),
    ("settings_phones", "PHONES " + menu("settings") + " UP"),
    ("phones_wifi", "PHONES OPEN"),
    ("phones_address", "PHONES OPEN RIGHT"),
    ("settings_phones_join", "JOIN " + menu("settings") + " UP OK"),
    ("phones_joining", "JOIN JOINING"),
    ("phones_joined", "JOIN OPEN"),
    ("phones_join_failed", "JOIN FAILED"),
)


def render(keys, board="pico"):
    from host_sim import script
    state = tempfile.mkdtemp(prefix="phase10-golden-")
    try:
        dev, keys = start(keys, state, board)
        dev.play(script.parse(keys))
        return "\n".join(dev.rows()) + "\n"
    finally:
        shutil.rmtree(state, ignore_errors=True)


def start(keys, state, board="pico"):
    """(device, the keys still to press): a golden case's device started on the folder
    state as its script's first words set it up (WIFI: a Pico W; PHONES: a Pico W with the table on;
    GAME:name a saved game; OPEN the Phones screen opened; JOIN: the table on a network set
    from the PC, JOINING or FAILED the Phones screen opened while it joins or once it failed)."""
    from host_sim import sim, script  # noqa: F401 (script: the Device)
    sim.use_fake_machine()
    import json
    join = keys.startswith("JOIN ")
    if keys.startswith("PHONES") or join:
        with open(os.path.join(state, "settings.json"), "w") as f:
            f.write(json.dumps(dict(PHONES, table="join") if join else PHONES))
        if join:
            with open(os.path.join(state, "wifi.json"), "w") as f:
                f.write(json.dumps(JOIN))
        keys = keys[7:] if not join else keys[5:]
        board = "pico_w"
    elif keys.startswith(WIFI):
        keys = keys[len(WIFI):]
        board = "pico_w"
    if keys.startswith("GAME:"):
        from engine_mpy import savefile
        name, _, keys = keys[5:].partition(" ")
        with open(os.path.join(state, "game.json"), "w") as f:
            f.write(savefile.dumps(SAVED[name]()))
    dev = script.Device(board=board, state=state, mem_free=MEM_FREE)
    for word, url, fail in (("OPEN", JOIN_URL if join else PHONES_URL, None), ("JOINING", None, None),
                            ("FAILED", None, "wrong password")):
        if keys.startswith(word):
            dev.app.server_url = url
            dev.app.server_fail = fail
            dev.app.push("phones")
            dev.app.run_for(200)
            keys = keys[len(word) + 1:]
            break
    return dev, keys


def path(name):
    return os.path.join(DIR, name + ".txt")


def parser():
    from host_sim import hostio
    p = hostio.Parser(prog="python -m host_sim.golden", description=__doc__.split("\n\n", 1)[1].strip())
    p.add_argument("--update", action="store_true", help="rewrite the expected screens instead of comparing")
    p.add_argument("names", metavar="NAME", nargs="*", help="only these screens (default: all %d)" % len(CASES))
    return p


def main(argv):
    from host_sim import hostio
    try:
        a = parser().parse_args(argv)
    except hostio.Done as d:
        return d.args[0]
    update = a.update
    only = a.names   # --update NAME...: just those
    unknown = [n for n in only if n not in dict(CASES)]
    if unknown:
        sys.stderr.write("python -m host_sim.golden: no screen named %s\n" % ", ".join(unknown))
        return 2
    bad = []
    done = 0
    for name, keys in CASES:
        if only and name not in only:
            continue
        done += 1
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
        print("%d of %d screens differ; look, then run python -m host_sim.golden --update" % (len(bad), done))
        return 1
    if not update:
        print("%d screens match" % done)
    return 0


if __name__ == "__main__":
    if _ROOT not in sys.path:
        sys.path.insert(0, _ROOT)
    from host_sim import hostio
    sys.exit(hostio.run(main, sys.argv[1:]))
