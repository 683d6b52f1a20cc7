"""Score sheets (host_sim/sheets.py) as CSV and as a printable HTML page (host_sim export),
and the page every host report shares (host_sim stats uses it too).

The CSV has one row per player per hand (Phase 10, Masters, Twist) or per turn (Dice), with
the same columns for every kind of game, so a whole history is one table a spreadsheet can
filter and pivot; a column is empty where it means nothing for that game.

The page stands alone (its style inline, no script, nothing fetched) and is laid out like a
paper score pad: hands down, players across, each player's phase, points and running total,
the winner starred. It prints on A4: a six-player game of 55 hands (the longest Phase 10
game there is) fits one page; in a history each game starts a page of its own.
"""
import csv
import html

from host_sim.hostio import csv_safe

COLUMNS = ("game", "date", "kind", "variation", "hand", "dealer", "went_out", "player", "phase", "choice",
           "completed", "points", "move", "space", "score", "bonus", "total", "winner", "note")


# --- CSV --------------------------------------------------------------------------------------
def csv_rows(sheets):
    """Every sheet's rows as dicts keyed by COLUMNS (values text or numbers)."""
    for sh in sheets:
        base = {"game": "" if sh.running else (sh.n or ""), "date": sh.date, "kind": sh.kind}
        if sh.kind == "classic":
            base["variation"] = _variation(sh)
        names = sh.players
        win = set(sh.winners)
        if not sh.rows:
            note = "hands not kept by this firmware" if not sh.kept else "no hands played"
            for p in names:
                final = {"space" if sh.kind == "twist" else "total": _final(sh, p)}
                yield _row(base, player=p, winner=_yes(p in win), note=note, **final)
            continue
        for r in sh.rows:
            if sh.kind == "dice":
                p = names[r.player]
                yield _row(base, hand=r.number, player=p, phase=r.phase, completed=_yes(r.score is not None),
                           score="" if r.score is None else r.score,
                           bonus=sum(b for _, b in r.bonuses) if r.bonuses else "",
                           total=r.total, winner=_yes(p in win),
                           note="; ".join("%s %+d" % b for b in r.bonuses))
                continue
            common = dict(base, hand=r.number, dealer=names[r.dealer], went_out=names[r.out])
            if sh.kind == "twist":
                for p, c in enumerate(r.cells):
                    choice = ""
                    if c.card:
                        choice = "Twist card %d" % c.card
                    elif c.pick:
                        choice = c.pick
                    yield _row(common, player=names[p], phase=c.phase or "", choice=choice,
                               completed=_yes(c.completed), move=c.move, space=c.space,
                               winner=_yes(names[p] in win))
                continue
            if r.cells is None:
                for p in r.tied:
                    yield _row(common, player=names[p], winner=_yes(names[p] in win),
                               note="tie-break hand (no points): %s went out first" % names[r.out])
                continue
            for p, c in enumerate(r.cells):
                yield _row(common, player=names[p], phase=c.phase or "", completed=_yes(c.completed),
                           points=c.points, total=c.total, winner=_yes(names[p] in win))


def _variation(sh):
    t = sh.title
    return t[t.index("(") + 1:-1] if "(" in t else "standard"


def _final(sh, p):
    i = sh.players.index(p)
    return sh.totals[i] if i < len(sh.totals) else ""


def _yes(b):
    return "yes" if b else "no"


def _row(base, **kw):
    r = dict.fromkeys(COLUMNS, "")
    r.update(base)
    r.update(kw)
    return r


def write_csv(sheets, f):
    w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in csv_rows(sheets):
        w.writerow(csv_safe(r))


# --- HTML -------------------------------------------------------------------------------------
# Sized for A4 portrait with 8 mm margins (194 x 281 mm of page): 55 hands of 4.2 mm rows,
# the heading and the footer rows take about 45 mm.
CSS = """
@page { size: A4 portrait; margin: 8mm; }
* { box-sizing: border-box; }
html { background: #e9e6df; }
body { -webkit-print-color-adjust: exact; print-color-adjust: exact; margin: 0; font: 7.4pt/1.25 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1a1a1a; }
.sheet { background: #fffef8; width: 194mm; margin: 6mm auto; padding: 0; }
.sheet + .sheet { break-before: page; }
h1 { font-size: 12pt; margin: 0 0 1mm; letter-spacing: .02em; }
h1 .no, h2 .no { font-weight: normal; color: #666; }
h2 { font-size: 10pt; margin: 3mm 0 1mm; }
.meta { margin: 0 0 .6mm; color: #333; }
.result { margin: 0 0 1.6mm; font-weight: bold; }
.star { color: #b8860b; }
table.pad { border-collapse: collapse; width: 100%; table-layout: fixed; font-variant-numeric: tabular-nums; }
.pad th, .pad td { border: 0.2mm solid #9aa7b5; padding: 0 .6mm; height: 4.2mm; text-align: right;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.pad thead th { background: #dde6ef; text-align: center; font-weight: bold; }
.pad thead th.name { font-size: 8pt; border-bottom: 0; }
.pad thead th.win { background: #f6e7b0; }
.pad thead tr.sub th { font-weight: normal; font-size: 6.4pt; color: #444; }
.pad .hand { text-align: center; color: #555; }
.pad .dealer { text-align: left; color: #555; }
.pad td.first { border-left: 0.5mm solid #5a6b7d; }
.pad th.first { border-left: 0.5mm solid #5a6b7d; }
.pad tbody tr:nth-child(even) td { background: #f4f6f9; }
.pad td.tot { font-weight: bold; }
.pad td.ph { text-align: center; color: #777; }
.pad td.ph.ok { color: #14632b; font-weight: bold; }
.pad td.out { background: #e2f0dd !important; color: #14632b; font-weight: bold; text-align: center; }
.pad td.note { text-align: center; font-style: italic; color: #555; }
.pad tfoot th, .pad tfoot td { background: #eef1f5; font-weight: bold; border-top: 0.5mm solid #5a6b7d; text-align: center; }
.pad tfoot td.win { background: #f6e7b0; }
.pad tfoot th { text-align: right; }
.legend { margin: 1.2mm 0 0; color: #555; font-size: 6.6pt; }
.turns { display: flex; flex-wrap: wrap; gap: 2mm; margin-top: 2mm; align-items: flex-start; }
.turns table.pad { width: auto; table-layout: auto; }
.turns .pad td, .turns .pad th { padding: 0 1mm; }
table.index { margin-top: 2mm; }
table.vs { margin-top: 1.5mm; }
.pad.vs td { text-align: center; }
.pad.vs td.dealer { text-align: left; }
.pad.vs td.self { background: #eef1f5 !important; }
table.index td { text-align: left; }
@media print {
  html, .sheet { background: none; }
  .sheet { margin: 0; width: auto; }
}
"""


def e(s):
    return html.escape(str(s), quote=True)


def page(title, body):
    """A whole page: the heading's title, the body's HTML, the shared style inline."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n%s</body>\n</html>\n"
            % (e(title), CSS, body))


def html_page(sheets, what, source):
    """The page of a running game (what "game") or of a history's games ("history")."""
    if what == "game" or len(sheets) == 1:
        sh = sheets[0]
        title = "%s: %s" % (sh.title, sh.label())
        return page(title, _section(sh))
    parts = [_index(sheets, source)]
    for sh in sheets:
        parts.append(_section(sh))
    return page("Phase 10 history: %d games" % len(sheets), "".join(parts))


def _index(sheets, source):
    out = ['<section class="sheet">\n<h1>Phase 10 history <span class="no">%d games</span></h1>\n' % len(sheets)]
    out.append('<p class="meta">%s</p>\n' % e(source))
    out.append('<table class="pad index"><thead><tr><th style="width:10mm">Game</th><th style="width:44mm">Date</th>'
               '<th style="width:40mm">Kind</th><th>Players</th><th style="width:30mm">Winner</th>'
               '<th style="width:12mm">Hands</th></tr></thead><tbody>\n')
    for sh in sheets:
        won = ", ".join(sh.winners) if sh.winners else ("not finished" if not sh.done else "-")
        out.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td></tr>\n"
                   % (e(sh.n or ""), e(sh.date), e(sh.title), e(", ".join(sh.players)), e(won), sh.hands))
    out.append("</tbody></table>\n</section>\n")
    return "".join(out)


def _plural(k, word):
    return "%d %s%s" % (k, word, "" if k == 1 else "s")


def _head(sh):
    unit = "turn" if sh.kind == "dice" else "hand"
    h = ['<section class="sheet">\n<h1>%s <span class="no">%s</span></h1>\n' % (e(sh.title), e(sh.label()))]
    meta = [_plural(len(sh.players), "player"), _plural(sh.hands, unit)]
    if sh.kind in ("classic", "masters", "twist") and sh.kept:
        meta.append("first dealer %s" % sh.players[sh.first])
    if sh.kind == "twist":
        meta.append("board of %d spaces" % sh.board)
    if sh.kind == "dice" and len(sh.order) > 1:
        meta.append("turn order " + ", ".join(sh.players[p] for p in sh.order))
    if sh.date:
        meta.append(sh.date)
    h.append('<p class="meta">%s</p>\n' % e(" · ".join(meta)))
    if sh.notes:
        h.append('<p class="meta">Notes: %s</p>\n' % e("; ".join(sh.notes)))
    if sh.winners:
        verb = "won" if len(sh.winners) == 1 else "share the win"
        h.append('<p class="result"><span class="star">&#9733;</span> %s %s</p>\n' % (e(" and ".join(sh.winners)), verb))
    else:
        h.append('<p class="result">No result yet</p>\n')
    return "".join(h)


def _section(sh):
    out = [_head(sh)]
    if not sh.rows and not sh.book:
        out.append('<p class="meta">%s</p>\n' % ("No hands played." if sh.kept else "The hands of this game were not kept."))
    elif sh.kind == "dice":
        out.append(_dice(sh))
    elif sh.kind == "twist":
        out.append(_twist(sh))
    else:
        out.append(_cards(sh))
    out.append("</section>\n")
    return "".join(out)


def _names_row(sh, subs, widths, labels):
    win = set(sh.winners)
    cells = []
    for name in sh.players:
        star = '<span class="star">&#9733;</span> ' if name in win else ""
        cls = "name first" + (" win" if name in win else "")
        cells.append('<th class="%s" colspan="%d">%s%s</th>' % (cls, len(subs), star, e(name)))
    sub = []
    for _ in sh.players:
        for k, s in enumerate(subs):
            sub.append('<th%s>%s</th>' % (' class="first"' if k == 0 else "", s))
    cols = "".join('<col style="width:%s">' % w for w in widths)
    cols += "".join('<col>' for _ in range(len(sh.players) * len(subs)))
    return ('<table class="pad"><colgroup>%s</colgroup><thead>\n<tr>%s%s</tr>\n<tr class="sub">%s</tr>\n</thead>\n'
            % (cols, "".join('<th rowspan="2">%s</th>' % x for x in labels), "".join(cells), "".join(sub)))


def _cards(sh):
    names = sh.players
    masters = sh.kind == "masters"
    out = [_names_row(sh, ("Phase", "Points", "Total"), ("10mm", "16mm"), ("Hand", "Dealer"))]
    out.append("<tbody>\n")
    for r in sh.rows:
        row = ['<td class="hand">%d</td><td class="dealer">%s</td>' % (r.number, e(names[r.dealer]))]
        if r.cells is None:
            row.append('<td class="note first" colspan="%d">Tie-break hand between %s: %s went out first</td>'
                       % (3 * len(names), e(" and ".join(names[p] for p in r.tied)), e(names[r.out])))
        else:
            for p, c in enumerate(r.cells):
                if c.phase:
                    ph = "%d%s" % (c.phase, " &#10003;" if c.completed else "")
                else:
                    ph = "&#8211;"
                row.append('<td class="ph first%s">%s</td>' % (" ok" if c.completed else "", ph))
                if p == r.out:
                    row.append('<td class="out">out</td>')
                else:
                    row.append("<td>%d</td>" % c.points)
                row.append('<td class="tot">%d</td>' % c.total)
        out.append("<tr>%s</tr>\n" % "".join(row))
    out.append("</tbody>\n<tfoot>\n")
    win = set(sh.winners)
    out.append('<tr><th colspan="2">Phases</th>%s</tr>\n' % ("".join(
        '<td colspan="3" class="first%s">%s</td>' % (" win" if names[p] in win else "", sh.made[p] if p < len(sh.made) else "")
        for p in range(len(names)))))
    out.append('<tr><th colspan="2">Total</th>%s</tr>\n' % "".join(
        '<td colspan="3" class="first%s">%s%s</td>' % (" win" if names[p] in win else "",
                                                       '<span class="star">&#9733;</span> ' if names[p] in win else "",
                                                       sh.totals[p] if p < len(sh.totals) else "")
        for p in range(len(names))))
    out.append("</tfoot>\n</table>\n")
    legend = ("Phase: the phase attempted that hand (&#10003; completed; %s). out: went out (no points). "
              "Total: running total of points; the lowest total among those who finish wins. "
              "The deal passes to the left each hand."
              % ("&#8211; no phase named" if masters else "players attempt the phases in order"))
    out.append('<p class="legend">%s</p>\n' % legend)
    return "".join(out)


def _twist(sh):
    names = sh.players
    out = [_names_row(sh, ("Tried", "Move", "Space"), ("10mm", "16mm"), ("Hand", "Dealer"))]
    out.append("<tbody>\n")
    for r in sh.rows:
        row = ['<td class="hand">%d</td><td class="dealer">%s</td>' % (r.number, e(names[r.dealer]))]
        for p, c in enumerate(r.cells):
            if c.card:
                tried = "T%d" % c.card
            elif c.pick == "before":
                tried = "&#8249;%d" % c.phase
            elif c.pick == "after":
                tried = "%d&#8250;" % c.phase
            else:
                tried = "%d" % c.phase
            if c.completed:
                tried += " &#10003;"
            row.append('<td class="ph first%s">%s</td>' % (" ok" if c.completed else "", tried))
            mv = "%+d" % c.move
            row.append('<td class="out">%s</td>' % mv if p == r.out else "<td>%s</td>" % mv)
            sp = "done" if c.space > sh.board else str(c.space)
            row.append('<td class="tot">%s</td>' % sp)
        out.append("<tr>%s</tr>\n" % "".join(row))
    out.append("</tbody>\n<tfoot>\n")
    win = set(sh.winners)
    out.append('<tr><th colspan="2">Space</th>%s</tr>\n' % "".join(
        '<td colspan="3" class="first%s">%s%s</td>' % (
            " win" if names[p] in win else "", '<span class="star">&#9733;</span> ' if names[p] in win else "",
            ("past the red space" if sh.totals[p] > sh.board else sh.totals[p]) if p < len(sh.totals) else "")
        for p in range(len(names))))
    out.append("</tfoot>\n</table>\n")
    out.append('<p class="legend">Tried: the phase attempted from the space (&#8249;3 / 3&#8250;: the phase '
               'before / after the Twist space), T5: Twist card 5; &#10003; completed. Move: +3 went out, +2 '
               'completed, +1 not; with a Twist card +6 went out, +4 completed, -1 not. Space: where the pawn '
               'stands after the hand (of %d; the last is the red Phase 10 space).</p>\n' % sh.board)
    return "".join(out)


def _dice(sh):
    names = sh.players
    cols = sh.order
    win = set(sh.winners)
    out = ['<table class="pad"><colgroup><col style="width:46mm">%s</colgroup><thead><tr><th></th>%s</tr></thead><tbody>\n'
           % ("<col>" * len(cols), "".join(
               '<th class="name%s">%s%s</th>' % (" win" if names[p] in win else "",
                                                 '<span class="star">&#9733;</span> ' if names[p] in win else "",
                                                 e(names[p])) for p in cols))]
    for label, cells in sh.book[1:]:
        strong = label.isupper()
        tag = "th" if strong else "td"
        row = ['<%s class="dealer"%s>%s</%s>' % (tag, ' style="text-align:left"' if strong else "", e(label), tag)]
        for c in cells:
            row.append('<td%s>%s</td>' % (' class="tot"' if strong else "", "" if c is None else c))
        out.append("<tr>%s</tr>\n" % "".join(row))
    out.append("</tbody></table>\n")
    # the turns, in columns of up to 40
    out.append('<div class="turns">\n')
    rows = sh.rows
    for k in range(0, len(rows), 40):
        out.append('<table class="pad"><thead><tr><th>Turn</th><th>Player</th><th>Phase</th><th>Score</th>'
                   '<th>Bonus</th><th>Total</th></tr></thead><tbody>\n')
        for t in rows[k:k + 40]:
            bonus = " ".join("%+d" % b for _, b in t.bonuses)
            score = '<td class="ph">&#8211;</td>' if t.score is None else '<td>%d</td>' % t.score
            out.append('<tr><td class="hand">%d</td><td class="dealer">%s</td><td class="hand">%d</td>%s<td>%s</td><td class="tot">%d</td></tr>\n'
                       % (t.number, e(names[t.player]), t.phase, score, bonus, t.total))
        out.append("</tbody></table>\n")
    out.append("</div>\n")
    out.append('<p class="legend">The score sheet of the book, players in turn order; then every turn: the phase '
               'tried, its score (&#8211;: not made), bonuses earned (Five Phase Bonus +40 for over 220 in '
               'phases 1-5, First Finish Bonus +40%s) and the player\'s grand total after it.</p>\n'
               % (", failed turn -5 in solitaire" if len(names) == 1 else ""))
    return "".join(out)
