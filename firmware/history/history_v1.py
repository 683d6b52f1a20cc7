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


def v1_games(store, notes):
    def check(text):
        v = parse(text, _V1_LISTS, _V1_ITEMS)
        if not isinstance(v, list):
            raise ValueError("not a list of games")
        for x in v:
            check_entry(x)
        return v
    from firmware.files import storeread
    text, msg, unread = storeread.read(store, HISTORY, check, _V1_MAX)
    if unread:
        raise OSError(msg)
    if msg:
        notes.append(msg)
    return [] if text is None else parse(text, _V1_LISTS, _V1_ITEMS)


def v1_count(store, notes):
    return len(v1_games(store, notes))


def from_v1(store, e, line, notes):
    games = v1_games(store, notes)
    n = e["n"]

    def writer(put):
        put(HEAD)
        for i in range(len(games)):
            g = games[i]
            g["n"] = n - len(games) + i
            put(json.dumps(g, separators=(",", ":")))
            put("\n")
        line(put)
    return None if store.write_atomic(HISTORY, writer) else store.error
