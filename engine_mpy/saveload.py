# Reading a save (engine_mpy/savefile.py has the format): a record at a time, each replayed
# through the game's rules as it is read, so RAM does not grow with the game's length and
# a file that is malformed or tells an impossible story is refused whole (SaveError).
# A module of its own because the device reads a save only at start: it is dropped from
# RAM after that.
from engine_mpy.savefile import SaveError, HEAD_MAX, value, version, new_game, feed, keep_record
from engine_mpy.lines import read_line, parse, Lines

LINE_MAX = 1024   # a record's line (a Twist hand of six players is under 200)


def load(f, sink=None, keep=None):
    """The game the save in the open binary file f describes. After each record is
    replayed, sink(game, i, norm, start, line) is called: start and line are the record's
    byte offset and its line (version 2), or None (version 1). Without a sink the records
    are kept in RAM (game.records). keep: the records' home, handed to the game. The game
    comes back with .torn: the number of a hand whose line was cut short at the end of
    the file (a save the power cut; it is not part of the game), else 0, and (version 2)
    .size: the bytes of its whole lines."""
    head = read_line(f, HEAD_MAX)
    d = None
    try:
        d = parse(head)
    except ValueError:
        pass
    if not isinstance(d, dict):
        # not a header line: a version 1 save (one long line, or spread over lines), or
        # damage, which the version 1 reader names
        f.seek(0)
        from engine_mpy.saveload_v1 import load_v1
        return load_v1(f, sink, keep)
    v = version(d)
    if v == 1:
        # a short version 1 save: the whole file was that first line
        recs = d.get("records")
        if not isinstance(recs, list):
            raise SaveError("records missing or not a list")
        game = new_game(d, keep)
        for i in range(len(recs)):
            norm = feed(game, recs[i], i)
            recs[i] = None
            keep_record(game, sink, i, norm, None, None)
        return game
    if "records" in d:
        raise SaveError("not a Phase 10 save (a version 2 header holds no records)")
    game = new_game(d, keep)
    d = None
    pos = len(head)
    i = 0
    lines = Lines(f)
    while True:
        line = lines.line(LINE_MAX)
        if not line:
            break
        start = pos
        pos += len(line)
        if line[-1] != 10:       # no newline at its end
            if len(line) == LINE_MAX:
                raise SaveError("hand %d: the line is too long" % (i + 1))
            game.torn = i + 1      # the power went while this line was added
            pos = start
            break
        if line[0] != 123 and not line.strip():    # (a record's line starts with "{")
            continue
        rec = value(line, i)
        norm = feed(game, rec, i)
        rec = None
        keep_record(game, sink, i, norm, start, line)
        i += 1
    game.size = pos        # the bytes of whole lines: where the next line goes
    return game


def loads(text):
    """The game a save's text describes (either version); raises SaveError."""
    import io
    return load(io.BytesIO(text.encode() if isinstance(text, str) else text))
