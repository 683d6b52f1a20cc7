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
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import web_build  # noqa: E402

import chromium  # noqa: E402  (tests/chromium.py)
from webpage import (GAME, GAME_AND_HAND, HAND, KEYS, files_of, game_started, open_page, play,  # noqa: E402
                     play_keyboard, play_pointer, reloaded, rows, serve, shows, sim_rows, storage, stored)

from host_sim import golden, script  # noqa: E402

# The golden screens the page can show: every one but the About screen (it shows the
# board's own free heap) and the table on phones' (a board with Wi-Fi; the page has none)
CASES = [(n, k) for n, k in golden.CASES
         if n != "about" and not k.startswith(("PHONES", "JOIN ")) and "phones" not in n]
# The page's own: its panel is fixed (firmware/boards/web.py PANEL), so Settings has no SH1106
# line; these are the simulator's on a board whose panel is fixed
FIXED_PANEL = ("settings", "settings_edit")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = serve(str(tmp_path_factory.mktemp("web")))
    yield s
    s["httpd"].shutdown()


browser = pytest.fixture(scope="module")(chromium.browser)


@pytest.fixture(scope="module")
def device(browser, site):
    ctx, page = open_page(browser, site)
    yield page
    ctx.close()


@pytest.mark.parametrize("how", ["keyboard", "pointer"])
def test_every_golden_screen_of_the_buttons_is_the_boards_byte_for_byte(device, how):
    page = device
    bad = []
    for name, keys in CASES:
        files, keys = files_of(keys)
        page.evaluate("([f, s]) => window.device.restart(f, s)", [files, 1])
        page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
        (play_keyboard if how == "keyboard" else play_pointer)(page, keys)
        with open(golden.path(name)) as f:
            want = f.read().split()
        if name in FIXED_PANEL:
            board = want
            want = sim_rows(files, keys, fixed_panel=True)
            # the board's screen less its last line (SH1106), the lines above it the same
            assert want != board and want[:48] == board[:48], name
        if rows(page) != want:
            bad.append(name)
    assert page.errors == []
    assert bad == [], "%d of %d screens differ from tests/golden: %s" % (len(bad), len(CASES), bad)


def test_a_game_continued_after_a_reload_is_where_the_simulator_restarted_on_its_files_is(browser, site):
    ctx, page = open_page(browser, site)
    try:
        page.evaluate("() => window.device.restart({}, 1)")
        play(page, GAME_AND_HAND)
        files = stored(page)
        assert "game.json" in files
        reloaded(page)
        assert stored(page) == files          # the reload kept every file as it was
        play(page, "OK")                      # Continue
        assert rows(page) == sim_rows(files, "OK")
        with open(golden.path("cards_standings")) as f:
            assert rows(page) == f.read().split()   # the standings after the first hand
        assert page.errors == []
    finally:
        ctx.close()


def test_a_reload_with_no_network_opens_the_device_from_its_offline_copy(browser, site):
    ctx, page = open_page(browser, site, query="clock=test")
    try:
        # the service worker installed and controlling the page: everything it needs cached
        page.evaluate("() => navigator.serviceWorker.ready")
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null && window.oled && window.oled.frames > 0", polling=100, timeout=chromium.LOADED_MS)
        ctx.set_offline(True)
        page.reload()
        page.wait_for_function("window.oled && window.oled.frames > 0 && document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)
        with open(golden.path("menu")) as f:
            assert rows(page) == f.read().split()
        play(page, "DOWN")
        with open(golden.path("menu")) as f:
            assert rows(page) != f.read().split()      # it runs: the cursor moved
        assert page.errors == []
    finally:
        ctx.close()


def test_the_downloaded_files_are_the_folder_the_pc_companion_reads(browser, site, tmp_path):
    ctx, page = open_page(browser, site)
    try:
        page.evaluate("() => window.device.restart({}, 1)")
        play(page, GAME_AND_HAND)
        with page.expect_download() as d:
            page.click("#download")
        path = tmp_path / "files.zip"
        d.value.save_as(str(path))
        assert d.value.suggested_filename == "phase10-files.zip"
        with zipfile.ZipFile(str(path)) as z:
            assert z.testzip() is None
            z.extractall(str(tmp_path))
        folder = tmp_path / "phase10"
        kept = stored(page)
        assert sorted(os.listdir(str(folder))) == sorted(kept)
        for name, text in kept.items():           # each file byte for byte as the device wrote it
            assert (folder / name).read_text() == text, name
        r = subprocess.run([sys.executable, "-m", "host_sim", "show", str(folder / "game.json")], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "A" in r.stdout and "B" in r.stdout and "C" in r.stdout, r.stdout
    finally:
        ctx.close()


def test_a_full_storage_is_said_on_the_panel_and_loses_nothing_saved(browser, site):
    ctx, page = open_page(browser, site)
    try:
        before = game_started(page)
        used = sum(len(v.encode()) for v in before.values())
        # the device's room now ends a few bytes past what is saved: the hand's save cannot fit
        storage(page, quota=used + 10)
        play_keyboard(page, HAND)
        page.evaluate("ms => window.device.advance(ms)", 500)
        screen = "\n".join(rows(page))
        assert stored(page) == before                      # nothing saved was touched
        # the device's own words for a full flash are on the panel
        text = page.evaluate("() => window.device.said()")
        assert any("full" in s for s in text), (text, screen)
        # room again: the hand entered again is saved once (the refused one left nothing,
        # not even in the device's own copy of the files)
        storage(page, quota=2_000_000)
        play_keyboard(page, "OK OK " + HAND)
        once = stored(page)["game.json"]
        assert once.count("\n") == before["game.json"].count("\n") + 1, once
        reloaded(page)
        assert stored(page)["game.json"] == once
        page.evaluate("([f, s]) => window.device.restart(f, s)", [before, 1])
        play(page, "OK")
        assert rows(page) == sim_rows(before, "OK")            # the game as it was before the hand
    finally:
        ctx.close()


def test_a_tab_closed_between_a_saves_steps_leaves_the_game_before_or_after_it(browser, site):
    ctx, page = open_page(browser, site)
    try:
        before = game_started(page)

        def hand(cut=None, tear=None):
            # the game continued on its files, the cut armed, the hand entered; then the tab
            # is gone: what the browser kept is all the page finds when it is opened again
            page.evaluate("([f, s]) => window.device.restart(f, s)", [before, 1])
            play(page, "OK")
            n0 = storage(page)["writes"]
            if cut is not None:
                storage(page, cutAfter=cut)
            if tear is not None:
                storage(page, tear=tear)
            play_keyboard(page, HAND)
            steps = storage(page)["writes"] - n0
            reloaded(page)
            play(page, "OK")
            return steps, rows(page)
        steps, _ = hand()
        after = stored(page)
        assert after != before and steps >= 1
        want = {"before": sim_rows(before, "OK"), "after": sim_rows(after, "OK")}
        assert want["before"] != want["after"]
        seen = []
        for cut in range(steps + 1):
            got = hand(cut=cut)[1]
            match = [k for k, v in want.items() if v == got]
            assert match, "cut after %d of %d storage steps: neither before nor after the hand" % (cut, steps)
            seen.append(match[0])
        assert seen[0] == "before" and seen[-1] == "after", seen
        # a write cut short partway (the tab closed while the browser wrote it): the change
        # it carried never happened
        for tear in (1, 19, 20, 21, 60):
            got = hand(tear=tear)[1]
            assert got == want["before"], "a write torn after %d bytes" % tear
    finally:
        ctx.close()


def test_the_three_button_setting_shows_three_buttons(device):
    page = device
    page.evaluate("() => window.device.restart({}, 1)")
    assert page.evaluate("document.body.classList.contains('three')") is False
    play(page, KEYS["settings"])
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
    play(page, GAME_AND_HAND)
    before = stored(page)
    # a damaged save, a settings file and a stranger: refused in one line, nothing changed
    bad = tmp_path / "game.json"
    bad.write_text('{"format":"phase10","v":2,"game":"classic"')
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"three_button": True}))
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    for chosen in ([str(settings), str(bad)], [str(other)]):
        page.set_input_files("#load", chosen)
        page.wait_for_function("!document.getElementById('note').hidden", polling=100, timeout=chromium.LOADED_MS)
        line = page.inner_text("#note")
        assert line.startswith("Nothing loaded: ") and "\n" not in line, line
        assert stored(page) == before
        page.evaluate("() => { document.getElementById('note').hidden = true; }")
    assert "notes.txt is not one of the device's files" in line
    # a good one is taken and the device starts again on it
    page.set_input_files("#load", [str(settings)])
    page.wait_for_function("document.getElementById('note').textContent.startsWith('Loaded')", polling=100, timeout=chromium.LOADED_MS)
    assert json.loads(stored(page)["settings.json"]) == {"three_button": True}
    assert stored(page)["game.json"] == before["game.json"]
    assert page.evaluate("document.body.classList.contains('three')") is True


def test_the_help_button_and_escape_work_in_real_time(browser, site):
    # the page's own clock: ? is OK held with UP pressed (the menu's Help), Escape a long OK
    # (back), a tap on OK a short press: each acted on as the board's buttons would be
    ctx, page = open_page(browser, site, query="nosw")
    try:
        want = {}
        for n in ("help_menu", "menu", "newgame_game"):
            with open(golden.path(n)) as f:
                want[n] = f.read().split()
        page.click("#help")
        assert shows(page, want["help_menu"])
        page.wait_for_function("window.device.held() === 0", polling=100, timeout=chromium.LOADED_MS)     # the chord let go
        page.keyboard.press("Escape")
        assert shows(page, want["menu"])
        # BACK acts at 600 ms while OK is still held: a tap before the device lets go of it
        # would be part of the same press
        page.wait_for_function("window.device.held() === 0", polling=100, timeout=chromium.LOADED_MS)
        page.click("[data-button=ok]")
        assert shows(page, want["newgame_game"])
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
    kept = stored(page)
    assert "settings.json" not in kept
    aside = [n for n in kept if n.startswith("settings.json.bad")]
    assert len(aside) == 1 and kept[aside[0]] == garbage
    # and read out to a screen reader (the panel is a picture)
    assert "settings.json" in page.inner_text("#spoken")
