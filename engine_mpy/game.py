# The one shape every game has: settings plus a list of records (a hand, or a dice turn),
# and a state derived by replaying them. Nothing derived is ever stored, so undo and any
# correction are just "change the list and replay"; a change is committed only when the
# whole replay succeeds, so a refused entry changes nothing.

SAVE_FORMAT = "phase10"
SAVE_VERSION = 3      # 1: one JSON object; 2: a header line, then one line a record; 3: the
#                       header holds the game's id and start (engine_mpy/ident.py)


class RuleError(Exception):
    """An entry that breaks a rule. args[0] is the message a player reads; .hand is the
    1-based number of the record it concerns (0 when it concerns no record); .player the
    seat of the player whose entry it is about (-1: none in particular), so a screen can
    go straight to it."""

    def __init__(self, msg, hand=0, player=-1):
        super().__init__(msg)
        self.hand = hand
        self.player = player


class Game:
    KIND = ""

    # --- what a game kind provides -----------------------------------------------------
    def check_settings(self, settings):
        """Return the settings as a new normalised dict, or raise RuleError."""
        raise NotImplementedError

    def start(self):
        """The derived state before any record."""
        raise NotImplementedError

    def step(self, state, rec, index):
        """Apply record number index (0-based) to state, in place. Return the record
        normalised (as it will be saved) or raise RuleError with a message."""
        raise NotImplementedError

    # --- shared by every game ------------------------------------------------------------
    # The records are any list-like object with len, [i], append, truncate(n), put(i, rec)
    # and text(i): in RAM on the host (engine_mpy/packed.py), or the save file itself on
    # the device (firmware/game/gamefile.py), read a record at a time. So nothing here copies
    # the list or walks it other than in order: a long game never needs its records in RAM.
    def new_records(self):
        """An empty list of records as this game keeps them in RAM (Packed)."""
        from engine_mpy.packed import Packed
        return Packed()

    def __init__(self, settings, records=None, consume=False, keep=None):
        """keep: the records' home when they live elsewhere (the device's save file); the
        caller replays them with feed(). records: a plain list replayed here (consume: each
        is dropped from it once replayed, so a parsed save never sits in RAM twice)."""
        self.settings = self.check_settings(settings)
        self.changes = 0     # bumped by every change: screens tell a changed game by it
        self.id = None       # the game's id (16 hex digits), given when it starts or is read
        self.started = None  # when it started (seconds, the table's clock), None: no clock
        self.state = self.start()
        self.records = self.new_records() if keep is None else keep
        if records:
            for i in range(len(records)):
                self.records.append(self.feed(records[i], i))
                if consume:
                    records[i] = None

    def _apply(self, st, rec, i):
        try:
            return self.step(st, rec, i)
        except RuleError as e:
            raise RuleError(e.args[0], i + 1, e.player)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            raise RuleError("record is malformed (%s)" % type(e).__name__, i + 1)

    def feed(self, rec, i):
        """Replay record number i (0-based) of a game being loaded onto the live state;
        returns it normalised, or raises RuleError naming it (.hand)."""
        return self._apply(self.state, rec, i)

    def state_at(self, n, index=-1, rec=None):
        """(state after the first n records, with record number index read as rec;
        rec normalised). The records are read in order, one at a time."""
        st = self.start()
        recs = self.records
        norm = None
        for i in range(n):
            if i == index:
                norm = self._apply(st, rec, i)
            else:
                self._apply(st, recs[i], i)
        return st, norm

    # A game whose step() checks the whole record before it changes the state can apply a
    # new record to the live state: no replay (this runs on every committed hand).
    STEP_CHECKS_FIRST = False

    def add(self, rec):
        """Append a record; on a RuleError nothing changes."""
        i = len(self.records)
        if self.STEP_CHECKS_FIRST:
            norm = self._apply(self.state, rec, i)
        else:
            st, norm = self.state_at(i + 1, i, rec)
            self.state = st
        self.records.append(norm)
        self.changes += 1
        return self.state

    def undo(self):
        """Drop the last record."""
        n = len(self.records)
        if not n:
            raise RuleError("There is nothing to undo.")
        self.state = self.state_at(n - 1)[0]
        self.records.truncate(n - 1)
        self.changes += 1
        return self.state

    def replace(self, index, rec):
        """Correct record number index (0-based). Everything after it is recomputed; a
        change that makes a later record impossible is refused, naming it."""
        n = len(self.records)
        if not 0 <= index < n:
            raise RuleError("There is no hand %d." % (index + 1))
        try:
            st, norm = self.state_at(n, index, rec)
        except RuleError as e:
            if e.hand > index + 1:
                raise RuleError("That change makes hand %d impossible: %s" % (e.hand, e.args[0]), e.hand)
            raise
        self.state = st
        self.records.put(index, norm)
        self.changes += 1
        return self.state

    def reload(self):
        """The state again from the records as they are (after the records were put back
        to what the flash holds)."""
        self.state = self.state_at(len(self.records))[0]
        self.changes += 1

    def header(self):
        """The save's first line (with its newline): engine_mpy/savefile.py."""
        from engine_mpy.modules import builtin
        json = builtin("json")
        h = '{"format":%s,"v":%d,"game":%s' % (json.dumps(SAVE_FORMAT), SAVE_VERSION, json.dumps(self.KIND))
        if self.id:
            h += ',"id":"%s"' % self.id
        if self.started is not None:
            h += ',"start":%d' % self.started
        return h + ',"settings":%s}\n' % json.dumps(self.settings, separators=(",", ":"))

    def to_dict(self):
        return {
            "format": SAVE_FORMAT,
            "v": SAVE_VERSION,
            "game": self.KIND,
            "settings": self.settings,
            "records": list(self.records),
        }


def check_names(players, lo, hi):
    """Player names as the settings of every game take them: lo..hi distinct non-empty
    strings of at most 12 characters."""
    if not isinstance(players, list) or not lo <= len(players) <= hi:
        if lo == hi:
            raise RuleError("This game takes %d players." % lo)
        raise RuleError("This game takes %d to %d players." % (lo, hi))
    from engine_mpy.lines import half_char
    names = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise RuleError("Every player needs a name.")
        if half_char(p) >= 0:
            # (engine_mpy/lines.py: a PC could not read the history the device wrote)
            raise RuleError("A player's name holds half of a character (U+%04X)." % half_char(p))
        p = p.strip()
        if len(p) > 12:
            raise RuleError("The name %s is longer than 12 characters." % p)
        if p in names:
            raise RuleError("Two players are called %s." % p)
        names.append(p)
    return names


def check_int(value, lo, hi, what):
    # bool is an int subclass on CPython: a JSON true must not pass for 1.
    if not isinstance(value, int) or value is True or value is False or not lo <= value <= hi:
        raise RuleError("%s must be a whole number from %d to %d." % (what, lo, hi))
    return value

