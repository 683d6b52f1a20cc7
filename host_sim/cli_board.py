"""python -m host_sim board check FILE | board show

check FILE  read a Phase 10 Twist board layout file (the text that goes on the device as
            /twist_layout.txt: space codes 1S, 1-9, T, 10R separated by spaces or
            newlines, # comments) as the device reads it and draw the board; exit 0.
            A layout the device would refuse: its reason on stderr, exit 2.
show        draw the default board (docs/rules.md, "Phase 10 Twist").
"""
import sys

from host_sim import hostio

from engine_mpy.game import RuleError
from engine_mpy import board_layout as board
from engine_mpy.phases import phase_text

_PER_ROW = 9


def _strip(codes):
    """The board as rows of boxes, numbered, in playing order."""
    out = []
    for start in range(0, len(codes), _PER_ROW):
        row = codes[start:start + _PER_ROW]
        out.append(" ".join("%3d" % (start + i + 1) + "    " for i in range(len(row))).rstrip())
        out.append(" ".join("[%-5s]" % ("Start" if c == "1S" else ("RED10" if c == "10R" else c)) for c in row))
    return out


def render(codes, title):
    ph = board.space_phases(codes)
    lines = ["%s: %d spaces, %d Twist spaces" % (title, len(codes), codes.count("T")), ""]
    lines += _strip(codes)
    lines.append("")
    lines.append("Space Code  What a pawn there attempts")
    for i in range(len(codes)):
        c = codes[i]
        if c == "T":
            what = "Twist: phase %d (before) or phase %d (after), or a Twist card" % (ph[i - 1], ph[i + 1])
        else:
            what = "Phase %d: %s" % (ph[i], phase_text(ph[i]))
            if c == "1S":
                what += "  (1/Start: every pawn starts here)"
            elif c == "10R":
                what += "  (red: complete it to move past and win)"
        lines.append("%5d %-5s %s" % (i + 1, c, what))
    return "\n".join(lines)


def parser():
    top = hostio.Parser(prog="python -m host_sim board", description=__doc__.split("\n\n", 1)[1].rstrip())
    sub = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    ck = sub.add_parser("check", help="check a Twist board layout file and draw it",
                        description="Check a Twist board layout file (the device's /twist_layout.txt) "
                                    "and draw it; an invalid layout: the reason on stderr, exit 2.")
    ck.add_argument("file", metavar="FILE", help="the layout file (at most %d bytes, as on the device)" % board.MAX_FILE)
    sub.add_parser("show", help="draw the default board", description="Draw the default Twist board.")
    return top


def main(argv):
    p = parser()
    if argv[:1] == ["help"]:
        argv = ["--help"]
    try:
        a = p.parse_args(argv)
    except hostio.Done as d:
        return d.args[0]
    if a.command == "show":
        print(render(board.default_layout(), "Default board"))
        return 0
    if a.command != "check":
        try:
            p.error("give a command: check FILE or show")
        except hostio.Done as d:
            return d.args[0]
    path = a.file
    f = hostio.open_file(path, "board layout")
    if f is None:
        return 2
    # The device's own reader (New game reads /twist_layout.txt with it): its size limit,
    # its checks and its words, so a file passes here exactly when the device takes it.
    try:
        with f:
            codes = board.read_layout(f)
    except RuleError as e:
        print("%s: not a valid board layout: %s" % (path, e.args[0]), file=sys.stderr)
        return 2
    except OSError as e:
        print("%s: cannot read: %s" % (path, e.strerror or e), file=sys.stderr)
        return 2
    print(render(codes, "Board " + path))
    return 0
