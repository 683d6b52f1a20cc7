# The device in the browser (issue 40): `make web`'s site opened in Debian's Chromium by
# Playwright. The page runs the board's own firmware on MicroPython's WebAssembly port: its
# screens must be the board's, byte for byte, played with the keyboard and with pointer
# events; its files must survive a reload, a storage quota and a tab closed mid-save; it
# must work offline and fit a phone and a desktop window. Chromium missing is a failure, not
# a skip (make test brings it: make browser).
import io
import json
import os
import subprocess
import sys
import threading
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import web_build  # noqa: E402

import chromium  # noqa: E402  (tests/chromium.py)

from host_sim import golden, script  # noqa: E402

# The golden screens the page can show: every one but the About screen (it shows the
# board's own free heap) and the table on phones' (a board with Wi-Fi; the page has none)
CASES = [(n, k) for n, k in golden.CASES
         if n != "about" and not k.startswith(("PHONES", "JOIN ")) and "phones" not in n]
BITS = ((1, "ArrowUp", "up"), (2, "ArrowDown", "down"), (4, "ArrowLeft", "left"), (8, "ArrowRight", "right"),
        (16, "Enter", "ok"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("web"))
    files = web_build.build(out)
    httpd, url = web_build.server(out, port=0)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield {"url": url, "dir": out, "files": files, "httpd": httpd}
    httpd.shutdown()


browser = pytest.fixture(scope="module")(chromium.browser)


def _open(browser, site, query="clock=test&nosw", viewport=None):
    ctx = browser.new_context(viewport=viewport or {"width": 420, "height": 860})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site["url"] + ("?" + query if query else ""))
    page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')",
                           timeout=30000)
    page.errors = errors
    return ctx, page


def rows(page):
    fb = page.evaluate("Array.from(window.oled.frame())")
    return ["".join("#" if fb[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128)) for y in range(64)]


def _files_of(keys):
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


_POINTERS = """([bits, hold, then]) => {
  // each button pressed by its own pointer (a finger each), OK's first: Help's chord
  const names = [[16, 'ok'], [1, 'up'], [2, 'down'], [4, 'left'], [8, 'right']].filter(([b]) => bits & b);
  const els = names.map(([, n]) => document.querySelector(`[data-button=${n}]`));
  const ev = (el, type, id) => el.dispatchEvent(new PointerEvent(type, { pointerId: id, bubbles: true, isPrimary: id === 11,
                                                                        pointerType: 'touch', buttons: type === 'pointerdown' ? 1 : 0 }));
  els.forEach((el, i) => ev(el, 'pointerdown', 11 + i));
  window.device.advance(hold);
  els.forEach((el, i) => ev(el, 'pointerup', 11 + i));
  window.device.advance(then);
}"""


def play_pointer(page, keys):
    for step in script.parse(keys):
        page.evaluate(_POINTERS, list(step))


@pytest.fixture(scope="module")
def device(browser, site):
    ctx, page = _open(browser, site)
    yield page
    ctx.close()


@pytest.mark.parametrize("how", ["keyboard", "pointer"])
def test_every_golden_screen_of_the_buttons_is_the_boards_byte_for_byte(device, how):
    page = device
    bad = []
    for name, keys in CASES:
        files, keys = _files_of(keys)
        page.evaluate("([f, s]) => window.device.restart(f, s)", [files, 1])
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        (play_keyboard if how == "keyboard" else play_pointer)(page, keys)
        with open(golden.path(name)) as f:
            want = f.read().split()
        if rows(page) != want:
            bad.append(name)
    assert page.errors == []
    assert bad == [], "%d of %d screens differ from tests/golden: %s" % (len(bad), len(CASES), bad)


KEYS = dict(golden.CASES)
# A Classic game of two players started through New game, then its first hand entered
# (tests/golden's cards_standings), and the game alone (cards_hand_counts less its entry)
GAME_AND_HAND = KEYS["cards_standings"]
GAME = KEYS["cards_hand_counts"][:-len(" OK DOWN OK LEFT LEFT UP RIGHT")]
HAND = GAME_AND_HAND[len(GAME) + 1:]


def _play(page, keys):
    page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
    play_keyboard(page, keys)


def _sim(files, keys):
    """The simulator started on files ({name: text}), keys played: its screen rows."""
    import tempfile
    from host_sim import sim
    sim.use_fake_machine()
    with tempfile.TemporaryDirectory() as state:
        for n, text in files.items():
            with open(os.path.join(state, n), "w") as f:
                f.write(text)
        dev = script.Device(board="pico", state=state, mem_free=golden.MEM_FREE, seed=1)
        dev.play(script.parse(keys))
        return dev.rows()


def _stored(page):
    """The device's files as the browser keeps them: {name: text}."""
    return page.evaluate("""() => { const f = window.device.files(), out = {};
        for (const [k, v] of Object.entries(f)) out[k] = new TextDecoder().decode(v); return out; }""")


def test_a_game_continued_after_a_reload_is_where_the_simulator_restarted_on_its_files_is(browser, site):
    ctx, page = _open(browser, site)
    try:
        page.evaluate("() => window.device.restart({}, 1)")
        _play(page, GAME_AND_HAND)
        files = _stored(page)
        assert "game.json" in files
        _reloaded(page)
        assert _stored(page) == files          # the reload kept every file as it was
        _play(page, "OK")                      # Continue
        assert rows(page) == _sim(files, "OK")
        with open(golden.path("cards_standings")) as f:
            assert rows(page) == f.read().split()   # the standings after the first hand
        assert page.errors == []
    finally:
        ctx.close()


def test_a_reload_with_no_network_opens_the_device_from_its_offline_copy(browser, site):
    ctx, page = _open(browser, site, query="clock=test")
    try:
        # the service worker installed and controlling the page: everything it needs cached
        page.evaluate("() => navigator.serviceWorker.ready")
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null && window.oled && window.oled.frames > 0")
        ctx.set_offline(True)
        page.reload()
        page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')")
        with open(golden.path("menu")) as f:
            assert rows(page) == f.read().split()
        _play(page, "DOWN")
        with open(golden.path("menu")) as f:
            assert rows(page) != f.read().split()      # it runs: the cursor moved
        assert page.errors == []
    finally:
        ctx.close()


def test_the_downloaded_files_are_the_folder_the_pc_companion_reads(browser, site, tmp_path):
    ctx, page = _open(browser, site)
    try:
        page.evaluate("() => window.device.restart({}, 1)")
        _play(page, GAME_AND_HAND)
        with page.expect_download() as d:
            page.click("#download")
        path = tmp_path / "files.zip"
        d.value.save_as(str(path))
        assert d.value.suggested_filename == "phase10-files.zip"
        with zipfile.ZipFile(str(path)) as z:
            assert z.testzip() is None
            z.extractall(str(tmp_path))
        folder = tmp_path / "phase10"
        stored = _stored(page)
        assert sorted(os.listdir(str(folder))) == sorted(stored)
        for name, text in stored.items():           # each file byte for byte as the device wrote it
            assert (folder / name).read_text() == text, name
        r = subprocess.run([sys.executable, "-m", "host_sim", "show", str(folder / "game.json")], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "A" in r.stdout and "B" in r.stdout and "C" in r.stdout, r.stdout
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport, scale", [({"width": 360, "height": 740}, 3), ({"width": 1280, "height": 800}, 1)])
def test_the_page_fits_a_phone_held_upright_and_a_desktop_window(browser, site, tmp_path, viewport, scale):
    ctx = browser.new_context(viewport=viewport, device_scale_factor=scale, is_mobile=scale > 1, has_touch=scale > 1)
    page = ctx.new_page()
    try:
        page.goto(site["url"] + "?nosw")
        page.wait_for_function("document.body.classList.contains('ready')")
        shot = tmp_path / ("page-%dx%d.png" % (viewport["width"], viewport["height"]))
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 5000
        boxes = page.evaluate("""() => [...document.querySelectorAll('#oled, #pad button, #bar button, #bar label, #keys')]
            .map(e => { const r = e.getBoundingClientRect(); return [e.id || e.dataset.button || e.textContent.trim(),
                        r.left, r.top, r.right, r.bottom]; })""")
        w, h = viewport["width"], viewport["height"]
        for name, left, top, right, bottom in boxes:
            assert left >= 0 and top >= 0 and right <= w and bottom <= h, (name, left, top, right, bottom, w, h)
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        # the panel at a whole number of device pixels per panel pixel, and big enough to read
        css = page.evaluate("document.getElementById('oled').getBoundingClientRect().width")
        px = round(css * scale)
        assert px % 128 == 0 and px >= 2 * 128 and abs(css * scale - px) < 0.1, (css, scale)
        # buttons sized for thumbs: at least 44 CSS pixels
        ok = page.evaluate("document.querySelector('[data-button=ok]').getBoundingClientRect().width")
        assert ok >= 44
    finally:
        ctx.close()


def _game_started(page):
    """A fresh device, the Classic game started on it: its files ({name: text})."""
    page.evaluate("() => window.device.restart({}, 1)")
    _play(page, GAME)
    return _stored(page)


def _reloaded(page):
    page.reload()
    page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')")


def test_a_full_storage_is_said_on_the_panel_and_loses_nothing_saved(browser, site):
    ctx, page = _open(browser, site)
    try:
        before = _game_started(page)
        used = sum(len(v.encode()) for v in before.values())
        # the browser's room now ends a few bytes past what is saved: the hand's save cannot fit
        page.evaluate("n => { window.device.quota = n; }", used + 10)
        play_keyboard(page, HAND)
        page.evaluate("ms => window.device.advance(ms)", 500)
        screen = "\n".join(rows(page))
        assert _stored(page) == before                      # nothing saved was touched
        # the device's own words for a full flash are on the panel
        text = page.evaluate("() => window.device.said()")
        assert any("full" in s for s in text), (text, screen)
        page.evaluate("n => { window.device.quota = n; }", 2_000_000)
        _reloaded(page)
        assert _stored(page) == before
        _play(page, "OK")
        assert rows(page) == _sim(before, "OK")            # the game as it was before the hand
    finally:
        ctx.close()


def test_a_tab_closed_between_a_saves_steps_leaves_the_game_before_or_after_it(browser, site):
    ctx, page = _open(browser, site)
    try:
        before = _game_started(page)

        def hand(cut=None):
            # the game continued on its files, the cut armed, the hand entered
            page.evaluate("([f, s]) => window.device.restart(f, s)", [before, 1])
            _play(page, "OK")
            n0 = page.evaluate("() => window.device.storage.writes")
            page.evaluate("n => { window.device.storage.cutAfter = n; }", cut)
            play_keyboard(page, HAND)
            return page.evaluate("() => window.device.storage.writes") - n0
        steps = hand()
        after = _stored(page)
        assert after != before and steps >= 1
        want = {"before": _sim(before, "OK"), "after": _sim(after, "OK")}
        assert want["before"] != want["after"]
        seen = []
        for cut in range(steps + 1):
            hand(cut)
            # the tab is gone: what the browser kept is all a new tab finds
            kept = _stored(page)
            ctx2, page2 = _open(browser, site)
            try:
                page2.evaluate("([f, s]) => window.device.restart(f, s)", [kept, 1])
                _play(page2, "OK")
                got = rows(page2)
            finally:
                ctx2.close()
            match = [k for k, v in want.items() if v == got]
            assert match, "cut after %d of %d storage steps: neither before nor after the hand" % (cut, steps)
            seen.append(match[0])
        assert seen[0] == "before" and seen[-1] == "after", seen
    finally:
        ctx.close()


def test_the_three_button_setting_shows_three_buttons(device):
    page = device
    page.evaluate("() => window.device.restart({}, 1)")
    assert page.evaluate("document.body.classList.contains('three')") is False
    _play(page, KEYS["settings"])
    assert page.evaluate("getComputedStyle(document.querySelector('[data-button=left]')).display") != "none"
    page.evaluate("([f, s]) => window.device.restart(f, s)", [{"settings.json": json.dumps({"three_button": True})}, 1])
    assert page.evaluate("document.body.classList.contains('three')") is True
    for b in ("left", "right"):
        assert page.evaluate("getComputedStyle(document.querySelector('[data-button=%s]')).display" % b) == "none"
    for b in ("up", "down", "ok"):
        assert page.evaluate("getComputedStyle(document.querySelector('[data-button=%s]')).display" % b) != "none"


def test_the_site_holds_what_installs_it_and_keeps_it_offline(site):
    files = site["files"]
    m = json.loads(files["manifest.webmanifest"])
    assert m["display"] == "standalone" and m["start_url"] == "./"
    assert {i["sizes"] for i in m["icons"]} == {"192x192", "512x512"}
    from PIL import Image
    for i in m["icons"]:
        img = Image.open(io.BytesIO(files[i["src"]]))
        assert "%dx%d" % img.size == i["sizes"]
    sw = files["sw.js"].decode()
    for f in files:
        if f != "sw.js":
            assert json.dumps(f) in sw, f          # every file cached for offline use
    # the firmware as it ships to a board: every module of engine_mpy/ and firmware/ compiled
    import deploy
    pack = files["device.bin"]
    for rel, _ in deploy.device_sources():
        if rel not in web_build.NOT_PACKED:
            assert (rel[:-3] + ".mpy").encode() in pack, rel
    assert b"engine_mpy/dice_advise.bin" in pack


def test_files_loaded_back_are_taken_whole_or_refused_in_one_line(device, tmp_path):
    page = device
    page.evaluate("() => window.device.restart({}, 1)")
    _play(page, GAME_AND_HAND)
    before = _stored(page)
    # a damaged save, a settings file and a stranger: refused in one line, nothing changed
    bad = tmp_path / "game.json"
    bad.write_text('{"format":"phase10","v":2,"game":"classic"')
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"three_button": True}))
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    for chosen in ([str(settings), str(bad)], [str(other)]):
        page.set_input_files("#load", chosen)
        page.wait_for_function("!document.getElementById('note').hidden")
        line = page.inner_text("#note")
        assert line.startswith("Nothing loaded: ") and "\n" not in line, line
        assert _stored(page) == before
        page.evaluate("() => { document.getElementById('note').hidden = true; }")
    assert "notes.txt is not one of the device's files" in line
    # a good one is taken and the device starts again on it
    page.set_input_files("#load", [str(settings)])
    page.wait_for_function("document.getElementById('note').textContent.startsWith('Loaded')")
    assert json.loads(_stored(page)["settings.json"]) == {"three_button": True}
    assert _stored(page)["game.json"] == before["game.json"]
    assert page.evaluate("document.body.classList.contains('three')") is True


def _shows(page, want, seconds=5.0):
    """Whether the panel comes to show want within seconds (the page's own clock: a
    loaded machine may be slow to run its timers)."""
    import time
    end = time.time() + seconds
    while time.time() < end:
        if rows(page) == want:
            return True
        page.wait_for_timeout(50)
    return False


def test_the_help_button_and_escape_work_in_real_time(browser, site):
    # the page's own clock: ? is OK held with UP pressed (the menu's Help), Escape a long OK
    # (back), a tap on OK a short press: each acted on as the board's buttons would be
    ctx, page = _open(browser, site, query="nosw")
    try:
        want = {}
        for n in ("help_menu", "menu", "newgame_game"):
            with open(golden.path(n)) as f:
                want[n] = f.read().split()
        page.click("#help")
        assert _shows(page, want["help_menu"])
        page.wait_for_function("window.device.held() === 0")     # the chord let go
        page.keyboard.press("Escape")
        assert _shows(page, want["menu"])
        page.click("[data-button=ok]")
        assert _shows(page, want["newgame_game"])
        assert page.errors == []
    finally:
        ctx.close()


def test_a_file_damaged_in_the_browsers_storage_is_said_and_set_aside(device):
    # as on a board: the device's own reading finds it, says so and keeps it aside, and
    # the browser's storage follows (the damaged text kept under its new name)
    page = device
    garbage = '{"format":"phase10","v":2,"game":"classic","settings":{"play'
    page.evaluate("([f, s]) => window.device.restart(f, s)", [{"settings.json": garbage}, 1])
    page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
    said = page.evaluate("() => window.device.said()")
    assert any("settings.json" in s for s in said), said
    stored = _stored(page)
    assert "settings.json" not in stored
    aside = [n for n in stored if n.startswith("settings.json.bad")]
    assert len(aside) == 1 and stored[aside[0]] == garbage
    # and read out to a screen reader (the panel is a picture)
    assert "settings.json" in page.inner_text("#spoken")
