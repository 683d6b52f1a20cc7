"""python -m host_sim stats DIR [--csv OUT] [--html OUT]

Each player's figures over the finished games of the history in DIR (a folder copied off
the board by `python -m host_sim pull`: history.json and its archives history.K.json; a
single history file works too). Players are matched by name, as the device's roster does.

  games      finished games played (games abandoned on the device are not counted)
  wins       games won (a shared win counts for each winner)
  win %      wins / games
  avg/hand   penalty points per hand in Phase 10 and Masters (the tie-break hand not
             counted), as the device's Players screen counts them
  stuck on   the phase the player spent most hands on without completing it (Phase 10 and
             Twist; Masters records only the phase completed), with that many hands
  best dice  the best grand total in Phase 10 Dice

Printed as a table (default), or written as CSV (--csv OUT) and/or a page (--html OUT);
OUT "-" is the standard output. A folder with no history: the reason on stderr, exit 2.
Each line or file of the history that could not be read (damaged, cut short, set aside by
the device) is named on stderr, one line each, and the games that could be read are counted
(exit 0; 2 when none could be).
"""
import io
import os
import sys

from host_sim import hostio, sheet_out, sheets

COLUMNS = ("player", "games", "wins", "win_pct", "card_hands", "avg_points_per_hand",
           "stuck_phase", "stuck_hands", "best_dice")


class Player:
    def __init__(self, name):
        self.name = name
        self.games = 0
        self.wins = 0
        self.points = 0       # Phase 10 and Masters
        self.hands = 0
        self.failed = {}      # phase -> hands attempted without completing it
        self.best_dice = None

    def win_pct(self):
        return _tenths(self.wins * 100, self.games)

    def average(self):
        # the device's own figure (the Players screen), so both read the same
        from firmware.files.roster import average
        return average([self.name, self.games, self.wins, self.points, self.hands])

    def stuck(self):
        """(phase, hands) of the phase failed most often (the lowest of equals), or None."""
        if not self.failed:
            return None
        most = max(self.failed.values())
        return min(ph for ph, k in self.failed.items() if k == most), most


def _tenths(num, den):
    if not den:
        return "-"
    t = (num * 10 + den // 2) // den
    return "%d.%d" % (t // 10, t % 10)


def tally(games):
    """(players best first, finished games counted, games left out) over the Sheets."""
    players = {}
    counted = skipped = 0
    for sh in games:
        if not sh.done:
            skipped += 1
            continue
        counted += 1
        for p, name in enumerate(sh.players):
            pl = players.get(name)
            if pl is None:
                pl = players[name] = Player(name)
            pl.games += 1
            if name in sh.winners:
                pl.wins += 1
            if sh.kind == "dice":
                if p < len(sh.totals) and (pl.best_dice is None or sh.totals[p] > pl.best_dice):
                    pl.best_dice = sh.totals[p]
                continue
            for r in sh.rows:
                if r.cells is None:       # the tie-break hand: no points, no phase
                    continue
                c = r.cells[p]
                if sh.kind in ("classic", "masters"):
                    pl.points += c.points
                    pl.hands += 1
                if sh.kind in ("classic", "twist") and c.phase and not c.completed:
                    pl.failed[c.phase] = pl.failed.get(c.phase, 0) + 1
    order = sorted(players.values(), key=lambda q: (-q.wins, -(q.wins / q.games), q.name))
    return order, counted, skipped


def rows(order):
    for q in order:
        st = q.stuck()
        yield {"player": q.name, "games": q.games, "wins": q.wins, "win_pct": q.win_pct(),
               "card_hands": q.hands, "avg_points_per_hand": q.average() if q.hands else "",
               "stuck_phase": st[0] if st else "", "stuck_hands": st[1] if st else "",
               "best_dice": "" if q.best_dice is None else q.best_dice}


def text(order, counted, skipped, source):
    head = "Players over %d finished game%s in %s" % (counted, "" if counted == 1 else "s", source)
    if skipped:
        head += " (%d not finished, not counted)" % skipped
    out = [head, ""]
    out.append("%-12s %5s %5s %6s %9s  %-22s %9s" % ("Player", "Games", "Wins", "Win %", "Avg/hand", "Stuck on", "Best dice"))
    for r in rows(order):
        stuck = _stuck(r)
        out.append("%-12s %5d %5d %6s %9s  %-22s %9s" % (r["player"], r["games"], r["wins"], r["win_pct"],
                                                      r["avg_points_per_hand"] or "-", stuck, "-" if r["best_dice"] == "" else r["best_dice"]))
    return "\n".join(out) + "\n"


def _stuck(r):
    if not r["stuck_phase"]:
        return "-"
    return "phase %s (%s hand%s)" % (r["stuck_phase"], r["stuck_hands"], "" if r["stuck_hands"] == 1 else "s")


def write_csv(order, f):
    import csv
    w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows(order):
        w.writerow(r)


def html(order, counted, skipped, source, date):
    e = sheet_out.e
    meta = ["%d finished game%s" % (counted, "" if counted == 1 else "s")]
    if skipped:
        meta.append("%d not finished, not counted" % skipped)
    meta.append(source)
    if date:
        meta.append("copied off the board " + date)
    body = ['<section class="sheet">\n<h1>Phase 10 players</h1>\n<p class="meta">%s</p>\n' % e(" · ".join(meta))]
    body.append('<table class="pad"><colgroup><col style="width:34mm"></colgroup><thead><tr><th>Player</th><th>Games</th>'
                '<th>Wins</th><th>Win %</th><th>Avg / hand</th><th>Stuck on</th><th>Best Dice</th></tr></thead><tbody>\n')
    for i, r in enumerate(rows(order)):
        star = '<span class="star">&#9733;</span> ' if i == 0 and r["wins"] else ""
        stuck = _stuck(r)
        body.append('<tr><td class="dealer">%s%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n'
                    % (star, e(r["player"]), r["games"], r["wins"], r["win_pct"], r["avg_points_per_hand"] or "-", e(stuck),
                       r["best_dice"] if r["best_dice"] != "" else "-"))
    body.append('</tbody></table>\n<p class="legend">Avg / hand: penalty points per hand in Phase 10 and '
                'Masters. Stuck on: the phase most hands were spent on without completing it (Phase 10 and Twist). '
                'Best Dice: the best grand total in Phase 10 Dice.</p>\n</section>\n')
    return sheet_out.page("Phase 10 players", "".join(body))


def parser():
    p = hostio.Parser(prog="python -m host_sim stats", description=__doc__.split("\n\n", 1)[1].strip())
    p.add_argument("dir", metavar="DIR", help="a pulled folder holding history.json (or a history file)")
    p.add_argument("--csv", metavar="OUT", help="write the figures as CSV to OUT (- for the standard output)")
    p.add_argument("--html", metavar="OUT", help="write the figures as a page to OUT (- for the standard output)")
    return p


def main(argv):
    p = parser()
    try:
        a = p.parse_args(argv)
        if a.csv == "-" and a.html == "-":
            p.error("only one of --csv and --html can go to the standard output")
    except hostio.Done as d:
        return d.args[0]
    for path, opt in ((a.csv, "--csv"), (a.html, "--html")):
        msg = path and hostio.out_problem(path, opt)
        if msg:
            print("stats: %s" % msg, file=sys.stderr)
            return 2
    path = a.dir
    said = []
    try:
        if os.path.isdir(path):
            games, date = sheets.load_history(path, said)
        elif os.path.exists(path):
            games = sheets.read_history([path], said)
            date = sheets.pull_date(os.path.dirname(os.path.abspath(path)))
        else:
            raise sheets.SheetError("%s: no such folder" % path)
    except sheets.SheetError as e:
        print(e.args[0], file=sys.stderr)
        return 2
    if sheets.tell("stats", said, games, path):
        return 2
    order, counted, skipped = tally(games)
    outs = []
    if a.csv:
        buf = io.StringIO()
        write_csv(order, buf)
        outs.append((a.csv, buf.getvalue()))
    if a.html:
        outs.append((a.html, html(order, counted, skipped, path, date)))
    if not outs:
        sys.stdout.write(text(order, counted, skipped, path))
    return hostio.write_outs("stats", outs)
