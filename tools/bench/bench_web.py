"""make bench-web: the device in the browser against its budgets, in Debian's headless
Chromium on this machine, the site served from the loopback (tools/build/web_build.py). Writes
the "web" section of bench/results.json and exits 1 when a budget is missed. Each figure is
measured as it is (this machine's processor) and again with Chromium's CPU throttled 4x (a
phone-class processor: DevTools' Emulation.setCPUThrottlingRate on the page; Chromium slows
the page's thread by that much, its workers less), the throttled figures named ..._cpu4:

  first_frame_ms_cold   a cold load (a new browser profile: nothing cached) to the first
                        frame the firmware draws (the page's clock: from navigation start),
                        the median of 5, with _min and _max     budget 1000 (cpu4: 1500);
                        the throttled and unthrottled loads take turns, after one load
                        not counted (the browser's own first start)
  first_frame_ms_warm   the same page loaded again once its offline copy is installed (the
                        service worker serves every file), median of 5, _min, _max
                                                                budget 500 (cpu4: 600)
  start_<stage>_ms_cpu4 where a throttled cold start's time goes, the median of 5 (ms from
                        navigation start to each stage's end): worker (its module loaded),
                        port (MicroPython's WebAssembly port ready), unpack (device.bin in
                        its filesystem), import (the page's modules imported), page (the
                        page's own module run), start (the device's lock held, told to
                        start), storage (its flash read), boot (the first frame drawn)
  key_to_frame_ms_p50/p95/max
                        a key's acting edge (an arrow's keydown, Enter's keyup: OK acts
                        on release) to the end of painting the first frame after it, over a
                        game's keys played at a person's pace (a Classic game of three set
                        up and its first hand entered, the menu walked), each figure the
                        median of 5 such runs, p95 with _min and _max  p95 budget 50 (cpu4: 50)
  views_after_commit_ms a hand's save (its OK let go) to the table's views showing it
                        (their standings changed), over three hands of a game continued
                        from its file at a person's pace: the slowest of the three, the
                        median of 5 such runs, _min and _max     budget 1000 (cpu4: 1000)
  site_kb_gzipped       every file of the site, gzipped at level 9            budget 700
  finish_storage_ms     a game's finish (its journal, the roster, the history line, the
                        save and the journal removed) as the browser's storage takes it:
                        the time spent writing and flushing the Origin Private File
                        System's images, the median of 5                     budget 100
  finish_storage_writes the records that finish writes (each kept or refused whole)
  machine_cores, machine_load_1min
                        this machine's processors and its load average when the run began
                        (other work shares them: the figures move with it)
"""
import json
import os
import shutil
import statistics
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
sys.path.insert(0, ROOT)
import web_build  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results.json")
BUDGETS = {"first_frame_ms_cold": 1000, "first_frame_ms_warm": 500, "key_to_frame_ms_p95": 50, "site_kb_gzipped": 700,
           "finish_storage_ms": 100,
           "first_frame_ms_cold_cpu4": 1500, "first_frame_ms_warm_cpu4": 600, "key_to_frame_ms_p95_cpu4": 50,
           "views_after_commit_ms": 1000, "views_after_commit_ms_cpu4": 1000}
# A Phase 10 game of three, A B C, B deals, continued from its file, and three hands entered
# from its standings (Continue first): B out, A completes with 3 cards left, C fails; then
# A out, the others fail; then C out, the others fail
VIEWS_GAME = '{"format":"phase10","v":2,"game":"classic","settings":{"players":["A","B","C"],"dealer":1}}\n'
VIEWS_HANDS = ("OK OK DOWN OK LEFT LEFT UP RIGHT OK OK OK", "OK OK OK OK OK", "OK DOWN DOWN OK OK OK OK")
THROTTLE = 4          # a phone-class processor, as DevTools emulates one
RUNS = 5
# A Phase 10 game at its end (the first two phases): Continue, the standings, OK finish it
NEAR_END = ('{"format":"phase10","v":2,"game":"classic","settings":{"players":["A","B"],"dealer":0,'
            '"variation":"first_n","phases":2}}\n{"out":0,"left":[null,[1,0,0,0]]}\n'
            '{"out":1,"left":[[1,0,0,0],null]}\n{"tiebreak":0}\n')
LOADS = 5        # the finishes measured
PRESS_MS, GAP_MS = 80, 250

_FIRST = "() => window.oled.frameTimes.length ? window.oled.frameTimes[0] : null"
STAGES = ("worker", "port", "unpack", "import", "page", "start", "storage", "boot")


def pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100.0
    i = int(k)
    return round(xs[i] + (xs[min(i + 1, len(xs) - 1)] - xs[i]) * (k - i), 1)


def first_frame(page, url):
    page.goto(url)
    page.wait_for_function("window.oled && window.oled.frameTimes.length > 0", timeout=60000)
    return page.evaluate(_FIRST)


def throttled(ctx, page, rate):
    """page's processor rate times slower (1: as it is), for what it loads from now on."""
    if rate != 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def load(b, url, rate):
    """A cold load, then the same page loaded warm: (cold ms, warm ms, the cold start's stages)."""
    ctx = b.new_context()
    page = ctx.new_page()
    throttled(ctx, page, rate)
    cold = first_frame(page, url)
    page.wait_for_function("window.oled.stages", timeout=60000)
    stages = page.evaluate("() => window.oled.stages")
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null && window.oled.frameTimes.length > 0",
                           timeout=60000)
    warm = first_frame(page, url)
    ctx.close()
    return cold, warm, stages


def loads(b, url, rates):
    """RUNS cold and warm loads at each rate, the rates taking turns (so that what the
    machine's other work does falls on each alike), after one load not counted (the
    browser's own first start): {rate: ([cold ms], [warm ms], [the cold starts' stages])}."""
    load(b, url, 1)
    out = {r: ([], [], []) for r in rates}
    for _ in range(RUNS):
        for r in rates:
            for got, xs in zip(load(b, url, r), out[r]):
                xs.append(got)
    return out


def views_timed(page):
    """[ms] from each hand's saving OK let go to its standings in the views, on the
    browser's own clock (the OK at a person's pace: held 80 ms)."""
    from host_sim import script
    frame = page.query_selector("#table").content_frame()
    frame.wait_for_function("document.querySelectorAll('#sd tr').length > 1", timeout=60000)
    out = []
    for keys in VIEWS_HANDS:
        steps = script.parse(keys)
        for i, (bits, hold, then) in enumerate(steps):
            k = _NAMES[bits]
            if i == len(steps) - 1:
                frame.evaluate("""() => { window.__t = null; new MutationObserver(() => {
                    if (window.__t === null) window.__t = performance.timeOrigin + performance.now(); })
                    .observe(document.getElementById('sd'), {childList: true, subtree: true}); }""")
            page.keyboard.down(k)
            time.sleep(max(hold, 80) / 1000.0)
            t0 = page.evaluate("() => performance.timeOrigin + performance.now()")
            page.keyboard.up(k)
            time.sleep(max(then, 250) / 1000.0)
        try:
            frame.wait_for_function("window.__t !== null", timeout=15000)
        except Exception:
            raise SystemExit("make bench-web: the views did not show hand %d (they say %r; the device has %d hands)"
                             % (len(out) + 1, frame.inner_text("#st"), page.evaluate("() => window.device.table().hands")))
        out.append(frame.evaluate("window.__t") - t0)
    return out


def spread(res, name, xs):
    res[name] = round(statistics.median(xs), 1)
    res[name + "_min"] = round(min(xs), 1)
    res[name + "_max"] = round(max(xs), 1)


_NAMES = {1: "ArrowUp", 2: "ArrowDown", 4: "ArrowLeft", 8: "ArrowRight", 16: "Enter"}


def keys_timed(page, keys):
    """[ms] from each key's acting edge to the first frame painted after it."""
    from host_sim import script
    out = []
    for bits, hold, then in script.parse(keys):
        k = _NAMES.get(bits)
        if k is None:
            time.sleep((hold + then) / 1000.0)
            continue
        n0 = page.evaluate("window.oled.frames")
        t_down = page.evaluate("k => { window.__t = []; addEventListener('keydown', e => __t.push(e.timeStamp), {once: true, capture: true});"
                               " addEventListener('keyup', e => __t.push(e.timeStamp), {once: true, capture: true}); }", k)
        page.keyboard.down(k)
        time.sleep(hold / 1000.0)
        page.keyboard.up(k)
        time.sleep(then / 1000.0)
        t = page.evaluate("() => window.__t")
        edge = t[1] if k == "Enter" else t[0]
        after = page.evaluate("e => window.oled.frameTimes.filter(x => x >= e)", edge)
        if page.evaluate("window.oled.frames") > n0 and after:
            out.append(after[0] - edge)
    return out


def finishes(b):
    """[(ms, records)] of LOADS finishes on the tests' build (its test clock and storage
    figures), each game loaded near its end on a fresh device."""
    from host_sim import script
    out_dir = os.path.join(ROOT, "build", "web-bench")
    web_build.build(out_dir, hooks=True)
    httpd, url = web_build.server(out_dir, port=0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    got = []
    try:
        ctx = b.new_context()
        page = ctx.new_page()
        page.goto(url + "?clock=test&nosw")
        page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=30000)
        for _ in range(LOADS):
            page.evaluate("([f, s]) => window.device.restart(f, s)", [{"game.json": NEAR_END}, 1])
            page.evaluate("ms => window.device.advance(ms)", script.BOOT_MS)
            before = page.evaluate("() => window.device.storage()")
            for _k in range(3):
                page.keyboard.down("Enter")
                page.evaluate("ms => window.device.advance(ms)", 80)
                page.keyboard.up("Enter")
                page.evaluate("ms => window.device.advance(ms)", 250)
            after = page.evaluate("() => window.device.storage()")
            files = page.evaluate("() => window.device.files()")
            if "game.json" in files or "history.json" not in files:
                raise SystemExit("make bench-web: the game was not finished")
            got.append((after["ms"] - before["ms"], after["writes"] - before["writes"]))
        ctx.close()
    finally:
        httpd.shutdown()
    return got


def main():
    from playwright.sync_api import sync_playwright
    from host_sim import golden
    out = os.path.join(ROOT, "build", "web")
    site = web_build.build(out)
    httpd, url = web_build.server(out, port=0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("make bench-web: no Chromium (make browser installs Debian's)", file=sys.stderr)
        return 2
    res = {"site_kb_gzipped": round(web_build.gzipped(site) / 1024.0, 1),
           "site_kb": round(sum(len(d) for d in site.values()) / 1024.0, 1),
           "machine_cores": os.cpu_count() or 0, "machine_load_1min": round(os.getloadavg()[0], 2)}
    keys = dict(golden.CASES)
    script_keys = "DOWN DOWN UP UP DOWN UP " + keys["cards_standings"] + " LONG_OK"
    # the tests' build, for a game restarted on its file (its hooks; its clock the browser's)
    hooked_dir = os.path.join(ROOT, "build", "web-bench-views")
    web_build.build(hooked_dir, hooks=True)
    hooked_httpd, hooked = web_build.server(hooked_dir, port=0)
    threading.Thread(target=hooked_httpd.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        res["chromium_major"] = int(b.version.split(".")[0])
        measured = loads(b, url, (1, THROTTLE))
        for rate in (1, THROTTLE):
            tag = "" if rate == 1 else "_cpu%d" % rate
            cold, warm, stages = measured[rate]
            spread(res, "first_frame_ms_cold" + tag, cold)
            spread(res, "first_frame_ms_warm" + tag, warm)
            if rate != 1:
                for k in STAGES:
                    res["start_%s_ms%s" % (k, tag)] = round(statistics.median(st[k] for st in stages), 1)
            p50, p95, top = [], [], []
            for _ in range(RUNS):
                ctx = b.new_context()
                page = ctx.new_page()
                throttled(ctx, page, rate)
                first_frame(page, url + "?nosw")
                ms = keys_timed(page, script_keys)
                ctx.close()
                p50.append(pct(ms, 50))
                p95.append(pct(ms, 95))
                top.append(max(ms))
            res["keys_timed"] = len(ms)
            res["key_to_frame_ms_p50" + tag] = round(statistics.median(p50), 1)
            spread(res, "key_to_frame_ms_p95" + tag, p95)
            res["key_to_frame_ms_max" + tag] = round(statistics.median(top), 1)
            worst = []
            for _ in range(RUNS):
                ctx = b.new_context()
                page = ctx.new_page()
                throttled(ctx, page, rate)
                first_frame(page, hooked + "?nosw")
                page.evaluate("([f, s]) => window.device.restart(f, s)", [{"game.json": VIEWS_GAME}, 0])
                page.wait_for_function("window.device.table() !== null", timeout=60000)
                worst.append(max(views_timed(page)))
                ctx.close()
            spread(res, "views_after_commit_ms" + tag, worst)
        finish = finishes(b)
        b.close()
    httpd.shutdown()
    hooked_httpd.shutdown()
    res["finish_storage_ms"] = round(statistics.median(t for t, _ in finish), 2)
    res["finish_storage_writes"] = finish[0][1]
    missed = [k for k, v in BUDGETS.items() if res[k] > v]
    with open(RESULTS) as f:
        results = json.load(f)
    results["web"] = res
    with open(RESULTS, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    for k in sorted(res):
        print("  %-30s %8s%s" % (k, res[k], "   budget %s%s" % (BUDGETS[k], " MISSED" if k in missed else "")
                                 if k in BUDGETS else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
