# The one shape every game has: settings plus a list of records (a hand, or a dice turn),
# and a state derived by replaying them. Nothing derived is ever stored, so undo and any
# correction are just "replace the list and replay"; a change is committed only when the
# whole replay succeeds, so a refused entry changes nothing.

import json

SAVE_FORMAT = "phase10"
SAVE_VERSION = 1


class RuleError(Exception):
    """An entry that breaks a rule. args[0] is the message a player reads; .hand is the
    1-based number of the record it concerns (0 when it concerns no record)."""

    def __init__(self, msg, hand=0):
        super().__init__(msg)
        self.hand = hand


class Packed:
    """A list of records (or of a state's score-sheet rows) as it is kept in RAM. A hand
    as Python objects (a dict, its lists, each a heap block with its header) takes about
    500 bytes of a 64-bit heap for six players; a 6-player game of 30 hands held 28 KB of
    records and sheet rows that way. Here each item is its JSON text instead (about a
    fifth of that, one block), and each read builds the item again. An item that would
    not come back equal (not plain JSON) is kept as it is, in a 1-tuple.

    It reads and writes as a list: len, [i], [i] = x, slices, iteration, append, + and ==.
    A read allocates the item anew (json.loads, in C): RAM held for good is traded for a
    little garbage while a screen reads what it shows. dice.Turns packs tighter (a turn is
    one small int) by overriding pack/unpack."""

    def __init__(self, items=None):
        self._v = [] if items is None else items

    def pack(self, x):
        if type(x) is dict or type(x) is list:
            try:
                t = json.dumps(x, separators=(",", ":"))
            except (TypeError, ValueError):
                t = None
            if t is not None and json.loads(t) == x:
                return t
        return (x,)

    def unpack(self, v):
        if type(v) is str:
            return json.loads(v)
        return v[0]

    def text(self, i):
        """Item i as compact JSON text (a save writes these as they are)."""
        v = self._v[i]
        if type(v) is str:
            return v
        return json.dumps(self.unpack(v), separators=(",", ":"))

    def __len__(self):
        return len(self._v)

    def __getitem__(self, i):
        if type(i) is slice:
            return type(self)(self._v[i])
        return self.unpack(self._v[i])

    def __setitem__(self, i, x):
        self._v[i] = self.pack(x)

    def __iter__(self):
        for v in self._v:
            yield self.unpack(v)

    def append(self, x):
        self._v.append(self.pack(x))

    def __add__(self, more):
        t = type(self)(self._v[:])
        for x in more:
            t.append(x)
        return t

    def __eq__(self, other):
        if len(other) != len(self._v):
            return False
        for i in range(len(self._v)):
            if self[i] != other[i]:
                return False
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return repr(list(self))


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
        """An empty list of records as this game keeps them in RAM (Packed)."""
        return Packed()

    def __init__(self, settings, records=None, consume=False):
        self.settings = self.check_settings(settings)
        self.records = self.new_records()
        self.state = self.start()
        if records:
            self.state, self.records = self.replay(records, consume)

    def replay(self, records, consume=False):
        """Derive the state of a list of records. Returns (state, normalised records);
        raises RuleError naming the first record that cannot stand. consume: each record
        of the list (a plain list) is dropped from it once replayed, so a save being
        loaded never sits in RAM both as parsed objects and as the records kept."""
        state = self.start()
        out = self.new_records()
        for i in range(len(records)):
            try:
                out.append(self.step(state, records[i], i))
                if consume:
                    records[i] = None
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
            "records": list(self.records),
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
