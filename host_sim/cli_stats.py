"""python -m host_sim stats SOURCE... [--csv OUT] [--html OUT]

The league: each player's figures over the finished games of any number of sources, each a
folder copied off a board by `python -m host_sim pull`, the zip of the browser's Download
files (or the folder unpacked from it), or one history file. Each game is counted once, by
its id, however many sources hold it (two pulls of one board, a board's pull and a
browser's download); a game of earlier firmware, with no id, is matched by its content.
Players are matched by name, case and spacing ignored. A kind of game at a time (Phase 10,
Masters, Twist, Dice), the players ranked by wins, then win share:

  games, wins, win %   finished games played and won (a shared win counts for each
                       winner; games abandoned on the device are not counted)
  hands                hands played (Dice: the player's turns), a tie-break hand not counted
  points/hand          Phase 10 and Masters: penalty points a hand, as the device's Players
                       screen counts them; Dice: points scored a turn; Twist: none kept
  phases/hand          phases (Twist: phases and Twist cards) completed a hand (Dice: made a turn)
  stuck on             the phase most hands were spent on without completing it (Phase 10,
                       Twist, Dice; Masters keeps only the phase completed), with that many
  best, worst          the player's best and worst game: Phase 10 and Masters the fewest and
                       most points, Twist the furthest and nearest space, Dice the highest
                       and lowest grand total
  head to head         for each pair who played together: the games each finished ahead of
                       the other (a winner ahead; then the standing: Phase 10 and Masters
                       more phases, then fewer points; Twist the further space; Dice the
                       higher total), and those they finished level

Printed as tables (default), or written as CSV (--csv OUT: a row a player of a kind, then a
row a player and opponent) and/or a page (--html OUT); OUT "-" is the standard output. A
source with no finished game, or one that cannot be read: the reason on stderr, exit 2.
Each line or file that could not be read (damaged, cut short, set aside by the device) is
named on stderr, one line each, and the games that could be read are counted (exit 0; 2
when none could be); so is a game counted from a finish under way (finish.json) and a game
two sources hold with other contents (the later finish is counted).
"""
import io
import sys

from host_sim import hostio, sheet_out, sheets, sources

KINDS = ("classic", "masters", "twist", "dice")
NAMES = {"classic": "Phase 10", "masters": "Phase 10 Masters", "twist": "Phase 10 Twist", "dice": "Phase 10 Dice"}
COLUMNS = ("kind", "player", "opponent", "games", "wins", "win_pct", "hands", "avg_points_per_hand",
           "phases_per_hand", "stuck_phase", "stuck_hands", "best_game", "worst_game", "ahead", "behind", "level")
LOW_WINS = ("classic", "masters")      # kinds whose best game has the fewest points


def same(name):
    """A player's name as the league matches it: case and spacing ignored."""
    return " ".join(name.split()).casefold()


class Player:
    """One player's figures over the games of one kind."""

    def __init__(self, name):
        self.name = name        # as first met
        self.games = 0
        self.wins = 0
        self.hands = 0
        self.points = 0         # Phase 10 and Masters: penalty points; Dice: points scored
        self.made = 0           # phases completed (Dice: made)
        self.failed = {}        # phase -> hands spent on it without completing it
        self.results = []       # each game's figure: points (cards), space (Twist), grand total (Dice)
        self.vs = {}            # opponent's key -> [games, wins, ahead, behind, level]

    def stuck(self):
        """(phase, hands) of the phase failed most often (the lowest of equals), or None."""
        if not self.failed:
            return None
        most = max(self.failed.values())
        return min(ph for ph, k in self.failed.items() if k == most), most


class Kind:
    """The league of one kind of game: its players (by key) and its finished games."""

    def __init__(self, kind):
        self.kind = kind
        self.games = 0
        self.players = {}

    def player(self, key, name):
        p = self.players.get(key)
        if p is None:
            p = self.players[key] = Player(name)
        return p

    def ranked(self):
        return sorted(self.players.values(), key=lambda q: (-q.wins, -(q.wins / q.games), same(q.name)))


def _standing(sh, p):
    """How far player p finished in sheet sh, for the head to head (greater is ahead)."""
    won = sh.players[p] in sh.winners
    total = sh.totals[p] if p < len(sh.totals) else 0
    if sh.kind in LOW_WINS:
        return (won, sh.made[p] if p < len(sh.made) else 0, -total)
    return (won, total)


def tally(games):
    """({kind: Kind} of the finished games among the Sheets games, games counted, games left
    out (not finished))."""
    kinds = {}
    counted = skipped = 0
    for sh in games:
        if not sh.done:
            skipped += 1
            continue
        counted += 1
        k = kinds.get(sh.kind)
        if k is None:
            k = kinds[sh.kind] = Kind(sh.kind)
        k.games += 1
        keys = [same(n) for n in sh.players]
        for p, name in enumerate(sh.players):
            pl = k.player(keys[p], name)
            pl.games += 1
            if name in sh.winners:
                pl.wins += 1
            if p < len(sh.totals):
                pl.results.append(sh.totals[p])
            _hands(sh, p, pl)
            for q in range(len(sh.players)):
                if q == p or keys[q] == keys[p]:
                    continue
                rec = pl.vs.setdefault(keys[q], [0, 0, 0, 0, 0])
                rec[0] += 1
                rec[1] += name in sh.winners
                a, b = _standing(sh, p), _standing(sh, q)
                rec[2 if a > b else 3 if a < b else 4] += 1
    return kinds, counted, skipped


def _hands(sh, p, pl):
    """Player p's hands (Dice: turns) of sheet sh counted into pl."""
    for r in sh.rows:
        if sh.kind == "dice":
            if r.player != p:
                continue
            pl.hands += 1
            if r.score is None:
                pl.failed[r.phase] = pl.failed.get(r.phase, 0) + 1
            else:
                pl.points += r.score
                pl.made += 1
            continue
        if r.cells is None:       # the tie-break hand: no points, no phase
            continue
        c = r.cells[p]
        pl.hands += 1
        pl.made += bool(c.completed)
        if sh.kind in LOW_WINS:
            pl.points += c.points
        if sh.kind != "masters" and c.phase and not c.completed:
            pl.failed[c.phase] = pl.failed.get(c.phase, 0) + 1


def _share(num, den, places):
    """num / den written with places decimals (rounded half up), "-" when den is 0."""
    if not den:
        return "-"
    scale = 10 ** places
    t = (num * scale * 2 + den) // (den * 2)
    return "%d.%0*d" % (t // scale, places, t % scale)


def rows(kinds):
    """The CSV's rows: for each kind, a row a player (ranked), then a row for each player
    and each opponent they played with."""
    for kind in KINDS:
        k = kinds.get(kind)
        if k is None:
            continue
        order = k.ranked()
        for q in order:
            st = q.stuck()
            best = (min if kind in LOW_WINS else max)(q.results) if q.results else ""
            worst = (max if kind in LOW_WINS else min)(q.results) if q.results else ""
            yield {"kind": kind, "player": q.name, "opponent": "", "games": q.games, "wins": q.wins,
                   "win_pct": _share(q.wins * 100, q.games, 1), "hands": q.hands,
                   "avg_points_per_hand": _share(q.points, q.hands, 1) if q.hands and kind != "twist" else "",
                   "phases_per_hand": _share(q.made, q.hands, 2) if q.hands else "",
                   "stuck_phase": st[0] if st else "", "stuck_hands": st[1] if st else "",
                   "best_game": best, "worst_game": worst, "ahead": "", "behind": "", "level": ""}
        for q in order:
            for o in order:
                rec = q.vs.get(same(o.name))
                if rec is None:
                    continue
                yield {"kind": kind, "player": q.name, "opponent": o.name, "games": rec[0], "wins": rec[1],
                       "win_pct": _share(rec[1] * 100, rec[0], 1), "hands": "", "avg_points_per_hand": "",
                       "phases_per_hand": "", "stuck_phase": "", "stuck_hands": "", "best_game": "",
                       "worst_game": "", "ahead": rec[2], "behind": rec[3], "level": rec[4]}


def _stuck(r):
    if r["stuck_phase"] == "":
        return "-"
    return "phase %s (%s hand%s)" % (r["stuck_phase"], r["stuck_hands"], "" if r["stuck_hands"] == 1 else "s")


def _heading(counted, skipped, source):
    head = "League: %d finished game%s from %s" % (counted, "" if counted == 1 else "s", source)
    if skipped:
        head += " (%d not finished, not counted)" % skipped
    return head


def text(kinds, counted, skipped, source):
    out = [_heading(counted, skipped, source)]
    table = list(rows(kinds))
    for kind in KINDS:
        if kind not in kinds:
            continue
        n = kinds[kind].games
        out += ["", "%s: %d game%s" % (NAMES[kind], n, "" if n == 1 else "s"),
                "%-12s %5s %5s %6s %5s %6s %6s  %-19s %5s %5s" % ("Player", "Games", "Wins", "Win %", "Hands",
                                                                 "Pts/h", "Phs/h", "Stuck on", "Best", "Worst")]
        mine = [r for r in table if r["kind"] == kind]
        order = []
        for r in mine:
            if r["opponent"]:
                continue
            order.append(same(r["player"]))
            out.append("%-12s %5d %5d %6s %5d %6s %6s  %-19s %5s %5s" % (
                r["player"], r["games"], r["wins"], r["win_pct"], r["hands"], r["avg_points_per_hand"] or "-",
                r["phases_per_hand"] or "-", _stuck(r), r["best_game"], r["worst_game"]))
        # each pair once, the one ranked higher first
        pairs = [r for r in mine if r["opponent"] and order.index(same(r["player"])) < order.index(same(r["opponent"]))]
        if pairs:
            out.append("Head to head, games ahead-behind-level:")
            for r in pairs:
                out.append("  %s v %s: %d-%d-%d in %d game%s" % (r["player"], r["opponent"], r["ahead"], r["behind"],
                                                                 r["level"], r["games"], "" if r["games"] == 1 else "s"))
    return "\n".join(out) + "\n"


def write_csv(kinds, f):
    import csv
    w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows(kinds):
        w.writerow(hostio.csv_safe(r))


def html(kinds, counted, skipped, source, dates):
    e = sheet_out.e
    meta = ["%d finished game%s" % (counted, "" if counted == 1 else "s")]
    if skipped:
        meta.append("%d not finished, not counted" % skipped)
    meta.append(source)
    if dates:
        meta.append("copied off the board " + ", ".join(dates))
    body = ['<section class="sheet">\n<h1>Phase 10 league</h1>\n<p class="meta">%s</p>\n' % e(" · ".join(meta))]
    table = list(rows(kinds))
    for kind in KINDS:
        if kind not in kinds:
            continue
        mine = [r for r in table if r["kind"] == kind and not r["opponent"]]
        n = kinds[kind].games
        body.append('<h2>%s <span class="no">%d game%s</span></h2>\n' % (e(NAMES[kind]), n, "" if n == 1 else "s"))
        body.append('<table class="pad league"><colgroup>%s</colgroup><thead><tr><th>Player</th>'
                    '<th>Games</th><th>Wins</th><th>Win %%</th><th>Hands</th><th>Points / hand</th>'
                    '<th>Phases / hand</th><th>Stuck on</th><th>Best</th><th>Worst</th></tr></thead><tbody>\n'
                    % "".join('<col style="width:%dmm">' % w for w in (26, 13, 12, 14, 13, 21, 22, 35, 13, 13)))
        for i, r in enumerate(mine):
            star = '<span class="star">&#9733;</span> ' if i == 0 and r["wins"] else ""
            body.append('<tr><td class="dealer">%s%s</td><td>%d</td><td>%d</td><td>%s</td><td>%d</td><td>%s</td>'
                        '<td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n'
                        % (star, e(r["player"]), r["games"], r["wins"], r["win_pct"], r["hands"],
                           r["avg_points_per_hand"] or "-", r["phases_per_hand"] or "-", e(_stuck(r)),
                           r["best_game"], r["worst_game"]))
        body.append("</tbody></table>\n")
        names = [r["player"] for r in mine]
        vs = {(r["player"], r["opponent"]): r for r in table if r["kind"] == kind and r["opponent"]}
        if vs:
            body.append('<table class="pad vs"><colgroup><col style="width:30mm"></colgroup><thead><tr>'
                        '<th>Head to head</th>%s</tr></thead><tbody>\n' % "".join("<th>%s</th>" % e(x) for x in names))
            for a in names:
                cells = []
                for b in names:
                    r = vs.get((a, b))
                    if a == b:
                        cells.append('<td class="self"></td>')
                    elif r is None:
                        cells.append("<td></td>")
                    else:
                        cells.append('<td title="%d games">%d&ndash;%d%s</td>' % (
                            r["games"], r["ahead"], r["behind"], " (%d level)" % r["level"] if r["level"] else ""))
                body.append('<tr><td class="dealer">%s</td>%s</tr>\n' % (e(a), "".join(cells)))
            body.append("</tbody></table>\n")
    body.append('<p class="legend">Each game once, however many sources hold it. Points / hand: penalty points '
                'a hand in Phase 10 and Masters, points scored a turn in Dice. Phases / hand: phases completed '
                '(Twist: and Twist cards; Dice: made a turn). Stuck on: the phase most hands were spent on without '
                'completing it. Best and worst: the fewest and most points (Phase 10, Masters), the furthest and '
                'nearest space (Twist), the highest and lowest grand total (Dice). Head to head: the games the '
                'player in the row finished ahead of the one in the column, and behind.</p>\n</section>\n')
    return sheet_out.page("Phase 10 league", "".join(body))


def parser():
    p = hostio.Parser(prog="python -m host_sim stats", description=__doc__.split("\n\n", 1)[1].strip())
    p.add_argument("sources", nargs="+", metavar="SOURCE",
                   help="a pulled folder, the browser's Download zip (or its folder), or a history file")
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
    said, notes = [], []
    try:
        games, found = sources.league(a.sources, said, notes)
    except sheets.SheetError as e:
        if e.args[0]:
            print(e.args[0], file=sys.stderr)
        return 2
    got = sheets.sheets_of(games, said)
    said += sources.set_aside(found)
    label = ", ".join(a.sources)
    if sheets.tell("stats", said, notes, got, label):
        return 2
    why = sources.over_input(found, ((a.csv, "--csv"), (a.html, "--html")))
    if why:
        print("stats: %s" % why, file=sys.stderr)
        return 2
    kinds, counted, skipped = tally(got)
    outs = []
    if a.csv:
        buf = io.StringIO()
        write_csv(kinds, buf)
        outs.append((a.csv, buf.getvalue()))
    if a.html:
        dates = sorted(set(src.date for src in found if src.date))
        outs.append((a.html, html(kinds, counted, skipped, label, dates)))
    if not outs:
        sys.stdout.write(text(kinds, counted, skipped, label))
    return hostio.write_outs("stats", outs)
