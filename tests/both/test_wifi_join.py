# The network set from the PC, on the device's side and on both runtimes: wifi.json as the
# host command writes it read by the device's reader (a damaged one set aside and said), and
# the table joining it through firmware/phones/net.py against the fake station (host_sim/twin/
# network.py): the address once joined, why not when it fails, the server stopped then.
# micropython heap: 160K
# (the table's server, microdot and asyncio beside the fake flash: as make bench-table)
import sys

import host_sim

_twin = host_sim.__file__.rsplit("/", 1)[0] + "/twin"
if _twin not in sys.path:
    sys.path.insert(0, _twin)

import network  # noqa: E402  (the fake, from host_sim/twin)

from fakeflash import FakeFlash  # noqa: E402
from firmware.files.store import Store  # noqa: E402
from firmware.files import wifi_file
from firmware.phones import control  # noqa: E402
from host_sim.vclock import VirtualClock  # noqa: E402

NAME = "Caf\u00e9 \u2615 5G"
PW = "correct horse"


def store_with(data):
    fs = FakeFlash({"/wifi.json": data} if data is not None else {})
    return fs, Store("/", fs, fs.open)


def test_the_host_commands_text_is_read_back_as_written():
    fs, st = store_with(wifi_file.text(NAME, PW).encode())
    assert wifi_file.load(st) == ({"ssid": NAME, "pw": PW}, None, False)
    key = "0123456789ABCDEFabcdef0123456789" * 2
    fs, st = store_with(wifi_file.text("Home", key).encode())
    assert wifi_file.load(st)[0] == {"ssid": "Home", "pw": key}
    assert wifi_file.load(store_with(None)[1]) == (None, None, False)


def test_a_name_past_the_first_plane_is_read_back_as_written():
    # eight emoji are 32 bytes: written escaped (\ud83d\ude00), MicroPython's json read
    # them back as 16 halves of 3 bytes each and set the file aside (issue 42)
    for name in ("\U0001F600" * 8, "Caf\u00e9 \U0001F600"):
        data = wifi_file.text(name, PW).encode()
        assert b"\\u" not in data and name.encode() in data
        fs, st = store_with(data)
        assert wifi_file.load(st) == ({"ssid": name, "pw": PW}, None, False)


def test_halves_of_a_character_are_refused_and_said():
    # a lone half, as a file written by hand may hold (and MicroPython reads an escaped
    # pair, as an earlier PC companion wrote it, as two of them)
    fs, st = store_with(b'{"ssid": "Caf\\u00e9 \\ud83d!", "pw": "correct horse"}')
    net, msg, unread = wifi_file.load(st)
    assert net is None and not unread and "half a character" in msg and "wifi.json.bad1" in msg, msg
    assert "half a character (U+D800)" in wifi_file.check(chr(0xD800), PW)


def test_the_checks_count_bytes_and_characters():
    assert wifi_file.check("\u00e9" * 16, PW) is None          # 32 bytes
    assert "34" in wifi_file.check("\u00e9" * 17, PW)
    assert wifi_file.check("a" * 32, "x" * 63) is None
    assert "8 to 63" in wifi_file.check("a", "x" * 7)
    assert "hex" in wifi_file.check("a", "g" * 64)
    assert "printable" in wifi_file.check("a", "caf\u00e9 caf\u00e9")
    assert "text" in wifi_file.check(None, PW) and "text" in wifi_file.check("a", 12345678)


def test_a_damaged_file_is_set_aside_and_said():
    for bad in (b'{"ssid": "", "pw": "long enough"}', b'{"ssid": "Home", "pw": "short"}',
                b'["Home", "long enough"]', b'{"ssid": "Ho', b"\xff\xfe", b"",
                b'{"ssid": "' + b"a" * 300 + b'", "pw": "long enough"}'):
        fs, st = store_with(bad)
        net, msg, unread = wifi_file.load(st)
        assert net is None and not unread, bad
        assert "wifi.json was damaged" in msg and "wifi.json.bad1" in msg, msg
        assert fs.files["/wifi.json.bad1"] == bad and "/wifi.json" not in fs.files


class _Board:
    WIFI = "cyw43"
    NAME = "pico_w"


class _Screen:
    module = "menu"
    dirty = False


class _App:
    """What control.switch and the table use of the app: its settings, clock, messages."""

    def __init__(self, mode):
        self.settings = {"table": mode}
        self.board = _Board()
        self.clock = VirtualClock(0)
        # (the fields firmware/app.py App declares for the server)
        self.server = None
        self.server_mode = None
        self.server_url = None
        self.server_fail = None
        self.wifi_net = {"ssid": NAME, "pw": PW}
        self.server_host = "127.0.0.1"
        self.server_port = 0        # any free port
        self.messages = []
        self.stack = [_Screen()]
        self.session = None
        self.commits = 0

    def say(self, msg):
        if msg:
            self.messages.append(msg)

    def tell(self):
        pass

    def top(self):
        return self.stack[-1]


def _never():
    return False


def run(app, ms):
    for _ in range(ms // 50):
        t = app.server
        if t is None:
            app.clock.wait(50, _never)
        else:
            t.wait(50, _never)


def test_a_join_gives_the_address_and_a_failure_stops_the_server():
    network.CONFIG["ip"] = "127.0.0.1"
    network.NETWORKS = {NAME: PW}
    try:
        app = _App("join")
        control.switch(app)
        assert app.server is not None and app.server_url is None
        assert network.STATION["ssid"] == NAME and network.STATION["key"] == PW
        run(app, 2000)
        assert app.server_url == "http://127.0.0.1:0/" and app.server.watch is None
        control.switch(app)                 # unchanged: nothing happens
        assert app.server is not None
        app.settings["table"] = False
        control.switch(app)
        assert app.server is None and network.STATION["active"] is False
        for networks, why in (({NAME: "wrong horse"}, "wrong password"), ({"Other": PW}, "not found")):
            network.NETWORKS = networks
            app = _App("join")
            control.switch(app)
            run(app, 2000)
            assert app.server is None and app.server_fail == why
            assert network.STATION["active"] is False
            assert len(app.messages) == 1 and "could not join " + NAME in app.messages[0]
        # no answer: given up after JOIN_MS of the app's clock (20 s on the device; 2 s
        # here, as the server's waits take real time)
        network.NETWORKS = {NAME: None}
        control.JOIN_MS = 2000
        app = _App("join")
        control.switch(app)
        run(app, 1500)
        assert app.server is not None and app.server_fail is None
        run(app, 1000)
        assert app.server is None and app.server_fail == "timeout"
        assert "no answer in 2 s" in app.messages[0]
    finally:
        control.JOIN_MS = 20000
        network.NETWORKS = None
        network.CONFIG.pop("ip", None)
