# The table on phones: a read-only page with the standings, the whole score sheet, the
# Twist board and the winner, served over the device's own Wi-Fi by Microdot (PyPI
# `microdot`, the maintained MicroPython web framework; docs/table-on-phones.md says why).
# Loaded only while Settings > Phones is on (firmware/phones/control.py).
#
# It runs beside the app loop, not in a thread: the loop's pause between keys (App.step,
# at most POLL_MS) is spent in wait(), which runs asyncio's loop until the time is up or a
# key is queued (the buttons are sampled on a timer, so a press is never lost, only kept
# until the server's current slice of work ends; make bench-table measures that slice).
#
# Two routes, both GET: "/" the page (firmware/phones/page.py, gzipped, cached by the phone
# by its ETag) and "/state" the game as JSON (engine_mpy/standings.page), made once per
# commit and kept in small parts until the next; the page asks for it every second and an
# unchanged game costs a 304. No request names a file: nothing is read from the flash here.
# Abuse is bounded: at most _LIVE connections at once, a request's head at most _HEAD_MAX
# bytes (read in small pieces, never a whole endless line), and _TIMEOUT_S seconds for a
# connection's whole life. With _LIVE open, a new connection takes the place of a stalled
# one (still sending its head, which a phone sends at once, or open over _STALL_MS): the
# one that has sent nothing for the longest. So one player's stalled phone (or a browser's
# spare connection, opened ahead and left silent) cannot hold the page from the others;
# only with _LIVE asks really under way is a new one closed at once.
import gc
import json
import time

import asyncio

from microdot import Microdot, Response

from firmware.phones import page
from firmware.edges.clock import Clock

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# (6 at once ran the tests' 208 KB heap out while stalled clients were replaced: 4 do not)
_LIVE = const(4)
_HEAD_MAX = const(2048)
_TIMEOUT_S = const(5)
_STALL_MS = const(2000)
_PIECE = const(256)
_SIM_SLICE_MS = const(5)     # the simulator's pause, served in pieces (see wait)
# A head too big (or a body, which no route takes): raised as ECONNRESET, which microdot
# takes quietly; it answers 400 if the client still listens, and closes.
_TOO_BIG = const(104)

_sleep_ms = getattr(asyncio, "sleep_ms", None)
# MicroPython: the heap's garbage is collected before the JSON is made (see _make)
_ON_MPY = hasattr(gc, "mem_free")
_ROWS = const(2)          # sheet rows made between two looks at the keys
_ROOM = const(8192)       # free heap wanted beyond the JSON's own before making it

# microseconds, for the figures make bench-table reports, and milliseconds, both real
_us = getattr(time, "ticks_us", None) or (lambda: int(time.perf_counter() * 1000000))
_us_diff = getattr(time, "ticks_diff", None) or (lambda a, b: a - b)
_ms = getattr(time, "ticks_ms", None) or (lambda: int(time.monotonic() * 1000))
_ms_diff = _us_diff


async def _nap(ms):
    if _sleep_ms is not None:
        await _sleep_ms(ms)
    else:
        await asyncio.sleep(ms / 1000)


class _Head:
    """A connection's reader that gives microdot lines of the request's head, reading
    at most _HEAD_MAX bytes in pieces: an endless header line cannot fill the heap."""

    def __init__(self, reader, conn):
        self.r = reader
        self.buf = b""
        self.left = _HEAD_MAX
        self.conn = conn        # its connection's record (_Web.conns): the head's end is told

    async def readline(self):
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = self.buf[:i + 1]
                self.buf = self.buf[i + 1:]
                if i <= 1:
                    self.conn[2] = False    # the empty line: the head is all here
                await _nap(0)     # a line at a time: the keys are looked at in between
                return line
            if self.left <= 0:
                raise OSError(_TOO_BIG)
            data = await self.r.read(_PIECE if self.left > _PIECE else self.left)
            if not data:
                line = self.buf
                self.buf = b""
                return line
            self.left -= len(data)
            self.buf += data
            self.conn[3] = _ms()

    async def read(self, n=-1):
        raise OSError(_TOO_BIG)       # no route takes a body

    async def readexactly(self, n):
        raise OSError(_TOO_BIG)


class _Web(Microdot):
    # The routes and the connections (Microdot's own .server is asyncio's listening one)
    def __init__(self, owner):
        Microdot.__init__(self)
        self.owner = owner     # the Server it answers for: its page, its state, its figures
        self.live = 0
        # the open connections: [its task, when it came (ms), still sending its head,
        # when its last bytes came (ms)]
        self.conns = []
        self.refused = 0       # connections closed at once: _LIVE were open, none stalled
        self.dropped = 0       # connections ended by the timeout or an error
        self.evicted = 0       # stalled connections closed for a new one
        self.most = 0          # the most connections served at once (at most _LIVE)
        self.route("/")(owner.page)
        self.route("/state")(owner.state)

    async def handle_request(self, reader, writer):
        if self.live >= _LIVE and not self._make_room():
            self.refused += 1
            await _close(writer)
            return
        now = _ms()
        me = [asyncio.current_task(), now, True, now]
        self.conns.append(me)
        if len(self.conns) > self.most:
            self.most = len(self.conns)
        self.live += 1
        t0 = _us()
        try:
            await asyncio.wait_for(Microdot.handle_request(self, _Head(reader, me), writer), _TIMEOUT_S)
        except Exception:      # a timeout, a dropped client, a heap too full: that one goes
            self.dropped += 1
            await _close(writer)
        except BaseException:  # (cancelled: its place was given to a new connection)
            await _close(writer)
        finally:
            self.live -= 1
            if me in self.conns:
                self.conns.remove(me)
            t0 = _us_diff(_us(), t0)
            if t0 > self.owner.request_max_us:
                self.owner.request_max_us = t0

    def _make_room(self):
        """Cancel the stalled connection silent for the longest (see the top): True if
        there was one."""
        now = _ms()
        old = None
        for c in self.conns:
            if (c[2] or _ms_diff(now, c[1]) > _STALL_MS) and (old is None or _ms_diff(c[3], old[3]) < 0):
                old = c
        if old is None:
            return False
        self.conns.remove(old)
        old[0].cancel()
        self.evicted += 1
        return True


async def _close(writer):
    try:
        writer.close()
        await writer.wait_closed()
    except Exception:
        pass


def _never():
    return False


class Server:
    """The page's server on app (app.server while the setting is on)."""

    def __init__(self, app, host, port):
        self.app = app
        self.key = None         # what the kept JSON was made from (see _fresh)
        self.body = None        # the JSON in parts (_make), and its length
        self.size = 0
        self.building = False   # a request is making it (the others wait for that one)
        self.etag = None
        self.made = 0           # JSON bodies made (one per commit at most)
        self.served = 0         # requests answered
        self.errors = 0         # waits that failed (see wait)
        self.ready = None       # whether a key is queued (wait's ready), while it serves
        # Called at each wait while the device joins a network (firmware/phones/control.py): it may
        # stop this server (the join failed), and then the pause is spent without it.
        self.watch = None
        # What a key queued meanwhile may wait (make bench-table reports them): the longest
        # a wait() ran past its time (ms, the real clock), the longest slice of making the
        # JSON between two looks at the keys, and the longest a request took from its
        # connection to its close (us, I/O waits included).
        self.late_max = 0
        self.slice_max_us = 0
        self.request_max_us = 0
        self.loop = asyncio.new_event_loop()
        self.web = _Web(self)
        self.task = self.loop.create_task(self.web.start_server(host, port))
        # the socket listens from here on, or why not is raised (a port taken, no room)
        for _ in range(50):
            self.loop.run_until_complete(_nap(1))
            if self.task.done():
                self.loop.run_until_complete(self.task)   # raises what stopped it
                raise OSError("the server stopped")
            if getattr(self.web, "server", None) is not None:
                break

    def wait(self, ms, ready):
        """Serve for up to ms, returning within about 2 ms once ready() (a key queued)."""
        if self.watch is not None:
            self.watch()
            if self.app.server is not self:
                self.app.clock.wait(ms, ready)
                return
        t0 = _ms()
        self.ready = ready
        clk = self.app.clock
        # The simulator's virtual clock moves only when told, and the buttons' sampling
        # fires as it moves: it is moved along with the real time served, a sampling period
        # at a time, so a key pressed meanwhile ends the pause as on a board (moved once at
        # the end, every key waited for the whole pause: 100 ms when idle). A board: one go.
        virtual = not isinstance(clk, Clock)
        left = ms
        try:
            while left > 0:
                n = _SIM_SLICE_MS if virtual and left > _SIM_SLICE_MS else left
                self.loop.run_until_complete(self._wait(n, ready))
                left -= n
                if virtual:
                    clk.wait(n, ready)
                if ready():
                    break
        except Exception:
            # (short of memory in asyncio's own work, say): the server's trouble never
            # stops the device; the pause is spent as without a server
            self.errors += 1
            clk.wait(left, ready)
            return
        late = _ms_diff(_ms(), t0) - ms
        if late > self.late_max:
            self.late_max = late

    async def _wait(self, ms, ready):
        # the real time: sockets wait on it, whatever clock the app runs on
        t0 = _ms()
        while not ready():
            left = ms - _ms_diff(_ms(), t0)
            if left <= 0:
                return
            await _nap(left if left < 2 else 2)

    def stop(self):
        try:
            self.web.shutdown()
            self.wait(20, _never)
        except Exception:
            pass
        self.body = None

    # --- the routes -------------------------------------------------------------------
    def page(self, req):
        self.served += 1
        h = {"Content-Type": "text/html; charset=UTF-8", "Cache-Control": "no-cache",
             "ETag": page.ETAG}
        if req.headers.get("If-None-Match") == page.ETAG:
            return Response(b"", 304, h)
        h["Content-Encoding"] = "gzip"
        return Response(page.PAGE, 200, h)

    async def state(self, req):
        self.served += 1
        await _nap(0)     # the keys, between microdot's parsing and the answer
        await self._fresh()
        h = {"Content-Type": "application/json", "Cache-Control": "no-cache", "ETag": self.etag}
        if req.headers.get("If-None-Match") == self.etag:
            return Response(b"", 304, h)
        h["Content-Length"] = str(self.size)
        return Response(iter(self.body), 200, h)

    async def _fresh(self):
        # Made again only when a commit happened (App.commits) or the game changed (a new
        # one, a finish): a phone asking every second costs nothing between hands. It is
        # made a few rows at a time, the keys looked at in between (the loop may then
        # handle one and commit a hand: what was made is thrown away and made again).
        app = self.app
        while self.building:
            await _nap(1)         # another phone's ask is making it: that one serves both
        for tries in range(3):
            s = app.session
            g = s.game if s is not None else None
            key = (app.commits, id(g))
            if key == self.key and self.body is not None:
                return
            self.body = None      # (in small parts: no collection needed for room)
            self.building = True
            try:
                body = await self._make(g)
            except (IndexError, KeyError, TypeError, ValueError, AttributeError):
                if tries == 2:
                    raise         # not a change under it: a fault (microdot answers 500)
                body = None       # the game changed under it: made again
            finally:
                self.building = False
            s = app.session
            if body is not None and key == (app.commits, id(s.game if s is not None else None)):
                self.body = body
                n = 0
                for part in body:
                    n += len(part)
                self.size = n
                self.key = key
                self.made += 1
                self.etag = '"%d-%d"' % (app.commits, self.made)
                return
        raise OSError(11)         # (EAGAIN) changed three times while being made: ask again

    async def _make(self, g):
        """The JSON in small parts (a list of bytes): a 55-hand sheet in one block would
        need 8 KB or more of the heap in one piece, which a long game's heap may not have."""
        t0 = _us()
        if g is None:
            return [json.dumps({"none": "No game is running on the device."}).encode()]
        from engine_mpy import standings
        # the keys first: what came before (a request's head, asyncio's own work) is a
        # slice of its own, not added to the standings' slice
        self._slice(t0)
        await _nap(0)
        # Making it takes about twice its size, garbage included: when the heap has not
        # that much free, it is collected first, at a moment without a key queued (as the
        # app collects in a poll without a key), not when the heap fills in the middle of
        # some slice. A collection takes as long as the heap is big (make bench-table's
        # json_gc figure); finding what is free walks the heap too: a slice of its own.
        if _ON_MPY and gc.mem_free() < 3 * self.size + _ROOM:
            await _nap(0)
            while self.ready is not None and self.ready():
                await _nap(1)
            gc.collect()
        await _nap(0)
        t = _us()
        try:
            # the players' figures, the page's head, each player and the sheet, a few
            # rows at a time (a long slice of making it would be a long wait for a key
            # pressed meanwhile)
            rows = standings.figures(g)
            self._slice(t)
            await _nap(0)
            t = _us()
            it = standings.page_parts(g, rows)
            rows = None
            head = json.dumps(next(it))
            parts = [(head[:-1] + ', "players": [').encode()]
            head = None
            sep = ""
            for p in it:
                self._slice(t)
                await _nap(0)
                t = _us()
                parts.append((sep + json.dumps(p)).encode())
                sep = ","
            it = None
            parts.append(b'], "sheet": [')
            self._slice(t)
            await _nap(0)
            t = _us()
            sep = ""
            n = 0
            for row in standings.sheet_rows(g):
                parts.append((sep + json.dumps(row)).encode())
                sep = ","
                n += 1
                if n % _ROWS == 0:
                    self._slice(t)
                    await _nap(0)
                    t = _us()
            parts.append(b"]}")
        finally:
            r = getattr(g, "records", None)
            if r is not None and hasattr(r, "close"):
                r.close()     # (the save's file, read by a Twist sheet: not kept open)
        self._slice(t)
        return parts

    def _slice(self, t):
        t = _us_diff(_us(), t)
        if t > self.slice_max_us:
            self.slice_max_us = t
