# The device in the browser, made for the phone in a player's hand (issue 49), in Debian's
# Chromium through Playwright: at each size, held upright and sideways, the panel and every
# button on screen and in place whatever a note says; the table's views beside or under the
# panel (the phones' own page, fed the device's state after each commit) saying what
# `host_sim show --json` says of the same files after every commit of a played game (how
# soon is make bench-web's views_after_commit_ms); a
# hand half entered brought back by a reload or a discarded tab; the page as an installable
# app. Chromium missing is a failure, not a skip.
import io
import json
import os
import subprocess
import sys
import time

import pytest

import chromium  # noqa: E402  (tests/chromium.py)
import webpage  # noqa: E402
from webpage import GAME, GAME_AND_HAND, KEYS, play, play_keyboard, reloaded, rows, sim_rows, storage, stored

from host_sim import golden, script
from tests.table_keys import FAIL, counts, hand, new_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Held upright and sideways: three phones, a desktop window and a tablet
SIZES = [(320, 568), (568, 320), (360, 740), (740, 360), (390, 844), (844, 390), (1280, 800), (800, 1280)]


site = pytest.fixture(scope="module")(webpage.site)
browser = pytest.fixture(scope="module")(chromium.browser)


def _context(browser, size, scheme="dark"):
    """A phone (touch, 3 device pixels a CSS pixel), a tablet (touch, 2) or a desktop window
    (a mouse and a keyboard, 1) of that size."""
    w, h = size
    if w >= 1000:
        return browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
    scale = 2 if max(w, h) >= 1000 else 3
    return browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=scale, is_mobile=True,
                               has_touch=True, color_scheme=scheme)


def _fresh(browser, site, size=(360, 740), files=None):
    """A phone's page of the device started again on files (none: a new device)."""
    ctx = _context(browser, size)
    page = _open(ctx, site)
    page.evaluate("([f, s]) => window.device.restart(f, s)", [files or {}, 1])
    return ctx, page


def _open(ctx, site, query="clock=test&nosw"):
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(site["url"] + ("?" + query if query else ""))
    page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')",
                           polling=100, timeout=chromium.LOADED_MS)
    return page


BOXES = """() => [...document.querySelectorAll('#oled, #pad button, #top button, #top label, #about summary')]
    .filter(e => getComputedStyle(e).display !== 'none')
    .map(e => { const r = e.getBoundingClientRect(); return [e.id || e.dataset.button || e.textContent.trim(),
                r.left, r.top, r.right, r.bottom]; })"""


def _boxes(page):
    return page.evaluate(BOXES)


# --- the layout -------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "%dx%d" % s)
def test_the_panel_and_every_button_are_on_screen_and_no_button_moves_when_a_note_comes(browser, site, size):
    w, h = size
    ctx = _context(browser, size)
    try:
        page = _open(ctx, site)
        page.evaluate("() => window.device.restart({}, 1)")
        play(page, GAME_AND_HAND)                 # a game on: the views show its standings
        before = _boxes(page)
        assert len([b for b in before if b[0] in ("up", "down", "left", "right", "ok", "help")]) == 6
        for name, left, top, right, bottom in before:
            assert left >= 0 and top >= 0 and right <= w and bottom <= h, (name, left, top, right, bottom, size)
        # the bar cut nowhere: the name shown whole or not at all, each button's words whole
        cut = page.evaluate("""() => [...document.querySelectorAll('#top h1, #top button, #top label')]
            .filter(e => getComputedStyle(e).display !== 'none' && e.scrollWidth > e.clientWidth + 1)
            .map(e => e.textContent.trim())""")
        assert cut == [], (cut, size)
        # nothing to scroll, and no pull-to-refresh
        assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight && document.scrollingElement.scrollWidth <= innerWidth")
        for el in ("document.documentElement", "document.body"):
            assert page.evaluate("getComputedStyle(%s).overscrollBehaviorY" % el) == "none"
        # the panel sharp (a whole number of device pixels a panel pixel, two at least)
        scale = page.evaluate("devicePixelRatio")
        css = page.evaluate("document.getElementById('oled').getBoundingClientRect().width")
        px = round(css * scale)
        assert px % 128 == 0 and px >= 2 * 128 and abs(css * scale - px) < 0.1, (css, scale)
        # buttons for thumbs, the views with room to read
        for name, left, top, right, bottom in before:
            if name in ("up", "down", "left", "right", "ok"):
                assert right - left >= 44 and bottom - top >= 44, name
        views = page.evaluate("document.getElementById('views').getBoundingClientRect().height")
        assert views >= 100, views
        # a three-line note: it takes its own place over the views; nothing else moves
        page.evaluate("t => window.device.say(t)", "Nothing loaded: game.json: hand 4: B cannot hold ten cards "
                      "and have completed phase 2; the hand's other entries are kept as they were entered.")
        assert page.is_visible("#note")
        assert _boxes(page) == before
        note = page.evaluate("(() => { const r = document.getElementById('note').getBoundingClientRect(); return [r.top, r.bottom]; })()")
        assert note[0] >= 0 and note[1] <= h
        # the next key clears it
        page.keyboard.down("ArrowDown")
        page.evaluate("ms => window.device.advance(ms)", 80)
        page.keyboard.up("ArrowDown")
        assert not page.is_visible("#note")
        assert _boxes(page) == before
        assert page.errors == []
    finally:
        ctx.close()


def test_a_note_goes_by_itself_after_a_few_seconds(browser, site):
    ctx = _context(browser, (360, 740))
    try:
        page = _open(ctx, site)
        page.evaluate("t => window.device.say(t)", "Loaded game.json, roster.json.")
        assert page.is_visible("#note")
        t0 = time.monotonic()
        page.wait_for_function("document.getElementById('note').hidden", polling=100, timeout=chromium.LOADED_MS)
        assert time.monotonic() - t0 >= 4          # (read first: a few seconds)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [(360, 740), (1280, 800)], ids=lambda s: "%dx%d" % s)
def test_the_keyboard_hint_shows_only_where_there_is_a_keyboard(browser, site, size):
    ctx = _context(browser, size)
    try:
        page = _open(ctx, site)
        shown = page.is_visible("#keys")
        assert shown == (size[0] >= 1000), size     # the desktop's mouse and keyboard; not a phone
    finally:
        ctx.close()


def _centre(boxes):
    xs = [(b[1] + b[3]) / 2 for b in boxes]
    ys = [(b[2] + b[4]) / 2 for b in boxes]
    return sum(xs) / len(xs), sum(ys) / len(ys)


@pytest.mark.parametrize("size", [(360, 740), (740, 360)], ids=lambda s: "%dx%d" % s)
def test_the_three_button_layout_is_balanced(browser, site, size):
    ctx = _context(browser, size)
    try:
        page = _open(ctx, site)
        page.evaluate("([f, s]) => window.device.restart(f, s)", [{"settings.json": json.dumps({"three_button": True})}, 1])
        assert page.evaluate("document.body.classList.contains('three')")
        shown = [b for b in _boxes(page) if b[0] in ("up", "down", "left", "right", "ok", "help")]
        assert sorted(b[0] for b in shown) == ["down", "help", "ok", "up"]
        pad = page.evaluate("(() => { const r = document.getElementById('pad').getBoundingClientRect(); return [0, r.left, r.top, r.right, r.bottom]; })()")
        cx, cy = _centre(shown)
        px, py = _centre([pad])
        # the buttons' middle is the pad's: nothing alone in a corner
        assert abs(cx - px) <= 2 and abs(cy - py) <= 2, (cx, cy, px, py)
        for name, left, top, right, bottom in shown:
            assert left >= 0 and right <= size[0] and bottom <= size[1]
    finally:
        ctx.close()


def _lit_colour(page):
    """The colour of a lit pixel of the panel's canvas (the menu's title bar)."""
    return page.evaluate("""() => { const c = document.getElementById('oled');
        return Array.from(c.getContext('2d').getImageData(120, 3, 1, 1).data.slice(0, 3)); }""")


def test_the_panels_lit_pixels_are_bright_by_default_and_contrast_sets_them(browser, site):
    ctx = _context(browser, (360, 740))
    try:
        page = _open(ctx, site)
        got = {}
        for c in (1, 128, 255):
            page.evaluate("([f, s]) => window.device.restart(f, s)", [{"settings.json": json.dumps({"contrast": c})}, 1])
            page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
            got[c] = _lit_colour(page)
        # the default (128): near white, each channel 200 or more
        assert min(got[128]) >= 200, got
        assert sum(got[1]) < sum(got[128]) <= sum(got[255]), got
        assert min(got[1]) >= 60, got                  # dimmed, still readable in a dark room
    finally:
        ctx.close()


def test_an_sh1106_setting_loaded_from_a_board_changes_nothing_in_the_page(browser, site):
    ctx, page = _fresh(browser, site, files={"settings.json": json.dumps({"sh1106": True})})
    try:
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        with open(golden.path("menu")) as f:
            assert rows(page) == f.read().split()      # not shifted 2 px: the page's panel is an SSD1306
        play_keyboard(page, KEYS["settings"])
        screen = rows(page)
        assert screen == sim_rows({}, KEYS["settings"], fixed_panel=True)     # as with no such setting
        with open(golden.path("settings")) as f:
            assert screen[:48] == f.read().split()[:48] and not any("#" in r for r in screen[48:])   # no SH1106 line
    finally:
        ctx.close()


# --- the table's views ------------------------------------------------------------------------
def _frame(page):
    return page.query_selector("#table").content_frame()


def _views_ready(page):
    page.wait_for_function("window.device.table() !== null", polling=100, timeout=chromium.LOADED_MS)
    frame = _frame(page)
    frame.wait_for_function("document.getElementById('st').textContent.indexOf('Waiting') < 0", polling=100, timeout=chromium.LOADED_MS)
    return frame


def _state_after(page, before):
    """The views' state once it is another than before (a commit made it)."""
    page.wait_for_function("s => JSON.stringify(window.device.table()) !== s", arg=json.dumps(before),
                           polling=100, timeout=chromium.LOADED_MS)
    return page.evaluate("() => window.device.table()")


def _shown_standings(frame):
    """The standings the views show: {name: (phase, made, points)} and the status line."""
    rows = frame.eval_on_selector_all("#sd tr", "rs => rs.map(r => [...r.children].map(c => c.innerText))")[1:]
    out = {}
    for rank, name, phase, made, points in rows:
        out[name] = (phase.split("\n")[0], int(made), int(points))
    return out, frame.inner_text("#st")


def _show_json(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text)
    r = subprocess.run([sys.executable, "-m", "host_sim", "show", "--json", str(path)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# A Phase 10 game of ten hands (the variation), A, B and C, A deals: in each hand one goes out
# in turn, one completes keeping a card, one fails; then it is finished
_TEN = new_game("classic", ["A", "B", "C"], dealer=0, variation="ten_hands")


def _ten_hand(h):
    out = h % 3
    entries = [None, None, None]
    entries[(out + 1) % 3] = counts([1, 0, 0, 0], most=10 - (6, 7, 8, 7, 8, 9, 8, 7, 7, 8)[h])
    entries[(out + 2) % 3] = FAIL
    return hand(out, entries)


def test_the_views_say_what_show_json_says_after_every_commit_of_a_played_game(browser, site, tmp_path):
    ctx, page = _fresh(browser, site)
    try:
        play(page, _TEN)
        frame = _views_ready(page)
        state = page.evaluate("() => window.device.table()")
        for h in range(10):
            play_keyboard(page, _ten_hand(h))
            state = _state_after(page, state)
            frame.wait_for_function("n => document.getElementById('st').innerText.indexOf(n + ' hand') >= 0",
                                    arg=h + 1, polling=100, timeout=chromium.LOADED_MS)
            want = _show_json(tmp_path, stored(page)["game.json"])
            assert want["hands"] == h + 1
            shown, status = _shown_standings(frame)
            assert shown == {p["name"]: (str(p["phase"]) if p["phase"] else "done", p["phases_done"], p["total"])
                             for p in want["players"]}, (h, shown, want)
            if want["winners"]:
                assert "Winner" in status and all(w in status for w in want["winners"]), status
            else:
                assert ("%s deals" % want["dealer"]) in status, status
        assert want["over"] and want["winners"]
        # Finish: the game goes to the history; the views say no game runs, as the phones' do
        play_keyboard(page, "OK")
        _state_after(page, state)
        assert "game.json" not in stored(page) and "history.json" in stored(page)
        frame.wait_for_function("document.getElementById('st').innerText.indexOf('No game') >= 0", polling=100, timeout=chromium.LOADED_MS)
        assert page.errors == []
    finally:
        ctx.close()


def _all_views(frame):
    # every view at once (the tabs show one), for the phones' page's own checks
    frame.evaluate("() => document.querySelectorAll('.v').forEach(v => v.classList.add('on'))")


@pytest.mark.parametrize("kind", ["classic", "masters", "twist", "dice", "dice_over"])
def test_the_views_are_the_phones_page_showing_the_engines_figures(browser, site, kind):
    # tests/test_table_page.py's own checks of the phones' page, on the views in the device's page
    import test_table_page as phones
    from engine_mpy import savefile
    game = golden._dice_over() if kind == "dice_over" else getattr(phones, kind)()[0]
    ctx = _context(browser, (390, 844))
    try:
        page = _open(ctx, site)
        page.evaluate("([f, s]) => window.device.restart(f, s)", [{"game.json": savefile.dumps(game)}, 1])
        frame = _views_ready(page)
        frame.wait_for_function("document.querySelectorAll('#sd tr').length > 1", polling=100, timeout=chromium.LOADED_MS)
        _all_views(frame)
        phones.check(frame, game)
        assert page.errors == []
    finally:
        ctx.close()


def _texts_too_small(frame):
    """Each element of the views that shows text of its own, smaller than 14 CSS px."""
    return frame.evaluate("""() => [...document.querySelectorAll('body *')].filter(e =>
        e.offsetParent !== null && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
        && parseFloat(getComputedStyle(e).fontSize) < 14).map(e => e.tagName + ' ' + e.textContent.trim().slice(0, 20))""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_views_read_at_320_wide_in_14_px_text_at_least_following_the_system(browser, site, scheme):
    import test_table_page as phones
    from engine_mpy import savefile
    ctx = _context(browser, (320, 568), scheme)
    try:
        page = _open(ctx, site)
        for make in (phones.classic, phones.twist, phones.dice):
            page.evaluate("([f, s]) => window.device.restart(f, s)", [{"game.json": savefile.dumps(make()[0])}, 1])
            frame = _views_ready(page)
            frame.wait_for_function("document.querySelectorAll('#sd tr').length > 1", polling=100, timeout=chromium.LOADED_MS)
            for tab in frame.query_selector_all("nav button"):
                if not tab.is_visible():
                    continue
                tab.click()
                assert _texts_too_small(frame) == [], (make.__name__, tab.inner_text())
            frame.click("nav button[data-v='0']")
            # the standings whole at 320 px: nothing to scroll sideways
            assert frame.evaluate("(() => { const w = document.getElementById('sd').parentElement; return w.scrollWidth <= w.clientWidth; })()")
        # the system's light or dark
        bg = frame.evaluate("getComputedStyle(document.body).backgroundColor")
        lum = sum(int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]) / 3
        assert (lum > 180) if scheme == "light" else (lum < 60), bg
    finally:
        ctx.close()


# --- a hand half entered, through a reload or a discarded tab ---------------------------------
_CA = new_game("classic", ["A", "B", "C"], dealer=1)
_TW2 = KEYS["twist_home_hand3"]
# (the keys to the moment the page goes, the keys after it): the simulator plays them in one
DRAFTS = {
    # B went out, A's cards half entered (10-12 one, then the Skip to come)
    "cards_page": (_CA + " OK DOWN OK LEFT LEFT UP", "RIGHT OK OK OK"),
    # on the check page, everything entered
    "check_page": (_CA + " OK DOWN OK LEFT LEFT UP RIGHT OK OK", "OK"),
    # hand 1 being corrected from the score sheet (the sheet parked under it)
    "correction": (GAME_AND_HAND + " DOWN DOWN DOWN OK OK OK LEFT", "OK OK OK"),
    # Twist: B's Twist card drawn and shown to B alone
    "twist_card": (_TW2 + " OK DOWN DOWN DOWN OK OK", "OK OK OK OK OK"),
    # Masters: the check page's question (the phase a player made) open, another chosen
    "masters": (KEYS["cards_masters_phase"], "OK OK"),
}


def _entry_then_gone(browser, site, keys, how):
    """A page playing keys, then gone (reloaded, or closed and another opened): the screen
    and the flash's records before, the page after."""
    ctx, page = _fresh(browser, site)
    play(page, keys)
    screen = rows(page)
    writes = storage(page)["writes"]
    files = stored(page)
    if how == "reload":
        reloaded(page)
    else:
        page.close()
        page = _open(ctx, site)
    return ctx, page, screen, writes, files


@pytest.mark.parametrize("how", ["reload", "discarded"])
@pytest.mark.parametrize("case", sorted(DRAFTS))
def test_a_hand_half_entered_comes_back_on_its_page_with_its_entries(browser, site, case, how):
    before, after = DRAFTS[case]
    ctx, page, screen, writes, files = _entry_then_gone(browser, site, before, how)
    try:
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        assert rows(page) == screen                      # the same page, the same entries
        assert stored(page) == files                     # nothing of it in the device's files
        play_keyboard(page, after)
        assert rows(page) == sim_rows({}, " ".join([before, after]))    # and it goes on as if never gone
        assert page.errors == []
    finally:
        ctx.close()


def test_the_draft_is_no_flash_write_and_goes_with_the_commit(browser, site):
    ctx, page = _fresh(browser, site)
    try:
        play(page, GAME)
        writes = storage(page)["writes"]
        hand_keys = GAME_AND_HAND[len(GAME) + 1:]
        keys = hand_keys.split()
        play_keyboard(page, " ".join(keys[:-1]))       # all but the save
        assert storage(page)["writes"] == writes        # the board's rule: only commits are written
        play_keyboard(page, keys[-1])
        assert storage(page)["writes"] > writes
        files = stored(page)
        reloaded(page)
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        # the hand was saved: no draft, the device opens on its menu (Continue)
        assert rows(page) == sim_rows(files, "")
    finally:
        ctx.close()


def test_a_dice_turn_comes_back_with_its_dice_and_rolls_on(browser, site):
    keys = KEYS["dice_turn_held"]
    ctx, page, screen, writes, files = _entry_then_gone(browser, site, keys, "reload")
    try:
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        with open(golden.path("dice_turn_held")) as f:
            assert rows(page) == screen == f.read().split()
        # Roll (DOWN from the dice): the second roll (the dice are the browser's random
        # source's, the title bar the simulator's after the same keys)
        play_keyboard(page, "DOWN OK")
        assert rows(page) != screen
        assert rows(page)[:8] == sim_rows({}, keys + " DOWN OK")[:8]
    finally:
        ctx.close()


def test_a_draft_older_than_the_files_is_not_put_back(browser, site):
    # the tab gone after a hand's save and before the draft followed it: the draft is of
    # the game before the save, and entering that hand again would count it twice
    before, after = DRAFTS["check_page"]
    ctx, page = _fresh(browser, site)
    try:
        play(page, before)
        storage(page, draftFrozen=True)
        play_keyboard(page, after)                     # saved; the draft still the entry's
        files = stored(page)
        reloaded(page)
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        assert rows(page) == sim_rows(files, "")       # the menu, on the saved game
        play_keyboard(page, "OK")
        assert rows(page) == sim_rows({}, " ".join([before, after]) + " LONG_OK OK")   # one hand, not two
    finally:
        ctx.close()


def test_the_commands_docs_web_md_gives_read_a_finished_games_download(browser, site, tmp_path):
    # a finished game has no game.json: export and stats read it from the history
    import zipfile
    from test_web_storage import FINISH, _downloaded, near_end
    ctx = browser.new_context(accept_downloads=True)
    try:
        page = _open(ctx, site)
        page.evaluate("([f, s]) => window.device.restart(f, s)", [{"game.json": near_end("Ann", "Bob")}, 1])
        play(page, FINISH)
        assert "game.json" not in stored(page)
        _, path = _downloaded(page, tmp_path)
        with zipfile.ZipFile(path) as z:
            z.extractall(str(tmp_path))
        for cmd in (["export", "phase10", "--csv", "-"], ["stats", "phase10"]):
            r = subprocess.run([sys.executable, "-m", "host_sim"] + cmd, cwd=str(tmp_path), capture_output=True,
                               text=True, timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
            assert r.returncode == 0 and "Ann" in r.stdout and "Bob" in r.stdout, (cmd, r.stdout, r.stderr)
        with open(os.path.join(ROOT, "docs", "web.md")) as f:
            doc = f.read()
        assert "python -m host_sim export phase10" in doc and "stats phase10" in doc
        assert "show phase10/history.json" not in doc
    finally:
        ctx.close()


# --- installed like an app --------------------------------------------------------------------
def _opaque_box(img, bg):
    """The box of the pixels that are not the background colour bg."""
    from PIL import ImageChops, Image
    diff = ImageChops.difference(img.convert("RGB"), Image.new("RGB", img.size, bg))
    return diff.convert("L").point(lambda v: 255 if v > 24 else 0).getbbox()


def test_the_icons_fill_their_zones_and_the_manifest_installs_with_no_warning(browser, site, tmp_path):
    from PIL import Image
    files = site["files"]
    m = json.loads(files["manifest.webmanifest"])
    assert m["id"] and m["start_url"] == "./" and m["display"] == "standalone"
    purposes = {}
    for i in m["icons"]:
        assert i["purpose"] in ("any", "maskable"), i     # each its own: never "any maskable"
        purposes.setdefault(i["purpose"], []).append(i)
        img = Image.open(io.BytesIO(files[i["src"]]))
        assert "%dx%d" % img.size == i["sizes"]
    assert {i["sizes"] for i in purposes["any"]} >= {"192x192", "512x512"}
    assert {i["sizes"] for i in purposes["maskable"]} >= {"192x192", "512x512"}
    bg = tuple(int(m["background_color"][k:k + 2], 16) for k in (1, 3, 5))
    for i in purposes["maskable"]:
        img = Image.open(io.BytesIO(files[i["src"]])).convert("RGBA")
        n = img.size[0]
        assert img.getextrema()[3][0] == 255           # opaque to the edges (the mask cuts it)
        box = _opaque_box(img, bg)
        # the lettering within the safe zone (the middle circle, 80% across) and filling it
        cx, cy = n / 2, n / 2
        for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
            assert ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= 0.4 * n + 1, (i["src"], box)
        assert box[2] - box[0] >= 0.5 * n, (i["src"], box)
    for i in purposes["any"]:
        img = Image.open(io.BytesIO(files[i["src"]])).convert("RGBA")
        n = img.size[0]
        box = img.getbbox()
        assert box[2] - box[0] >= 0.85 * n, (i["src"], box)     # the panel fills the icon
    # Chromium's own installability check: no error, no warning about the manifest (in a
    # profile of its own: a context of the tests' browser is incognito, where nothing installs)
    ctx = browser.browser_type.launch_persistent_context(str(tmp_path / "profile"), executable_path=chromium.path(),
                                                         args=["--no-sandbox"])
    try:
        page = ctx.new_page()
        page.goto(site["url"])
        page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)
        page.evaluate("() => navigator.serviceWorker.ready")
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null && document.body.classList.contains('ready')",
                               polling=100, timeout=chromium.LOADED_MS)
        cdp = ctx.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        got = cdp.send("Page.getAppManifest")
        assert got["errors"] == [], got["errors"]
    finally:
        ctx.close()
