# The device in the browser keeps every game, as a board does (issue 47): its flash is the
# Origin Private File System, written before the firmware's call returns, in images made at
# full size at the first start. Each test here is a way the site lost games before it:
# another page of the origin filling the storage during a finish, the browser refusing a
# write, two tabs (or the installed app beside a tab) writing over each other, a link with
# the tests' options, a Load applied halfway or too large, blocked storage, odd stored names,
# the Download zip loaded back, an older Download loaded over a newer history.
import io
import json
import os
import time
import zipfile

import pytest

import chromium
from webpage import play, reloaded, rows, serve, sim_rows, storage, stored

# A game of Phase 10 (the first two phases) at its end: Continue, the standings, and OK
# finish it (the next start counts it in the history and the roster)
def near_end(a, b):
    return ('{"format":"phase10","v":2,"game":"classic","settings":{"players":["%s","%s"],"dealer":0,'
            '"variation":"first_n","phases":2}}\n{"out":0,"left":[null,[1,0,0,0]]}\n'
            '{"out":1,"left":[[1,0,0,0],null]}\n{"tiebreak":0}\n' % (a, b))


FINISH = "OK OK OK"
HISTORY_HEAD = '{"format":"phase10-history","v":2}\n'


def entry(n, a="A", b="B"):
    return ('{"n":%d,"game":"classic","players":["%s","%s"],"winners":["%s"],"done":true,"hands":3,'
            '"variation":"first_n","phases":2,"first":0,"totals":[5,5],"made":[2,2],"sheet":"00313,11505,T0"}\n'
            % (n, a, b, a))


def history(ns):
    return HISTORY_HEAD + "".join(entry(n) for n in ns)


# A page of the same origin that is not the device: another site of the same host
FILLER = """<!doctype html><meta charset="utf-8"><title>another page of the origin</title><script>
window.fill = async () => {
  // everything the origin has left, in IndexedDB, then localStorage
  const db = await new Promise((ok, no) => { const r = indexedDB.open("filler", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("s"); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  let n = 0, size = 1 << 20;
  while (size >= 1024) {
    try {
      await new Promise((ok, no) => { const t = db.transaction("s", "readwrite");
        t.objectStore("s").put(new Uint8Array(size).fill(n & 255), n); t.oncomplete = ok; t.onerror = t.onabort = () => no(t.error); });
      n++;
    } catch (e) { size >>= 1; }
  }
  for (let size = 1 << 20, i = 0; size >= 1; ) {          // to the last character
    try { localStorage.setItem("filler" + i, "x".repeat(size)); i++; } catch (e) { size >>= 1; }
  }
  const est = await navigator.storage.estimate();
  return { pieces: n, usage: est.usage };
};
</script>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = serve(str(tmp_path_factory.mktemp("web")))
    with open(os.path.join(s["dir"], "filler.html"), "w") as f:
        f.write(FILLER)
    yield s
    s["httpd"].shutdown()


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The site as make web publishes it: no test option honoured."""
    s = serve(str(tmp_path_factory.mktemp("published")), hooks=False)
    yield s
    s["httpd"].shutdown()


browser = pytest.fixture(scope="module")(chromium.browser)


def _origin(site):
    return site["url"].rstrip("/")


def _with_quota(browser, site, quota):
    """A new profile whose origin the browser gives quota bytes, and the filler page open."""
    ctx = browser.new_context()
    filler = ctx.new_page()
    filler.goto(site["url"] + "filler.html")
    ctx.new_cdp_session(filler).send("Storage.overrideQuotaForOrigin", {"origin": _origin(site), "quotaSize": quota})
    return ctx, filler


def _device(ctx, site, query="clock=test&nosw"):
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(site["url"] + "?" + query)
    page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)
    return page


def _load(page, tmp_path, files, replace=None):
    """Files ({name: text or bytes}) chosen with Load files: the note it leaves."""
    paths = []
    for name, data in files.items():
        p = tmp_path / name
        if isinstance(data, str):
            data = data.encode()
        p.write_bytes(data)
        paths.append(str(p))
    page.evaluate("() => { const n = document.getElementById('note'); n.textContent = ''; n.hidden = true; }")
    page.set_input_files("#load", paths)
    if replace is not None:
        # asked only once the files are checked: a refusal comes without the question
        page.wait_for_function("document.getElementById('confirm').open || !document.getElementById('note').hidden",
                               polling=100, timeout=chromium.LOADED_MS)
        if page.evaluate("document.getElementById('confirm').open"):
            page.asked = page.inner_text("#confirm-text")
            page.click("#confirm button[value=%s]" % ("replace" if replace else "keep"))
    page.wait_for_function("!document.getElementById('note').hidden && document.getElementById('note').textContent", polling=100, timeout=chromium.LOADED_MS)
    return page.inner_text("#note")


def _players(files):
    """The running game's players (its save converted to the device's version at start)."""
    return json.loads(files["game.json"].splitlines()[0])["settings"]["players"]


def _games(files):
    """The games a history (every history file) holds: [(n, players)]."""
    out = []
    for name, text in files.items():
        if name.startswith("history") and name.endswith(".json"):
            for line in text.splitlines()[1:]:
                if line.strip():
                    e = json.loads(line)
                    out.append((e["n"], tuple(e["players"])))
    return sorted(out)


def test_another_page_of_the_origin_filling_its_storage_during_a_finish_takes_nothing_of_the_devices(browser, site, tmp_path):
    # the origin's room: the device's images and a little more, which the other page takes
    ctx, filler = _with_quota(browser, site, 12 << 20)
    try:
        page = _device(ctx, site)
        assert storage(page)["reserved"] is True
        assert _load(page, tmp_path, {"game.json": near_end("A", "B")}).startswith("Loaded")
        got = filler.evaluate("() => window.fill()")
        assert got["pieces"] >= 1
        play(page, FINISH)
        said = page.evaluate("() => window.device.said()")
        assert not any("Could not" in s for s in said), said
        reloaded(page)
        kept = stored(page)
        assert _games(kept) == [(1, ("A", "B"))]
        assert "game.json" not in kept and "finish.json" not in kept
        assert json.loads(kept["roster.json"]) == [["A", 1, 1, 5, 2], ["B", 1, 0, 5, 2]]
        assert page.errors == []
    finally:
        ctx.close()


def test_a_write_the_browser_refuses_is_said_and_loses_nothing(browser, site, tmp_path):
    # too little room to make the images at full size: the device says so, and a write the
    # browser then refuses (the other page took the rest) fails to the firmware as a full
    # flash does: the finish is not counted, the game stays, nothing is reported saved
    ctx, filler = _with_quota(browser, site, 700 << 10)
    try:
        page = _device(ctx, site)
        assert storage(page)["reserved"] is False
        assert "less room" in page.inner_text("#note")
        assert _load(page, tmp_path, {"game.json": near_end("A", "B")}).startswith("Loaded")
        before = stored(page)
        filler.evaluate("() => window.fill()")
        play(page, FINISH)
        said = page.evaluate("() => window.device.said()")
        assert any("Could not save" in s for s in said), said
        assert stored(page) == before
        reloaded(page)
        assert stored(page) == before                     # what the browser kept: the game, whole
        play(page, "OK OK")                               # (the note of less room read first)
        assert rows(page) == sim_rows(before, "OK")
    finally:
        ctx.close()


def _frames(page):
    return page.evaluate("window.oled.frames")


def _away(page):
    page.wait_for_function("!document.getElementById('elsewhere').hidden", polling=100, timeout=chromium.LOADED_MS)
    return page.inner_text("#elsewhere-text")


def _use_here(page):
    page.click("#use-here")
    page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)


def _two_devices(site, tmp_path, first, second):
    """Two pages of one profile, the second opened before the first finishes its game, each
    finishing one in turn: the files they leave (both games in them)."""
    assert _load(first, tmp_path, {"game.json": near_end("A", "B")}).startswith("Loaded")
    # the second, opened meanwhile, does not run the device: it says where it is
    second.goto(site["url"] + "?clock=test&nosw")
    assert "open in another tab or window" in _away(second)
    assert not second.evaluate("document.body.classList.contains('ready')")
    play(first, FINISH)
    _use_here(second)
    # taken over: the first stops, says so, and no key of its does anything
    assert "now open in another tab or window" in _away(first)
    n = _frames(first)
    first.keyboard.press("Enter")
    first.wait_for_timeout(300)
    assert _frames(first) == n
    # the second reads the files after the first stopped: the first's game is in them
    assert _games(stored(second)) == [(1, ("A", "B"))]
    assert _load(second, tmp_path, {"game.json": near_end("C", "D")}).startswith("Loaded")
    play(second, FINISH)
    # back to the first: it reads the files again, both games in them
    _use_here(first)
    assert "now open in another tab or window" in _away(second)
    return stored(first)


def test_two_tabs_finishing_games_never_write_over_each_other(browser, site, tmp_path):
    ctx = browser.new_context()
    try:
        first = _device(ctx, site)
        second = ctx.new_page()
        kept = _two_devices(site, tmp_path, first, second)
        first.close()
        second.close()
        third = _device(ctx, site)
        assert stored(third) == kept
        assert _games(kept) == [(1, ("A", "B")), (2, ("C", "D"))]
        assert sorted(r[0] for r in json.loads(kept["roster.json"])) == ["A", "B", "C", "D"]
    finally:
        ctx.close()


def test_the_installed_app_and_a_tab_are_one_device(browser, tmp_path):
    # two windows of one profile (the installed app is a window of the browser's profile),
    # and the games still there when the browser is started again on that profile
    s = serve(str(tmp_path / "site"))
    prof = str(tmp_path / "profile")
    chromium_type = browser.browser_type
    try:
        ctx = chromium_type.launch_persistent_context(prof, executable_path=chromium.path(), args=["--no-sandbox"])
        try:
            app = _device(ctx, s)
            with ctx.expect_page() as popup:
                app.evaluate("u => window.open(u, 'app', 'popup,width=400,height=800')", s["url"] + "?clock=test&nosw")
            kept = _two_devices(s, tmp_path, app, popup.value)
        finally:
            ctx.close()
        ctx = chromium_type.launch_persistent_context(prof, executable_path=chromium.path(), args=["--no-sandbox"])
        try:
            again = _device(ctx, s)
            assert stored(again) == kept
            assert _games(kept) == [(1, ("A", "B")), (2, ("C", "D"))]
        finally:
            ctx.close()
    finally:
        s["httpd"].shutdown()


def _press(page, key, hold=120, gap=300):
    page.keyboard.down(key)
    page.wait_for_timeout(hold)
    page.keyboard.up(key)
    page.wait_for_timeout(gap)


def _downloaded(page, tmp_path, name="files.zip"):
    with page.expect_download() as d:
        page.click("#download")
    path = tmp_path / name
    d.value.save_as(str(path))
    with zipfile.ZipFile(str(path)) as z:
        return {i.filename.split("/", 1)[1]: z.read(i).decode() for i in z.infolist()}, str(path)


def test_a_link_with_the_old_test_options_is_the_published_device(browser, published, tmp_path):
    # ?quota=1 made the device believe its flash full (it deleted the archived history to
    # make room), ?seed=7 gave the same dice at every open, ?clock=test stopped its clock
    link = "?quota=1&seed=7&clock=test&nosw"
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(published["url"] + link)
        page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)
        assert page.evaluate("typeof window.device") == "undefined"
        files = {"history.1.json": history(range(1, 101)), "history.json": history(range(101, 121)),
                 "game.json": near_end("A", "B")}
        assert _load(page, tmp_path, files).startswith("Loaded")
        # the finish, in real time (the clock runs): OK until the panel shows what the
        # simulator shows once the game is finished (a press taken while the device still
        # starts is pressed again)
        done = sim_rows(files, FINISH)
        for _ in range(6):
            _press(page, "Enter")
            if rows(page) == done:
                break
        assert rows(page) == done
        got, _ = _downloaded(page, tmp_path)
        # no archive deleted (the history as loaded: merged, each game given its id)
        assert [n for n, _ in _games({"history.1.json": got["history.1.json"]})] == list(range(1, 101))
        assert [n for n, _ in _games({"history.json": got["history.json"]})] == list(range(101, 122))
        assert "game.json" not in got
    finally:
        ctx.close()
    # the dice roller opened twice with the same ?seed=: two different rolls
    panels = []
    for _ in range(2):
        ctx = browser.new_context()
        try:
            page = ctx.new_page()
            page.goto(published["url"] + link)
            page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=chromium.LOADED_MS)
            page.wait_for_timeout(300)
            for k in ("ArrowDown", "Enter", "Enter", "ArrowRight", "Enter"):
                _press(page, k)
            page.wait_for_timeout(1500)
            panels.append(rows(page))
        finally:
            ctx.close()
    assert panels[0] != panels[1]


def test_load_is_one_step_all_or_nothing(browser, site, tmp_path):
    ctx = browser.new_context()
    try:
        page = _device(ctx, site)
        old = {"game.json": near_end("A", "B"), "history.json": history([1, 2])}
        assert _load(page, tmp_path, old).startswith("Loaded")
        before = stored(page)
        # one file damaged among good ones: nothing loaded, said in Load's words (never
        # start-up's "kept as ...; starting without it" or "enter that hand again")
        bad = near_end("C", "D").replace('{"tiebreak":0}', '{"out":7}')
        line = _load(page, tmp_path, {"roster.json": '[["C",0,0,0,0]]', "game.json": bad}, replace=True)
        assert line.startswith("Nothing loaded: game.json") and "\n" not in line, line
        assert "kept as" not in line and "starting without" not in line and "again" not in line, line
        assert stored(page) == before
        # the new files, and a tab closed at each storage step of their load: the old files
        # or the new, never a mix
        new = {"game.json": near_end("C", "D"), "roster.json": '[["C",0,0,0,0],["D",0,0,0,0]]',
               "history.json": history([1, 2, 3])}
        n0 = storage(page)["writes"]
        assert _load(page, tmp_path, new, replace=True).startswith("Loaded")
        steps = storage(page)["writes"] - n0
        after = stored(page)
        assert steps >= 1 and after["roster.json"] == new["roster.json"] and _players(after) == ["C", "D"]
        assert _games({"history.json": after["history.json"]}) == [(1, ("A", "B")), (2, ("A", "B")), (3, ("A", "B"))]
        for cut in [("cutAfter", k) for k in range(steps + 1)] + [("tear", t) for t in (1, 20, 21, 200)]:
            page.evaluate("([f, s]) => window.device.restart(f, s)", [before, 1])
            storage(page, **{cut[0]: cut[1]})
            _load(page, tmp_path, new, replace=True)
            reloaded(page)
            got = stored(page)
            assert got in (before, after), "a load cut at %r: a mix of old and new files" % (cut,)
        # a running game is replaced only when the player says so
        page.evaluate("([f, s]) => window.device.restart(f, s)", [before, 1])
        line = _load(page, tmp_path, {"game.json": near_end("C", "D")}, replace=False)
        assert line == "Nothing loaded: the running game goes on."
        # the question names the game as the engine holds it: two hands (the file's third
        # record is the tie-break's start, no hand; counting its lines said 3)
        assert page.asked == "Replace the Phase 10 game of A, B (2 hands) with the loaded game?", page.asked
        assert stored(page) == before
        # a replaced file is counted once: a history a line longer, in place of the one the
        # device holds, fits in a room a line and a half larger than what is kept
        room = storage(page)
        storage(page, quota=room["live"] + 300)
        assert _load(page, tmp_path, {"history.json": history([1, 2, 3])}).startswith("Loaded")
        assert _load(page, tmp_path, {"history.json": history([1, 2, 3, 4, 5])}).startswith("Nothing loaded: the device has room")
        storage(page, quota=2_000_000)
        assert page.errors == []
    finally:
        ctx.close()


def test_load_refuses_what_the_device_does_not_read_at_once(browser, site, tmp_path):
    ctx = browser.new_context()
    try:
        page = _device(ctx, site)
        before = stored(page)
        cases = [
            # a 20 MB file: refused before it is read
            ({"history.json": b"x" * (20 << 20)}, "larger than the device reads"),
            # a history the PC companion would refuse (over 524,288 bytes)
            ({"history.json": history(range(1, 9000))}, "larger than the device reads"),
            # one line longer than the device ever writes (the check is one pass)
            ({"history.json": HISTORY_HEAD + '{"n":1,"players":["' + "A" * 400000 + '"]}\n'}, "line 2 is longer"),
            ({"settings.json": '{"contrast": 999}'}, "settings.json: contrast"),
            ({"roster.json": '[["A",1]]'}, "roster.json"),
            ({"history.json": HISTORY_HEAD + entry(1)[:-30] + "\n"}, "history.json line 2"),
            ({"notes.txt": "hello"}, "notes.txt is not one of the device's files"),
            ({"history.02.json": history([1])}, "history.02.json is not one of the device's files"),
        ]
        for files, want in cases:
            t0 = time.time()
            line = _load(page, tmp_path, files)
            took = time.time() - t0
            assert line.startswith("Nothing loaded: ") and want in line, (line, want)
            assert page.evaluate("1 + 1") == 2 and took < 30     # the page answers: never frozen
            assert stored(page) == before
    finally:
        ctx.close()


def test_a_download_zip_is_loaded_back_and_an_older_one_is_refused(browser, site, tmp_path):
    ctx = browser.new_context(accept_downloads=True)
    try:
        page = _device(ctx, site)
        # nothing yet: said, no empty zip
        page.click("#download")
        page.wait_for_function("!document.getElementById('note').hidden", polling=100, timeout=chromium.LOADED_MS)
        assert page.inner_text("#note").startswith("Nothing to download yet")
        assert _load(page, tmp_path, {"game.json": near_end("A", "B")}).startswith("Loaded")
        play(page, FINISH)
        files, older = _downloaded(page, tmp_path, "older.zip")
        assert _games(files) == [(1, ("A", "B"))]
        # each file dated with the time it was written
        mtimes = page.evaluate("() => window.device.mtimes()")
        with zipfile.ZipFile(older) as z:
            for i in z.infolist():
                when = time.mktime(i.date_time + (0, 0, -1))
                assert abs(when - mtimes[i.filename.split("/", 1)[1]] / 1000.0) <= 2, i.filename
        # another game finished: the history is newer than the zip
        assert _load(page, tmp_path, {"game.json": near_end("C", "D")}).startswith("Loaded")
        play(page, FINISH)
        newer, newer_zip = _downloaded(page, tmp_path, "newer.zip")
        assert _games(newer) == [(1, ("A", "B")), (2, ("C", "D"))]
        # (merged by each game's id: every game it holds is in History already, so nothing,
        # not even its older roster, is loaded)
        line = _load(page, tmp_path, {"older.zip": open(older, "rb").read()})
        assert line == "Nothing loaded: every game in it is in History already.", line
        assert stored(page) == newer
        # a game.json downloaded before its finish, loaded back: refused, never counted twice
        line = _load(page, tmp_path, {"game.json": near_end("A", "B")})
        assert line.startswith("Nothing loaded: Finished already on ") and "it is in History" in line, line
        assert stored(page) == newer
        # the newer zip loaded back (on a fresh device: a restore)
        page.evaluate("([f, s]) => window.device.restart(f, s)", [{}, 1])
        assert _load(page, tmp_path, {"newer.zip": open(newer_zip, "rb").read()}).startswith("Loaded")
        restored = stored(page)
        assert _games(restored) == _games(newer) and restored["roster.json"] == newer["roster.json"]
        reloaded(page)
        assert stored(page) == restored
    finally:
        ctx.close()


def test_with_site_data_blocked_the_device_plays_and_says_games_are_not_kept(browser, tmp_path):
    s = serve(str(tmp_path / "site"))
    prof = tmp_path / "profile"
    (prof / "Default").mkdir(parents=True)
    # the browser's setting "block sites from saving data"
    (prof / "Default" / "Preferences").write_text(json.dumps({"profile": {"default_content_setting_values": {"cookies": 2}}}))
    try:
        ctx = browser.browser_type.launch_persistent_context(str(prof), executable_path=chromium.path(), args=["--no-sandbox"])
        try:
            page = _device(ctx, s)
            assert "games will not be kept" in page.inner_text("#note")
            assert any("games will not be kept" in t for t in page.evaluate("() => window.device.said()"))
            n = _frames(page)
            play(page, "OK DOWN")                 # the note read, the menu moves
            assert _frames(page) > n
            assert storage(page)["kept"] is False
        finally:
            ctx.close()
    finally:
        s["httpd"].shutdown()


def _as_stored(text):
    # how the site before this one kept a file in localStorage: a character per byte
    return "".join(chr(b) for b in text.encode())


def test_games_kept_by_the_earlier_site_move_over_once_and_odd_names_never_stop_the_page(browser, site):
    ctx = browser.new_context()
    try:
        blank = ctx.new_page()
        blank.goto(site["url"] + "filler.html")
        files = {"game.json": near_end("Zoë", "B"), "roster.json": '[["Zoë",0,0,0,0]]', "history.json": history([1, 2])}
        odd = {"phase10:": "x", "phase10:.": "y", "phase10:..": "z"}
        blank.evaluate("""([files, odd]) => {
            for (const [n, t] of Object.entries(files)) localStorage.setItem('phase10:' + n, t);
            for (const [k, t] of Object.entries(odd)) localStorage.setItem(k, t); }""",
                       [{n: _as_stored(t) for n, t in files.items()}, odd])
        page = _device(ctx, site)
        moved = stored(page)
        # every file over, byte for byte (the save then converted to this firmware's version)
        assert {n: moved[n] for n in files if n != "game.json"} == {n: files[n] for n in files if n != "game.json"}
        assert _players(moved) == ["Zoë", "B"]
        note = page.inner_text("#note")
        assert "Left alone" in note and '".."' in note, note
        left = blank.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('phase10:')).sort()")
        assert left == sorted(odd)                 # the device's files moved, the odd ones left
        reloaded(page)
        assert stored(page) == moved
        assert page.evaluate("document.getElementById('note').hidden")        # said once
        play(page, "OK")
        assert rows(page) == sim_rows(moved, "OK")
    finally:
        ctx.close()


def test_a_finish_on_a_full_flash_makes_room_and_counts_the_game_once(browser, site, tmp_path):
    # the history line refused for want of room: the device deletes the oldest archive and
    # adds the line again; the refused one must have left nothing behind, not even in the
    # device's own copy of the file, or the game would be counted twice
    ctx = browser.new_context()
    try:
        page = _device(ctx, site)
        files = {"history.1.json": history(range(1, 101)), "history.json": history(range(101, 111)),
                 "game.json": near_end("A", "B")}
        assert _load(page, tmp_path, files).startswith("Loaded")
        live = storage(page)["live"]
        # room for the journal and the roster, not for the history line beside them
        storage(page, quota=live + 300)
        play(page, FINISH + " OK OK")
        kept = stored(page)
        assert "history.1.json" not in kept                      # the room made
        assert [n for n, _ in _games(kept)] == list(range(101, 112)), _games(kept)
        reloaded(page)
        assert [n for n, _ in _games(stored(page))] == list(range(101, 112))
    finally:
        ctx.close()
