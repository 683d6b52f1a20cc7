# Records kept in RAM, compact: the host (show, export, tests) holds a game's records here.
# The device does not: its records stay in the save file (firmware/game/gamefile.py) and are
# read one at a time, so this module is never loaded on a board during play.
import json

try:
    from micropython import const
except ImportError:
    const = lambda x: x


class Packed:
    """A list of records as it is kept in RAM. A hand as Python objects (a dict, its lists,
    each a heap block with its header) takes about 500 bytes of a 64-bit heap for six
    players; here each item is its JSON text instead (about a fifth of that, one block),
    and each read builds the item again. An item that would not come back equal (not
    plain JSON) is kept as it is, in a 1-tuple.

    It reads and writes as a list (len, [i], [i] = x, slices, iteration, append, + and ==)
    and has what a game needs of its records (engine_mpy/game.py): append, truncate, put
    and text. dice.Turns packs tighter by overriding pack/unpack."""

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

    put = __setitem__

    def truncate(self, n):
        del self._v[n:]

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


_N_DICE = const(10)


# --- a Dice game's turns in RAM -------------------------------------------------------------------------
# A long Dice game has a record per turn, 75 and more for two players: as dicts they took
# over 10 KB of a 64-bit heap (a dict and a string each), the most of anything in a Dice
# game. In RAM a turn is one small int instead, nothing on the heap: the faces as ten
# base-6 digits, then the player (0-7) and whether the dice were entered.
_FACES_SPAN = const(60466176)   # 6 ** 10
# The largest packed turn, 16 * 6 ** 10 - 1 < 2 ** 30: a small int on a 32-bit board too.


class Turns(Packed):
    """A Dice game's records: reads and writes as a list of turn dicts (each read builds its
    dict), kept as small ints (see above)."""

    def pack(self, rec):
        """A normalised turn as its small int; anything else (an entry not checked yet)
        as Packed keeps it."""
        if type(rec) is not dict:
            return Packed.pack(self, rec)
        n = len(rec)
        how = rec.get("how")
        if not (n == 2 or (n == 3 and how == "entered")):
            return Packed.pack(self, rec)
        p = rec.get("player")
        f = rec.get("faces")
        if type(p) is not int or not 0 <= p < 8 or type(f) is not str or len(f) != _N_DICE:
            return Packed.pack(self, rec)
        v = 0
        for ch in f:
            k = ord(ch) - 48
            if not 0 <= k <= 5:
                return Packed.pack(self, rec)
            v = v * 6 + k
        return v + _FACES_SPAN * (p + (8 if how else 0))

    def unpack(self, v):
        if type(v) is not int:
            return Packed.unpack(self, v)
        f = bytearray(_N_DICE)
        faces = v % _FACES_SPAN
        for d in range(_N_DICE - 1, -1, -1):
            f[d] = 48 + faces % 6
            faces //= 6
        v //= _FACES_SPAN
        if v >= 8:
            return {"player": v - 8, "faces": f.decode(), "how": "entered"}
        return {"player": v, "faces": f.decode()}
