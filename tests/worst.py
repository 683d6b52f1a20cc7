# The worst legal cases the device must hold (issue 13), as start folders and keys:
#
# - Phase 10 and Masters: 6 players, 55 hands (each hand the player who went out completes
#   a phase: 6 x 9 phases, then the tenth), the last of them tied, so a tie-break hand.
# - Twist: 6 players on a 64-space board (the most a layout may have), played to the end
#   with every Twist card taken and failed, so pawns go back and the game runs long.
# - Dice: 8 players (the most) and 300 turns.
# - Beside each: a history of 1,000 finished games (the history's limit: history.json and
#   nine archives of 100 games) and a full roster of 20 names.
#
# Each game is played on the device from a save one step before its end (so the save is
# loaded after a restart, at its longest), and for the card games again from the save of
# its 55 hands: its sheet scrolled, the last hand or tie-break entered, the game finished
# into the full history (which moves the oldest archive out), the history browsed and a
# game shown, New game opened on the full roster. `sessions(tmp)` gives them as the bench
# and tests/test_worst.py replay them: {name, game, start (folder), chunks (keys)}.
#
# The games are built with the engine (every hand checked by the rules as it is added),
# the keys with tests/table_keys.py (the screens' keys in one place).
import json
import os

from engine_mpy import savefile, summary
from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.twist import Twist
from engine_mpy.dice import DiceGame, FACE_NUM, FACE_COL, N_DICE, best, die_text, show_faces
from tests import table_keys as K

NAMES20 = ["Ann", "Bob", "Cid", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lou",
           "Max", "Ned", "Ola", "Pia", "Quin", "Ray", "Sue", "Tom"]
SIX = NAMES20[:6]
EIGHT = NAMES20[:8]
FAIL = [10, 0, 0, 0]       # did not complete: ten cards of 1-9, 50 points
# A 64-space board: 1S, then per phase six numbered spaces and a Twist space (phase 1:
# five after 1S), 10R last.
LAYOUT64 = " ".join(["1S"] + ["1"] * 5 + ["T"] + sum([[str(p)] * 6 + ["T"] for p in range(2, 10)], []) + ["10R"])
assert len(LAYOUT64.split()) == 64


# --- the games -------------------------------------------------------------------------------
def card_game(kind, hands=56):
    """Phase 10 or Masters, 6 players, the first `hands` hands of the longest game: in hand
    h (0-based) player h % 6 goes out completing their next phase and everyone else fails
    with ten cards of 1-9 (50), so after 54 hands all six are on phase 10 with 2,250
    points each but Ann (once caught with a 10-12 among them: 55, so 2,255). Hand 55:
    Ann goes out completing phase 10, Bob completes it too keeping one card (5): both on
    2,255, a tie. Hand 56: the
    tie-break, Bob goes out first."""
    g = (Classic if kind == "classic" else Masters)({"players": SIX, "dealer": 0})
    for h in range(min(hands, 55)):
        out = h % 6
        left = [None if p == out else list(FAIL) for p in range(6)]
        if h == 8:
            left[0] = [9, 1, 0, 0]
        if h == 54:
            left[1] = [1, 0, 0, 0]
        rec = {"out": out, "left": left}
        if kind == "masters":
            ph = [0] * 6
            ph[out] = g.remaining(out)[0]
            if h == 54:
                ph[1] = 10
            rec["phase"] = ph
        g.add(rec)
    if hands > 55:
        g.add({"tiebreak": 1})
    return g


def twist_game():
    """Twist, 6 players on LAYOUT64, to the end: each hand the next player goes out, the
    others fail (ten cards); everyone on a Twist space takes a Twist card (one of each) and
    fails it, going back a space, unless they went out with it."""
    g = Twist({"players": SIX, "dealer": 0, "layout": LAYOUT64})
    h = 0
    while not g.state.over:
        out = h % 6
        pick = [None] * 6
        card = 1
        for p in range(6):
            if g.on_twist(p):
                pick[p] = card
                card += 1
        rec = {"out": out, "left": [None if p == out else 10 for p in range(6)]}
        if card > 1:
            rec["pick"] = pick
        g.add(rec)
        h += 1
    return g


class _Rng:
    """A small LCG: the same dice every run, on every machine."""

    def __init__(self, seed):
        self.s = seed

    def face(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 16) % 6


def _faces(rng, phase, make):
    """Ten face digits that make (or fail) phase, drawn until they do."""
    nums = bytearray(N_DICE)
    cols = bytearray(N_DICE)
    while True:
        f = bytearray(rng.face() for _ in range(N_DICE))
        show_faces(f, nums, cols)
        if (best(phase, nums, cols)[0] >= 0) == make:
            return "".join(chr(48 + x) for x in f)


def dice_turns():
    """The turns of an 8-player Dice game of 300 turns: in turn order, every player makes
    a phase every fourth of their turns up to phase 6, Ann (first in turn order) at each of her first 10
    of those, so she makes phase 10 on her 37th turn (turn 289); then the last tries: Bob
    makes four phases (he goes on after each) and fails, the six others fail once."""
    g = DiceGame({"players": EIGHT, "order": list(range(8))})
    rng = _Rng(2026)
    turns = []

    def play(p, make):
        rec = {"player": p, "faces": _faces(rng, g.state.phase[p], make)}
        g.add(rec)
        turns.append(rec)

    for t in range(289):
        p = t % 8
        k = t // 8          # the player's own turn number, 0-based
        if p == 0:
            make = k in (0, 4, 8, 12, 16, 20, 24, 28, 32, 36)
        else:
            make = k % 4 == 3 and g.state.phase[p] < 6
        play(p, make)
    assert g.state.first == 0, "Ann should have finished first"
    for _ in range(4):
        play(1, True)
    play(1, False)
    for p in range(2, 8):
        play(p, False)
    assert g.state.over and len(g.records) == 300
    return g, turns


def dice_game(turns):
    g = DiceGame({"players": EIGHT, "order": list(range(8))})
    for r in turns:
        g.add(r)
    return g


def dice_text(faces):
    """A turn's faces as the dice read on the table ("3r"...): real dice entered."""
    out = []
    for d in range(N_DICE):
        i = d * 6 + ord(faces[d]) - 48
        num = FACE_NUM[i]
        out.append(die_text(num, FACE_COL[i]))
    return out


# --- the files beside the game ---------------------------------------------------------------
def _finished_entries():
    """One finished game of each worst kind, as the history keeps them (the longest
    lines a history holds)."""
    es = [summary.entry(card_game("classic"), True, 0), summary.entry(card_game("masters"), True, 0),
          summary.entry(twist_game(), True, 0), summary.entry(dice_game(dice_turns()[1]), True, 0)]
    return es


def write_history(folder, games=1000, entries=None):
    """history.json and its archives holding `games` finished games (numbered 1..games,
    the four worst kinds in turn), as the device leaves them: 100 a file, the oldest in
    history.1.json."""
    from firmware.history.histadd import SEGMENT
    es = entries or _finished_entries()
    head = '{"format":"phase10-history","v":2}\n'
    files = []
    n = 1
    while n <= games:
        lines = []
        for k in range(n, min(n + SEGMENT, games + 1)):
            e = dict(es[k % len(es)])
            e["n"] = k
            lines.append(json.dumps(e, separators=(",", ":")) + "\n")
        files.append(head + "".join(lines))
        n += SEGMENT
    for i in range(len(files) - 1):
        with open(os.path.join(folder, "history.%d.json" % (i + 1)), "w") as f:
            f.write(files[i])
    with open(os.path.join(folder, "history.json"), "w") as f:
        f.write(files[-1])


def write_roster(folder):
    """A full roster: 20 names, each with years of games behind them."""
    rows = [[n, 500, 80, 60000, 12000] for n in NAMES20]
    with open(os.path.join(folder, "roster.json"), "w") as f:
        json.dump(rows, f, separators=(",", ":"))


def write_start(folder, game, entries=None):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "game.json"), "w") as f:
        f.write(savefile.dumps(game))
    write_history(folder, entries=entries)
    write_roster(folder)
    if game.KIND == "twist":
        with open(os.path.join(folder, "twist_layout.txt"), "w") as f:
            f.write(LAYOUT64 + "\n")


# --- the keys --------------------------------------------------------------------------------
CONTINUE = K.menu("continue", game=True)          # the menu opens on Continue
# the score sheet scrolled to its end, back on "End of hand"
SHEET = "DOWN OK " + K.down(60) + " LEFT UP"
# From the menu (the game finished: it is on New game): History, down its first page and
# back up; the newest game shown and scrolled; back to the menu, up to New game. Then New
# game on the full roster: the players page scrolled to its end, and back out to the menu.
# (keys, the screen on top after them)
HISTORY = [(K.menu("history") + " " + K.down(12) + " " + K.up(12), "history"),
           ("OK " + K.down(14), "history"),
           ("LEFT LEFT UP UP", "menu")]
ROSTER = [(K.menu("new game") + " OK OK " + K.down(24), "newgame"), ("LEFT LEFT LEFT UP", "menu")]


def finished(keys):
    """The keys that finish a game into the full history, then the note that says the
    oldest 100 games were deleted (the history keeps 1,000: firmware/history/histadd.py) closed."""
    return [(keys, "note"), ("OK", "menu")]


def _masters_keys(out):
    # the player who went out names their only phase left (the first); Bob completed
    # phase 10 (his only one left: the check page fills it in), the others held ten
    return "OK"


def _session(name, kind, start, steps, **more):
    d = {"name": name, "game": kind, "start": start, "screen": None, "arg": None,
         "chunks": [k for k, _ in steps], "expect": [m for _, m in steps]}
    d.update(more)
    return d


def card_sessions(kind, tmp, entries):
    """Two sessions: from the save of 54 hands, the 55th entered (a tie); from the save
    of 55, the tie-break and the finish into the full history."""
    a = os.path.join(tmp, "worst_%s_55" % kind, "start")
    write_start(a, card_game(kind, 54), entries)
    entries55 = [None if p == 0 else K.counts(FAIL) for p in range(6)]
    entries55[1] = K.counts([1, 0, 0, 0])
    h55 = K.hand(0, entries55, masters=_masters_keys(0) if kind == "masters" else None)
    b = os.path.join(tmp, "worst_%s_tiebreak" % kind, "start")
    write_start(b, card_game(kind, 55), entries)
    return [
        _session("worst_%s_55" % kind, kind, a,
                 [(CONTINUE, "cards_home"), (SHEET, "cards_home"), (h55, "gameover"),
                  ("LEFT " + SHEET, "cards_home")]),
        # the game-over screen asks who went out first in the tie-break: Bob (second)
        _session("worst_%s_tiebreak" % kind, kind, b,
                 [(CONTINUE, "cards_home"), (SHEET, "cards_home"), ("OK DOWN OK", "gameover")]
                 + finished("OK") + HISTORY + ROSTER),
    ]


def twist_session(tmp, entries):
    g = twist_game()
    recs = list(g.records)
    start = Twist(g.settings, recs[:-1])
    d = os.path.join(tmp, "worst_twist", "start")
    write_start(d, start, entries)
    last = recs[-1]
    # The last hand as the table enters it: each player on a Twist space (asked from the
    # dealer's left) takes a card by hand; who went out; the others' cards left.
    n = 6
    first = start.first_player()
    keys = ["OK"]
    pick = last.get("pick") or [None] * n
    for i in range(n):
        p = (first + i) % n
        if start.on_twist(p):
            keys.append(K.choose(K.BY_HAND, pick[p]))
    keys.append(K.down(last["out"]) + " OK")
    for p in range(n):
        if p != last["out"]:
            keys.append(K.count(last["left"][p]))
    keys.append("OK OK")
    return _session("worst_twist", "twist", d,
                    [(CONTINUE, "twist_home"), ("DOWN OK " + K.down(8) + " LEFT UP", "twist_home"),
                     # Game over: the title row, six pawns, Board, Score sheet, Undo, Finish game
                     (" ".join(keys), "twist_home")] + finished(K.down(1 + 6 + 3) + " OK") + HISTORY + ROSTER,
                    last=last)


def dice_session(tmp, entries):
    g, turns = dice_turns()
    d = os.path.join(tmp, "worst_dice", "start")
    write_start(d, dice_game(turns[:-1]), entries)
    last = K.entry_keys(dice_text(turns[-1]["faces"])).split()
    # Help opened halfway through the last turn's real dice (the turn kept under it)
    return _session("worst_dice", "dice", d,
                    [(CONTINUE, "dice_home"), ("OK " + " ".join(last[:30]), "dice_turn"),
                     ("HELP DOWN DOWN", "help"), ("OK", "dice_turn"),
                     (" ".join(last[30:]), "dice_home"),
                     ("UP UP UP OK " + K.down(20), "dice_sheet")] + finished("LEFT DOWN DOWN OK")
                    + HISTORY + ROSTER)


def sessions(tmp):
    entries = _finished_entries()
    out = card_sessions("classic", tmp, entries) + card_sessions("masters", tmp, entries)
    out.append(twist_session(tmp, entries))
    out.append(dice_session(tmp, entries))
    return out
