# The table on phones under abuse, on the loopback only, bounded in count and time: the
# firmware's real app under the micropython binary (tests/table_serve.py) is sent unknown
# paths, a header line that never ends, headers that never end, 50 connections at once,
# clients that send nothing and clients that never read their answer. Each gets an error
# or a dropped connection; the device never stops, a key pressed meanwhile is handled, and
# the save on its flash is never changed.
import socket
import time

import pytest

from table_device import Device
from test_table_page import classic

# How long an answer may take: the device's own time-out (firmware/phones/server.py
# _TIMEOUT_S, 5 s) and a margin for a machine whose cores are busy with other work (the
# device, the test and other runs share them): a deadline, never a budget
LOADED_S = 30


def request(dev, raw, timeout=LOADED_S):
    """The whole answer to raw bytes sent on a fresh connection ("" when dropped)."""
    s = socket.create_connection(("127.0.0.1", dev.port), timeout=timeout)
    try:
        s.sendall(raw)
        out = b""
        while True:
            try:
                b = s.recv(4096)
            except ConnectionResetError:
                break
            if not b:
                break
            out += b
        return out.decode("latin-1")
    finally:
        s.close()


def status(answer):
    return int(answer.split(" ", 2)[1]) if answer.startswith("HTTP/") else None


@pytest.fixture(scope="module")
def dev():
    game, _ = classic()
    d = Device(game)
    d.before = d.saved()
    yield d
    if d.alive():
        d.proc.kill()


def still_serving(dev, timeout=LOADED_S):
    a = request(dev, b"GET /state HTTP/1.0\r\n\r\n", timeout)
    assert status(a) == 200 and '"game": "classic"' in a


def test_unknown_paths_are_404_and_read_no_file(dev):
    for path in ("/game.json", "/settings.json", "/../game.json", "/%2e%2e/game.json", "/etc/passwd",
                 "/state/../game.json", "/table_page.py", "/" + "a" * 1500):
        a = request(dev, b"GET " + path.encode() + b" HTTP/1.0\r\n\r\n")
        assert status(a) == 404, (path, a[:80])
        assert "wifi_pw" not in a and dev.pw not in a and '"records"' not in a
    # a body is refused as a head too big is (firmware/phones/server.py _Head.read): 400, as a
    # request line that is not one
    a = request(dev, b"POST /state HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello")
    assert status(a) == 400, a[:80]
    a = request(dev, b"nonsense\r\n\r\n")
    assert status(a) == 400, a[:80]
    still_serving(dev)


def test_a_header_line_that_never_ends_is_dropped(dev):
    # 16 KB of one header line, eight times the head the server reads (firmware/phones/server.py
    # _HEAD_MAX; microdot's own line limit, max_readline, is the same 2 KB): answered 400
    # and closed. Sent whole before reading (it fits the loopback's buffers), so the answer
    # is read before the reset the unread rest brings (a client still sending met the
    # reset instead, by luck). The connection's time limit would end it with no answer.
    a = request(dev, b"GET /state HTTP/1.0\r\nX-Long: " + b"a" * 16384)
    assert status(a) == 400, a[:80]
    still_serving(dev)


def test_headers_that_never_end_are_dropped(dev):
    s = socket.create_connection(("127.0.0.1", dev.port), timeout=8)
    dropped = False
    try:
        s.sendall(b"GET /state HTTP/1.0\r\n")
        for i in range(20000):
            s.sendall(b"X-%d: b\r\n" % i)
    except (ConnectionResetError, BrokenPipeError):
        dropped = True
    finally:
        s.close()
    assert dropped
    still_serving(dev)


def test_fifty_connections_at_once_and_a_key_pressed_meanwhile():
    # a device of its own: its figures are this test's alone
    game, _ = classic()
    dev = Device(game)
    try:
        socks = [socket.create_connection(("127.0.0.1", dev.port), timeout=8) for _ in range(50)]
        n = len(dev.lines)
        dev.key("DOWN")                    # a player presses a key in the middle of it
        for s in socks:
            s.sendall(b"GET /state HTTP/1.0\r\n\r\n")
        ok = bad = nothing = 0
        for s in socks:
            out = b""
            try:
                while True:
                    b = s.recv(4096)
                    if not b:
                        break
                    out += b
            except (ConnectionResetError, socket.timeout):
                pass
            s.close()
            # the whole state; or nothing at all: past the connections it serves at once
            # (firmware/phones/server.py _LIVE) one is closed before a byte is sent; or microdot's whole
            # 400, when parsing the head ran short of the capped heap beside the four served
            # (seen once in 50 on a loaded machine). Never a part of an answer, a 500 or a reset.
            a = out.decode("latin-1")
            if status(a) == 200:
                assert a.rstrip().endswith("}") and '"game": "classic"' in a, a[-80:]
                ok += 1
            elif out:
                assert status(a) == 400 and a.endswith("\r\n\r\nBad request"), a[:120]
                bad += 1
            else:
                nothing += 1
        # the key was handled and its frame drawn while the fifty were served
        dev.wait_for("KEYMS", 10, n)
        still_serving(dev)
        fig = dev.stop()
    finally:
        if dev.alive():
            dev.proc.kill()
    # four served at once, never more (connected before their heads came, most were
    # stalled ones given up for the next); every connection not answered was closed by
    # the device, each counted once: refused, given up (evicted) or ended by its limits
    assert fig["most"] == 4, fig
    assert ok >= 1 and fig["served"] == ok + 1, (ok, fig)          # (and still_serving's)
    assert fig["refused"] + fig["evicted"] + fig["dropped"] == nothing, (nothing, fig)
    assert fig["handled"] == 1 and fig["pressed"] == 1, fig


def test_clients_that_send_nothing_or_never_read_are_let_go(dev):
    silent = [socket.create_connection(("127.0.0.1", dev.port), timeout=8) for _ in range(6)]
    deaf = []
    for _ in range(6):
        s = socket.create_connection(("127.0.0.1", dev.port), timeout=8)
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")     # and never reads the page
        deaf.append(s)
    dev.key("UP")
    # every connection has its time (firmware/phones/server.py _TIMEOUT_S, 5 s): then it serves
    # again (after 4-5 s when the machine is quiet). Asked until LOADED_S: the asks made while
    # the held connections still fill the server may wait or be dropped
    t0 = time.monotonic()
    while True:
        try:
            still_serving(dev, timeout=6)
            break
        except (AssertionError, OSError):
            assert time.monotonic() - t0 < LOADED_S
            time.sleep(0.25)
    for s in silent + deaf:
        s.close()


def test_the_device_went_on_and_the_save_never_changed(dev):
    assert dev.saved() == dev.before
    fig = dev.stop()
    assert fig["handled"] >= 1           # the key pressed under the abuse was handled
    assert fig["refused"] + fig["dropped"] + fig["evicted"] >= 1
    assert fig["commits"] == 0
    assert dev.saved() == dev.before


def test_eight_stalled_phones_do_not_blank_the_table_for_the_others():
    # issue 41: eight slow clients held the six connections the server took at once, and
    # only 3 of 13 normal asks were answered (2 here before the fix). Here eight clients that stall (four send
    # nothing, four send a head a line every 0.5 s), each connecting again as soon as it is
    # dropped, while a phone asks for /state 13 times: every ask is answered (at the
    # latest when the page asks again, a second later).
    import threading
    game, _ = classic()
    d = Device(game)
    stop = threading.Event()

    def stalled(trickle):
        while not stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", d.port), timeout=8)
            except OSError:
                continue
            try:
                if trickle:
                    s.sendall(b"GET /state HTTP/1.1\r\n")
                while not stop.is_set():
                    if trickle:
                        s.sendall(b"X-Slow: 1\r\n")
                    else:
                        s.settimeout(0.5)
                        try:
                            if s.recv(1) == b"":
                                break          # dropped: connect again
                        except socket.timeout:
                            pass
                        continue
                    if stop.wait(0.5):
                        break
            except OSError:
                pass                   # dropped: connect again
            finally:
                s.close()

    slow = [threading.Thread(target=stalled, args=(i % 2,), daemon=True) for i in range(8)]
    try:
        for t in slow:
            t.start()
        time.sleep(1)                  # they hold every connection the server takes
        # each ask as the page makes it: one that finds no answer is made again a second
        # later (tools/build/table_page/table.html). On a machine whose cores are busy the server
        # may take a new ask's head later than a stalled client comes again, and the ask,
        # silent until then, is the one let go: the page's next ask is answered
        answered = 0
        got = []
        for _ in range(13):
            for _ in range(2):
                t0 = time.monotonic()
                try:
                    a = request(d, b"GET /state HTTP/1.0\r\n\r\n")
                    got.append((status(a), a[:30], round(time.monotonic() - t0, 2)))
                except OSError as e:
                    a = ""
                    got.append((e, round(time.monotonic() - t0, 2)))
                if status(a) == 200:
                    answered += 1
                    break
                time.sleep(1)
            time.sleep(0.4)
        stop.set()
        for t in slow:
            t.join(10)
        fig = d.stop()
    finally:
        stop.set()
        if d.alive():
            d.proc.kill()
    assert answered == 13, "%d of 13 asks answered, %s %s %s" % (answered, fig, got, d.lines[-8:])
    assert fig["evicted"] >= 13
