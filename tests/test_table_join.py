# The table on phones on a network set from the PC (wifi.json, `python -m host_sim wifi`),
# in the simulator: Settings > Phones offers "join Wi-Fi" once a network is set; the fake
# station (host_sim/twin/network.py) joins it, or fails as the test tells it, and the device
# shows the address and its QR code, or why it cannot join with the offer of its own
# network. The page is served on the joined address.
import json
import threading
import urllib.request

import pytest

from host_sim import script, sim
from tests.table_keys import menu
from table_device import free_port

sim.use_fake_machine()

NET = {"ssid": "Kitchen 5G", "pw": "correct horse"}


@pytest.fixture
def station(monkeypatch):
    # the server's waits take real time beside the simulator's clock: a join gives up
    # after 2 s here (20 s on the device), so a test waits 3 s, not 25
    from firmware.phones import control
    monkeypatch.setattr(control, "JOIN_MS", 2000)
    import network
    yield network
    network.NETWORKS = None
    network.JOIN_POLLS = 3
    network.STATION.clear()


def device(tmp_path, net=NET, settings=None):
    if net is not None:
        (tmp_path / "wifi.json").write_text(json.dumps(net))
    if settings is not None:
        (tmp_path / "settings.json").write_text(json.dumps(settings))
    dev = script.Device(board="pico_w", state=str(tmp_path))
    dev.app.server_host = "127.0.0.1"
    dev.app.server_port = free_port()
    return dev


def choose_join(dev):
    # Settings > Phones (the last line), OK, UP UP: "join Wi-Fi", OK
    dev.play(script.parse(menu("settings") + " UP OK UP UP OK"))


def test_the_settings_line_offers_join_only_with_a_network_set(tmp_path, station):
    (tmp_path / "a").mkdir()
    dev = device(tmp_path / "a", net=None)
    dev.play(script.parse(menu("settings") + " UP"))
    assert dev.app.top().items[-1][3] == ("off", "on")
    (tmp_path / "b").mkdir()
    dev = device(tmp_path / "b")
    dev.play(script.parse(menu("settings") + " UP"))
    assert dev.app.top().items[-1][3] == ("off", "own Wi-Fi", "join Wi-Fi")


def test_joining_shows_the_address_and_serves_the_page_there(tmp_path, station):
    import network
    station.NETWORKS = {"Kitchen 5G": "correct horse"}
    network.CONFIG["ip"] = "127.0.0.1"
    dev = device(tmp_path)
    app = dev.app
    choose_join(dev)
    assert json.loads((tmp_path / "settings.json").read_text())["table"] == "join"
    assert app.server is not None and app.top().module == "phones"
    assert app.server_url is None and app.top()._state() == "joining"
    assert network.STATION["ssid"] == "Kitchen 5G" and network.STATION["key"] == "correct horse"
    assert "wifi_pw" not in json.loads((tmp_path / "settings.json").read_text())  # no access point made
    app.run_for(2000)
    port = app.server_port
    assert app.server_url == "http://127.0.0.1:%d/" % port
    assert app.top()._state() == "joined" and app.top().page == 1
    assert app.top()._text() == app.server_url
    out = []

    def get():
        with urllib.request.urlopen(app.server_url + "state", timeout=5) as r:
            out.append(json.loads(r.read()))
    t = threading.Thread(target=get)
    t.start()
    while t.is_alive():
        app.run_for(20)
    assert out == [{"none": "No game is running on the device."}]
    # back to the device's own network: the station leaves, the access point opens
    dev.play(script.parse("OK OK DOWN OK"))
    assert app.settings["table"] is True and app.server is not None
    assert network.STATION["active"] is False and network.CONFIG["active"] is True
    assert app.server_url is not None and app.top().module == "phones" and app.top()._state() == "own"


@pytest.mark.parametrize("networks, reason", [
    ({"Kitchen 5G": "wrong one!"}, "wrong password"),
    ({"Other": "x"}, "not found"),
    ({"Kitchen 5G": None}, "timeout"),
])
def test_a_join_that_fails_says_why_and_offers_the_own_network(tmp_path, station, networks, reason):
    import network
    station.NETWORKS = networks
    dev = device(tmp_path)
    app = dev.app
    choose_join(dev)
    app.run_for(3000)     # past the time a join may take
    assert app.server is None and app.server_fail == reason
    assert network.STATION["active"] is False
    scr = app.top()
    assert scr.module == "phones" and scr._state() == "failed"
    saved = (tmp_path / "settings.json").read_bytes()
    # OK: the device's own network instead, saved as the setting
    dev.play(script.parse("OK"))
    assert app.settings["table"] is True and app.server is not None and app.server_fail is None
    assert network.CONFIG["active"] is True and app.top()._state() == "own"
    assert json.loads((tmp_path / "settings.json").read_text())["table"] is True
    assert saved != (tmp_path / "settings.json").read_bytes()


def test_a_failed_join_at_start_is_said_on_a_note(tmp_path, station):
    station.NETWORKS = {"Kitchen 5G": "nope nope"}
    dev = device(tmp_path, settings={"table": "join"})
    from firmware import main
    main.table_on(dev.app)
    dev.app.run_for(3000)
    scr = dev.app.top()
    assert scr.module == "note"
    words = " ".join(scr.lines)
    assert "could not join Kitchen 5G" in words and "password is wrong" in words and "own Wi-Fi" in words


def test_join_set_but_the_network_forgotten_says_so(tmp_path, station):
    dev = device(tmp_path, net=None, settings={"table": "join"})
    from firmware import main
    main.table_on(dev.app)
    assert dev.app.server is None
    assert "no network is set from the PC" in " ".join(dev.app.top().lines)


def test_choosing_join_again_after_a_failure_tries_again(tmp_path, station):
    import network
    station.NETWORKS = {"Kitchen 5G": None}
    dev = device(tmp_path)
    app = dev.app
    choose_join(dev)
    app.run_for(3000)
    assert app.server_fail == "timeout"
    before = (tmp_path / "settings.json").read_bytes()
    station.NETWORKS = {"Kitchen 5G": "correct horse"}
    network.CONFIG["ip"] = "127.0.0.1"
    dev.play(script.parse("LEFT OK OK"))     # close it; Phones, "join Wi-Fi" chosen again
    assert app.server is not None and app.top().module == "phones"
    app.run_for(2000)
    assert app.server_url and app.top()._state() == "joined"
    assert (tmp_path / "settings.json").read_bytes() == before      # nothing written


def test_a_damaged_wifi_file_is_set_aside_and_said(tmp_path, station):
    dev = device(tmp_path, net={"ssid": "", "pw": "short"})
    assert (tmp_path / "wifi.json.bad1").exists() and not (tmp_path / "wifi.json").exists()
    words = " ".join(dev.app.top().lines)
    assert "wifi.json was damaged" in words and "1 to 32 bytes" in words
