# A game's identity and its dates (docs/save-format.md, "A game's id and its times"): the
# id a game gets when it starts (16 lowercase hex digits: 64 bits from the device's random
# source), the id a game of an earlier version is given when it is read (derived from its
# content: the same bytes give the same id on every device and runtime), and a time as the
# table reads it. Times are the table's clock in seconds since 1970-01-01 00:00 (what the
# clock showed, with no time zone). Loaded when a game starts, when an earlier save is
# converted, when a finish or a load looks for a game in the history, and when History
# shows a game; dropped after.
from engine_mpy.modules import builtin

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def hexid(b):
    """The id of 8 bytes (or the first 8 of more): 16 lowercase hex digits. A new game's
    id is hexid of 8 random bytes (firmware/game/session.py start makes it so, without
    loading this module)."""
    return builtin("binascii").hexlify(b[:8]).decode()


def derive(chunks):
    """The id of content given as an iterable of bytes: the first 64 bits of its SHA-256,
    as hex (MicroPython's hashlib, built into every port the device runs on, and
    CPython's give the same)."""
    h = builtin("hashlib").sha256()
    for b in chunks:
        h.update(b)
    return hexid(h.digest())


def save_id(game, f):
    """The id of the save read from the open binary file f into game: its own, or for a
    save of an earlier version (none in its header) the id of its bytes: the whole lines
    read (game.size, a version 2 save; a last line cut short is not part of it), or the
    whole file (version 1)."""
    if game.id:
        return game.id
    size = getattr(game, "size", None)

    def chunks():
        f.seek(0)
        left = -1 if size is None else size
        while left:
            b = f.read(256 if left < 0 or left > 256 else left)
            if not b:
                return
            left -= len(b) if left > 0 else 0
            yield b
    return derive(chunks())


def entry_id(e, k=0):
    """The id of a history line (a dict) that carries none (an earlier firmware's): derived
    from what it holds but its number (which a merge may change) and its times, written
    canonically (keys in order, no spaces), so the same game gets the same id wherever
    it was numbered. k: how many lines before it in its history hold the same (two games
    of one table can: the same players, the same one hand), so each is a game of its own,
    and the same history read anywhere gives the same ids."""
    parts = []
    _canon(e, parts.append, True)
    if k:
        parts.append("#%d" % k)
    # (half of a character, which JSON can hold in a name, as MicroPython holds it)
    return derive(s.encode("utf-8", "surrogatepass") for s in parts)


def line_ids(lines):
    """The id of each history line of lines (dicts, oldest first, as one history holds
    them): its own, or entry_id with the lines before it that hold the same."""
    seen = {}
    out = []
    for e in lines:
        gid = e.get("id")
        if not gid:
            base = entry_id(e)
            k = seen.get(base, 0)
            seen[base] = k + 1
            gid = entry_id(e, k) if k else base
        out.append(gid)
    return out


def _canon(v, put, top=False):
    t = type(v)
    if t is dict:
        put("{")
        first = True
        for k in sorted(v):
            if top and k in ("n", "id", "start", "end"):
                continue
            if not first:
                put(",")
            first = False
            _canon(k, put)
            put(":")
            _canon(v[k], put)
        put("}")
    elif t is list or t is tuple:
        put("[")
        for i in range(len(v)):
            if i:
                put(",")
            _canon(v[i], put)
        put("]")
    elif t is str:
        put('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"')
    elif v is True or v is False or v is None:
        put("true" if v is True else "false" if v is False else "null")
    else:
        put(str(v))


def when(t, clock=False):
    """Time t (seconds, the table's clock) as the table reads it: "28 Nov 2026", with the
    hour "28 Nov 2026 21:05" when clock. Worked out here rather than by the time module,
    whose epoch is 2000 on some ports."""
    days = t // 86400
    z = days + 719468           # (days from 0000-03-01: H. Hinnant's civil_from_days)
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    out = "%d %s %d" % (d, _MONTHS[m - 1], yoe + era * 400 + (m <= 2))
    if clock:
        s = t - days * 86400
        out += " %02d:%02d" % (s // 3600, s // 60 % 60)
    return out
