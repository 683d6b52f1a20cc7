"""python -m host_sim export SOURCE... [--csv OUT] [--html OUT]

Write the score sheets of games copied off the board (`python -m host_sim pull`) or out of
the browser's device (its Download files) as CSV (a spreadsheet's table) and/or as a page
to print (HTML, standing alone: one A4 page for a six-player game). Each SOURCE is a
running game (game.json), a history file (history.json or an archive history.K.json: every
game in it), a folder (a pull, or the browser's Download unpacked: its whole history,
archives first, oldest game first; a finish under way in it, finish.json, counts its game;
the game still running in it, its game.json, is not in the history: a line says so) or a
zip file (the browser's Download files). Given several, each game is written once (the
same game in two pulls of a board is one game: its id, docs/save-format.md). OUT "-"
writes to the standard output; an OUT that is one of the files read is refused.

Phase 10 and Masters hand by hand: the dealer, who went out, each player's phase, whether
it was completed, points and running total. Twist: each player's phase or Twist card, move
and space. Dice: each turn's player, phase, score, bonuses and running grand total.

A file that cannot be read, a damaged saved game, or a folder with no history: the reason
on stderr, exit 2, nothing written. A history is read as far as it can be: each line or
file that could not be read is named on stderr, one line each, and the games that could
be read are written (exit 0; 2 when none could be).
"""
import io
import sys

from host_sim import hostio, sheet_out, sheets, sources
from engine_mpy import savefile, saveload


def parser():
    p = hostio.Parser(prog="python -m host_sim export", description=__doc__.split("\n\n", 1)[1].strip())
    p.add_argument("files", nargs="+", metavar="SOURCE",
                   help="game.json, history.json, history.K.json, a pulled folder or the browser's Download zip")
    p.add_argument("--csv", metavar="OUT", help="write the sheets as CSV to OUT (- for the standard output)")
    p.add_argument("--html", metavar="OUT", help="write the sheets as a page to print to OUT (- for the standard output)")
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
    said, notes, running = [], [], []
    try:
        games, found = sources.league(a.files, said, notes, running)
        got = sheets.sheets_of(games, said)
        said += sources.set_aside(found)
        later = []
        for src, name, text in running:
            path = src.path(name)
            if text is None:
                # a folder's sheets are its history: the game still running is not in it
                later.append("export: the running game (%s) is not in the history, so not in what was "
                             "written: export it with python -m host_sim export %s" % (path, path))
                continue
            got.append(_running(path, text, src.date))
    except sheets.SheetError as e:
        if e.args[0]:
            print(e.args[0], file=sys.stderr)
        return 2
    label = ", ".join(a.files)
    if sheets.tell("export", said, notes, got, label):
        return 2
    for msg in later:
        print(msg, file=sys.stderr)
    why = sources.over_input(found, ((a.csv, "--csv"), (a.html, "--html")))
    if why:
        print("export: %s" % why, file=sys.stderr)
        return 2
    outs = []
    if a.csv:
        buf = io.StringIO()
        sheet_out.write_csv(got, buf)
        outs.append((a.csv, buf.getvalue()))
    if a.html:
        only = len(got) == 1 and got[0].running
        outs.append((a.html, sheet_out.html_page(got, "game" if only else "history", label)))
    return hostio.write_outs("export", outs)


def _running(path, text, date):
    """The Sheet of the running game in text (game.json's), or SheetError."""
    if not text.strip():
        raise sheets.SheetError("%s: the file is empty" % path)
    try:
        game = saveload.loads(text)
    except savefile.SaveError as e:
        raise sheets.SheetError("%s: not a saved game or a history file: %s" % (path, e.args[0]))
    except hostio.DAMAGED as e:
        raise sheets.SheetError("%s: not a saved game or a history file: %s" % (path, hostio.damaged(e)))
    sh = sheets.from_game(game)
    if date and not sh.date:
        sh.date = "copied off the board " + date
    return sh
