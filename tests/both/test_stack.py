# The screens open (firmware/stack.py) as the panel shows them: the real display on the
# controller emulator (host_sim/twin's machine, as tests/both/test_display.py drives it), so
# each check is the panel's own frame, byte for byte. A screen closed leaves no trace: the
# one below is drawn again whole, whether it stayed built under the other (Players) or was
# parked and is built again (the menu).
# micropython heap: 144K
# (the app, its display's frame and the controller emulator's: it passes from 128K)
import sys

import host_sim

_twin = host_sim.__file__.rsplit("/", 1)[0] + "/twin"
if _twin not in sys.path:
    sys.path.insert(0, _twin)

import machine  # noqa: E402  (the fake, from host_sim/twin)

from fakeflash import FakeFlash  # noqa: E402
from fakepins import FakeReader, press  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.draw.display import Display  # noqa: E402
from firmware.edges.buttons import Buttons  # noqa: E402
from firmware.files.store import Store  # noqa: E402
from host_sim.vclock import VirtualClock  # noqa: E402


class _Board:
    NAME = "Test board"


def _device():
    emu = machine.reset_world("ssd1306")
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=400000)
    fs = FakeFlash()
    app = App(Display(i2c), FakeReader(), Buttons(), VirtualClock(), Store("/", fs, fs.open), _Board,
              mem_free=lambda: 12345)
    app.start()
    app.run_for(20)
    return app, emu


def test_the_screen_below_is_drawn_again_when_the_one_on_top_closes():
    app, emu = _device()
    menu = emu.raw()
    for _ in range(3):
        press(app, "DOWN")           # Players
    moved = emu.raw()
    assert moved != menu
    press(app, "OK")
    players = emu.raw()
    assert app.top().module == "players" and players != moved
    press(app, "OK")                 # "+ New player": the name's wheel, over Players
    assert app.top().module == "picker" and emu.raw() != players
    press(app, "OK", 1000)           # back, the name left empty: Players is below, built
    assert app.top().module == "players"
    assert emu.raw() == players, "the panel still shows the closed screen: %s" % "\n".join(emu.rows()[:16])
    press(app, "LEFT")               # back again: the menu, parked under Players, built again
    assert app.top().module == "menu" and len(app.stack) == 1
    assert emu.raw() == moved, "the panel still shows the closed screen: %s" % "\n".join(emu.rows()[:16])
