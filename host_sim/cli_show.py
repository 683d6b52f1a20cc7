"""python -m host_sim show FILE [--json]

Read a saved game (for example /game.json copied off the board with
`mpremote cp :game.json .`) and print the standings and the score sheet, or with --json
{"game", "hands", "players": [{"name", "phase", "phases_done", "total"}], "winners", "tiebreak"}.
A file that cannot be loaded: the reason on stderr, exit 2.
"""
import json
import sys

from host_sim import hostio

from engine_mpy import savefile


def _card_text(game):
    names = game.settings["players"]
    out = []
    title = game.KIND.capitalize()
    v = game.settings.get("variation")
    if v and v != "standard":
        title += " (" + v.replace("_", " ") + (" %d" % game.settings["phases"] if v == "first_n" else "") + ")"
    out.append("%s, %d players, %d hands played" % (title, len(names), game.state.hands))
    out.append("")
    out.append("%-4s %-12s %5s %6s %6s %4s" % ("Rank", "Player", "Phase", "Done", "Total", "Won"))
    players = game.players()
    for p, _ in game.ranking():
        r = players[p]
        ph = str(r["phase"]) if r["phase"] else "-"
        out.append("%-4d %-12s %5s %6d %6d %4d" % (r["rank"], r["name"], ph, r["phases_done"], r["total"], r["won"]))
    st = game.state
    if st.tiebreak:
        out.append("")
        out.append("Tie-break hand due between %s." % " and ".join(names[p] for p in st.tiebreak))
    elif st.over:
        out.append("")
        out.append("Game over: %s won." % " and ".join(names[p] for p in st.winners))
    else:
        out.append("")
        out.append("Next hand: %s deals, %s plays first." % (names[game.dealer()], names[game.first_player()]))
    sheet = game.sheet()
    if sheet:
        out.append("")
        out.append("Score sheet (points/running total; * completed, > went out)")
        out.append("Hand " + "".join("%13s" % n[:12] for n in names))
        for num, dealer, o, cells in sheet:
            row = "%4d " % num
            for p in range(len(cells)):
                pts, ok, ph, tot = cells[p]
                mark = ">" if p == o else ("*" if ok else " ")
                row += "%13s" % ("%s%d/%d p%d" % (mark, pts, tot, ph) if ph else "%s%d/%d" % (mark, pts, tot))
            out.append(row)
    return "\n".join(out)


def render_text(game):
    """Standings and score sheet as text. Games other than the card games bring their own."""
    if hasattr(game, "describe"):
        return game.describe()
    return _card_text(game)


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
    text = hostio.read_text(path, hostio.SAVE_LIMIT, "saved game")
    if text is None:
        return 2
    try:
        game = savefile.loads(text)
    except savefile.SaveError as e:
        print("%s: not a valid saved game: %s" % (path, e.args[0]), file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(game.summary()))
    else:
        print(render_text(game))
    return 0
