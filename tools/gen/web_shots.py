"""The pictures of the device in the browser in docs/web.md, taken in Debian's Chromium.

  python tools/gen/web_shots.py      (make web-shots) write docs/img/web_*.png

The tests' build of the site (tools/build/web_build.py, its test clock and hooks) is served from
the loopback and opened as a phone (2 device pixels a CSS pixel, touch, dark); each game is
played on the device with its own keys (tests/table_keys.py, as the golden screens are) or
started on a saved game, then the page is taken:
  web_portrait.png    360x740 held upright: a Phase 10 game of three after three hands
  web_landscape.png   740x360 held sideways: a Dice turn (B's first roll), the Dice sheet
                      beside it (A's first turn in it)
  web_views.png       the views at 390 px, light: a Twist game's board
  web_icons.png       the home-screen icon at 48 and 192 px (the maskable one as Android's
                      round mask cuts it, and the 'any' one), in Chromium
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for p in [ROOT, os.path.join(ROOT, "tests")] + [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]:
    if p not in sys.path:
        sys.path.insert(0, p)

DIR = os.path.join(ROOT, "docs", "img")


def _open(browser, site, size, scheme="dark", scale=2):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, device_scale_factor=scale,
                              is_mobile=True, has_touch=True, color_scheme=scheme)
    page = ctx.new_page()
    page.goto(site["url"] + "?clock=test&nosw")
    page.wait_for_function("document.body.classList.contains('ready')", polling=100, timeout=30000)
    return ctx, page


def _views(page, tab=None):
    """The views showing the state, on tab (0 Standings, 1 Board, 2 Sheet)."""
    page.wait_for_function("window.device.table() !== null", polling=100, timeout=30000)
    frame = page.query_selector("#table").content_frame()
    frame.wait_for_function("document.querySelectorAll('#sd tr').length > 1", polling=100, timeout=30000)
    if tab is not None:
        frame.click("nav button[data-v='%d']" % tab)
    page.wait_for_timeout(300)
    return frame


def _game(page, keys, files=None):
    from webpage import play
    page.evaluate("([f, s]) => window.device.restart(f, s)", [files or {}, 1])
    play(page, keys)


def portrait(browser, site):
    from table_keys import FAIL, counts, hand, new_game
    keys = " ".join([new_game("classic", ["Ann", "Bob", "Cid"], dealer=1),
                     hand(1, [counts([1, 1, 1, 0]), None, FAIL]),
                     hand(0, [None, FAIL, counts([2, 0, 0, 1])]),
                     hand(2, [counts([3, 0, 0, 0]), FAIL, None])])
    ctx, page = _open(browser, site, (360, 740))
    try:
        _game(page, keys)
        _views(page)
        page.screenshot(path=os.path.join(DIR, "web_portrait.png"))
    finally:
        ctx.close()


def landscape(browser, site):
    from host_sim import golden
    keys = dict(golden.CASES)["dice_home"] + " OK OK"     # A's turn saved (30), B's rolled
    ctx, page = _open(browser, site, (740, 360))
    try:
        _game(page, keys)
        _views(page, 2)
        page.screenshot(path=os.path.join(DIR, "web_landscape.png"))
    finally:
        ctx.close()


def views(browser, site):
    from host_sim import golden
    ctx, page = _open(browser, site, (390, 844), scheme="light")
    try:
        _game(page, dict(golden.CASES)["twist_home_hand3"])
        _views(page, 1)
        page.query_selector("#views").screenshot(path=os.path.join(DIR, "web_views.png"))
    finally:
        ctx.close()


ICONS = """<!doctype html><meta charset="utf-8"><style>
body { margin: 0; padding: 24px; background: linear-gradient(160deg, #3a5a8c, #1c2c48); font: 14px system-ui, sans-serif;
       color: #fff; display: flex; gap: 36px; align-items: flex-end; }
figure { margin: 0; text-align: center; } figcaption { margin-top: 6px; text-shadow: 0 1px 2px #000; white-space: nowrap; }
.round { border-radius: 50%; }
</style>
<figure><img class="round" src="maskable-512.png" width="192" height="192"><figcaption>Phase 10</figcaption></figure>
<figure><img src="icon-512.png" width="192" height="192"><figcaption>Phase 10</figcaption></figure>
<figure><img class="round" src="maskable-192.png" width="48" height="48"><figcaption>Phase 10</figcaption></figure>
<figure><img src="icon-192.png" width="48" height="48"><figcaption>Phase 10</figcaption></figure>
"""


def icons(browser, site):
    with open(os.path.join(site["dir"], "home.html"), "w") as f:
        f.write(ICONS)
    ctx = browser.new_context(viewport={"width": 680, "height": 280})
    try:
        page = ctx.new_page()
        page.goto(site["url"] + "home.html")
        page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth)", polling=100, timeout=30000)
        page.screenshot(path=os.path.join(DIR, "web_icons.png"))
    finally:
        ctx.close()


def main():
    from playwright.sync_api import sync_playwright
    import chromium
    from webpage import serve
    os.makedirs(DIR, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="phase10-shots-") as tmp:
        site = serve(os.path.join(tmp, "web"))
        try:
            with sync_playwright() as p:
                b = chromium.launch(p)
                for shot in (portrait, landscape, views, icons):
                    shot(b, site)
                    print("web-shots: %s" % shot.__name__)
                b.close()
        finally:
            site["httpd"].shutdown()
    for n in ("portrait", "landscape", "views", "icons"):
        print("wrote docs/img/web_%s.png" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
