# The one shape every game has: settings plus a list of records (a hand, or a dice turn),
# and a state derived by replaying them. Nothing derived is ever stored, so undo and any
# correction are just "replace the list and replay"; a change is committed only when the
# whole replay succeeds, so a refused entry changes nothing.

SAVE_FORMAT = "phase10"
SAVE_VERSION = 1


class RuleError(Exception):
    """An entry that breaks a rule. args[0] is the message a player reads; .hand is the
    1-based number of the record it concerns (0 when it concerns no record)."""

    def __init__(self, msg, hand=0):
        super().__init__(msg)
        self.hand = hand


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
    def new_records(self):
        """An empty list of records as this game keeps them in RAM (see dice.Turns)."""
        return []

    def __init__(self, settings, records=None):
        self.settings = self.check_settings(settings)
        self.records = self.new_records()
        self.state = self.start()
        if records:
            self.state, self.records = self.replay(records)

    def replay(self, records):
        """Derive the state of a list of records. Returns (state, normalised records);
        raises RuleError naming the first record that cannot stand."""
        state = self.start()
        out = self.new_records()
        for i in range(len(records)):
            try:
                out.append(self.step(state, records[i], i))
            except RuleError as e:
                raise RuleError(e.args[0], i + 1)
            except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
                raise RuleError("record is malformed (%s)" % type(e).__name__, i + 1)
        return state, out

    def _commit(self, records):
        self.state, self.records = self.replay(records)

    # A game whose step() checks the whole record before it changes the state can apply a
    # new record to the live state: no replay, no copy (this runs on every committed hand).
    STEP_CHECKS_FIRST = False

    def add(self, rec):
        """Append a record; on a RuleError nothing changes."""
        if not self.STEP_CHECKS_FIRST:
            self._commit(self.records + [rec])
            return self.state
        i = len(self.records)
        try:
            norm = self.step(self.state, rec, i)
        except RuleError as e:
            raise RuleError(e.args[0], i + 1)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            raise RuleError("record is malformed (%s)" % type(e).__name__, i + 1)
        self.records.append(norm)
        return self.state

    def undo(self):
        """Drop the last record."""
        if not self.records:
            raise RuleError("There is nothing to undo.")
        self._commit(self.records[:-1])
        return self.state

    def replace(self, index, rec):
        """Correct record number index (0-based). Everything after it is recomputed; a
        change that makes a later record impossible is refused, naming it."""
        if not 0 <= index < len(self.records):
            raise RuleError("There is no hand %d." % (index + 1))
        trial = self.records[:]
        trial[index] = rec
        try:
            self._commit(trial)
        except RuleError as e:
            if e.hand > index + 1:
                raise RuleError("That change makes hand %d impossible: %s" % (e.hand, e.args[0]), e.hand)
            raise
        return self.state

    def to_dict(self):
        return {
            "format": SAVE_FORMAT,
            "v": SAVE_VERSION,
            "game": self.KIND,
            "settings": self.settings,
            "records": self.records,
        }


def check_names(players, lo, hi):
    """Player names as the settings of every game take them: lo..hi distinct non-empty
    strings of at most 12 characters."""
    if not isinstance(players, list) or not lo <= len(players) <= hi:
        if lo == hi:
            raise RuleError("This game takes %d players." % lo)
        raise RuleError("This game takes %d to %d players." % (lo, hi))
    names = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise RuleError("Every player needs a name.")
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
