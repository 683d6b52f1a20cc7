# CPython-only checks of the display side: the emulator's PNG and text renderings, the
# generated font file being current, and the twin promise: the same drawing through the
# same driver and emulator gives byte-identical panels under CPython and the micropython
# binary.
import os
import shutil
import importlib.util
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWIN = os.path.join(ROOT, "host_sim", "twin")
if TWIN not in sys.path:
    sys.path.insert(0, TWIN)

from host_sim.ssd1306_emu import Controller  # noqa: E402

MPY = os.path.join(ROOT, ".venv", "bin", "micropython")

# Drawn the same way under both runtimes; prints the panel as hex.
SCREEN = r'''
import sys
sys.path.insert(0, %(twin)r)
import machine
from firmware.draw.display import Display
machine.reset_world(%(ctrl)r)
d = Display(machine.I2C(0, freq=400000), controller=%(ctrl)r)
c = d.canvas
c.text("Round 7   Dealer: Ann", 0, 0)
c.invert_rect(0, 8, 128, 8)
c.text("> Ann  P4  125", 0, 8, 0)
c.big("1:23", 3, 21)
c.text("odd y gjpq", 60, 27)
for i, n in enumerate(("colour_r", "colour_o", "colour_b", "colour_g", "dealer", "held")):
    c.glyph(n, 60 + 9 * i, 44)
c.rect(0, 40, 50, 24)
c.text("clipped at the edge", 100, 56)
d.show()
c.text("Round 8", 0, 0)
d.show()
print(machine.panel().raw().hex())
print(d.bytes_sent)
'''


def draw_in_cpython(ctrl):
    out = []
    g = {"print": lambda *a: out.append(" ".join(str(x) for x in a))}
    exec(SCREEN % {"twin": TWIN, "ctrl": ctrl}, g)
    return out


def test_png_and_text_renderings(tmp_path):
    c = Controller()
    c.write(b"\x00\xa1\xc8\xaf\x20\x00\x21\x00\x7f\x22\x00\x07")
    c.write(b"\x40\x01\x03")        # (0,0) lit; (1,0) and (1,1) lit
    rows = c.text().splitlines()
    assert len(rows) == 64 and {len(r) for r in rows} == {128}
    assert rows[0].startswith("##.") and rows[1].startswith(".#.")
    img = c.png(str(tmp_path / "p.png"), scale=2)
    assert img.size == (256, 128)
    from PIL import Image
    back = Image.open(str(tmp_path / "p.png"))
    assert back.getpixel((0, 0)) > 0 and back.getpixel((5, 5)) == 0
    c.write(b"\x00\x81\x00")         # contrast 0 is dimmer than the default, not black
    dim = c.png(str(tmp_path / "d.png"), scale=1)
    assert 0 < dim.getpixel((0, 0)) < back.getpixel((0, 0))


def test_fonts_py_is_generated_from_the_art():
    spec = importlib.util.spec_from_file_location("fontgen", os.path.join(ROOT, "tools", "gen", "fontgen.py"))
    fontgen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fontgen)
    with open(os.path.join(ROOT, "firmware", "draw", "fonts.py")) as f:
        assert f.read() == fontgen.generate(), "firmware/draw/fonts.py is stale: run tools/gen/fontgen.py"


def _twin_run(tmp_path, ctrl):
    # The driver as the board would get it (its .py files; micropython compiles them).
    spec = importlib.util.find_spec("adafruit_ssd1306")
    site = os.path.dirname(spec.origin)
    lib = tmp_path / "lib"
    (lib / "adafruit_bus_device").mkdir(parents=True)
    shutil.copy(spec.origin, lib)
    for m in ("__init__.py", "i2c_device.py", "spi_device.py"):
        shutil.copy(os.path.join(site, "adafruit_bus_device", m), lib / "adafruit_bus_device")
    script = tmp_path / "screen.py"
    script.write_text(SCREEN % {"twin": TWIN, "ctrl": ctrl})
    env = dict(os.environ, MICROPYPATH="%s:%s" % (lib, ROOT))
    r = subprocess.run([MPY, "-X", "heapsize=256K", str(script)], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout.split()


def test_twin_screens_are_byte_identical_ssd1306(tmp_path):
    mp = _twin_run(tmp_path, "ssd1306")
    cp = draw_in_cpython("ssd1306")
    assert len(mp[0]) == 2048 and mp[0] != "00" * 1024
    assert mp == cp


def test_twin_screens_are_byte_identical_sh1106(tmp_path):
    assert _twin_run(tmp_path, "sh1106") == draw_in_cpython("sh1106")
