# Run by tools/bench/bench_table.py under the micropython binary: the server's work in its
# slices, each the least of RUNS timings (the least is the work; a longer one is the shared
# PC doing something else): the standings' part of the JSON, a slice of 4 sheet rows, a
# whole GET /state answered from the kept JSON through microdot (an in-memory connection
# whose writes never wait, so the request is one slice: an upper bound of its work; a real
# socket's writes let the keys in between), and the 304 a phone gets between hands.
#   micropython bench_table_work.py GAME_JSON
import gc
import json
import sys
import time

import asyncio

RUNS = 30


class _App:
    def __init__(self, game):
        from firmware.edges.clock import Clock
        self.clock = Clock()
        self.commits = 0
        self.session = self
        self.game = game


class _Reader:
    def __init__(self, data):
        self.data = data

    async def read(self, n=-1):
        _mark[0] = _lap()
        d = self.data[:n]
        self.data = self.data[n:]
        return d


# The longest stretch of work between two points where the server lets the keys in (its
# naps, and a socket's reads and writes, which wait on the socket): the slice a key may wait.
# A slice in which the heap's garbage was collected (the free heap grew across it: read
# outside the timed stretch) is kept apart: [longest, longest with a collection, heap free].
_mark = [0, 0, 0, 0]


def _lap():
    t = time.ticks_us()
    d = time.ticks_diff(t, _mark[0])
    k = 1
    if _watch[0]:      # (walking the heap takes time: only where slices are timed)
        free = gc.mem_free()
        if free > _mark[3]:
            k = 2
        _mark[3] = free
    if d > _mark[k]:
        _mark[k] = d
    return time.ticks_us()


_watch = [False]


def _slices(f, collected=None):
    best = None
    gcs = 0
    _watch[0] = True
    for _ in range(RUNS):
        gc.collect()
        _mark[1] = _mark[2] = 0
        _mark[3] = gc.mem_free()
        _mark[0] = time.ticks_us()
        f()
        _lap()
        best = _mark[1] if best is None or _mark[1] < best else best
        gcs = _mark[2] if not gcs or (_mark[2] and _mark[2] < gcs) else gcs
    _watch[0] = False
    if collected is not None:
        collected.append(gcs)
    return best


class _Writer:
    def __init__(self):
        self.n = 0

    async def awrite(self, b):
        self.n += len(b)
        _mark[0] = _lap()

    async def aclose(self):
        pass

    def close(self):
        pass

    async def wait_closed(self):
        pass

    def get_extra_info(self, what):
        return ("127.0.0.1", 1)


def least(f):
    best = None
    for _ in range(RUNS):
        gc.collect()
        t = time.ticks_us()
        f()
        t = time.ticks_diff(time.ticks_us(), t)
        best = t if best is None or t < best else best
    return best


def main(path):
    from engine_mpy import saveload, standings
    with open(path) as f:
        g = saveload.loads(f.read())
    out = {}
    out["standings_us"] = least(lambda: json.dumps(standings.page(g, False)))

    def rows4():
        it = standings.sheet_rows(g)
        for _ in range(4):
            json.dumps(next(it))
    out["rows4_us"] = least(rows4)
    from firmware.phones import server
    nap = server._nap

    async def timed_nap(ms):
        _lap()
        await nap(ms)
        _mark[0] = time.ticks_us()
    server._nap = timed_nap
    t = server.Server(_App(g), "127.0.0.1", 0)   # (listening on a port nobody asks)
    srv = t.web
    loop = t.loop
    sent = []

    def request():
        w = _Writer()
        loop.run_until_complete(srv.handle_request(_Reader(b"GET /state HTTP/1.1\r\nHost: x\r\nUser-Agent: phone\r\nAccept: */*\r\n\r\n"), w))
        sent.append(w.n)
    request()              # the JSON made once; then answered from it
    out["request_us"] = least(request)
    out["answer_bytes"] = sent[-1]

    def unchanged():       # what a phone asks every second between hands: a 304
        w = _Writer()
        loop.run_until_complete(srv.handle_request(_Reader(b"GET /state HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + t.etag.encode() + b"\r\n\r\n"), w))
        sent.append(w.n)
    out["request_304_us"] = least(unchanged)
    out["answer_304_bytes"] = sent[-1]
    # the longest slice of each: what a key queued meanwhile waits
    out["request_slice_us"] = _slices(request)
    out["request_304_slice_us"] = _slices(unchanged)

    def fresh():           # a commit: the JSON made again, a few rows at a time
        t.key = None
        loop.run_until_complete(t._fresh())
    gcs = []
    out["json_slice_us"] = _slices(fresh, gcs)
    # the collection the server makes before the JSON (0: none seen), and one alone, timed
    out["json_gc_slice_us"] = gcs[0]
    out["gc_us"] = least(gc.collect)
    print(json.dumps(out))


main(sys.argv[1])
