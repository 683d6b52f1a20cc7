"""python -m host_sim show FILE [--json]

Read a saved game of any kind (for example /game.json copied off the board with
`python -m host_sim pull`) and print the standings and the score sheet, or with --json
the same as plain data (host_sim/report.py gives each game's shape; docs/save-format.md).
A file that cannot be loaded: the reason on stderr, exit 2.
"""
import json
import os
import sys

from host_sim import hostio, report

from engine_mpy import savefile, saveload


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
    text = hostio.read_text(path, hostio.SAVE_LIMIT, "saved game")
    if text is None:
        return 2
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
