# The device in the browser, as the tests open it (tests/test_web.py, tests/test_web_storage.py):
# the tests' build of `make web`'s site (its test options on: ?clock=test, ?seed=, ?nosw and
# window.device) opened in Debian's Chromium by Playwright, played with the keyboard or
# pointer events on the test clock, and compared with the simulator on the same files.
import os
import threading

import chromium

from host_sim import golden, script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def serve(out, hooks=True):
    """The site built into out and served on the loopback: {url, dir, files, httpd}."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools", "build"))
    import web_build
    files = web_build.build(out, hooks=hooks)
    httpd, url = web_build.server(out, port=0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return {"url": url, "dir": out, "files": files, "httpd": httpd}


def site(tmp_path_factory):
    """A test module's site (the tests' build, served), shut down after its tests: the body of
    its fixture (site = pytest.fixture(scope="module")(webpage.site))."""
    s = serve(str(tmp_path_factory.mktemp("web")))
    yield s
    s["httpd"].shutdown()


BITS = ((1, "ArrowUp", "up"), (2, "ArrowDown", "down"), (4, "ArrowLeft", "left"), (8, "ArrowRight", "right"),
        (16, "Enter", "ok"))


def open_page(browser, site, query="clock=test&nosw", viewport=None):
    ctx = browser.new_context(viewport=viewport or {"width": 420, "height": 860})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site["url"] + ("?" + query if query else ""))
    page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)
    page.errors = errors
    return ctx, page


def rows(page):
    fb = page.evaluate("Array.from(window.oled.frame())")
    return ["".join("#" if fb[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128)) for y in range(64)]


def files_of(keys):
    """The files a golden case starts with ({name: text}), and its keys."""
    if keys.startswith("GAME:"):
        from engine_mpy import savefile
        name, _, keys = keys[5:].partition(" ")
        return {"game.json": savefile.dumps(golden.SAVED[name]())}, keys
    return {}, keys


def play_keyboard(page, keys):
    for bits, hold, then in script.parse(keys):
        down = [k for b, k, _ in sorted(BITS, key=lambda x: -x[0]) if bits & b]     # OK first: Help's chord
        for k in down:
            page.keyboard.down(k)
        page.evaluate("ms => window.device.advance(ms)", hold)
        for k in reversed(down):
            page.keyboard.up(k)
        page.evaluate("ms => window.device.advance(ms)", then)


POINTERS = """async ([bits, hold, then]) => {
  // each button pressed by its own pointer (a finger each), OK's first: Help's chord
  const names = [[16, 'ok'], [1, 'up'], [2, 'down'], [4, 'left'], [8, 'right']].filter(([b]) => bits & b);
  const els = names.map(([, n]) => document.querySelector(`[data-button=${n}]`));
  const ev = (el, type, id) => el.dispatchEvent(new PointerEvent(type, { pointerId: id, bubbles: true, isPrimary: id === 11,
                                                                        pointerType: 'touch', buttons: type === 'pointerdown' ? 1 : 0 }));
  els.forEach((el, i) => ev(el, 'pointerdown', 11 + i));
  await window.device.advance(hold);
  els.forEach((el, i) => ev(el, 'pointerup', 11 + i));
  await window.device.advance(then);
}"""


def play_pointer(page, keys):
    for step in script.parse(keys):
        page.evaluate(POINTERS, list(step))


KEYS = dict(golden.CASES)
# A Classic game of two players started through New game, then its first hand entered
# (tests/golden's cards_standings), and the game alone (cards_hand_counts less its entry)
GAME_AND_HAND = KEYS["cards_standings"]
GAME = KEYS["cards_hand_counts"][:-len(" OK DOWN OK LEFT LEFT UP RIGHT")]
HAND = GAME_AND_HAND[len(GAME) + 1:]


def play(page, keys):
    page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
    play_keyboard(page, keys)


def sim_rows(files, keys, fixed_panel=False):
    """The simulator started on files ({name: text}), keys played: its screen rows.
    fixed_panel: on a board that fixes its panel's controller, as the page's does
    (firmware/boards/web.py PANEL): no SH1106 line in Settings."""
    import tempfile
    from host_sim import sim
    sim.use_fake_machine()
    with tempfile.TemporaryDirectory() as state:
        for n, text in files.items():
            with open(os.path.join(state, n), "w") as f:
                f.write(text)
        dev = script.Device(board="pico", state=state, mem_free=golden.MEM_FREE, seed=1)
        if fixed_panel:
            dev.app.board.PANEL = "ssd1306"
        dev.play(script.parse(keys))
        return dev.rows()


def stored(page):
    """The device's files as the browser keeps them: {name: text}."""
    return page.evaluate("() => window.device.files()")


def game_started(page):
    """A fresh device, the Classic game started on it: its files ({name: text})."""
    page.evaluate("() => window.device.restart({}, 1)")
    play(page, GAME)
    return stored(page)


def reloaded(page):
    page.reload()
    page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)


def storage(page, **set):
    """The device's storage figures (quota, live, writes, gen...), after setting any of
    quota, cutAfter, tear (the tests' hooks)."""
    return page.evaluate("s => window.device.storage(s)", set)


def shows(page, want, seconds=chromium.LOADED_MS / 1000.0):
    """Whether the panel comes to show want within seconds (the page's own clock: a
    loaded machine may be slow to run its timers)."""
    import time
    end = time.time() + seconds
    while time.time() < end:
        if rows(page) == want:
            return True
        page.wait_for_timeout(50)
    return False
