"""python -m host_sim export FILE [--csv OUT] [--html OUT]

Write the score sheet of a game copied off the board (`python -m host_sim pull`) as CSV
(a spreadsheet's table) and/or as a page to print (HTML, standing alone: one A4 page for a
six-player game). FILE is the running game (game.json), a history file (history.json or an
archive history.K.json: every game in it), or a pulled folder (the whole history, its
archives first, oldest game first; the game still running in it, its game.json, is not in
the history: a line says so). OUT "-" writes to the standard output.

Phase 10 and Masters hand by hand: the dealer, who went out, each player's phase, whether
it was completed, points and running total. Twist: each player's phase or Twist card, move
and space. Dice: each turn's player, phase, score, bonuses and running grand total.

A file that cannot be read, a damaged saved game, or a folder with no history: the reason
on stderr, exit 2, nothing written. A history is read as far as it can be: each line or
file that could not be read is named on stderr, one line each, and the games that could
be read are written (exit 0; 2 when none could be).
"""
import io
import os
import sys

from host_sim import hostio, sheet_out, sheets


def parser():
    p = hostio.Parser(prog="python -m host_sim export", description=__doc__.split("\n\n", 1)[1].strip())
    p.add_argument("file", metavar="FILE", help="game.json, history.json, history.K.json, or a pulled folder")
    p.add_argument("--csv", metavar="OUT", help="write the sheet as CSV to OUT (- for the standard output)")
    p.add_argument("--html", metavar="OUT", help="write the sheet as a page to print to OUT (- for the standard output)")
    return p


def main(argv):
    p = parser()
    try:
        a = p.parse_args(argv)
        if not a.csv and not a.html:
            p.error("say what to write: --csv OUT and/or --html OUT")
        if a.csv == "-" and a.html == "-":
            p.error("only one of --csv and --html can go to the standard output")
    except hostio.Done as d:
        return d.args[0]
    for path, opt in ((a.csv, "--csv"), (a.html, "--html")):
        msg = path and hostio.out_problem(path, opt)
        if msg:
            print("export: %s" % msg, file=sys.stderr)
            return 2
    said = []
    try:
        got, what = sheets.load(a.file, said)
    except sheets.SheetError as e:
        if e.args[0]:
            print(e.args[0], file=sys.stderr)
        return 2
    if sheets.tell("export", said, got, a.file):
        return 2
    running = os.path.join(a.file, "game.json")
    if os.path.isdir(a.file) and os.path.isfile(running):
        # a folder's sheets are its history: the game still running is not in it
        print("export: the running game (%s) is not in the history, so not in what was written: "
              "export it with python -m host_sim export %s" % (running, running), file=sys.stderr)
    outs = []
    if a.csv:
        buf = io.StringIO()
        sheet_out.write_csv(got, buf)
        outs.append((a.csv, buf.getvalue()))
    if a.html:
        outs.append((a.html, sheet_out.html_page(got, what, a.file)))
    return hostio.write_outs("export", outs)
