"""`python -m host_sim export FILE --csv OUT --html OUT`: score sheets of a running game or of
the history, checked against sheets worked out by hand from the rules (docs/rules.md), each
kind of game; the page printed by a real headless Chromium on one A4 page."""
import csv
import io
import json
import os
import re
import subprocess
import sys

import pytest

from dice_rolls import FAIL, MAKE, game as dice_game, rec as dice_rec
from engine_mpy import savefile, summary
from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.twist import Twist
from host_sim import cli_export

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = '{"format":"phase10-history","v":2}\n'


# --- helpers ----------------------------------------------------------------------------------
def export_csv(path, capsys):
    """The CSV export of path as a list of dicts (run in this process: fast)."""
    capsys.readouterr()
    assert cli_export.main([str(path), "--csv", "-"]) == 0, capsys.readouterr().err
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def pick(rows, *cols):
    return [tuple(r[c] for c in cols) for r in rows]


def save(tmp_path, game, name="game.json"):
    f = tmp_path / name
    f.write_text(savefile.dumps(game))
    return f


def history(folder, entries, name="history.json"):
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(HEAD + "".join(json.dumps(e) + "\n" for e in entries))
    return folder / name


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_sim"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


# --- Phase 10 ---------------------------------------------------------------------------------
def first_two_phases():
    """Phase 10, first 2 phases (the game ends when someone completes phase 2); Bob deals
    first. Cards left as the table enters them: [1-9, 10-12, Skip, Wild] at 5/10/15/25."""
    g = Classic({"players": ["Ann", "Bob", "Cid"], "dealer": 1, "variation": "first_n", "phases": 2})
    # Hand 1: Ann goes out. Bob keeps 3 cards (2x5 + 10 = 20): at most 10 - 6 cards of
    # phase 1, so he completed it. Cid keeps 10 (10x5 = 50): did not complete.
    g.add({"out": 0, "left": [None, [2, 1, 0, 0], [10, 0, 0, 0]]})
    # Hand 2: Cid goes out (completes phase 1). Ann on phase 2 keeps 10 (9x5 + 10 = 55),
    # not completed; Bob on phase 2 keeps 2 (5 + 25 = 30), completed: his last phase, so the
    # game ends; the only player to finish, Bob wins.
    g.add({"out": 2, "left": [[9, 1, 0, 0], [1, 0, 0, 1], None]})
    return g


# Worked out by hand from the comments above: (hand, dealer, went_out, player, phase,
# completed, points, running total, winner). The deal passes left: Bob, then Cid.
FIRST_TWO = [
    ("1", "Bob", "Ann", "Ann", "1", "yes", "0", "0", "no"),
    ("1", "Bob", "Ann", "Bob", "1", "yes", "20", "20", "yes"),
    ("1", "Bob", "Ann", "Cid", "1", "no", "50", "50", "no"),
    ("2", "Cid", "Cid", "Ann", "2", "no", "55", "55", "no"),
    ("2", "Cid", "Cid", "Bob", "2", "yes", "30", "50", "yes"),
    ("2", "Cid", "Cid", "Cid", "1", "yes", "0", "50", "no"),
]
CARD_COLS = ("hand", "dealer", "went_out", "player", "phase", "completed", "points", "total", "winner")


def test_phase_10_running_game_hand_by_hand(tmp_path, capsys):
    rows = export_csv(save(tmp_path, first_two_phases()), capsys)
    assert pick(rows, *CARD_COLS) == FIRST_TWO
    assert {r["kind"] for r in rows} == {"classic"} and {r["variation"] for r in rows} == {"first 2 phases"}
    assert {r["game"] for r in rows} == {""}       # a running game has no number yet


def test_the_same_game_from_the_history_exports_alike(tmp_path, capsys):
    g = first_two_phases()
    running = export_csv(save(tmp_path, g), capsys)
    f = history(tmp_path / "pulled", [summary.entry(g, True, 7)])
    kept = export_csv(f, capsys)
    assert {r["game"] for r in kept} == {"7"}
    for r in running + kept:
        del r["game"]
    assert kept == running


def test_names_with_commas_quotes_and_backslashes_read_back_as_they_are(tmp_path, capsys):
    # names the device's rules accept (engine_mpy/game.py check_names): a spreadsheet, or
    # Python's csv, reads each back whole from the running game and from the history
    names = ["Ann, Jr", 'Bo "B"', "C\\D;'x'"]
    g = Classic({"players": names, "dealer": 2})
    g.add({"out": 1, "left": [[10, 0, 0, 0], None, [3, 0, 0, 0]]})
    for f in (save(tmp_path, g), history(tmp_path / "h", [summary.entry(g, False, 3)])):
        rows = export_csv(f, capsys)
        assert pick(rows, "player", "dealer", "went_out") == [(p, names[2], names[1]) for p in names], f


def tied_game():
    # Ann and Bob take turns going out, Bob dealing first; the other keeps one 1-9 card
    # (5 points, completed). After 10 hands both completed phase 10 with 25 points each:
    # a tie-break hand, which Ann goes out first in.
    g = Classic({"players": ["Ann", "Bob"], "dealer": 1})
    for h in range(10):
        out = h % 2
        g.add({"out": out, "left": [None if p == out else [1, 0, 0, 0] for p in range(2)]})
    g.add({"tiebreak": 0})
    return g


def test_phase_10_with_a_tie_break_hand(tmp_path, capsys):
    f = history(tmp_path / "h", [summary.entry(tied_game(), True, 1)])
    rows = export_csv(f, capsys)
    want = []
    total = [0, 0]
    for h in range(1, 11):
        out = (h - 1) % 2               # Ann in hands 1, 3, ..; Bob in 2, 4, ..
        dealer = ("Ann", "Bob")[h % 2]   # Bob (seat 1) deals hand 1, then it passes left
        for p, name in enumerate(("Ann", "Bob")):
            pts = 0 if p == out else 5
            total[p] += pts
            # everyone completes a phase each hand: phase h for both
            want.append((str(h), dealer, ("Ann", "Bob")[out], name, str(h), "yes", str(pts), str(total[p]),
                         "yes" if name == "Ann" else "no"))
    assert pick(rows[:20], *CARD_COLS) == want
    assert total == [25, 25]
    # hand 11, dealt by Bob again: the tie-break, no points
    assert pick(rows[20:], "hand", "dealer", "went_out", "player", "points", "total", "winner") == [
        ("11", "Bob", "Ann", "Ann", "", "", "yes"), ("11", "Bob", "Ann", "Bob", "", "", "no")]
    assert "tie-break" in rows[20]["note"]


def test_masters_phase_named_or_none(tmp_path, capsys):
    g = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    # Hand 1 (Ann deals): Bob goes out with phase 3; Ann names none, keeps 10 cards = 50.
    g.add({"out": 1, "left": [[10, 0, 0, 0], None], "phase": [0, 3]})
    # Hand 2 (Bob deals): Ann goes out with phase 1; Bob names none: 8x5 + 2x10 = 60.
    g.add({"out": 0, "left": [None, [8, 2, 0, 0]], "phase": [1, 0]})
    rows = export_csv(save(tmp_path, g), capsys)
    assert pick(rows, *CARD_COLS) == [
        ("1", "Ann", "Bob", "Ann", "", "no", "50", "50", "no"),
        ("1", "Ann", "Bob", "Bob", "3", "yes", "0", "0", "no"),
        ("2", "Bob", "Ann", "Ann", "1", "yes", "0", "50", "no"),
        ("2", "Bob", "Ann", "Bob", "", "no", "60", "60", "no"),
    ]


# --- Twist ------------------------------------------------------------------------------------
# The default board, spaces 1-27: 1S 1 T 2 2 T 3 3 T 4 4 T 5 5 T 6 6 T 7 7 T 8 8 T 9 9 10R
def test_twist_moves_and_spaces(tmp_path, capsys):
    g = Twist({"players": ["Ann", "Bob"], "dealer": 0})
    # 1 (Ann deals): both on space 1 (phase 1). Ann out +3 -> 4; Bob 10 cards +1 -> 2.
    g.add({"out": 0, "left": [None, 10]})
    # 2 (Bob): Ann on 4 (phase 2) keeps 2 of 10 - 7: completed +2 -> 6 (a Twist space);
    #   Bob on 2 (phase 1) out +3 -> 5.
    g.add({"out": 1, "left": [2, None]})
    # 3 (Ann): Ann on the Twist space takes Twist card 5 (9 cards) and keeps 1: +4 -> 10;
    #   Bob on 5 (phase 2) out +3 -> 8.
    g.add({"out": 1, "left": [1, None], "pick": [5, None]})
    # 4 (Bob): Ann on 10 (phase 4) out +3 -> 13; Bob on 8 (phase 3) 10 cards +1 -> 9 (Twist).
    g.add({"out": 0, "left": [None, 10]})
    # 5 (Ann): Ann on 13 (phase 5) out +3 -> 16; Bob takes Twist card 2 and fails: -1 -> 8.
    g.add({"out": 0, "left": [None, 10], "pick": [None, 2]})
    want = [  # hand, dealer, went_out, player, phase, choice, completed, move, space
        ("1", "Ann", "Ann", "Ann", "1", "", "yes", "3", "4"), ("1", "Ann", "Ann", "Bob", "1", "", "no", "1", "2"),
        ("2", "Bob", "Bob", "Ann", "2", "", "yes", "2", "6"), ("2", "Bob", "Bob", "Bob", "1", "", "yes", "3", "5"),
        ("3", "Ann", "Bob", "Ann", "", "Twist card 5", "yes", "4", "10"), ("3", "Ann", "Bob", "Bob", "2", "", "yes", "3", "8"),
        ("4", "Bob", "Ann", "Ann", "4", "", "yes", "3", "13"), ("4", "Bob", "Ann", "Bob", "3", "", "no", "1", "9"),
        ("5", "Ann", "Ann", "Ann", "5", "", "yes", "3", "16"), ("5", "Ann", "Ann", "Bob", "", "Twist card 2", "no", "-1", "8"),
    ]
    cols = ("hand", "dealer", "went_out", "player", "phase", "choice", "completed", "move", "space")
    assert pick(export_csv(save(tmp_path, g), capsys), *cols) == want
    f = history(tmp_path / "h", [summary.entry(g, False, 3)])
    assert pick(export_csv(f, capsys), *cols) == want


def test_twist_won_on_card_values_reads_back_from_the_history(tmp_path, capsys):
    # A board of 7 spaces: 1S 1 1 1 1 2 10R (the red space is 7).
    g = Twist({"players": ["Ann", "Bob", "Cid"], "dealer": 0, "layout": "1S 1 1 1 1 2 10R"})
    # 1: Bob out +3 -> 4; Cid completes +2 -> 3; Ann 10 cards +1 -> 2.
    g.add({"out": 1, "left": [10, None, 1]})
    # 2: Cid out +3 -> 6; Bob completes +2 -> 6; Ann +1 -> 3.
    g.add({"out": 2, "left": [10, 1, None]})
    # 3: Ann out +3 -> 6 (not past the red space); Bob and Cid complete phase 2 on space 6:
    #   +2 from the space before the red one moves past it. Ann went out but is not past:
    #   the lower card value of the two wins, Bob's 10 against Cid's Skip (15).
    g.add({"out": 0, "left": [None, 1, 1], "total": [None, 10, 15]})
    assert g.state.winners == [1]
    e = summary.entry(g, True, 2)
    rows = export_csv(history(tmp_path / "h", [e]), capsys)
    assert pick(rows, "hand", "player", "move", "space", "winner")[-3:] == [
        ("3", "Ann", "3", "6", "no"), ("3", "Bob", "2", "8", "yes"), ("3", "Cid", "2", "8", "no")]


# --- Dice -------------------------------------------------------------------------------------
# The best scores of dice_rolls.MAKE, phases 1-10, each worked out by hand there.
SCORES = [60, 57, 59, 49, 52, 54, 60, 56, 60, 62]


def test_dice_solitaire_turns_bonuses_and_penalty(tmp_path, capsys):
    g = dice_game(["Ann"])
    g.add(dice_rec(0, FAIL))                 # a failed first try at phase 1: -5 in solitaire
    for ph in range(1, 11):
        g.add(dice_rec(0, MAKE[ph][0]))
    rows = export_csv(save(tmp_path, g), capsys)
    # By hand: -5; then 60, 57, 59, 49 (running 215); phase 5: 52 and, phases 1-5 being
    # 277 > 220, the Five Phase Bonus +40; 54, 60, 56, 60; phase 10 on its first try:
    # the First Finish Bonus +40 (solitaire). 649 - 5 = 644.
    want = [("1", "Ann", "1", "no", "", "-5", "-5")]
    total = -5
    for ph in range(1, 11):
        bonus = 40 if ph in (5, 10) else 0
        total += SCORES[ph - 1] + bonus
        want.append((str(ph + 1), "Ann", str(ph), "yes", str(SCORES[ph - 1]), str(bonus) if bonus else "", str(total)))
    assert pick(rows, "hand", "player", "phase", "completed", "score", "bonus", "total") == want
    assert total == 644
    assert rows[5]["note"] == "Five Phase Bonus +40" and rows[-1]["note"] == "First Finish Bonus +40"
    assert rows[0]["note"] == "Failed turn -5"


def test_dice_first_finish_bonus_goes_to_the_first_only(tmp_path, capsys):
    g = dice_game(["Ann", "Bob"])
    # Turn order Ann, Bob; both make every phase until Ann makes phase 10 first (turn 19):
    # her First Finish Bonus; Bob's last try at phase 10 fails (turn 20).
    for t in range(19):
        g.add(dice_rec(t % 2, MAKE[t // 2 + 1][0]))
    g.add(dice_rec(1, FAIL))
    assert g.state.over
    f = history(tmp_path / "h", [summary.entry(g, True, 4)])
    rows = export_csv(f, capsys)
    assert len(rows) == 20
    totals = [0, 0]
    want = []
    for t in range(20):
        p, ph = t % 2, t // 2 + 1
        made = t < 19
        bonus = 40 if made and (ph == 5 or (ph == 10 and p == 0)) else 0
        if made:
            totals[p] += SCORES[ph - 1] + bonus
        want.append((str(t + 1), ("Ann", "Bob")[p], str(ph), str(SCORES[ph - 1]) if made else "",
                     str(bonus) if bonus else "", str(totals[p]), "yes" if p == 0 else "no"))
    assert pick(rows, "hand", "player", "phase", "score", "bonus", "total", "winner") == want
    assert totals == [649, 547]


# --- a whole history --------------------------------------------------------------------------
def test_a_pulled_folder_exports_its_whole_history_oldest_first(tmp_path, capsys):
    d = tmp_path / "board-20250131-142530"
    history(d, [summary.entry(first_two_phases(), True, 1), summary.entry(tied_game(), True, 2)], "history.1.json")
    g = Masters({"players": ["Ann", "Dan"], "dealer": 0})
    g.add({"out": 1, "left": [[10, 0, 0, 0], None], "phase": [0, 4]})
    history(d, [summary.entry(g, False, 3)])
    (d / "pull.json").write_text(json.dumps({"time": "2025-01-31T14:25:30", "port": "/dev/ttyACM0"}))
    out = tmp_path / "sheets.html"
    capsys.readouterr()
    assert cli_export.main([str(d), "--csv", str(tmp_path / "all.csv"), "--html", str(out)]) == 0
    rows = list(csv.DictReader(open(tmp_path / "all.csv")))
    # game 1: 2 hands x 3 players; game 2: 10 hands x 2 + the tie-break's 2; game 3: 2
    assert [r["game"] for r in rows] == ["1"] * 6 + ["2"] * 22 + ["3"] * 2
    assert pick(rows[:6], *CARD_COLS) == FIRST_TWO
    assert {r["kind"] for r in rows[28:]} == {"masters"}
    page = out.read_text()
    # the index, then a section per game, each with its players and its winner marked
    assert page.count('<section class="sheet">') == 4
    assert "2025-01-31 14:25" in page and "Game 3" in page
    for bad in ("<script", "http://", "https://", "<link", "@import", "url("):
        assert bad not in page
    assert "&#9733;</span> Bob" in page       # the winner of game 1 starred


def test_an_early_history_list_keeps_the_results_only(tmp_path, capsys):
    f = tmp_path / "history.json"
    f.write_text(json.dumps([{"game": "classic", "players": ["Ann", "Bob"], "winners": ["Bob"],
                              "hands": 12, "done": True}]))
    rows = export_csv(f, capsys)
    assert pick(rows, "game", "player", "winner", "note") == [
        ("1", "Ann", "no", "hands not kept by this firmware"), ("1", "Bob", "yes", "hands not kept by this firmware")]


# --- bad input --------------------------------------------------------------------------------
def test_bad_input_is_a_message_and_status_2(tmp_path):
    good = save(tmp_path, first_two_phases())
    damaged = tmp_path / "damaged.json"
    damaged.write_text(savefile.dumps(first_two_phases()).replace('"out":2', '"out":2,"left":[1'))
    e = summary.entry(first_two_phases(), True, 1)
    e["totals"] = [55, 50, 45]              # the hands add up to 50 for Cid
    wrong = history(tmp_path / "w", [e])
    torn = tmp_path / "torn" / "history.json"
    torn.parent.mkdir()
    torn.write_text(HEAD + '{"n":1,"game":"classic","players":["Ann","Bob"],"sheet":"0!')
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        ([str(tmp_path / "missing.json"), "--csv", "-"], "cannot read"),
        ([str(damaged), "--csv", "-"], "not valid JSON"),
        ([str(wrong), "--csv", "-"], "do not add up"),
        ([str(empty), "--csv", "-"], "no history here"),
        ([str(good)], "--csv OUT and/or --html OUT"),
        ([str(good), "--html", str(tmp_path / "no" / "x.html")], "make it first"),
        ([str(good), "--csv", "-", "--html", "-"], "only one of"),
    ]
    for args, said in cases:
        r = run("export", *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert said in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
    # a line cut short at the end of a history (a power cut on FAT) is left out, as the
    # device does, and said; the games before it export (here none: the header row only)
    r = run("export", str(torn), "--csv", "-")
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr.splitlines() == ["%s: line 2 is cut short (the power went while it was written?)" % torn]
    # a damaged sheet inside a line names the line
    bad = history(tmp_path / "b", [dict(summary.entry(first_two_phases(), True, 1), sheet="00!,x")])
    r = run("export", str(bad), "--csv", "-")
    assert r.returncode == 2 and "line 2 (game 1) is damaged" in r.stderr, r.stderr
    assert not (tmp_path / "no").exists()


# --- the page, printed by a real browser ------------------------------------------------------
def longest_game():
    """Six players, 55 hands: the longest Phase 10 game (each hand only the player who
    goes out completes a phase; 6 x 9 hands take everyone to phase 10, one more ends it)."""
    names = ["Annabelle", "Bartholomew", "Cid", "Dora", "Evangeline", "Fay"]
    g = Classic({"players": names, "dealer": 2})
    for h in range(55):
        out = h % 6
        g.add({"out": out, "left": [None if p == out else [10 - (p + h) % 4, (p + h) % 4, 0, 0] for p in range(6)]})
    assert g.over
    return g


def test_the_longest_game_prints_on_one_a4_page_in_chromium(tmp_path):
    # fails, not skips, without them: make test must not pass without the printed page
    import chromium
    browser = chromium.path()
    import pypdf     # (pyproject.toml pins it: make venv installs it)
    page = tmp_path / "sheet.html"
    assert cli_export.main([str(save(tmp_path, longest_game())), "--html", str(page)]) == 0
    text = page.read_text()
    assert text.count("<tr>") >= 55 + 2
    pdf = tmp_path / "sheet.pdf"
    png = tmp_path / "sheet.png"
    # One browser run makes both: the PDF as printed (A4 from the page's @page rule) and a
    # screenshot of the page on screen.
    # Its own profile: a run sharing the default one with another Chromium hands the page
    # to that one and ends without printing.
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--no-pdf-header-footer", "--print-to-pdf=%s" % pdf, "--screenshot=%s" % png,
                        "--window-size=900,1300"] + chromium.profile_args(tmp_path / "profile") + [page.as_uri()],
                       capture_output=True, text=True, timeout=chromium.LOADED_MS // 1000)
    assert pdf.exists(), r.stderr[-2000:]
    reader = pypdf.PdfReader(str(pdf))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    # A4 is 210 x 297 mm = 595 x 842 points
    assert abs(float(box.width) - 595) < 2 and abs(float(box.height) - 842) < 2
    words = reader.pages[0].extract_text()
    for name in ("Annabelle", "Bartholomew", "Fay"):
        assert name in words
    assert re.search(r"\b55\b", words)
    from PIL import Image
    with Image.open(png) as im:
        assert im.size == (900, 1300)
        # not a blank page: the grid's lines and figures darken part of it
        dark = sum(im.convert("L").histogram()[:128])
        assert dark > 900 * 1300 // 100


def test_a_game_cut_short_in_the_history_exports_its_first_hands_and_says_so(tmp_path):
    # The device keeps the first hands of a game too long for a history line ("cut",
    # engine_mpy/summary.py): the export shows those and the totals the device kept.
    from engine_mpy import summary
    from engine_mpy.twist import Twist
    g = Twist({"players": ["Ann", "Bob"], "dealer": 0})
    g.add({"out": 0, "left": [None, 10]})
    g.add({"out": 0, "left": [None, 10]})
    g.add({"out": 1, "left": [10, None], "pick": [None, "before"]})
    old = summary.SHEET_MAX
    summary.SHEET_MAX = 9
    try:
        e = summary.entry(g, False, 4)
    finally:
        summary.SHEET_MAX = old
    assert e["cut"] == 2
    from host_sim import sheets
    sh = sheets.decode(e)
    assert len(sh.rows) == 2 and sh.totals == e["totals"]
    assert any("first 2 of 3 hands" in n for n in sh.notes)


def test_a_damaged_history_exports_what_it_can_and_says_what_it_could_not(tmp_path, capsys):
    # issue 23: a damaged line, a line cut short at the end and a history the device set
    # aside are each one line on stderr; every game that can be read is exported, a last
    # line whole but without its final newline among them; exit 0.
    d = tmp_path / "board-20250131-142530"
    g1, g2 = first_two_phases(), tied_game()
    history(d, [summary.entry(g1, True, 1)], "history.1.json")
    (d / "history.json").write_text(HEAD + '{"n":2,"game":"classic","pla\n' + json.dumps(summary.entry(g2, True, 3)))
    (d / "bad").mkdir()
    (d / "bad" / "history.1.json.bad2").write_text("{}")
    assert cli_export.main([str(d), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["game"] for r in rows] == ["1"] * 6 + ["3"] * 22
    assert pick(rows[:6], *CARD_COLS) == FIRST_TWO
    assert err.splitlines() == [
        "%s: line 2 is damaged (not valid JSON)" % (d / "history.json"),
        "%s: a history file the device set aside as damaged: not read (export it by name to see what "
        "it holds)" % (d / "bad" / "history.1.json.bad2"),
        "export: 2 games read from %s; what could not be read is listed above" % d,
    ]
    # cut short at the end instead: said as such, the game before it exported
    (d / "history.json").write_text(HEAD + json.dumps(summary.entry(g2, True, 2)) + "\n" + '{"n":3,"game":"cla')
    assert cli_export.main([str(d / "history.json"), "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert [r["game"] for r in csv.DictReader(io.StringIO(out))] == ["2"] * 22
    assert err.splitlines() == [
        "%s: line 3 is cut short (the power went while it was written?)" % (d / "history.json"),
        "export: 1 game read from %s; what could not be read is listed above" % (d / "history.json"),
    ]
