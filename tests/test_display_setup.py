# The display's set-up (firmware/draw/display.py) sends what Adafruit's maintained driver
# (adafruit-circuitpython-ssd1306, installed by make venv) sends for the same panel: the
# same transactions, byte for byte and in order, for the SSD1306 and the SH1106 (the
# driver with page_addressing); then the SH1106 gets its full clear at the right columns.
# And a bus where nothing answers is said as the device says it (no display at 0x3c).
import pytest

import adafruit_ssd1306

from firmware.draw.display import Display, SETUP


class Recorder:
    """An I2C bus that keeps every transaction: machine.I2C's writeto/readfrom_into for
    the display, busio's try_lock/unlock and start/end for the driver."""

    def __init__(self, answers=True, empty_write=True):
        self.sent = []
        self.answers = answers
        self.empty_write = empty_write

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def writeto(self, addr, buf, *, start=0, end=None):
        data = bytes(buf)[start:end]
        if not self.answers or (not data and not self.empty_write):
            raise OSError(19)
        self.sent.append((addr, data))

    def readfrom_into(self, addr, buf, *, start=0, end=None):
        if not self.answers:
            raise OSError(19)
        self.sent.append((addr, "read", len(bytes(buf)[start:end])))


def driver_bytes(page_addressing, **kw):
    bus = Recorder(**kw)
    adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=0x3C, page_addressing=page_addressing)
    return bus.sent


def display_bytes(controller, **kw):
    bus = Recorder(**kw)
    Display(bus, controller=controller)
    return bus.sent


@pytest.mark.parametrize("empty_write", [True, False])
def test_an_ssd1306_is_set_up_as_the_driver_does_it(empty_write):
    want = driver_bytes(False, empty_write=empty_write)
    got = display_bytes("ssd1306", empty_write=empty_write)
    assert got == want
    # the probe, every command of the list, the window, the cleared frame
    assert len(want) == 1 + len(SETUP) + 6 + 1
    assert want[-1] == (0x3C, b"\x40" + bytes(1024))


def test_an_sh1106_is_set_up_as_the_driver_does_it_then_cleared_at_its_columns():
    want = driver_bytes(True)
    got = display_bytes("sh1106")
    assert got[:len(want)] == want
    assert (0x3C, b"\x80\x20") in want and (0x3C, b"\x80\x10") in want   # page addressing
    # then each page again from RAM column 2, where the SH1106's glass starts
    rest = got[len(want):]
    assert len(rest) == 2 * 8
    for p in range(8):
        assert rest[2 * p] == (0x3C, bytes((0x00, 0xB0 | p, 0x02, 0x10)))
        assert rest[2 * p + 1] == (0x3C, b"\x40" + bytes(128))


def test_no_display_on_the_bus_is_said():
    with pytest.raises(OSError) as e:
        display_bytes("ssd1306", answers=False)
    assert e.value.args == (19, "no display at 0x3c")
