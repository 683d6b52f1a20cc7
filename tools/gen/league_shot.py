"""The README's picture of the league's page (docs/img/league.png): `python -m host_sim stats`
over the sources tests/test_league.py makes (three pulls of one board, one from before the
games had ids, the browser's Download zip) and a second board's Twist and Dice games
(tests/test_stats.py's), its page opened in Debian's Chromium and photographed.

  python tools/gen/league_shot.py      write docs/img/league.png

Run it after a deliberate change to the league's page, look at the picture, commit it.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

OUT = os.path.join(ROOT, "docs", "img", "league.png")


def sources(folder):
    """The sources the picture is made from, in folder: test_league's, and a board with
    Twist and Dice games."""
    import pathlib
    from tests import test_league, test_stats
    got = test_league.sources(pathlib.Path(folder))
    other = os.path.join(folder, "board-b-20261130-210000")
    os.mkdir(other)
    with open(os.path.join(other, "history.json"), "w") as f:
        f.write(test_stats.HEAD + "".join(json.dumps(e) + "\n" for e in test_stats.NEW if e["game"] != "classic"))
    return got + [other]


def main():
    from playwright.sync_api import sync_playwright
    from tests import chromium
    with tempfile.TemporaryDirectory(prefix="phase10-league-") as tmp:
        page_file = os.path.join(tmp, "league.html")
        src = [os.path.basename(p) for p in sources(tmp)]
        r = subprocess.run([sys.executable, "-m", "host_sim", "stats"] + src + ["--html", page_file], cwd=tmp,
                           env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=120)
        if r.returncode:
            sys.exit("league_shot: stats failed: %s" % r.stderr)
        with sync_playwright() as p:
            b = chromium.launch(p)
            try:
                page = b.new_page(viewport={"width": 800, "height": 600}, device_scale_factor=1)
                page.goto("file://" + page_file)
                page.locator("section.sheet").first.screenshot(path=OUT)
            finally:
                b.close()
    print("wrote %s" % os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
