# The history of earlier firmware (version 1: one JSON list of at most 20 games), read and
# written out as version 2 by the first finish (firmware/history/entries.py). Loaded only for it.
import json

from engine_mpy.lines import parse
from firmware.files.store import HISTORY
from firmware.history.entries import HEAD, check_entry

_V1_MAX = 16384
# 20 games of a few lists and a few dozen values each
_V1_LISTS = 256
_V1_ITEMS = 2048


def games_v1(text):
    """The games of a version 1 history's text (one JSON list), checked; ValueError when
    it is not one."""
    v = parse(text, _V1_LISTS, _V1_ITEMS)
    if not isinstance(v, list):
        raise ValueError("not a list of games")
    for x in v:
        check_entry(x)
    return v


def v1_games(store):
    """(games, message, unread) as firmware/files/storeread.py reads: the version 1
    history's games ([] when there is none or it was damaged, None when unread)."""
    from firmware.files import storeread
    text, msg, unread = storeread.read(store, HISTORY, games_v1, _V1_MAX)
    if unread:
        return None, msg, True
    return ([] if text is None else parse(text, _V1_LISTS, _V1_ITEMS)), msg, False


def from_v1(store, e, line, notes):
    """Game e (line(put) hands over its line) added to the version 1 history, which is
    written out as version 2. None, or why not (nothing changed)."""
    games, msg, unread = v1_games(store)
    if unread:
        store.full = False     # not for want of room: none is made for it
        return msg
    if msg:
        notes.append(msg)
    n = e["n"]

    def writer(put):
        put(HEAD)
        for i in range(len(games)):
            g = games[i]
            g["n"] = n - len(games) + i
            put(json.dumps(g, separators=(",", ":")))
            put("\n")
        line(put)
    return store.write_atomic(HISTORY, writer)
