# The SSD1306/SH1106 controller emulator fed raw bytes, as the datasheet describes them.
# Setup used by most tests: the orientation every driver sends (A1, C8) so that RAM
# column 0 / page 0 is the panel's top-left, then display on.
import host_sim  # noqa: F401  (the emulator lives in the host package)
from host_sim.ssd1306_emu import Controller

UPRIGHT_ON = b"\x00\xa1\xc8\xaf"


def upright(kind="ssd1306"):
    c = Controller(kind)
    c.write(UPRIGHT_ON)
    return c


def test_reset_state_is_dark_and_off():
    c = Controller()
    assert not c.on and c.raw() == bytes(1024)
    c.write(b"\x40\xff")           # RAM written while off: still dark
    assert c.raw() == bytes(1024)


def test_single_command_pairs_and_split_arguments():
    c = Controller()
    c.write(b"\x80\x81")           # contrast command...
    assert c.contrast == 0x7F      # ...waits for its argument in the next write
    c.write(b"\x80\x33")
    assert c.contrast == 0x33
    c.write(b"\x80\xaf\x80\xa7")   # Co=1 pairs chained in one write
    assert c.on and c.inverse
    assert c.errors == []


def test_horizontal_addressing_window_wraps_to_the_next_page():
    c = upright()
    c.write(b"\x00\x20\x00\x21\x0a\x0b\x22\x02\x03")   # columns 10-11, pages 2-3
    c.write(b"\x40\x01\x02\x03\x04\x05")
    raw = c.raw()
    # 01 02 fill page 2, 03 04 page 3, then 05 wraps back over (10, page 2)
    assert raw[2 * 128 + 10] == 0x05 and raw[2 * 128 + 11] == 0x02
    assert raw[3 * 128 + 10] == 0x03 and raw[3 * 128 + 11] == 0x04
    assert raw[2 * 128 + 12] == 0 and raw[4 * 128 + 10] == 0   # nothing outside the window
    assert c.pixel(10, 16) == 1 and c.pixel(10, 17) == 0 and c.pixel(11, 26) == 1


def test_page_addressing_and_single_data_bytes():
    c = upright()
    c.write(b"\x00\x20\x02")                           # page mode
    c.write(b"\x00\xb5\x03\x12")                       # page 5, column 0x23 = 35
    c.write(b"\xc0\x81\xc0\x42")                       # two single data bytes
    raw = c.raw()
    assert raw[5 * 128 + 35] == 0x81 and raw[5 * 128 + 36] == 0x42
    assert c.errors == []


def test_vertical_addressing():
    c = upright()
    c.write(b"\x00\x20\x01\x21\x00\x7f\x22\x00\x07")
    c.write(b"\x40" + bytes(range(1, 10)))              # 8 pages of column 0, then column 1
    raw = c.raw()
    assert [raw[p * 128] for p in range(8)] == list(range(1, 9))
    assert raw[1] == 9


def test_segment_remap_applies_to_later_writes_and_com_scan_at_once():
    c = Controller()
    c.write(b"\x00\xa0\xc8\xaf\x21\x00\x7f\x22\x00\x07\x20\x00")
    c.write(b"\x40\x01")            # written with A0: column 0 lands on the right edge
    assert c.pixel(127, 0) == 1 and c.pixel(0, 0) == 0
    c.write(b"\x00\xa1")            # remap change does not move what is stored
    assert c.pixel(127, 0) == 1
    c.write(b"\x00\xc0")            # COM scan flips the picture vertically straight away
    assert c.pixel(127, 63) == 1 and c.pixel(127, 0) == 0


def test_inverse_entire_on_and_start_line():
    c = upright()
    c.write(b"\x00\x20\x00\x21\x00\x7f\x22\x00\x07")
    c.write(b"\x40\x01")           # (in a command stream 40h would be a start line)
    assert c.pixel(0, 0) == 1
    c.write(b"\x00\xa7")
    assert c.pixel(0, 0) == 0 and c.pixel(1, 0) == 1
    c.write(b"\x00\xa6\xa5")
    assert c.raw() == b"\xff" * 1024
    c.write(b"\x00\xa4\x41")        # start line 1: RAM row 1 shows on the top row
    assert c.pixel(0, 63) == 1 and c.pixel(0, 0) == 0


def test_malformed_writes_are_recorded_not_raised():
    c = upright()
    c.write(b"\x12\x34")            # control byte with low bits set
    c.write(b"\x80")                # Co=1 with nothing after it
    c.write(b"\x00")                # a command stream with no commands
    c.write(b"\x00\x20\x03")        # addressing mode 3 does not exist
    assert len(c.errors) == 4
    assert "0x12" in c.errors[0][1]
    c.write(b"\x00\xff")            # not a command: noted, ignored
    assert c.unknown == [0xFF]
    c.write(b"\x40\x01")            # and the chip still works
    assert c.pixel(0, 0) == 1


def test_adh_iref_is_accepted_and_ignored():
    c = upright()
    c.write(b"\x00\xad\x30\xa4")
    assert c.unknown == [] and c.errors == [] and not c.entire_on


def test_sh1106_has_132_columns_and_page_addressing_only():
    c = upright("sh1106")
    c.write(b"\x00\xb2\x02\x10")                         # page 2, column 2
    c.write(b"\x40\x0f")
    assert c.raw()[2 * 128 + 0] == 0x0f                  # column 2 is the glass's left edge
    c.write(b"\x00\xb2\x00\x10")                         # columns 0-1 are off the glass
    c.write(b"\x40\xf0")
    assert c.raw()[2 * 128 + 0] == 0x0f
    c.write(b"\x00\x21")                                 # SSD1306-only commands: unknown
    assert c.unknown == [0x21]
