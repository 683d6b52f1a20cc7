"""Score sheets of the device's games, read off its files on the PC (host_sim export and
stats): a running game (game.json) or the finished games of the history (history.json and
its archives history.K.json, or a folder holding them, as `pull` copies them).

Everything is derived by the engine, never recomputed here: a running game is replayed
from its records; a game of the history keeps only its compact sheet (engine_mpy/summary.py
has the alphabet), so each hand is written back as the hand record the engine takes and the
game is replayed through the same rules (Phase 10, Masters, Twist). A Dice turn keeps its
phase and score, not its dice, so the Dice sheet is filled from those into the engine's own
score sheet (DiceGame.sheet, .total, .five_bonus). The totals the device stored with each
game are checked against the replay: a line that does not add up is called damaged.

What the history does not keep, and so no export shows: the cards left in each hand (only
their points), the card values counted in a Twist tie-break and the dice of a Dice turn. A
game's date is its own where the table's clock knew it (start, end), else the pull's
(pull.json).
"""
import json
import os
import sys
from dataclasses import dataclass, field
from typing import List, Optional

from host_sim import hostio, report

from engine_mpy import ident, savefile, summary
from engine_mpy.game import RuleError

A = summary.A.decode()   # the alphabet (bytes on the device)
KIND_TITLES = {"classic": "Phase 10", "masters": "Phase 10 Masters Edition",
               "twist": "Phase 10 Twist", "dice": "Phase 10 Dice"}
# A history file holds at most firmware/history/entries.py's SEGMENT games of LINE_MAX bytes.
HISTORY_LIMIT = 512 * 1024


class SheetError(Exception):
    """A file or a game that cannot be read; args[0] says why, for the player."""


# --- the sheets -------------------------------------------------------------------------------
@dataclass
class CardCell:
    points: int
    phase: int          # the phase attempted (Masters: the phase named, 0 for none)
    completed: bool
    total: int          # the running total after the hand


@dataclass
class CardHand:
    number: int
    dealer: int
    out: int            # who went out (the tie-break hand: who went out first in it)
    cells: Optional[List[CardCell]]   # None for the tie-break hand
    tied: List[int] = field(default_factory=list)   # the tie-break hand's players


@dataclass
class TwistCell:
    phase: int          # the phase attempted, 0 when a Twist card was
    card: int           # the Twist card attempted, 0 when a phase was
    pick: Optional[str]  # on a Twist space: "before", "after" or "card"; else None
    completed: bool
    move: int           # 3, 2, 1 (a phase), 6, 4, -1 (a Twist card)
    space: int          # the space after the hand, 1-based (the board's length + 1: finished)


@dataclass
class TwistHand:
    number: int
    dealer: int
    out: int
    cells: List[TwistCell]


@dataclass
class DiceTurn:
    number: int
    player: int
    phase: int
    score: Optional[int]      # None: the phase was not made
    bonuses: list             # [(label, points)] earned on this turn
    total: int                # the player's grand total after the turn


@dataclass
class Sheet:
    kind: str
    title: str
    players: List[str]
    n: Optional[int]          # the game's number in the history; None for a running game
    done: bool                # finished on the device (False: abandoned, or still running)
    over: bool                # the game has a result
    winners: List[str]
    hands: int                # hands played (Dice: turns), the tie-break hand not counted
    notes: List[str] = field(default_factory=list)
    date: str = ""            # when it was played ("finished 28 Nov 2026 21:05"), else the pull's
    when: int = 0             # the time it ended (or started), where known: seconds, the table's clock
    id: str = ""              # its id in the history (engine_mpy/ident.py), where it has one
    running: bool = False
    kept: bool = True         # False: an early history line, with no hand-by-hand sheet
    totals: List[int] = field(default_factory=list)   # cards: points; Twist: space; Dice: grand total
    made: List[int] = field(default_factory=list)     # cards: phases completed
    first: int = 0            # the first dealer (cards, Twist)
    rows: list = field(default_factory=list)          # CardHand / TwistHand / DiceTurn
    board: int = 0            # Twist: spaces on the board
    order: List[int] = field(default_factory=list)    # Dice: seats in turn order
    book: list = field(default_factory=list)          # Dice: DiceGame.sheet() rows

    def label(self):
        if self.running:
            return "Running game"
        return "Game %d" % self.n if self.n else "Game"


# --- a history line -> Sheet --------------------------------------------------------------------
def _num(c, what):
    v = A.find(c)
    if v < 0:
        raise SheetError("the sheet holds %r where %s belongs" % (c, what))
    return v


def _settings(e):
    kind = e["game"]
    s = {"players": list(e["players"])}
    if kind == "dice":
        first = e.get("first")
        if isinstance(first, list):
            s["order"] = first
    else:
        s["dealer"] = e.get("first", 0)
    if kind == "classic":
        s["variation"] = e.get("variation", "standard")
        if "phases" in e:
            s["phases"] = e["phases"]
    if kind == "twist":
        s["layout"] = e.get("layout")
    return s


def _title(kind, e):
    t = KIND_TITLES[kind]
    if kind == "classic":
        from engine_mpy.classic import VARIATIONS, VARIATION_NAMES, FIRST_N
        v = e.get("variation", "standard")
        if v in VARIATIONS and v != "standard":
            name = VARIATION_NAMES[VARIATIONS.index(v)]
            if v == FIRST_N:
                k = e.get("phases", 10)
                name = "first %d phase%s" % (k, "" if k == 1 else "s")
            t += " (%s)" % name.lower()
    return t


def decode(e, n=None):
    """The Sheet of one history line (a dict as firmware/history/entries.py reads it). Raises
    SheetError naming what does not fit."""
    from firmware.history.entries import check_entry
    try:
        check_entry(e)
    except ValueError as x:
        raise SheetError(x.args[0])
    kind = e.get("game")
    if kind not in KIND_TITLES:
        raise SheetError("unknown game %r" % (kind,))
    players = e.get("players") or []
    if not players:
        raise SheetError("no players")
    sh = Sheet(kind=kind, title=_title(kind, e), players=list(players),
               n=e.get("n", n) or n, done=bool(e.get("done", True)),
               over=bool(e.get("winners")), winners=list(e.get("winners", [])),
               hands=e.get("hands", 0), totals=list(e.get("totals", [])),
               made=list(e.get("made", [])))
    # when it was played, where the table's clock knew it (engine_mpy/ident.py: the clock
    # as it showed the time, no time zone): its end, else its start
    t = e.get("end", e.get("start"))
    if isinstance(t, int) and t > 0:
        sh.date = ("started " if "end" not in e else "finished " if sh.done else "abandoned ") + ident.when(t, True)
        sh.when = t
    sh.id = e.get("id", "")
    if isinstance(e.get("notes"), str) and e["notes"].strip():
        # not written by the device: shown if a person adds them to the line
        sh.notes.append(e["notes"].strip())
    for w in sh.winners:
        if w not in players:
            raise SheetError("the winner %s is not one of the players" % w)
    if "sheet" not in e:
        # a line of the first history format: the game's result only
        sh.kept = False
        sh.notes.append("this firmware kept only the result of this game, not its hands")
        return sh
    try:
        game = savefile.game_class(kind)(_settings(e))
    except RuleError as x:
        raise SheetError("settings: %s" % x.args[0])
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as x:
        raise SheetError("settings are malformed (%s)" % type(x).__name__)
    items = e["sheet"].split(",") if e["sheet"] else []
    if isinstance(e.get("cut"), int):
        # a game too long for the device's history line: its first hands only
        sh.cut = True
        sh.notes.append("the device kept the first %d of %d hands of this game" % (e["cut"], e.get("hands", 0)))
    try:
        if kind == "dice":
            _dice(sh, game, items)
        elif kind == "twist":
            _twist(sh, game, items)
        else:
            _cards(sh, game, items)
    except RuleError as x:
        raise SheetError("hand %d: %s" % (x.hand, x.args[0]))
    if sh.totals and len(sh.totals) != len(players):
        raise SheetError("the totals do not list every player")
    return sh


def _check_totals(sh, got, what):
    if getattr(sh, "cut", False):
        return           # the kept totals are the game's; the hands shown are its first
    if sh.totals and list(got) != sh.totals:
        raise SheetError("the hands do not add up to the %s it keeps (%s, not %s)"
                         % (what, " ".join(map(str, got)), " ".join(map(str, sh.totals))))
    sh.totals = list(got)


def _cards(sh, game, items):
    n = len(sh.players)
    masters = game.KIND == "masters"
    tied = []
    tiebreak = None
    for i, it in enumerate(items):
        phs = None
        if len(it) == 2 and it[0] == "T":
            tied = list(game.state.tiebreak)
            rec = {"tiebreak": _num(it[1], "the tie-break winner")}
            tiebreak = i
        elif len(it) == 1 + 2 * n:
            out = _num(it[0], "who went out")
            if out >= n:
                raise SheetError("hand %d: no player %d went out" % (i + 1, out + 1))
            pts, phs, ok = [], [], []
            for p in range(n):
                pts.append(_num(it[1 + 2 * p], "points") * 5)
                v = _num(it[2 + 2 * p], "a phase")
                phs.append(v >> 1)
                ok.append(bool(v & 1))
            # the hand as the table would have entered it, with points for the cards left
            rec = {"out": out, "left": [None if p == out else pts[p] for p in range(n)],
                   "done": [None if p == out else ok[p] for p in range(n)]}
            if masters:
                rec["phase"] = phs
        else:
            raise SheetError("hand %d: %r is not a hand of %d players" % (i + 1, it, n))
        try:
            game.add(rec)
        except RuleError as x:
            raise RuleError(x.args[0], i + 1)
        if phs is not None:
            # the replay must tell the same hand as the sheet: the phase each attempted
            _, _, ok2, phs2, _ = game.state.rows[-1]
            if phs2 != phs or ok2 != ok:
                raise SheetError("hand %d: the phases on the sheet are not the ones the rules give" % (i + 1))
    _check_totals(sh, game.state.total, "points")
    made = [game.phases_done(game.state, p) for p in range(n)]
    if sh.made and made != sh.made and not getattr(sh, "cut", False):
        raise SheetError("the hands do not add up to the phases completed it keeps")
    sh.made = made
    sh.first = game.settings["dealer"]
    sh.hands = game.state.hands
    for num, dealer, out, cells in report.card_sheet(game):
        sh.rows.append(CardHand(num, dealer, out, [CardCell(pts, ph, ok, tot) for pts, ok, ph, tot in cells]))
    if tiebreak is not None:
        sh.rows.append(CardHand(len(sh.rows) + 1, game.dealer(tiebreak), game.state.tiebreak_winner, None, tied))
    if game.state.tiebreak:
        sh.notes.append("a tie-break hand is due between %s" % " and ".join(sh.players[p] for p in game.state.tiebreak))
    if not sh.done and game.over:
        sh.notes.append("over, but not finished on the device")
    elif not sh.done:
        sh.notes.append("not finished")


def _twist(sh, game, items):
    n = len(sh.players)
    sh.board = game.red + 1
    sh.first = game.settings["dealer"]
    for i, it in enumerate(items):
        if len(it) != 2 * n:
            raise SheetError("hand %d: %r is not a hand of %d players" % (i + 1, it, n))
        moves = [_num(it[2 * p], "a move") - 1 for p in range(n)]
        picks = []
        for p in range(n):
            c = it[2 * p + 1]
            picks.append(None if c == "." else "before" if c == "b" else "after" if c == "a" else _num(c, "a Twist card"))
        outs = [p for p in range(n) if moves[p] in (3, 6)]
        if len(outs) != 1:
            raise SheetError("hand %d: %d players went out" % (i + 1, len(outs)))
        out = outs[0]
        # The hand as the table would have entered it: the cards left say completed (1 card,
        # which any phase or Twist card allows) or not (10 cards).
        rec = {"out": out, "left": [None if p == out else (1 if moves[p] in (2, 4) else 10) for p in range(n)]}
        if [k for k in picks if k is not None]:
            rec["pick"] = picks
        st = game.state
        dealer = game.dealer()
        try:
            tried = [game.attempt(st, p, picks[p]) for p in range(n)]
            pre = game.preview(rec)
            if pre.need:
                # Several players moved past the red space and the one who went out is not
                # among them: the card values decided it, which the history does not keep.
                # Values that make the winners it keeps the winners (1 card worth 5 or 10
                # counts under both face and Classic values).
                low = 5
                rec["total"] = [None] * n
                for p in pre.need:
                    rec["total"][p] = low if sh.players[p] in sh.winners else 2 * low
            game.add(rec)
        except RuleError as x:
            raise RuleError(x.args[0], i + 1)
        if list(game.state.moves) != moves:
            raise SheetError("hand %d: the moves on the sheet are not the ones the rules give" % (i + 1))
        cells = []
        for p in range(n):
            ph, card = tried[p]
            pick = None if picks[p] is None else ("card" if card else picks[p])
            cells.append(TwistCell(ph, card, pick, moves[p] in (2, 3, 4, 6), moves[p], game.space(p)))
        sh.rows.append(TwistHand(i + 1, dealer, out, cells))
    _check_totals(sh, [game.space(p) for p in range(n)], "spaces")
    sh.hands = game.state.hands
    if game.state.over and sh.done:
        engine = [sh.players[w] for w in game.state.winners]
        if engine != sh.winners and sorted(engine) != sorted(sh.winners):
            raise SheetError("the winners it keeps are not the ones the rules give")
    if not sh.done:
        sh.notes.append("not finished")


def _dice(sh, game, items):
    from engine_mpy.dice import FIRST_FINISH_BONUS, SOLITAIRE_FAIL
    n = len(sh.players)
    st = game.state
    sh.order = list(st.order)
    turns = []
    for i, it in enumerate(items):
        if len(it) != 3:
            raise SheetError("turn %d: %r is not a turn" % (i + 1, it))
        p = _num(it[0], "a player")
        ph = _num(it[1], "a phase")
        score = None if it[2] == "-" else _num(it[2], "a score")
        if p >= n:
            raise SheetError("turn %d: there is no player %d" % (i + 1, p + 1))
        if ph != st.phase[p]:
            raise SheetError("turn %d: %s tried phase %d while on phase %d" % (i + 1, sh.players[p], ph, st.phase[p]))
        turns.append((p, ph, score))
        if score is None:
            st.fails[p] += 1
        else:
            st.scores[p][ph - 1] = score
            st.phase[p] = ph + 1
        st.turns += 1
    # The First Finish Bonus is the one figure a turn's phase and score leave open (who
    # earned it depends on the turn order of the last tries): the grand totals kept say.
    ff = [False] * n
    if sh.totals and not getattr(sh, "cut", False):
        if len(sh.totals) != n:
            raise SheetError("the totals do not list every player")
        for p in range(n):
            extra = sh.totals[p] - game.total(p)
            if extra == FIRST_FINISH_BONUS and st.scores[p][9] >= 0:
                ff[p] = True
            elif extra:
                raise SheetError("%s's turns do not add up to the grand total it keeps (%d)" % (sh.players[p], sh.totals[p]))
    # Again turn by turn, for each turn's bonuses and running total.
    game.state = st = game.start()
    for i, (p, ph, score) in enumerate(turns):
        bonuses = []
        if score is None:
            st.fails[p] += 1
            if game.solitaire():
                bonuses.append(("Failed turn", -SOLITAIRE_FAIL))
        else:
            st.scores[p][ph - 1] = score
            st.phase[p] = ph + 1
            if ph == 5 and game.five_bonus(p):
                bonuses.append(("Five Phase Bonus", game.five_bonus(p)))
            if ph == 10 and ff[p]:
                st.ff_bonus[p] = True
                bonuses.append(("First Finish Bonus", FIRST_FINISH_BONUS))
        st.turns += 1
        sh.rows.append(DiceTurn(i + 1, p, ph, score, bonuses, game.total(p)))
    st.over = sh.done and sh.over
    sh.hands = st.turns
    if not getattr(sh, "cut", False):
        sh.totals = [game.total(p) for p in range(n)]
    sh.book = game.sheet()
    if not sh.done:
        sh.notes.append("not finished")


# --- reading the files --------------------------------------------------------------------------
def from_game(game):
    """The Sheet of a running game (loaded from game.json): its history line as the device
    would write it at the finish, read back as any history line is, so a running game and
    the same game in the history export alike."""
    over = bool(summary.winners(game))
    sh = decode(summary.entry(game, over, 0))
    sh.running = True
    sh.n = None
    sh.notes = [x for x in sh.notes if x != "not finished"]
    sh.notes.append("over: still to be finished on the device" if over else "still being played")
    return sh


def pull_date(folder):
    """When the files in folder were copied off the board (pull.json, written by pull), as
    "YYYY-MM-DD HH:MM", or "" when there is no such record."""
    try:
        with open(os.path.join(folder, "pull.json"), "rb") as f:
            return pull_time(f.read(65536))
    except OSError:
        return ""


def pull_time(text):
    """The time a pull record's text (pull.json) says the files were copied, as
    "YYYY-MM-DD HH:MM", or "" when it says none."""
    try:
        t = json.loads(text).get("time")
    except (TypeError, ValueError, AttributeError, RecursionError):
        return ""
    if isinstance(t, str) and len(t) >= 16 and t[4] == "-" and t[10] == "T":
        return t[:10] + " " + t[11:16]
    return ""


def set_aside(folder):
    """The history files the device set aside as damaged (history*.json.badN), in folder or
    in its bad/ (where pull puts them), by name."""
    out = []
    for where in (folder, os.path.join(folder, "bad")):
        try:
            names = os.listdir(where)
        except OSError:
            continue
        for name in sorted(names):
            stem, dot, k = name.rpartition(".bad")
            if dot and k.isdigit() and stem.startswith("history") and stem.endswith(".json"):
                out.append(os.path.join(where, name))
    return out


def history_entries(path, text, said):
    """The games of a history file's text, oldest first, as (line number, dict). said gets
    one line for each line that could not be read (not JSON: damaged; at the end without
    its newline: cut short, an append the power cut on a FAT board). A last line that is
    whole but lacks only its newline is a game. SheetError: not a history file at all."""
    if text.lstrip().startswith("["):
        # the first history format: one JSON list of games, oldest first
        try:
            v = json.loads(text)
        except (ValueError, RecursionError):
            raise SheetError("%s: not a history file: not valid JSON (damaged)" % path)
        if not isinstance(v, list):
            raise SheetError("%s: not a history file" % path)
        return [(i + 1, e) for i, e in enumerate(v)]
    lines = text.split("\n")
    try:
        head = json.loads(lines[0])
    except (ValueError, RecursionError):
        head = None
    if not isinstance(head, dict) or head.get("format") != summary.FORMAT:
        raise SheetError("%s: not a history file (its first line is not a history's header)" % path)
    if head.get("v") != summary.VERSION:
        raise SheetError("%s: history version %r, this program reads version %d" % (path, head.get("v"), summary.VERSION))
    out = []
    last = len(lines) - 1     # the text after the last newline: "", a game, or a line cut short
    for i in range(1, last + 1):
        if not lines[i].strip():
            continue
        try:
            e = json.loads(lines[i])
        except (ValueError, RecursionError):
            if i == last:
                said.append("%s: line %d is cut short (the power went while it was written?)" % (path, i + 1))
            else:
                said.append("%s: line %d is damaged (not valid JSON)" % (path, i + 1))
            continue
        out.append((i + 1, e))
    return out


def sheets_of(games, said):
    """The Sheets of games (host_sim/sources.py Game: a history line and where it is), in
    their order: every game that can be read. said gets one line for each that cannot."""
    out = []
    for g in games:
        e = g.e
        try:
            sh = decode(e, len(out) + 1)
        except SheetError as x:
            why = x.args[0]
        except hostio.DAMAGED as x:     # content the engine's rules trip over
            why = hostio.damaged(x)
        else:
            sh.id = sh.id or g.id
            if not sh.date and g.src.date:
                sh.date = "copied off the board " + g.src.date
            out.append(sh)
            continue
        said.append("%s (game %s) is damaged: %s" % (g.where, e.get("n", "?") if isinstance(e, dict) else "?", why))
    return out


def tell(prog, said, notes, sheets, source):
    """Say on stderr, one line each, what could not be read (said), then what was done
    about the sources (notes: a game counted from a finish journal, a game held with other
    contents), then how many games were read. The exit status: 0 when a game was read or
    nothing went wrong, else 2."""
    for msg in said + notes:
        print(msg, file=sys.stderr)
    if said and sheets:
        print("%s: %d game%s read from %s; what could not be read is listed above"
              % (prog, len(sheets), "" if len(sheets) == 1 else "s", source), file=sys.stderr)
    return 2 if said and not sheets else 0
