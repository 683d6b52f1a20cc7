"""A saved game as the PC shows it: standings and score sheet, as text and as plain data
(host_sim show, and the exports). The plain data (summary, card_sheet) is the engine's
(engine_mpy/standings.py), shared with the table on phones; the text is laid out here.

The JSON shape of each game kind (`show --json`), every one with "game", "over" (true once
the game has a result) and "winners" (names; empty while the game runs):
- classic, masters: {"game", "hands", "over", "winners", "tiebreak": [names of a pending
  tie-break hand], "dealer", "dealer_next", "first_next": who deals the next hand (a
  tie-break hand too) and who plays first in it, null once the game has a result,
  "players": [{"name", "phase" (the phase
  attempted next, null when done; Masters: the lowest not yet completed), "phases_done",
  "total"}]}
- twist: {"game", "hands", "over", "winners", "dealer", "players": [{"name", "space"
  (1-based; the board's length + 1 once past the red space), "next" ("Phase 3", "Twist card
  2", "Twist", "Finished"), "text"}]}
- dice: {"game", "turns", "over", "winners", "next" (whose turn, null when over), "players":
  [{"name", "phase" (attempted next, 11 when all ten are made), "scores" (ten, null where
  not made), "five_phase_bonus", "first_finish_bonus", "failed_turns", "total"}]} (seats in
  the order the players were entered; "order" gives the turn order as seats)
"""
from engine_mpy.standings import card_sheet, summary  # noqa: F401 (the plain data)


def _count(n, word):
    """"1 hand", "2 hands"."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


# --- Phase 10 and Masters -------------------------------------------------------------------

def _card_text(game):
    names = game.settings["players"]
    out = []
    title = game.KIND.capitalize()
    v = game.settings.get("variation")
    if v and v != "standard":
        title += " (" + v.replace("_", " ") + (" %d" % game.settings["phases"] if v == "first_n" else "") + ")"
    out.append("%s, %d players, %s played" % (title, len(names), _count(game.state.hands, "hand")))
    out.append("")
    out.append("%-4s %-12s %5s %6s %6s %4s" % ("Rank", "Player", "Phase", "Done", "Total", "Won"))
    players = game.players()
    for p, _ in game.ranking():
        r = players[p]
        ph = str(r["phase"]) if r["phase"] else "-"
        out.append("%-4d %-12s %5s %6d %6d %4d" % (r["rank"], r["name"], ph, r["phases_done"], r["total"], r["won"]))
    st = game.state
    out.append("")
    if st.tiebreak:
        out.append("Tie-break hand due between %s." % " and ".join(names[p] for p in st.tiebreak))
    if game.over:
        out.append("Game over: %s won." % " and ".join(names[p] for p in st.winners))
    else:
        out.append("Next hand: %s deals, %s plays first." % (names[game.dealer()], names[game.first_player()]))
    sheet = card_sheet(game)
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


# --- Twist ------------------------------------------------------------------------------------
def _twist_text(game):
    names = game.settings["players"]
    st = game.state
    lines = ["Twist, %d players, %s played, board of %d spaces" % (st.n, _count(st.hands, "hand"), game.red + 1), ""]
    for p, sp, label, text in game.standings():
        lines.append("%-12s space %2d  %s: %s" % (names[p], sp, label, text))
    lines.append("")
    if st.over:
        lines.append("Game over: %s won." % " and ".join([names[w] for w in st.winners]))
    else:
        lines.append("Next hand: %s deals, %s plays first." % (names[game.dealer()], names[game.first_player()]))
    return "\n".join(lines)


# --- Dice -------------------------------------------------------------------------------------
def _dice_text(game):
    names = game.settings["players"]
    st = game.state
    who = "solitaire" if game.solitaire() else "%d players" % len(names)
    lines = ["Phase 10 Dice, %s, %s played" % (who, _count(st.turns, "turn")), ""]
    rows = game.sheet()
    w = max(len(r[0]) for r in rows)
    for label, cells in rows:
        lines.append("%-*s %s" % (w, label, "".join("%12s" % ("" if c is None else str(c)[:12]) for c in cells)))
    lines.append("")
    if st.over:
        won = [names[p] for p in game.winners()]
        lines.append("Game over: %s %s." % (" and ".join(won), "won" if len(won) == 1 else "share the win"))
    else:
        p = st.player()
        lines.append("Next turn: %s, phase %d." % (names[p], st.phase[p]))
    return "\n".join(lines)


def text(game):
    """Standings and score sheet as text."""
    if game.KIND == "twist":
        return _twist_text(game)
    if game.KIND == "dice":
        return _dice_text(game)
    return _card_text(game)
