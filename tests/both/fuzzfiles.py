# Fuzzed files for the fault tests: real saves (every game kind), layouts, settings, roster,
# history and the network set from the PC, mutated the ways a flash, a card reader or a hand editor spoils them:
# truncation, byte flips, inserted junk, a slice gone, odd or huge numbers, wrong types,
# deep nesting, invalid UTF-8, empty files, records swapped or repeated, odd text in a
# string (halves of a character, characters past U+FFFF: _ODD_TEXT). A small seeded
# generator (the same on CPython and MicroPython), so case N of seed S is always the same
# file and a failure replays.
import json
import sys

MPY = sys.implementation.name == "micropython"
# Deepest nesting tried (CPython's json gives up past 1000) and longest file: within the
# MicroPython test heap, the generator's own copies included.
DEEP = 400 if MPY else 3000
MAX_LEN = 3000 if MPY else 6000


class Rng:
    """xorshift32: the same numbers on both runtimes."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def below(self, n):
        return self.next() % n if n > 0 else 0

    def pick(self, seq):
        return seq[self.below(len(seq))]


# Saves as the device writes them (version 2: a header line, a line a record), and two as
# earlier firmware wrote them (version 1: one JSON object), which the device still reads.
SAVES = (
    b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","Bob","Cid"],"dealer":1,"variation":"ten_hands"}}\n{"out":0,"left":[null,[10,0,0,0],[2,1,0,0]]}\n{"out":2,"left":[[2,0,0,1],85,null]}\n',
    b'{"format":"phase10","v":2,"game":"classic","settings":{"players":["Ann","Bob"],"dealer":0,"variation":"first_n","phases":3}}\n{"out":0,"left":[null,[10,0,0,0]]}\n',
    b'{"format":"phase10","v":2,"game":"masters","settings":{"players":["Ann","Bob"],"dealer":0}}\n{"out":0,"left":[null,[10,0,0,0]],"phase":[1,0]}\n{"out":1,"left":[[3,0,0,0],null],"phase":[4,2]}\n',
    b'{"format":"phase10","v":2,"game":"twist","settings":{"players":["Ann","Bob"],"dealer":0,"layout":"1S 2 T 3 9 10R","values":"classic"}}\n{"out":0,"left":[null,10]}\n',
    b'{"format":"phase10","v":2,"game":"dice","settings":{"players":["Ann","Bob"],"order":[1,0]}}\n{"player":1,"faces":"0000000000"}\n{"player":0,"faces":"0123450123"}\n',
    b'{"format":"phase10","v":1,"game":"masters","settings":{"players":["Ann","Bob"],"dealer":0},"records":[{"out":0,"left":[null,[10,0,0,0]],"phase":[1,0]},{"out":1,"left":[[3,0,0,0],null],"phase":[4,2]}]}',
    b'{"format":"phase10","v":1,"game":"dice","settings":{"players":["Ann","Bob"],"order":[1,0]},"records":[{"player":1,"faces":"0000000000"},{"player":0,"faces":"0123450123"}]}',
)


def save_kind(src):
    """(game kind, settings) of one of SAVES."""
    d = json.loads(src.split(b"\n")[0])
    return d["game"], d["settings"]


LAYOUTS = (
    b"1S 1 T 2 2 T 3 3 T 4 4 T 5 5 T 6 6 T 7 7 T 8 8 T 9 9 10R",
    b"# A short board\n1S 2 T 3 T 4 T 5 T 6 T 7 T 8 T 9 10R\n",
    b"1s 2 t 3\n9   10r  # lower case is fine\n",
)

SETTINGS = (b'{"contrast":200,"dim_s":120,"off_s":0,"three_button":true,"entry":"points","sh1106":false}',)
ROSTERS = (b'[["Ann",3,2,140,21],["Bob",3,1,210,21],["Cid",1,0,0,0]]',)
# wifi.json as `python -m host_sim wifi` writes it (firmware/files/wifi_file.text): a password,
# and a key of 64 hex digits for a name beyond ASCII
WIFIS = (b'{"ssid": "Kitchen 5G", "pw": "correct horse"}',
         b'{"ssid": "Caf\\u00e9 \\u2615", "pw": "0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789abcdef"}')
HISTORIES = (
    b'{"format":"phase10-history","v":2}\n'
    b'{"n":1,"game":"classic","players":["Ann","Bob"],"winners":["Ann"],"done":true,"hands":2,"variation":"first_n","phases":3,"first":0,"totals":[50,60],"made":[1,1],"sheet":"0032,1A302"}\n'
    b'{"n":2,"game":"dice","players":["Ann","Bob","Cid"],"winners":[],"done":false,"hands":2,"first":[2,0,1],"totals":[0,12,0],"sheet":"21-,01C"}\n'
    b'{"n":3,"game":"twist","players":["Ann","Bob"],"winners":["Bob"],"done":true,"hands":1,"first":1,"layout":"1S 2 T 3 9 10R","totals":[2,4],"sheet":"2.4."}\n',
    b'[{"game":"classic","players":["Ann","Bob"],"winners":["Ann"],"hands":7,"done":true,"variation":"first_n","phases":3},'
    b'{"game":"dice","players":["Ann","Bob","Cid"],"winners":[],"hands":4,"done":false}]',
)

# finish.json as a finish writes it (firmware/game/journal.py): the game's number, the roster as
# it will be (or null: an abandoned game leaves it alone), the history's new line.
JOURNALS = (
    b'{"n":4,"roster":[["Ann",4,3,140,22],["Bob",4,1,260,22]],"entry":{"n":4,"game":"classic","players":["Ann","Bob"],"winners":["Ann"],"done":true,"hands":1,"variation":"first_n","phases":1,"first":0,"totals":[0,50],"made":[1,0],"sheet":"003A2"}}',
    b'{"n":4,"roster":null,"entry":{"n":4,"game":"dice","players":["Ann","Bob"],"winners":[],"done":false,"hands":2,"first":[1,0],"totals":[0,12],"sheet":"21-,01C"}}',
)

_JUNK = b'{}[]",:0123456789-eE.+ntrufalsTR#\n\t\\\xff\xc3\x00 '
_NUMBERS = (b"99999999999999999999999", b"-1", b"1e308", b"1.5", b"-0", b"1e999", b"0x10",
            b"NaN", b"Infinity", b"4294967296", b"-99999999999")
_BAD_UTF8 = (b"\xc3", b"\xff\xfe", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf8\x88\x80\x80\x80")
_EMPTY = (b"", b" ", b"\n\n", b"null", b"[]", b"{}", b"\x00" * 16, b"\xff" * 64, b"0", b'""')
_TOKENS = (b"1S", b"1", b"5", b"9", b"T", b"10R", b"10", b"0", b"11", b"X", b"#", b"\n",
           b"t", b"1s", b"10r", b"\t", b"\r\n", b"T T", b"-", b"\xc3\xa9")


def _values(rng):
    """A JSON value of a wrong or odd kind."""
    k = rng.below(14)
    if k == 0:
        return None
    if k == 1:
        return True
    if k == 2:
        return "x"
    if k == 3:
        return ""
    if k == 4:
        return []
    if k == 5:
        return {}
    if k == 6:
        return -1
    if k == 7:
        return 2 ** 31
    if k == 8:
        return 10 ** 30
    if k == 9:
        return 1.5
    if k == 10:
        v = 0
        for _ in range(rng.below(60) + 1):
            v = [v]
        return v
    if k == 11:
        return "A" * (rng.below(200) + 13)
    if k == 12:
        return {"format": "phase10", "v": 1}
    return [0] * rng.below(300)


def _structural(rng, data):
    """Parse data, change one node found by a random walk down from the top (a wrong
    value, a key gone, a list item repeated or dropped, two items swapped), and write
    it back."""
    try:
        v = json.loads(data)
    except (ValueError, RuntimeError, MemoryError):   # not JSON, or nested too deep
        return data
    if not isinstance(v, (dict, list)) or not v or rng.below(8) == 0:
        return json.dumps(_values(rng)).encode()
    parent = v
    while True:
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        last = rng.pick(keys)
        child = parent[last]
        if not isinstance(child, (dict, list)) or not child or rng.below(3) == 0:
            break
        parent = child
    how = rng.below(4)
    if how == 0 or isinstance(parent, dict) and how != 1:
        parent[last] = _values(rng)
    elif how == 1 and isinstance(parent, dict):
        del parent[last]
    elif how == 1:
        parent.pop(last)
    elif how == 2:
        parent.insert(last, parent[last])
    else:
        j = rng.below(len(parent))
        parent[last], parent[j] = parent[j], parent[last]
    return json.dumps(v).encode()


def _number(rng, data):
    spots = [i for i in range(len(data)) if 48 <= data[i] <= 57 and (i == 0 or not 48 <= data[i - 1] <= 57)]
    if not spots:
        return data
    i = rng.pick(spots)
    j = i
    while j < len(data) and 48 <= data[j] <= 57:
        j += 1
    return data[:i] + rng.pick(_NUMBERS) + data[j:]


# Text a person's name may hold that the device's json and a PC's UTF-8 disagree on (issue 42):
# halves of a character escaped (a lone one, a pair split), a pair whole, characters past
# U+FFFF in UTF-8 (eight emoji: 32 bytes), a half written raw (not UTF-8).
_ODD_TEXT = (b"\\ud800", b"\\udc80x", b"\\ud83d\\ude00", b"\\ud83d", b"\xf0\x9f\x98\x80" * 8,
             b"Caf\xc3\xa9 \xf0\x9f\x98\x80", b"\xed\xa0\x80")


def _odd_text(rng, data):
    """data with odd text just inside one of its strings (after an opening quote)."""
    spots = [i + 1 for i in range(len(data)) if data[i] == 34]     # '"'
    if not spots:
        return data + rng.pick(_ODD_TEXT)
    i = rng.pick(spots)
    return data[:i] + rng.pick(_ODD_TEXT) + data[i:]


def mutate(rng, data, tokens=False):
    """One fuzzed file from data (bytes)."""
    n = len(data)
    for _ in range(1 + (rng.below(4) == 0) + (rng.below(8) == 0)):
        k = rng.below(12 if tokens else 11)
        n = len(data)
        at = rng.below(n + 1)
        if k == 0:
            data = data[:at]
        elif k == 1:
            b = bytearray(data)
            for _ in range(1 + rng.below(3)):
                if b:
                    b[rng.below(len(b))] = rng.below(256)
            data = bytes(b)
        elif k == 2:
            junk = bytes([rng.pick(_JUNK) for _ in range(1 + rng.below(6))])
            data = data[:at] + junk + data[at:]
        elif k == 3:
            data = data[:at] + data[at + 1 + rng.below(20):]
        elif k == 4:
            data = _number(rng, data)
        elif k == 5:
            data = _structural(rng, data)
        elif k == 6:
            d = 1 + rng.below(DEEP if rng.below(4) == 0 else 100)
            data = b"[" * d + data + b"]" * d
        elif k == 7:
            data = data[:at] + rng.pick(_BAD_UTF8) + data[at:]
        elif k == 8:
            return rng.pick(_EMPTY)
        elif k == 9:
            data = data[:at] + data[at:] * (2 + rng.below(3))   # a tail written twice
        elif k == 10:
            data = _odd_text(rng, data)
        else:
            data = data[:at] + b" " + rng.pick(_TOKENS) + b" " + data[at:]
        data = data[:MAX_LEN]
    return data


# --- checks shared by the fuzz tests -------------------------------------------------------
def same_save(a, b):
    """Two saves of the same game (any version: an earlier one is written out with an id
    of its own, which this leaves aside)."""
    if a == b:
        return True
    from engine_mpy import savefile, saveload
    ga, gb = saveload.loads(bytes(a)), saveload.loads(bytes(b))
    ga.id = gb.id = None
    return savefile.dumps(ga) == savefile.dumps(gb)


def check_read(fs, name, bad, got, msg, beside=None):
    """The store's verdict on bad, a fuzzed NAME on the fake flash fs, given what the
    loader got (None: nothing usable) and its message: good (left alone) or damaged (kept
    as NAME.bad1, said in words), or read when the heap really was short (MicroPython, see
    below). Returns "good", "bad" or "memory"."""
    p = "/" + name
    if got is not None:
        if msg is None or "cut short" in msg:
            # good (a save whose last line was cut short loses that hand, and says so)
            # (a version 1 save is written out as version 2: the same game)
            assert beside is not None or same_save(fs.files.get(p), bad) or (msg and "cut short" in msg), (name, bad)
            return "good"
        # damaged, and the complete save beside it taken back (a version 1 one written
        # out as version 2)
        assert beside is not None and same_save(fs.files[p], beside), (name, bad, msg)
        assert fs.files[p + ".bad1"] == bad and "damaged" in msg and "last save" in msg, msg
        return "bad"
    assert isinstance(msg, str) and name in msg, (name, bad, msg)
    # "short of memory" only where the heap really is short: whatever content needs more
    # heap than a file of ours ever does is damaged by the readers' own bounds
    # (engine_mpy/lines.py, parse), on every runtime, before it is parsed; within them a read
    # needs at most its bytes twice over (the bytes and their text) and its reader's code
    # (a module of a few KB, loaded for it) in one piece. So the verdict is accepted only on
    # MicroPython and only when, right after, the test itself cannot get that much in one piece (the capped test heap, in pieces after thousands of
    # files): then the bytes needed more than the heap had, and the file is kept as it is.
    # (tests/both/test_starved_readers.py starves each read on purpose.)
    if "short of memory" in msg:
        assert MPY and heap_short(2 * min(len(bad), 4096) + 4096), (name, bad[:200], msg)
        if p + ".bad1" in fs.files:
            # damaged, set aside, and the complete save beside it taken back: that one was
            # the read short of memory, and it is what is kept as it is
            assert beside is not None and fs.files[p + ".bad1"] == bad and bytes(fs.files[p]) == bytes(beside), msg
        else:
            assert fs.files[p] == bad, msg
        assert "kept as it is" in msg, msg
        return "memory"
    assert "damaged" in msg and (name + ".bad1") in msg, msg
    assert fs.files[p + ".bad1"] == bad and p not in fs.files, (fs.files, msg)
    return "bad"


def heap_short(n):
    """Whether n bytes in one piece cannot be had now, after a collection."""
    import gc
    gc.collect()
    try:
        b = bytearray(n)
    except MemoryError:
        return True
    b = None
    return False


class _NoGC:
    # CPython: gc.collect() (there for MicroPython's heap) walks every object pytest holds;
    # thousands of calls would take most of the run and change nothing.
    @staticmethod
    def collect():
        pass


def collect():
    if MPY:
        import gc
        gc.collect()


def quick(fn, *args):
    """fn(*args) with the session's gc.collect() a no-op on CPython."""
    from firmware.game import session
    if MPY:
        return fn(*args)
    real = session.gc
    session.gc = _NoGC
    try:
        return fn(*args)
    finally:
        session.gc = real


def drop_engines():
    """MicroPython: unload the game engines (the MicroPython test heap holds one at a time, as a
    board does)."""
    from check import forget_engines
    forget_engines()


def fuzzed(seed, count, sources, tokens=False):
    """count fuzzed files from sources, case by case: yields (case, source, bytes)."""
    rng = Rng(seed)
    for case in range(count):
        src = sources[case % len(sources)]
        try:
            data = mutate(rng, src, tokens)
        except MemoryError:
            # the generator's own copies on a fragmented capped heap (MicroPython): a
            # truncated file instead; the loaders' MemoryErrors are what is tested
            collect()
            data = src[:len(src) // 2]
        yield case, src, data
