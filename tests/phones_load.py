# Keys pressed while Chromium holds the table on phones' page open, for the tests and the
# bench (tests/test_table_page.py, tests/test_table_sim.py, tools/bench/bench_phones.py): on the
# micropython binary (tests/table_device.py) or in the simulator (host_sim.live_view.Live, as the
# terminal runs it), each key's delay from its press to the first frame drawn after it.
# Chromium (Debian's, through Playwright, in a thread of its own) opens the page as a phone
# (360x740) and in a second tab: each polls /state every second as the page does, asks for
# the favicon, and one tab is reloaded every 20 s.
import queue
import threading
import time

import chromium  # (tests/chromium.py)


class Browsing:
    """Chromium with the page at url open in two tabs until stop(); opened: how many
    page loads it made (the first two: both tabs showing the standings)."""

    def __init__(self, url):
        self.url = url
        self.ready = threading.Event()
        self.done = threading.Event()
        self.loads = 0
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(2 * chromium.LOADED_MS / 1000.0), "Chromium did not open the page: %s" % (self.error,)

    def _run(self):
        from playwright.sync_api import sync_playwright
        try:
            with sync_playwright() as p:
                b = chromium.launch(p)
                ctx = b.new_context(viewport={"width": 360, "height": 740})
                tabs = [ctx.new_page(), ctx.new_page()]
                for t in tabs:
                    t.goto(self.url)
                    t.wait_for_function("document.getElementById('st').innerText.length > 0")
                    self.loads += 1
                self.ready.set()
                n = 0
                while not self.done.wait(1):
                    n += 1
                    if n % 20 == 0:
                        tabs[1].reload()
                        self.loads += 1
                    else:
                        tabs[0].wait_for_timeout(1)   # (Playwright's events are handled)
                ctx.close()
                b.close()
        except Exception as e:      # said by the caller
            self.error = e
            self.ready.set()

    def stop(self):
        self.done.set()
        self.thread.join(30)
        assert self.error is None, self.error


def hand(n, players=3):
    """A hand nobody completes in: who goes out turns; each other keeps ten 1-9 cards."""
    out = n % players
    return {"out": out, "left": [None if p == out else [10, 0, 0, 0] for p in range(players)]}


def device_key_delays(dev, seconds, every=0.3, commit_every=5.0, first_hand=0, most_hands=24):
    """On the micropython device: a key every `every` s (DOWN and UP on the menu), a hand
    committed every commit_every s (the pages then fetch the JSON made anew), at most
    most_hands of them (who goes out completes a phase: three players turn by turn finish
    the game after 28 more), for seconds; returns the device's figures
    (tests/table_serve.py), key_ms among them."""
    end = time.monotonic() + seconds
    next_hand = time.monotonic() + commit_every
    i = hands = 0
    while time.monotonic() < end:
        if not dev.alive():
            raise AssertionError("the device stopped: %s" % dev.lines[-12:])
        dev.key(("DOWN", "UP")[i % 2])
        i += 1
        if time.monotonic() >= next_hand and hands < most_hands:
            dev.commit(hand(first_hand + hands))
            hands += 1
            next_hand += commit_every
        time.sleep(every)
    return dev.stop()


def sim_key_delays(dev, seconds, keys=("DOWN", "UP"), every=0.4):
    """The terminal's loop (host_sim/term.py: a look at the keys every 20 ms, the keys
    played, live_view.Live run) for seconds of real time, a key pressed every `every` s from
    another thread as a player presses one: each key's delay from its press to the first
    frame drawn after it (s)."""
    from host_sim import live_view, script
    app = dev.app
    frames = []
    show = app.display.show
    app.display.show = lambda: (show(), frames.append(time.monotonic()))[0]
    posted = queue.Queue()
    stop = threading.Event()

    def player():
        i = 0
        while not stop.wait(every):
            posted.put((keys[i % len(keys)], time.monotonic()))
            i += 1

    t = threading.Thread(target=player, daemon=True)
    t.start()
    live = live_view.Live(dev, lambda: not posted.empty())
    delays = []
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            try:
                key = [posted.get(timeout=0.02)]   # the terminal's select()
            except queue.Empty:
                key = []
            while key or not posted.empty():
                name, t0 = key.pop() if key else posted.get()
                n = len(frames)
                dev.play(script.parse(name))
                assert len(frames) > n, "no frame for %s" % name
                delays.append(frames[n] - t0)
            live.run()
    finally:
        stop.set()
        app.display.show = show
    t.join(10)
    return delays


def sim_session(state, seconds):
    """The simulator (a Pico W, its state in folder state) with Settings > Phones turned on
    by its keys, serving on the loopback as `python -m host_sim --phones` does, Chromium
    holding its page open, and keys pressed for seconds: (each key's delay (s), the
    requests the device answered meanwhile)."""
    from host_sim import live_view, script, sim
    from table_device import free_port
    from tests.table_keys import menu
    sim.use_fake_machine()
    dev = script.Device(board="pico_w", state=state)
    port = free_port()
    dev.app.server_host = "127.0.0.1"
    dev.app.server_port = port
    dev.play(script.parse(menu("settings") + " UP OK UP OK LONG_OK"))   # Phones on; back to Settings
    assert dev.app.server is not None and dev.app.top().module == "settings"
    # Chromium opens the page while the device serves (the terminal's loop, no key)
    got = []
    opening = threading.Thread(target=lambda: got.append(Browsing("http://127.0.0.1:%d/" % port)))
    opening.start()
    live = live_view.Live(dev)
    while opening.is_alive():
        live.run()
    assert got, "Chromium did not open the page"
    b = got[0]
    try:
        served = dev.app.server.served
        delays = sim_key_delays(dev, seconds)
        served = dev.app.server.served - served
    finally:
        threading.Thread(target=b.stop, daemon=True).start()
        for _ in range(200):            # (serves Chromium's last asks while it closes)
            live.run()
            if not b.thread.is_alive():
                break
        dev.app.server.stop()
    return delays, served


def p95_max(values):
    """(95th percentile, largest) of values."""
    v = sorted(values)
    return v[min(len(v) - 1, int(round(0.95 * (len(v) - 1))))], v[-1]
