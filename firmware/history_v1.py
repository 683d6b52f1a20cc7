# The history of earlier firmware (version 1: one JSON list of at most 20 games), read and
# written out as version 2 by the first finish (firmware/history.py). Loaded only for it.
import json

from firmware.store import HISTORY
from firmware.history import _HEAD, check_entry

_V1_MAX = 16384


def v1_games(store, said):
    def check(text):
        v = json.loads(text)
        if not isinstance(v, list):
            raise ValueError("not a list of games")
        for x in v:
            check_entry(x)
        return v
    text, msg, unread = store.read(HISTORY, check, _V1_MAX)
    if unread:
        raise OSError(msg)
    if msg:
        said.append(msg)
    return [] if text is None else json.loads(text)


def v1_count(store, said):
    return len(v1_games(store, said))


def from_v1(store, e, line, said):
    games = v1_games(store, said)
    n = e["n"]

    def writer(put):
        put(_HEAD)
        for i in range(len(games)):
            g = games[i]
            g["n"] = n - len(games) + i
            put(json.dumps(g, separators=(",", ":")))
            put("\n")
        put(line)
    return None if store.write_atomic(HISTORY, writer) else store.error
