# The card games as a score pad sees them: what Phase 10 (Classic, engine_mpy/classic.py)
# and the Masters Edition (engine_mpy/masters.py) share; a game loads its own module only.
#
# A hand record, as saved:
#   {"out": 2, "left": [[0, 3, 0, 1], [4, 4, 1, 1], null]}
#     out   the player who went out (index in seating order)
#     left  per player the cards left: four counts [1-9, 10-12, Skip, Wild], or points
#           (a whole number, when the table counts points), null for the player who went out
#     done  (only when points leave it open) per player true/false/null: completed the phase
#     phase (Masters only) per player the phase completed this hand, 0 for none
# A tie-break hand (the tied players replay the last phase; no points recorded):
#   {"tiebreak": 1}   the player who went out first in it
# Everything else (points, phases, totals, dealer, winner) is derived by replaying.
from engine_mpy.game import Game, RuleError, check_names, check_int
from engine_mpy.phases import DECK_COUNTS, PHASE_CARDS, CARD_POINTS, HAND_SIZE, phase_text
from engine_mpy import handcheck

try:
    from micropython import const
except ImportError:
    const = lambda x: x



class Rows:
    """The score sheet: per hand who went out and, per player, the points, the phase
    attempted, whether it was completed and the running total. A hand is 1 + 4n bytes in
    one bytearray (who went out; per player points / 5, phase | completed << 7, total in
    two bytes): a 6-player game of 55 hands takes 1.4 KB, where lists took 28 KB at 30.
    rows[h] gives [out, points, completed, phases, totals] (lists, built on each read).
    Made with room for the longest game (cap hands) in one block when the game starts: a
    block grown hand by hand would need a bigger free stretch each time, and a heap in
    pieces may have none."""

    def __init__(self, n, cap):
        self.n = n
        self.size = 1 + 4 * n
        self.b = bytearray(self.size * cap)
        self.count = 0

    def __len__(self):
        return self.count

    def append(self, out, points, completed, phases, totals):
        b = self.b
        size = self.size
        i = self.count * size
        if i + size > len(b):
            b.extend(bytes(size))   # past the longest game (never, by the rules)
        b[i] = out
        p = 0
        for t in totals:
            b[i + 1] = points[p] // 5
            b[i + 2] = phases[p] | (0x80 if completed[p] else 0)
            b[i + 3] = t >> 8
            b[i + 4] = t & 0xFF
            i += 4
            p += 1
        self.count += 1

    def __getitem__(self, h):
        if h < 0:
            h += len(self)
        if not 0 <= h < len(self):
            raise IndexError("no hand %d" % h)
        b = self.b
        i = h * self.size
        n = self.n
        pts = [0] * n
        ok = [False] * n
        phs = [0] * n
        tot = [0] * n
        for p in range(n):
            j = i + 1 + 4 * p
            pts[p] = b[j] * 5
            ok[p] = b[j + 1] >= 0x80
            phs[p] = b[j + 1] & 0x7F
            tot[p] = b[j + 2] << 8 | b[j + 3]
        return [b[i], pts, ok, phs, tot]


class CardState:
    """Everything a score pad shows, derived from the hand records."""

    def __init__(self, n, cap):
        self.n = n
        self.step = [0] * n        # Classic: phases completed (index into the phase sequence)
        self.done = [0] * n        # Masters: bit p set when phase p is completed
        self.total = [0] * n
        self.won = [0] * n         # hands in which the player went out
        self.hands = 0             # hands played (the tie-break hand not counted)
        # the score sheet, kept compact (Rows)
        self.rows = Rows(n, cap)
        self.over = False
        self.winners = []
        self.tiebreak = []         # players of a pending tie-break hand
        self.tiebreak_winner = -1


class CardGame(Game):
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    # step() judges every player and the deck before it touches the state.
    STEP_CHECKS_FIRST = True
    # How many cards of each kind (1-9, 10-12, Skip, Wild) the game's deck holds.
    DECK = DECK_COUNTS

    def start(self):
        n = len(self.settings["players"])
        return CardState(n, self.longest(n))

    def longest(self, n):
        """The most hands a game can have (tie-break hands are no rows): each hand the
        player who went out completes a phase, so n players with all but the last of the
        phases done, and one more."""
        return n * 9 + 1

    def check_settings(self, s):
        if not isinstance(s, dict):
            raise RuleError("settings must be an object")
        players = check_names(s.get("players"), self.MIN_PLAYERS, self.MAX_PLAYERS)
        dealer = check_int(s.get("dealer", 0), 0, len(players) - 1, "The first dealer")
        return {"players": players, "dealer": dealer}

    # Masters: the phase a player names says whether they completed it (known_completion)
    NAMED = False

    # --- what differs between Classic and Masters ---------------------------------------
    def attempted(self, st, p, rec):
        """The phase player p attempts in the next hand (0 when none is to be attempted)."""
        raise NotImplementedError

    def attempts(self, st, chosen):
        """attempted() of every player, a new list."""
        return [self.attempted(st, p, chosen) for p in range(st.n)]

    # --- one hand ------------------------------------------------------------------------
    def step(self, st, rec, index):
        if not isinstance(rec, dict):
            raise RuleError("a hand must be an object")
        names = self.settings["players"]
        if "tiebreak" in rec:
            return self._tiebreak(st, rec, names)
        out, chosen, entries, points, completed, flags, need_flags, phases = self._judge(st, rec, names)
        # The hand stands: apply it.
        total = st.total
        for p in range(st.n):
            total[p] += points[p]
            if completed[p]:
                self.advance(st, p, phases[p])
        st.won[out] += 1
        st.hands += 1
        st.rows.append(out, points, completed, phases, st.total)
        self.check_end(st, completed, names)
        norm = {"out": out, "left": entries}
        if need_flags:
            norm["done"] = flags
        if chosen is not None:
            norm["phase"] = chosen
        return norm

    def _judge(self, st, rec, names):
        """Every check of a hand record against state st, nothing changed: (out, chosen,
        entries, points, completed, flags (None when no flag is to be saved), need_flags,
        phases attempted), or RuleError."""
        if st.tiebreak:
            raise RuleError(
                "A tie-break hand between %s is due: record who went out first in it." % _join(names, st.tiebreak)
            )
        if st.over:
            raise RuleError("The game is over: %s won." % _join(names, st.winners))
        # names looked up once a hand, not once a player: a global or builtin name costs
        # two hashed lookups (a division each on the board), a local none
        tp = type
        INT = int
        LIST = list
        ln = len
        n = st.n
        out = rec.get("out")
        # (type(x) is int: a JSON true is a bool, not an int)
        if tp(out) is not INT or not 0 <= out < n:
            raise RuleError("Say who went out: exactly one player ends each hand.")
        left = rec.get("left")
        if tp(left) is not LIST or ln(left) != n:
            raise RuleError("Enter the cards left for every player.")
        said = rec.get("done")
        if said is not None and (tp(said) is not LIST or ln(said) != n):
            raise RuleError("completed flags must list every player")
        chosen = self.chosen_phases(st, rec, out, names)
        entries = [None] * n
        points = [0] * n
        completed = [False] * n
        flags = None          # made when a player's flag is to be saved
        need_flags = False
        deck = self.DECK
        d0, d1, d2, d3 = deck
        # the cards of each kind across the table (the deck holds only so many)
        k0 = k1 = k2 = k3 = 0
        phases = self.attempts(st, chosen)
        named = self.NAMED
        hand = HAND_SIZE
        laid = PHASE_CARDS
        c0, c1, c2, c3 = CARD_POINTS
        for p in range(n):
            e = left[p]
            if p == out:
                if e is None:
                    completed[p] = True      # went out: no cards, the phase completed
                    continue
            elif said is None and tp(e) is LIST and ln(e) == 4:
                # The common entry (four counts that break no rule) is judged here without
                # building a message; judge() below words whatever is wrong.
                a, b, c, d = e
                if (tp(a) is INT and tp(b) is INT and tp(c) is INT and tp(d) is INT
                        and 0 <= a <= d0 and 0 <= b <= d1 and 0 <= c <= d2 and 0 <= d <= d3):
                    h = a + b + c + d
                    ph = phases[p]
                    ok = None
                    if h == hand:
                        ok = False
                    elif 0 < h <= hand - laid[ph]:
                        ok = True
                    # (Masters: with no phase named, phase_cards() allows more cards than
                    # PHASE_CARDS[0]; only "did not complete" agrees with naming none)
                    if ok is not None and (not named or ok == (ph != 0)):
                        entries[p] = e
                        points[p] = a * c0 + b * c1 + c * c2 + d * c3   # handcheck.card_points
                        completed[p] = ok
                        k0 += a
                        k1 += b
                        k2 += c
                        k3 += d
                        continue
            try:
                e, pts, ok, flag = self.judge(st, p, out, e, said[p] if said else None, chosen, names)
            except RuleError as x:
                x.player = p         # the screen goes to this player's entry
                raise
            entries[p] = e
            points[p] = pts
            completed[p] = ok
            if flag is not None:
                if flags is None:
                    flags = [None] * n
                flags[p] = flag
                need_flags = True
            if tp(e) is LIST:
                k0 += e[0]
                k1 += e[1]
                k2 += e[2]
                k3 += e[3]
        if k0 > d0 or k1 > d1 or k2 > d2 or k3 > d3:
            handcheck.check_deck(names, entries, deck)   # says which kind
        return out, chosen, entries, points, completed, flags, need_flags, phases

    def chosen_phases(self, st, rec, out, names):
        return None

    def judge(self, st, p, out, entry, said, chosen, names):
        """One player's entry -> (normalised entry, points, completed, flag to save)."""
        name = names[p]
        ph = self.attempted(st, p, chosen)
        label = "phase %d" % ph if ph else "a phase"
        if p == out:
            if entry is None or entry == 0 or entry == [0, 0, 0, 0]:
                return None, 0, True, None
            raise RuleError("%s went out, so has no cards left." % name)
        if entry is None:
            raise RuleError("Enter the cards %s has left." % name)
        cards = self.phase_cards(st, p, chosen)
        if isinstance(entry, list):
            counts = handcheck.check_counts(name, entry, self.DECK)
            ok = handcheck.completed_from_count(name, sum(counts), cards, label)
            ok = self.agree(st, p, ok, chosen, name, sum(counts))
            if said is not None and said != ok:
                raise RuleError("%s: the cards left say %s %s %s." % (name, name, "completed" if ok else "did not complete", label))
            return counts, handcheck.card_points(counts), ok, None
        known = self.known_completion(st, p, chosen)
        if known is not None:
            if said is not None and said != known:
                raise RuleError("%s: the phase entered says %s %s a phase." % (name, name, "completed" if known else "did not complete"))
            said = known
        ok = handcheck.completed_from_points(name, entry, cards, label, said)
        # Save the flag only when the points alone leave it open (and Masters says it anyway).
        flag = ok if known is None and _both(name, entry, cards, label) else None
        return entry, entry, ok, flag

    # Overridden by Masters, where the phase each player names decides completion.
    def known_completion(self, st, p, chosen):
        return None

    def agree(self, st, p, ok, chosen, name, n):
        return ok

    def phase_cards(self, st, p, chosen):
        return PHASE_CARDS[self.attempted(st, p, chosen)]

    def _tiebreak(self, st, rec, names):
        if not st.tiebreak:
            raise RuleError("No tie-break hand is due.")
        w = rec.get("tiebreak")
        if not isinstance(w, int) or w is True or w is False or w not in st.tiebreak:
            raise RuleError("The tie-break hand is between %s: one of them went out first." % _join(names, st.tiebreak))
        st.winners = [w]
        st.tiebreak_winner = w
        st.tiebreak = []
        return {"tiebreak": w}

    def settle(self, st, finishers):
        """The game ends: among finishers the lowest total wins; a tie needs a tie-break."""
        low = min(st.total[p] for p in finishers)
        best = [p for p in finishers if st.total[p] == low]
        st.over = True
        if len(best) == 1:
            st.winners = best
        else:
            st.tiebreak = best

    # --- what an entry screen asks before it commits ----------------------------------------
    def before(self, index=None):
        """The state hand number index (0-based) is judged against: the live state for the
        next hand, a replay of the hands before it for a correction."""
        if index is None or index >= len(self.records):
            return self.state
        return self.state_at(index)[0]

    def preview(self, rec, st=None):
        """Judge a hand record without saving anything: (points, completed) per player,
        or RuleError with the message the commit would give."""
        if st is None:
            st = self.state
        if not isinstance(rec, dict):
            raise RuleError("a hand must be an object")
        r = self._judge(st, rec, self.settings["players"])
        return r[3], r[4]

    def points_open(self, st, p, points, chosen=None):
        """True when points alone leave open whether player p completed their phase, so
        the table must say (Masters: the phase named says it, never open)."""
        if self.known_completion(st, p, chosen) is not None:
            return False
        cards = self.phase_cards(st, p, chosen)
        try:
            handcheck.completed_from_points("", points, cards, "", None)
            return False
        except RuleError:
            pass
        try:
            handcheck.completed_from_points("", points, cards, "", True)
            return True
        except RuleError:
            return False   # impossible points: the commit says why

    def check_points(self, st, p, points, chosen=None):
        """Raises RuleError, naming player p, when points cannot be the cards left of a
        player who did not go out, whether they completed or not (0 points, say): the hand
        page refuses them where they are typed."""
        ph = self.attempted(st, p, chosen)
        label = "phase %d" % ph if ph else "a phase"
        name = self.settings["players"][p]
        cards = self.phase_cards(st, p, chosen)
        try:
            handcheck.completed_from_points(name, points, cards, label, True)
        except RuleError:
            # possible only as a phase not completed, or not at all (then this says why)
            handcheck.completed_from_points(name, points, cards, label, False)

    # --- what a score pad asks ------------------------------------------------------------
    def dealer(self, hand=None):
        """Who deals hand number `hand` (0-based; default: the next hand). Passes left."""
        if hand is None:
            hand = len(self.records)
        return (self.settings["dealer"] + hand) % len(self.settings["players"])

    def first_player(self, hand=None):
        return (self.dealer(hand) + 1) % len(self.settings["players"])

    def players(self):
        """Per player: name, phase (next attempted, None when done), phase_text,
        phases_done, total, won, rank (1 = leading; equal standing shares a rank)."""
        st = self.state
        names = self.settings["players"]
        rows = []
        for p in range(st.n):
            ph = self.next_phase(st, p)
            rows.append({
                "name": names[p],
                "phase": ph,
                "phase_text": phase_text(ph) if ph else "",
                "phases_done": self.phases_done(st, p),
                "total": st.total[p],
                "won": st.won[p],
                "rank": 0,
            })
        order = self.ranking()
        for r in range(len(order)):
            rows[order[r][0]]["rank"] = order[r][1]
        return rows

    def ranking(self):
        """[(player, rank)] best first. Winners lead; then most phases, then lowest total."""
        st = self.state
        keys = []
        for p in range(st.n):
            won = 0 if p in st.winners else 1
            keys.append((won, -self.progress(st, p), st.total[p], p))
        keys.sort()
        out = []
        rank = 0
        prev = None
        for i in range(len(keys)):
            k = keys[i][:3]
            if k != prev:
                rank = i + 1
                prev = k
            out.append((keys[i][3], rank))
        return out

    def progress(self, st, p):
        return self.phases_done(st, p)

    @property
    def over(self):
        return self.state.over and not self.state.tiebreak


def _both(name, points, cards, label):
    """True when points fit both a completed and a failed phase (the table must say)."""
    try:
        handcheck.completed_from_points(name, points, cards, label, None)
    except RuleError:
        return True
    return False


def _join(names, idx):
    return " and ".join([names[i] for i in idx])
