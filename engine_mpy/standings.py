# The standings and the whole score sheet of a running game, as plain data read off the
# engine's state: the PC's `show --json` (host_sim/report.py) and the table on phones
# (firmware/phones/server.py, which sends it as JSON to the page) both take it from here, so no
# figure is worked out twice (the page only lays these out).
#
# summary(game), every kind with "game", "over" (true once the game has a result) and
# "winners" (names; empty while the game runs):
# - classic, masters: {"game", "hands", "over", "winners", "tiebreak": [names of a pending
#   tie-break hand], "dealer", "dealer_next", "first_next": who deals the next hand (a
#   tie-break hand too) and who plays first, null once the game has a result,
#   "players": [{"name", "phase" (the phase
#   attempted next, null when done; Masters: the lowest not yet completed), "phases_done",
#   "total"}]}
# - twist: {"game", "hands", "over", "winners", "dealer", "players": [{"name", "space"
#   (1-based; the board's length + 1 once past the red space), "next" ("Phase 3", "Twist card
#   2", "Twist", "Finished"), "text"}]}
# - dice: {"game", "turns", "over", "winners", "next" (whose turn, null when over), "players":
#   [{"name", "phase" (attempted next, 11 when all ten are made), "scores" (ten, null where
#   not made), "five_phase_bonus", "first_finish_bonus", "failed_turns", "total"}]} (seats in
#   the order the players were entered; "order" gives the turn order as seats)
# page(game) adds what the table's page shows besides: each player's phase in words, the
# score sheet of every hand (every turn's book for Dice) and the Twist board with its pawns.

TITLES = {"classic": "Phase 10", "masters": "Phase 10 Masters Edition",
          "twist": "Phase 10 Twist", "dice": "Phase 10 Dice"}


def card_sheet(game):
    """Per hand (hand number, dealer, who went out, [(points, completed, phase attempted,
    running total) per player])."""
    out = []
    rows = game.state.rows
    for h in range(len(rows)):
        o, pts, ok, phs, tot = rows[h]
        out.append((h + 1, game.dealer(h), o, [(pts[p], ok[p], phs[p], tot[p]) for p in range(len(pts))]))
    return out


def _card_summary(game, rows=None):
    # rows: game.players(), when the caller has them already (the figures of every player
    # at once: the costliest part of a page on the device)
    if rows is None:
        rows = game.players()
    names = game.settings["players"]
    st = game.state
    return {
        "game": game.KIND,
        "hands": st.hands,
        "over": game.over,
        "winners": [names[p] for p in st.winners] if game.over else [],
        "tiebreak": [names[p] for p in st.tiebreak],
        # the tie-break hand is dealt like any other (the deal passes left): only a game
        # with its result has no next hand
        "dealer": None if game.over else names[game.dealer()],
        "dealer_next": None if game.over else names[game.dealer()],
        "first_next": None if game.over else names[game.first_player()],
        "players": [
            {"name": r["name"], "phase": r["phase"], "phases_done": r["phases_done"], "total": r["total"]}
            for r in rows
        ],
    }


def _twist_summary(game):
    names = game.settings["players"]
    st = game.state
    players = []
    for p in range(st.n):
        label, text = game.attempt_text(p)
        players.append({"name": names[p], "space": game.space(p), "next": label, "text": text})
    return {
        "game": game.KIND,
        "hands": st.hands,
        "over": st.over,
        "winners": [names[w] for w in st.winners],
        "dealer": None if st.over else names[game.dealer()],
        "players": players,
    }


def _dice_summary(game):
    from engine_mpy.dice import FIRST_FINISH_BONUS, SOLITAIRE_FAIL
    names = game.settings["players"]
    st = game.state
    players = []
    for p in range(len(names)):
        players.append({
            "name": names[p],
            "phase": st.phase[p],
            "scores": [s if s >= 0 else None for s in st.scores[p]],
            "five_phase_bonus": game.five_bonus(p),
            "first_finish_bonus": FIRST_FINISH_BONUS if st.ff_bonus[p] else 0,
            "failed_turns": st.fails[p],
            "solitaire_penalty": SOLITAIRE_FAIL * st.fails[p] if game.solitaire() else 0,
            "total": game.total(p),
        })
    nxt = st.player()
    return {
        "game": game.KIND,
        "turns": st.turns,
        "over": st.over,
        "winners": [names[p] for p in game.winners()],
        "next": None if nxt < 0 else names[nxt],
        "order": list(st.order),
        "players": players,
    }


def summary(game):
    """The game as plain data (the module's doc gives the shapes)."""
    if game.KIND == "twist":
        return _twist_summary(game)
    if game.KIND == "dice":
        return _dice_summary(game)
    return _card_summary(game)


def page(game, sheet=True):
    """summary(game) with "title", the players' phases in words ("words"), "sheet" (the
    rows of sheet_rows; left out when sheet is False: the device sends them one at a time)
    and, for Twist, "board": {"spaces": [the phase on each space, 0 a Twist space], "red":
    the red space's index, "pawns": [each player's space index; red + 1 once past it]}.
    Phase 10 and Masters add "tiebreak_out": who went out first in a tie-break hand (-1:
    none), and each player's "rank"."""
    it = page_parts(game)
    d = next(it)
    d["players"] = list(it)
    if sheet:
        d["sheet"] = list(sheet_rows(game))
    return d


def figures(game):
    """What page_parts works from, the costliest part of a page, for a caller that does
    other work between the two: Phase 10 and Masters, every player's figures at once
    (game.players()); None for the other kinds (theirs come with their summaries)."""
    if game.KIND == "twist" or game.KIND == "dice":
        return None
    return game.players()


def page_parts(game, rows=None):
    """page(game, False) a piece at a time, for the table on phones, which lets the keys in
    between pieces and sends each as it comes: first the page without "players", then each
    player's dict in seat order. rows: figures(game), if the caller has them already."""
    kind = game.KIND
    if kind == "twist":
        d = _twist_summary(game)
    elif kind == "dice":
        d = _dice_summary(game)
    else:
        if rows is None:
            rows = game.players()
        d = _card_summary(game, rows)
    d["title"] = TITLES[kind]
    players = d.pop("players")
    if kind == "twist":
        d["board"] = {"spaces": list(game.phases), "red": game.red, "pawns": list(game.state.pos)}
    elif kind != "dice":
        d["tiebreak_out"] = game.state.tiebreak_winner
    yield d
    label = None
    if kind == "dice":
        from engine_mpy.dice_eval import PHASE_LABEL as label
    for i in range(len(players)):
        p = players[i]
        if kind == "twist":
            p["words"] = p["text"]
        elif kind == "dice":
            ph = p["phase"]
            p["words"] = label[ph] if 1 <= ph <= 10 else "all ten made"
        else:
            p["words"] = rows[i]["phase_text"] if rows[i]["phase"] else "all phases made"
            p["rank"] = rows[i]["rank"]
        yield p


def sheet_rows(game):
    """The score sheet a row at a time (a long game's whole sheet at once would be a big
    block of the device's heap). Phase 10 and Masters: [hand, dealer, went out, [[points,
    completed, phase, running total] per player]] (players as seats). Twist: [hand, dealer,
    [move per player]] (3, 2, 1, 6, 4; -1 a failed Twist card). Dice: the book's rows
    [label, [cells in turn order]]."""
    kind = game.KIND
    if kind == "twist":
        n = game.state.n
        moves = game.moves_by_hand()
        first = game.settings["dealer"]
        for h in range(len(moves) // n):
            yield [h + 1, (first + h) % n, [moves[h * n + p] - 1 for p in range(n)]]
    elif kind == "dice":
        for label, cells in game.sheet():
            yield [label, cells]
    else:
        rows = game.state.rows
        for h in range(len(rows)):
            o, pts, ok, phs, tot = rows[h]
            yield [h + 1, game.dealer(h), o, [[pts[p], ok[p], phs[p], tot[p]] for p in range(len(pts))]]
