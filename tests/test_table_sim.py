# The table on phones in the simulator (python -m host_sim --board pico_w --phones PORT):
# Settings > Phones turned on by its keys opens the access point (the fake `network`
# records it) with the random password saved in settings.json, shows how to join, and the
# PC serves the page; turned off, the server stops. On a board without Wi-Fi the line is
# not there.
import json
import os
import socket
import threading
import urllib.request

from host_sim import script, sim
from tests.table_keys import menu
from table_device import free_port

sim.use_fake_machine()


def _get(url, out):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            out.append((r.status, r.headers.get("Content-Encoding"), r.read()))
    except OSError as e:
        out.append(e)


def test_phones_on_serves_the_page_and_off_stops_it(tmp_path):
    import network
    dev = script.Device(board="pico_w", state=str(tmp_path))
    port = free_port()
    dev.app.server_host = "127.0.0.1"
    dev.app.server_port = port
    dev.play(script.parse(menu("settings") + " UP OK UP OK"))
    app = dev.app
    assert app.server is not None and app.top().module == "phones"
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["table"] is True and len(saved["wifi_pw"]) == 10 and saved["wifi_ssid"].startswith("Phase10-")
    assert network.CONFIG == {"ssid": saved["wifi_ssid"], "key": saved["wifi_pw"], "active": True}
    out = []
    for path in ("state", ""):
        t = threading.Thread(target=_get, args=("http://127.0.0.1:%d/%s" % (port, path), out))
        t.start()
        while t.is_alive():
            app.run_for(20)          # the device's loop serves in its rest between keys
        t.join()
    assert out[0][0] == 200 and json.loads(out[0][2]) == {"none": "No game is running on the device."}
    assert out[1][0] == 200 and out[1][1] == "gzip"
    # off again: the server stops and the port is free
    dev.play(script.parse("OK OK DOWN OK"))
    assert app.server is None and json.loads((tmp_path / "settings.json").read_text())["table"] is False
    assert network.CONFIG["active"] is False
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.close()


def test_no_phones_line_without_wifi(tmp_path):
    dev = script.Device(board="pico", state=str(tmp_path))
    dev.play(script.parse(menu("settings") + " UP"))
    scr = dev.app.top()
    assert [i[0] for i in scr.items][-1] == "sh1106"


def test_the_sim_refuses_phones_on_a_board_without_wifi(capsys):
    assert sim.main(["--phones", "8080"]) == 2
    assert "needs a board with Wi-Fi" in capsys.readouterr().err


def test_the_servers_code_is_not_loaded_while_the_setting_is_off(tmp_path):
    # on the micropython binary, a Pico W with the setting off (the default), started as
    # main.run starts it and stepped: nothing of the table is imported
    import subprocess
    import sys
    from table_device import BUILD, MPY, ROOT, build_mpy
    build_mpy()
    script_py = tmp_path / "off.py"
    script_py.write_text(
        "import sys\n"
        "from firmware.edges.board import Board\n"
        "from firmware import main as fw\n"
        "from firmware.edges.clock import Clock\n"
        "app = fw.build(Board('pico_w'), Clock(), %r)\n"
        "fw.table_on(app)\n"
        "for i in range(20):\n"
        "    app.step()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('microdot', 'firmware.phones.server', 'firmware.phones.control', 'firmware.phones.net', 'firmware.phones.qr', 'asyncio'))))\n"
        % str(tmp_path))
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", BUILD, os.path.join(BUILD, "lib"),
                                                  os.path.join(ROOT, "tests", "table_wire"),
                                                  os.path.join(ROOT, "host_sim", "twin")]))
    r = subprocess.run([MPY, "-X", "heapsize=112K", str(script_py)], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "[]"


def test_a_server_that_cannot_start_is_said_and_the_device_goes_on(tmp_path):
    import network
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        dev = script.Device(board="pico_w", state=str(tmp_path))
        dev.app.server_host = "127.0.0.1"
        dev.app.server_port = taken.getsockname()[1]
        dev.play(script.parse(menu("settings") + " UP OK UP OK"))
        app = dev.app
        assert app.server is None and app.top().module == "note"
        assert "could not start" in " ".join(app.top().lines)
        assert network.CONFIG["active"] is False       # the access point closed again
        dev.play(script.parse("OK DOWN"))               # the device goes on
        assert app.top().module == "settings"
    finally:
        taken.close()


def test_phones_left_off_writes_nothing_and_the_settings_file_is_as_before(tmp_path):
    dev = script.Device(board="pico_w", state=str(tmp_path))
    dev.play(script.parse(menu("settings") + " UP OK OK"))     # "off" chosen again
    assert not (tmp_path / "settings.json").exists() and dev.app.server is None
    dev.play(script.parse("DOWN OK UP OK"))                    # contrast changed
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert "table" not in saved and "wifi_pw" not in saved     # as a device without the table writes it


def test_with_phones_the_simulators_keys_do_not_lag_more_and_more(tmp_path):
    # issue 41: with --phones the terminal ran the loop for the time since its last run,
    # which the server's real-time rest made as long again: 1.8 s, 3.7 s ... 12 s a key.
    # 12 s of keys with Chromium holding the page open in two tabs. What a key waits for: a
    # step under way (a few ms; the rest ends once a key waits), the buttons' sampling (5 ms)
    # and debounce, the frame; about 30 ms at most here (tools/bench/bench_phones.py gives p95 and
    # max: how quick is the bench's figure). Checked: no key waits as long as the first
    # delay of the bug (1.8 s; the bound, 1.5 s, leaves fifty times the bench's slowest key
    # for a machine whose cores are busy with other work); the bug's delays passed it within
    # 5 s and went on growing. (With the runs fixed but the rest served whole, each key
    # waited up to the idle rest, 100 ms, more: the bench's max shows that, not this test.)
    from phones_load import sim_session, p95_max
    delays, asked = sim_session(str(tmp_path), 12)
    assert len(delays) >= 20
    assert max(delays) < 1.5, ["%.0f ms" % (d * 1000) for d in delays]
    assert asked >= 10                  # both tabs asked meanwhile
    p95, most = p95_max(delays)
    print("simulator, Chromium on the page: key to frame p95 %.0f ms, max %.0f ms" % (p95 * 1000, most * 1000))
