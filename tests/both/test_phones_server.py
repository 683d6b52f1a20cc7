# The table on phones' server (firmware/phones/server.py) on both runtimes, its connections
# fed by hand (a request's bytes in, the answer's bytes kept): how many asks it serves at
# once. tests/test_table_abuse.py sends it real connections on the loopback.
import host_sim  # noqa: F401  (the virtual clock)
from host_sim.vclock import VirtualClock
from firmware.phones.server import Server


class _App:
    """What the server reads of the app: no game running, the commits, the clock."""

    def __init__(self):
        self.session = None
        self.commits = 0
        self.clock = VirtualClock()
        self.server = None


class _Reader:
    """A phone's side of a connection: its request's bytes, then nothing more."""

    def __init__(self, data):
        self.data = data

    async def read(self, n=-1):
        d = self.data[:n] if n >= 0 else self.data
        self.data = self.data[len(d):]
        return d


class _Writer:
    """The answer's side: every byte written kept, and whether it was closed."""

    def __init__(self):
        self.data = b""
        self.closed = False

    def get_extra_info(self, what):
        return ("127.0.0.1", 5000)

    def write(self, b):
        self.data += b

    async def drain(self):
        pass

    async def awrite(self, b):
        self.data += b

    def close(self):
        self.closed = True

    async def wait_closed(self):
        pass

    async def aclose(self):
        self.closed = True


def _never():
    return False


def _ask(srv):
    """A connection asking for /state, handed to the server as asyncio's listener would."""
    c = (_Reader(b"GET /state HTTP/1.0\r\n\r\n"), _Writer())
    srv.loop.create_task(srv.web.handle_request(c[0], c[1]))
    return c


def test_four_asks_are_served_at_once_and_a_fifth_is_closed_unanswered():
    srv = Server(_App(), "127.0.0.1", 0)
    try:
        # every /state ask waits where it would while another makes the JSON: the four
        # let in stay under way, their heads all read (none stalled)
        srv.building = True
        first = [_ask(srv) for _ in range(4)]
        srv.wait(100, _never)
        assert srv.served == 4 and srv.web.live == 4, (srv.served, srv.web.live)
        r, w = _ask(srv)
        srv.wait(100, _never)
        # (none of the four is stalled: their heads are in and they came well within
        # the server's _STALL_MS, so none gives its place)
        assert srv.web.evicted == 0, "a connection under way was taken for a stalled one"
        assert srv.web.refused == 1 and srv.served == 4 and srv.web.most == 4, \
            "%d asks served at once, %d refused: the server takes four" % (srv.served, srv.web.refused)
        assert w.closed and w.data == b"", w.data
        srv.building = False
        srv.wait(300, _never)
        for r, w in first:
            assert w.closed and w.data.startswith(b"HTTP/1.0 200 OK\r\n"), w.data[:40]
            assert w.data.endswith(b'{"none": "No game is running on the device."}'), w.data[-60:]
        assert srv.web.live == 0
        # room again: the next ask is served
        r, w = _ask(srv)
        srv.wait(100, _never)
        assert srv.served == 5 and w.data.startswith(b"HTTP/1.0 200 OK\r\n"), w.data[:40]
    finally:
        srv.stop()
