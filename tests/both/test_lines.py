# engine_mpy/lines.py's Lines: a file's lines one at a time through one block, the same
# lines read_line gives, whatever the block's size against the lines' lengths.
import io

from engine_mpy.lines import Lines, read_line

TEXT = (b'{"format":"phase10","v":2}\n' + b'{"out":0,"left":[null,[10,0,0,0]]}\n' + b"\n"
        + b"x" * 300 + b"\n" + b"ab\n" + b"tail without newline")


def every_line(read):
    out = []
    while True:
        line = read()
        if not line:
            return out
        out.append(line)


def test_lines_are_read_lines_for_any_block_size():
    f = io.BytesIO(TEXT)
    want = every_line(lambda: read_line(f, 1024))
    assert want[-1] == b"tail without newline" and len(want) == 6
    for size in (1, 2, 7, 16, 64, 256, 1000):
        r = Lines(io.BytesIO(TEXT), size)
        assert every_line(lambda: r.line(1024)) == want, size


def test_a_line_past_the_limit_comes_back_cut_at_the_limit():
    for size in (8, 64, 256):
        r = Lines(io.BytesIO(TEXT), size)
        r.line(1024)
        r.line(1024)
        r.line(1024)
        long = r.line(100)
        assert long == b"x" * 100, size     # no newline: the caller refuses it
        f = io.BytesIO(TEXT)
        for _ in range(3):
            read_line(f, 1024)
        assert read_line(f, 100) == long


def test_reading_starts_where_the_file_is():
    f = io.BytesIO(TEXT)
    head = read_line(f, 1024)
    r = Lines(f, 16)
    assert head == b'{"format":"phase10","v":2}\n'
    assert r.line(1024) == b'{"out":0,"left":[null,[10,0,0,0]]}\n'
