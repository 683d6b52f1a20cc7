# The display (firmware/draw/display.py: the driver's set-up bytes, tests/test_display_setup.py)
# through the fake machine's I2C feeding the controller emulator: what was drawn is what
# the panel shows, only changed rows go over the bus, and contrast/dim/power reach the chip.
#
# Byte counts on the wire (each transaction: 1 address byte + payload), worked out from
# what show() sends for a run of changed rows p0..p1 whose changes lie in columns a..z:
#   command transaction  1 + [00h, 21h, a, z, 22h, p0, p1]               =   8
#   data                 a row at a time: 1 + [40h] + (z - a + 1) each,
#                        whole rows (a..z = 0..127): one transaction, 2 + 128 * rows
# so one whole row 138, two adjacent whole rows 266, a full frame 8 + 2 + 1024 = 1034;
# ">" (columns 0-3 lit, column 4 and the gap dark) in one row 8 + 2 + 4 = 14.
# SH1106 rows go one by one: 1 + [00h, B0h|p, column low, 10h|column high] = 5, then
# 2 + (z - a + 1) per row.
import sys

import host_sim

_twin = host_sim.__file__.rsplit("/", 1)[0] + "/twin"
if _twin not in sys.path:
    sys.path.insert(0, _twin)

import machine  # noqa: E402  (the fake, from host_sim/twin)

from check import raises  # noqa: E402
from firmware.draw.display import Display  # noqa: E402

ONE_ROW = 8 + 2 + 128
FULL = 8 + 2 + 1024


def fresh(controller="ssd1306"):
    emu = machine.reset_world(controller)
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=400000)
    return Display(i2c, controller=controller), emu, i2c


def test_driver_init_reaches_the_controller():
    d, emu, i2c = fresh()
    assert emu.errors == [] and emu.unknown == []
    assert emu.on and emu.contrast == 0xFF and not emu.inverse and not emu.entire_on
    assert emu.mode == 0                              # horizontal addressing
    assert emu.seg_remap and emu.com_remap            # upright on the common module
    assert emu.settings[0x8D] == 0x14                 # charge pump on
    assert emu.raw() == bytes(1024)                   # cleared
    assert d.bytes_sent == i2c.bytes                  # the adapter counts the wire too


def test_what_is_drawn_is_what_the_panel_shows():
    d, emu, i2c = fresh()
    c = d.canvas
    c.text("A", 0, 0)
    c.big("42", 40, 20)
    c.glyph("dealer", 120, 56)
    d.show()
    assert emu.raw() == bytes(c.buf)
    # 'A' column 0 is lit in rows 1-6 only; its gap column is dark.
    assert [emu.pixel(0, y) for y in range(8)] == [0, 1, 1, 1, 1, 1, 1, 0]
    assert emu.pixel(5, 3) == 0
    rows = emu.rows()
    assert len(rows) == 64 and all(len(r) == 128 for r in rows)
    assert rows[1][0] == "#" and rows[0][0] == "."


def test_only_changed_rows_are_sent():
    d, emu, i2c = fresh()
    c = d.canvas
    for i in range(8):
        c.text("Player %d" % i, 0, i * 8)             # columns 0-46 of every row
    b = d.bytes_sent
    assert d.show() == 8
    assert d.bytes_sent - b == 8 + 8 * (2 + 47)
    b = d.bytes_sent
    assert d.show() == 0 and d.bytes_sent == b        # nothing changed, nothing sent
    c.clear()
    d.show()
    c.fill_rect(0, 24, 128, 8)                        # one whole row
    b = d.bytes_sent
    assert d.show() == 1
    assert d.bytes_sent - b == ONE_ROW
    c.fill_rect(0, 32, 128, 16)                       # two whole rows: one transaction
    b = d.bytes_sent
    assert d.show() == 2
    assert d.bytes_sent - b == 8 + 2 + 256
    c.fill_rect(0, 24, 128, 24, 0)
    d.show()
    c.text(">", 0, 24)                                # a cursor: its four lit columns
    b = d.bytes_sent
    assert d.show() == 1
    assert d.bytes_sent - b == 8 + 2 + 4
    c.text(" ", 0, 24)                                # a cursor move: rows 3 and 4, one
    c.text(">", 0, 32)                                # window, a data write per row
    b = d.bytes_sent
    d.show()
    assert d.bytes_sent - b == 8 + 2 * (2 + 4)
    c.text(" ", 0, 32)                                # rows 4 and 7: two separate runs
    c.text(">", 0, 56)
    b = d.bytes_sent
    d.show()
    assert d.bytes_sent - b == 2 * (8 + 2 + 4)
    assert emu.raw() == bytes(c.buf)


def test_a_window_spans_the_changed_columns_of_its_rows():
    d, emu, i2c = fresh()
    c = d.canvas
    c.text("Bob", 60, 0)
    c.text("Ann", 0, 8)
    d.show()
    c.invert_rect(0, 8, 18, 8)                        # row 1, columns 0-17
    c.invert_rect(60, 0, 18, 8)                       # row 0, columns 60-77
    b = d.bytes_sent
    assert d.show() == 2
    # rows 0 and 1 are one run: one window over columns 0-77 for both
    assert d.bytes_sent - b == 8 + 2 * (2 + 78)
    assert emu.raw() == bytes(c.buf)
    c.pixel(127, 63)                                  # the last byte of the frame
    c.pixel(0, 0)                                     # and the first
    b = d.bytes_sent
    d.show()
    assert d.bytes_sent - b == 2 * (8 + 2 + 1)
    assert emu.raw() == bytes(c.buf)


def test_unchanged_rows_really_stay_off_the_bus():
    d, emu, i2c = fresh()
    d.canvas.text("top", 0, 0)
    d.show()
    # Marks in panel RAM all along row 5, none in the frame.
    ram = emu.ram
    for k in range(5 * 128, 6 * 128):
        ram[k] = 0xAA
    assert emu.raw()[5 * 128 + 60] == 0xAA
    d.canvas.text("bottom", 0, 56)
    d.show()
    assert emu.raw()[5 * 128 + 60] == 0xAA    # row 5 was not resent
    d.canvas.text("x", 0, 40)                 # now row 5 changes: only its columns 0-4
    d.show()
    got = emu.raw()
    assert got[5 * 128 + 60] == 0xAA
    assert got[5 * 128:5 * 128 + 5] == bytes(d.canvas.buf[5 * 128:5 * 128 + 5])


def test_the_whole_frame_goes_in_one_transaction():
    d, emu, i2c = fresh()
    c = d.canvas
    c.fill_rect(0, 0, 128, 64)
    b = d.bytes_sent
    d.show()
    assert d.full_frames == 1
    assert d.bytes_sent - b == FULL
    for i in range(4):                    # four separate whole rows: runs, not a full frame
        c.fill_rect(0, i * 16, 128, 8, 0)
    b = d.bytes_sent
    d.show()
    assert d.full_frames == 1 and d.bytes_sent - b == 4 * ONE_ROW
    assert emu.raw() == bytes(c.buf)


def test_bus_time_at_400khz():
    d, emu, i2c = fresh()
    t = i2c.clocks
    d.canvas.fill_rect(0, 0, 128, 64)
    d.show()
    # 1034 bytes x 9 clocks at 400 kHz = 23.265 ms
    assert (i2c.clocks - t) == 9 * FULL
    assert i2c.bus_us > 9 * FULL * 1000000 // 400000


def test_contrast_dim_and_power_reach_the_controller():
    d, emu, i2c = fresh()
    d.contrast(0x40)
    assert emu.contrast == 0x40
    d.dim(True)
    assert emu.contrast < 0x10 and d.dimmed
    d.contrast(0x80)                      # changed while dim: remembered, still dim
    assert emu.contrast < 0x10
    d.dim(False)
    assert emu.contrast == 0x80
    d.canvas.text("on", 0, 0)
    d.show()
    d.power(False)
    assert not emu.on and emu.raw() == bytes(1024)
    d.power(True)
    assert emu.on and emu.raw() == bytes(d.canvas.buf)   # the RAM kept the picture
    assert emu.errors == []


def test_wrong_address_is_reported_not_crashing():
    emu = machine.reset_world()
    i2c = machine.I2C(0, freq=400000)
    e = raises(OSError, Display, i2c, 0x3D)
    assert e.args[0] == 19
    assert machine.bus.errors and machine.bus.errors[0][0] == 0x3D
    assert emu.writes == 0                # the panel at 0x3C heard nothing
    assert raises(OSError, i2c.writeto, 0x3D, b"\x00\xaf").args[0] == 19


def test_sh1106_rows_land_at_the_glass():
    d, emu, i2c = fresh("sh1106")
    assert emu.errors == []
    c = d.canvas
    c.text("SH1106", 0, 0)
    c.vline(127, 0, 64)
    d.show()
    assert emu.raw() == bytes(c.buf)
    # column 0 of the frame went to RAM column 2, stored mirrored (A1) at segment 129
    assert emu.ram[131 - 2] == c.buf[0]
    b = d.bytes_sent
    c.text("x", 0, 32)                    # columns 0-4 of row 4
    d.show()
    assert d.bytes_sent - b == 5 + 2 + 5
    c.text("x", 60, 40)                   # from column 60 (RAM column 62) on row 5
    d.show()
    assert emu.raw() == bytes(c.buf)


class _Unplugged:
    """An I2C bus that fails (OSError, as a panel pulled off the bus) from write n on."""

    def __init__(self, i2c, n):
        self.i2c = i2c
        self.n = n

    def writeto(self, addr, buf):
        self.n -= 1
        if self.n < 0:
            raise OSError(5, "EIO")
        return self.i2c.writeto(addr, buf)


def test_a_write_that_fails_leaves_the_frame_as_drawn():
    # show() sends each run's rows straight from the frame buffer, lending the byte before
    # them to the data prefix: a write that fails gives it back, and the next show sends
    # the frame as drawn. Each of the frame's writes fails in turn.
    writes = None
    n = 0
    while writes is None or n < writes:
        d, emu, i2c = fresh()
        c = d.canvas
        c.text("ABC", 10, 9)
        c.text("DEF", 30, 33)
        drawn = bytes(d.buffer)
        if writes is None:                 # a frame that goes through: its writes
            counted = _Unplugged(i2c, 1000)
            d._bus.i2c = counted
            d.show()
            writes = 1000 - counted.n
            assert writes >= 4             # two runs: a window and rows each
            continue
        d._bus.i2c = _Unplugged(i2c, n)
        assert raises(OSError, d.show)
        assert bytes(d.buffer) == drawn, n
        d._bus.i2c = i2c
        d.show()
        assert emu.raw() == bytes(c.buf) and bytes(d.buffer) == drawn
        n += 1
