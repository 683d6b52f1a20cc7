# The drawing layer, on both runtimes. Expected bytes are worked out from the text art in
# tools/gen/fontgen.py (MONO_VLSB: one byte per column of 8 rows, bit 0 the top row).
from check import raises

from firmware.draw import gfx
from firmware.draw import fonts

# 'A' in the art:  .###.  #...#  #...#  #####  #...#  #...#  #...#  .....
# column 0 is lit in rows 1-6 -> 0x7E; columns 1-3 in rows 0 and 3 -> 0x09; column 4 as 0;
# then the dark gap column.
A = bytes([0x7E, 0x09, 0x09, 0x09, 0x7E, 0x00])


def canvas():
    return gfx.canvas(bytearray(1024))


def page(c, p, x, n):
    return bytes(c.buf[p * 128 + x:p * 128 + x + n])


def test_known_glyph_at_a_page_aligned_y():
    c = canvas()
    assert c.text("A", 0, 8) == 6
    assert page(c, 1, 0, 6) == A
    assert bytes(c.buf[:128]) == bytes(128)          # the page above is untouched
    assert bytes(c.buf[256:]) == bytes(768)          # and the pages below


def test_text_returns_the_x_after_it_and_width_counts_gap_columns():
    c = canvas()
    assert c.text_width("Hello") == 5 * gfx.CHAR_W == 30
    assert c.text("Hello", 10, 0) == 40
    # 21 characters fill a line: 21 * 6 = 126 columns.
    assert c.text("x" * 21, 0, 0) == 126
    assert gfx.WIDTH // gfx.CHAR_W == 21 and gfx.HEIGHT // gfx.LINE_H == 8


def test_glyph_pixels_via_get():
    c = canvas()
    c.text("A", 0, 0)
    assert c.get(0, 0) == 0 and c.get(0, 1) == 1 and c.get(0, 6) == 1 and c.get(0, 7) == 0
    assert c.get(2, 0) == 1 and c.get(2, 3) == 1 and c.get(2, 1) == 0
    assert c.get(5, 3) == 0                          # the gap column


def test_text_at_any_y_is_the_aligned_text_shifted():
    a = canvas()
    a.text("Phase 10 gj", 3, 16)
    for dy in (1, 3, 5, 7):
        b = canvas()
        b.text("Phase 10 gj", 3, 16 + dy)
        for y in range(16, 24):
            for x in range(0, 70):
                assert b.get(x, y + dy) == a.get(x, y), (dy, x, y)


def test_unaligned_text_is_opaque_but_keeps_pixels_outside_its_cell():
    c = canvas()
    c.fill_rect(0, 0, 10, 20, 1)
    c.text(" ", 0, 4)            # a space clears its 6x8 cell: rows 4-11, columns 0-5
    assert c.get(0, 3) == 1 and c.get(0, 12) == 1  # above and below the cell
    assert c.get(0, 4) == 0 and c.get(5, 11) == 0  # inside
    assert c.get(6, 4) == 1                          # right of the cell


def test_clipping_at_the_right_edge_does_not_wrap():
    c = canvas()
    assert c.text("AB", 125, 0) == 137
    assert page(c, 0, 125, 3) == A[:3]
    assert bytes(c.buf[128:]) == bytes(896)          # nothing spilled onto page 1


def test_clipping_at_the_left_edge():
    c = canvas()
    c.text("A", -2, 0)
    assert page(c, 0, 0, 4) == A[2:]


def test_clipping_at_top_and_bottom():
    c = canvas()
    c.text("A", 0, -3)           # rows 3-7 of the glyph land in rows 0-4
    assert page(c, 0, 0, 5) == bytes([0x7E >> 3, 0x09 >> 3, 0x01, 0x01, 0x7E >> 3])
    c = canvas()
    c.text("A", 0, 60)           # rows 0-3 of the glyph land in rows 60-63
    assert page(c, 7, 0, 2) == bytes([(0x7E << 4) & 0xFF, 0x90])
    c.text("A", 0, 64)           # fully below: no error, nothing drawn elsewhere
    c.text("A", 200, 0)
    assert bytes(c.buf[:896]) == bytes(896)


def test_dark_text_on_a_lit_cell():
    c = canvas()
    c.text("A", 0, 0, 0)
    assert page(c, 0, 0, 6) == bytes(b ^ 0xFF for b in A)
    d = canvas()
    d.text("A", 0, 0)
    d.invert_rect(0, 0, 6, 8)
    assert bytes(d.buf) == bytes(c.buf)
    e = canvas()
    e.text("A", 1, 3, 0)         # the slow path flips the same bits
    for x in range(6):
        for y in range(8):
            assert e.get(x + 1, y + 3) == d.get(x, y)


def test_characters_outside_the_font_draw_the_box():
    c = canvas()
    c.text("\x01", 0, 0)
    # the box: top and bottom rows and both sides in rows 0-6.
    assert page(c, 0, 0, 6) == bytes([0x7F, 0x41, 0x41, 0x41, 0x7F, 0x00])
    d = canvas()
    d.text("\xe9", 0, 0)
    assert bytes(d.buf) == bytes(c.buf)


def test_fill_rect_within_a_page_and_across_pages():
    c = canvas()
    c.fill_rect(2, 3, 4, 2)                          # rows 3-4 -> 0b00011000
    assert page(c, 0, 0, 8) == bytes([0, 0, 0x18, 0x18, 0x18, 0x18, 0, 0])
    c = canvas()
    c.fill_rect(0, 6, 1, 4)                          # rows 6-9: two in page 0, two in page 1
    assert c.buf[0] == 0xC0 and c.buf[128] == 0x03
    c = canvas()
    c.fill_rect(0, 8, 128, 8)                        # a whole page row
    assert bytes(c.buf[128:256]) == b"\xff" * 128 and bytes(c.buf[:128]) == bytes(128)
    c.fill_rect(10, 10, 3, 2, 0)                     # clear a hole in it
    assert c.buf[128 + 10] == 0xFF ^ 0x0C and c.buf[128 + 13] == 0xFF


def test_fill_rect_clips_and_ignores_empty_sizes():
    c = canvas()
    c.fill_rect(-5, -5, 7, 7)                        # only (0..1, 0..1) is on screen
    assert c.buf[0] == 0x03 and c.buf[1] == 0x03 and c.buf[2] == 0
    c.fill_rect(126, 62, 10, 10)
    assert c.buf[7 * 128 + 126] == 0xC0 and c.buf[7 * 128 + 127] == 0xC0
    before = bytes(c.buf)
    c.fill_rect(10, 10, 0, 5)
    c.fill_rect(10, 10, 5, -1)
    c.fill_rect(128, 0, 5, 5)
    c.fill_rect(0, 64, 5, 5)
    assert bytes(c.buf) == before


def test_lines_and_rect_outline():
    c = canvas()
    c.rect(0, 0, 4, 4)
    lit = [(x, y) for y in range(5) for x in range(5) if c.get(x, y)]
    assert len(lit) == 12                            # 4x4 outline: 16 - 4 inside
    assert c.get(1, 1) == 0 and c.get(3, 3) == 1 and c.get(4, 0) == 0
    c.hline(0, 20, 128)
    assert all(c.get(x, 20) for x in range(128))
    c.vline(127, 0, 64)
    assert all(c.get(127, y) for y in range(64))


def test_invert_rect_twice_restores():
    c = canvas()
    c.text("Round 3", 0, 0)
    before = bytes(c.buf)
    c.invert_rect(3, 2, 50, 13)
    assert bytes(c.buf) != before
    assert c.get(3, 2) == 1 - ((before[3] >> 2) & 1)
    assert c.get(53, 2) == (before[53] >> 2) & 1     # just outside the rectangle
    c.invert_rect(3, 2, 50, 13)
    assert bytes(c.buf) == before


def test_pixel_and_clear():
    c = canvas()
    c.pixel(5, 9)
    assert c.buf[128 + 5] == 0x02
    c.pixel(5, 9, 0)
    assert c.buf[128 + 5] == 0
    c.pixel(-1, 0)
    c.pixel(0, 64)
    c.fill_rect(0, 0, 128, 64)
    c.clear()
    assert bytes(c.buf) == bytes(1024)


def test_big_digit_columns():
    c = canvas()
    assert c.big("1", 0, 0) == 12                    # 10 columns + 2 dark
    # '1' has its stem in columns 4-5 through rows 0-14: top byte 0xFF, bottom 0x7F.
    assert c.buf[4] == 0xFF and c.buf[128 + 4] == 0x7F
    assert c.buf[5] == 0xFF and c.buf[128 + 5] == 0x7F
    # column 0 is dark; column 1 has the flag's tip (row 3) and the foot (rows 13-14).
    assert c.buf[0] == 0 and c.buf[128] == 0
    assert c.buf[1] == 0x08 and c.buf[128 + 1] == 0x60
    assert c.buf[10] == 0 and c.buf[11] == 0         # the gap


def test_big_width_and_unaligned_big_matches_aligned():
    c = canvas()
    assert c.big_width("120") == 36
    assert c.big_width("1:5") == 12 + 6 + 12
    assert c.big("1:5", 0, 0) == 30
    d = canvas()
    d.big("1:5", 0, 5)
    for y in range(16):
        for x in range(30):
            assert d.get(x, y + 5) == c.get(x, y)


def test_big_signs_and_unknown_characters():
    c = canvas()
    c.big("-", 0, 0)
    # minus: rows 6-7 over 8 columns
    assert c.buf[0] == 0xC0 and c.buf[7] == 0xC0 and c.buf[128] == 0
    x = c.big("x", 0, 20)            # not in the big font: a digit-wide blank
    assert x == 12


def test_icons_draw_and_unknown_names_raise():
    c = canvas()
    assert c.glyph("colour_r", 0, 0) == 8
    assert page(c, 0, 0, 8) == b"\x7f" * 7 + b"\x00"  # solid 7x7 for red
    # The four dice colours must differ from each other so they read without colour.
    seen = []
    for name in ("colour_r", "colour_o", "colour_b", "colour_g"):
        d = canvas()
        d.glyph(name, 0, 0)
        seen.append(page(d, 0, 0, 8))
    assert len(set(seen)) == 4
    raises(ValueError, c.glyph, "no_such_icon", 0, 0)
    for name in ("up", "down", "dealer", "held", "check", "cross"):
        assert name in fonts.ICON_NAMES


def test_canvas_over_a_memoryview_leaves_the_prefix_alone():
    # The display hands the canvas the driver's buffer after its 0x40 prefix byte.
    raw = bytearray(1025)
    raw[0] = 0x40
    c = gfx.canvas(memoryview(raw)[1:])
    c.fill_rect(0, 0, 128, 64)
    c.text("Hi", 0, 0)
    c.clear()
    assert raw[0] == 0x40 and bytes(raw[1:]) == bytes(1024)
