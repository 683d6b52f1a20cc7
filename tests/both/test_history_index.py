# Indexing a history file (firmware/history/entries.py index): the line starts and each line's
# number read off its first bytes while they are in the chunk being read, against a plain
# reference over the whole text, for seeded random files: lines long and short, numbers
# of every width, lines that are not games, "\r" inside lines, heads cut by the chunk's
# end, a last line with no newline. On MicroPython the line ends are found by native code
# (firmware/draw/fastdraw_src.py newline_at, loaded by firmware/draw/gfx.py), which must load;
# CPython uses bytes.find.
# micropython heap: 192K
import io
import sys

from firmware.draw import gfx  # noqa: F401  (the display's drawing code: the device loads it at start)
from firmware.history import entries
from firmware.history.histadd import newest
from lcg import Lcg

MPY = sys.implementation.name == "micropython"
HEAD = entries.HEAD.encode()


def _line(r, n):
    k = r.below(8)
    if k == 0:
        return b"not a game at all"
    if k == 1:
        return b'{"n":x,"game":"classic"}'
    if k == 2:
        return ('{"n":%d,"game":"dice","sheet":"a\rb"}' % n).encode()
    pad = "0" * r.below(700)
    return ('{"n":%d,"game":"classic","players":["Ann","Bob"],"sheet":"%s"}' % (n, pad)).encode()


def _file(r):
    lines = [HEAD.rstrip(b"\n")]
    n = 10 ** r.below(9) + r.below(50)
    for _ in range(r.below(30)):
        lines.append(_line(r, n))
        n += 1 + r.below(2)
    text = b"\n".join(lines) + b"\n"
    if len(lines) > 1 and r.below(4) == 0:
        text = text[:-1]          # the last line has no newline
    return text


def _reference(text):
    """(line starts, numbers as the first bytes say them or None) of every line after
    the header that ends in a newline."""
    starts, nums = [], []
    pos = text.index(b"\n") + 1
    while True:
        j = text.find(b"\n", pos)
        if j < 0:
            break
        starts.append(pos)
        nums.append(entries.number_in(text[pos:pos + 16]))
        pos = j + 1
    return starts, nums


def test_the_native_line_search_is_the_one_that_runs_on_micropython():
    assert (entries.newline_search() is not None) == MPY
    if MPY:
        b = bytearray(b"ab\ncd\n")
        assert [entries.newline_search()(b, 0, 6), entries.newline_search()(b, 3, 6), entries.newline_search()(b, 6, 6),
                entries.newline_search()(b, 0, 2)] == [2, 5, -1, -1]
        # four bytes at a time: every offset and length against bytes.find
        r = Lcg(3)
        for case in range(300):
            b = bytearray(r.below(40))
            for i in range(len(b)):
                b[i] = 10 if r.below(9) == 0 else (r.below(256) | 1) ^ (r.below(2) * 3)
            k = r.below(len(b) + 1)
            n = k + r.below(len(b) - k + 1)
            assert entries.newline_search()(b, k, n) == b.find(b"\n", k, n), (case, bytes(b), k, n)


def test_the_index_finds_every_line_and_the_numbers_its_chunks_hold():
    r = Lcg(25)
    for case in range(60):
        text = _file(r)
        ix = entries.index(io.BytesIO(text))
        starts, nums = _reference(text)
        whole = text.endswith(b"\n")
        got = list(ix.starts)
        if not whole and ix.open_end:
            got = got[:-1]        # the last line, a whole game without its newline
        assert got == starts, case
        assert len(ix.nums) == len(ix.starts)
        for k in range(len(starts)):
            want = -1 if nums[k] is None else nums[k]
            # read while in the chunk, else left for newest() to read (-1)
            assert ix.nums[k] in (want, -1), (case, k)
            if ix.nums[k] == -1 and want != -1:
                assert starts[k] // 512 != (starts[k] + 15) // 512 or starts[k] + 15 > len(text), (case, k)


class _Store:
    """Just what newest() opens: the one file, in RAM."""

    def __init__(self, text):
        self.text = text

    def open(self, name, mode):
        return io.BytesIO(self.text)


def test_the_newest_game_is_the_same_with_or_without_the_numbers_the_index_read():
    r = Lcg(77)
    for case in range(40):
        text = _file(r)
        ix = entries.index(io.BytesIO(text))
        got = newest(_Store(text), "history.json", ix)
        for k in range(len(ix.nums)):
            ix.nums[k] = -1           # as if no head had been in its chunk
        assert newest(_Store(text), "history.json", ix) == got, case


def test_a_line_s_number_is_read_off_its_first_bytes_as_the_index_reads_it():
    # number_in (a line's first bytes) and the index's reading of a chunk are one rule:
    # '{"n":', 1 to 9 digits, a comma; anything else, or the comma not there yet, is no
    # number (the index then reads the line again from the file)
    from firmware.history.entries import number_in
    assert number_in(b'{"n":5,"game":"classic"') == 5
    assert number_in(b'{"n":5,}') == 5                   # a short line: its comma is there
    assert number_in(b'{"n":123456789,"game"') == 123456789
    assert number_in(b'{"n":1234567890,"gam') is None    # ten digits: over N_MAX
    assert number_in(b'{"n":,"game":"classic"') is None
    assert number_in(b'{"n":12') is None                 # cut before its comma
    assert number_in(b'{"n":1x,"game"') is None
    assert number_in(b'{"game":"x","n":5,') is None
    assert number_in(b'') is None
