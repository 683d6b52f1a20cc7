"""python -m host_sim show FILE [--json]

Read a saved game of any kind (for example /game.json copied off the board with
`python -m host_sim pull`) and print the standings and the score sheet, or with --json
the same as plain data (host_sim/report.py gives each game's shape; docs/save-format.md).
A history file (history.json, history.K.json) lists its games, oldest first: number, date
(where the table's clock knew it), kind, players, winner and hands; --json gives each as an
object. A file that cannot be loaded: the reason on stderr, exit 2; a history's line that
cannot be read is named on stderr, one line each, and the others listed.
"""
import json
import os
import sys

from host_sim import hostio, report, sheets, sources

from engine_mpy import ident, savefile, saveload
from firmware.history import entries


def parser():
    p = hostio.Parser(prog="python -m host_sim show", description=__doc__.split("\n\n", 1)[1].strip())
    p.add_argument("file", metavar="FILE", help="a saved game (game.json copied off the board)")
    p.add_argument("--json", action="store_true", help="print a summary as JSON instead of text")
    return p


def main(argv):
    try:
        a = parser().parse_args(argv)
    except hostio.Done as d:
        return d.args[0]
    as_json = a.json
    path = a.file
    if os.path.isdir(path):
        # a pulled folder: the file to give is the running game in it, if there is one
        save = os.path.join(path, "game.json")
        print("%s: cannot read: it is a folder; %s" % (path, "give the saved game in it: %s" % save
              if os.path.isfile(save) else "it holds no game.json (no game was running)"), file=sys.stderr)
        return 2
    text = hostio.read_text(path, max(hostio.SAVE_LIMIT, sheets.HISTORY_LIMIT), "saved game or history file")
    if text is None:
        return 2
    if sources.is_history(text):
        return _history(path, text, as_json)
    try:
        game = saveload.loads(text)
    except savefile.SaveError as e:
        print("%s: not a valid saved game: %s" % (path, e.args[0]), file=sys.stderr)
        return 2
    except hostio.DAMAGED as e:
        print("%s: not a valid saved game: %s" % (path, hostio.damaged(e)), file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(report.summary(game)))
    else:
        print(report.text(game))
    return 0


KINDS = {"classic": "Phase 10", "masters": "Masters", "twist": "Twist", "dice": "Dice"}


def _history(path, text, as_json):
    """List the games of a history file's text; the exit status."""
    said = []
    try:
        found = sheets.history_entries(path, text, said)
    except sheets.SheetError as e:
        print(e.args[0], file=sys.stderr)
        return 2
    rows = []
    ids = ident.line_ids([e if isinstance(e, dict) else {} for _, e in found])
    for (line, e), gid in zip(found, ids):
        try:
            e = entries.check_entry(e)
        except ValueError as x:
            said.append("%s: line %d is damaged: %s" % (path, line, x.args[0]))
            continue
        t = e.get("end", e.get("start"))
        # (id: the game's own, or for a line of earlier firmware the one derived from it,
        # by which export and stats match it)
        rows.append({"n": e.get("n", len(rows) + 1), "id": gid, "start": e.get("start"), "end": e.get("end"),
                     "date": ident.when(t, True) if isinstance(t, int) and t > 0 else None,
                     "game": e.get("game"), "players": e.get("players", []), "winners": e.get("winners", []),
                     "done": bool(e.get("done", True)), "hands": e.get("hands", 0)})
    for msg in said:
        print(msg, file=sys.stderr)
    if said and not rows:
        return 2
    if as_json:
        print(json.dumps(rows))
        return 0
    print("%s: %d game%s, oldest first" % (path, len(rows), "" if len(rows) == 1 else "s"))
    print("%5s  %-17s  %-8s  %-30s  %-14s %5s" % ("Game", "Date", "Kind", "Players", "Winner", "Hands"))
    for r in rows:
        won = ", ".join(r["winners"]) if r["winners"] else ("unfinished" if not r["done"] else "-")
        print("%5s  %-17s  %-8s  %-30s  %-14s %5d" % (r["n"], r["date"] or "-", KINDS.get(r["game"], "?"),
                                                   ", ".join(r["players"]), won, r["hands"]))
    return 0
