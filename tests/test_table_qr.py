# The QR codes of the table on phones decode, off the golden screens as the panel shows
# them (lit modules light on a dark panel), to exactly the network a phone camera joins
# and the page's address; and the encoder (firmware/phones/qr.py) round-trips every length it
# takes. The decoder is zbar (Debian's zbar-tools: `make browser` installs it, and CI runs
# that first); without it these tests fail rather than skip.
import os
import shutil
import subprocess

import pytest
from PIL import Image

from firmware.phones import qr
from firmware.phones.control import credentials, wifi_text
from host_sim import golden

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _zbar():
    z = shutil.which("zbarimg")
    assert z, "no zbarimg on this machine: make browser installs Debian's zbar-tools"
    return z


def decode(img, path):
    img.save(path)
    r = subprocess.run([_zbar(), "-q", "--raw", str(path)], capture_output=True, text=True, timeout=60)
    return r.stdout.rstrip("\n")


def panel_image(rows, scale=4, border=16):
    """The panel as a camera sees it: lit pixels light, the rest and the bezel dark."""
    img = Image.new("L", (len(rows[0]) * scale + 2 * border, len(rows) * scale + 2 * border), 0)
    px = img.load()
    for y, r in enumerate(rows):
        for x, ch in enumerate(r):
            if ch == "#":
                for a in range(scale):
                    for b in range(scale):
                        px[border + x * scale + a, border + y * scale + b] = 255
    return img


def golden_rows(name):
    with open(golden.path(name)) as f:
        return f.read().splitlines()


def test_the_wifi_screen_decodes_to_the_network_to_join(tmp_path):
    got = decode(panel_image(golden_rows("phones_wifi")), tmp_path / "wifi.png")
    assert got == "WIFI:S:%s;T:WPA;P:%s;;" % (golden.PHONES["wifi_ssid"], golden.PHONES["wifi_pw"])
    assert got == wifi_text(golden.PHONES)


def test_the_address_screen_decodes_to_the_page(tmp_path):
    assert decode(panel_image(golden_rows("phones_address")), tmp_path / "url.png") == golden.PHONES_URL


def test_the_joined_screen_decodes_to_the_page_on_that_network(tmp_path):
    assert decode(panel_image(golden_rows("phones_joined")), tmp_path / "joined.png") == golden.JOIN_URL


def test_every_length_the_encoder_takes_decodes(tmp_path):
    for n in (1, 17, 18, 32, 33, 53, 54, 78, 79, 106):
        text = "".join("abcdefghijklmnopqrstuvwxyz0123456789;:"[(i * 7 + n) % 38] for i in range(n))
        size, m = qr.encode(text)
        rows = ["".join("." if m[y * size + x] else "#" for x in range(size)) for y in range(size)]
        # dark modules on a lit quiet zone of 4 modules
        rows = ["#" * (size + 8)] * 4 + ["####" + r + "####" for r in rows] + ["#" * (size + 8)] * 4
        assert decode(panel_image(rows), tmp_path / ("n%d.png" % n)) == text, n
    with pytest.raises(ValueError):
        qr.encode("x" * 107)


def test_a_password_is_made_from_the_random_bytes_given():
    # the i-th of the ten characters comes from the i-th byte and from nothing else, and
    # over that byte's 256 values it takes every letter and digit that reads one way on
    # the OLED (no 0/O, 1/l/I, nor i and o); the name's tag is the last two bytes in hex
    one_way = set("abcdefghjkmnpqrstuvwxyz23456789")
    base = bytes(range(40, 52))
    made = credentials(base)
    pw = made["wifi_pw"]
    assert len(pw) == 10 and made["wifi_ssid"] == "Phase10-3233"
    for i in range(12):
        seen = set()
        for v in range(256):
            raw = bytearray(base)
            raw[i] = v
            c = credentials(bytes(raw))
            if i < 10:
                assert c["wifi_ssid"] == made["wifi_ssid"], (i, v)
                assert c["wifi_pw"][:i] + c["wifi_pw"][i + 1:] == pw[:i] + pw[i + 1:], (i, v, c["wifi_pw"], pw)
                seen.add(c["wifi_pw"][i])
            else:
                assert c["wifi_pw"] == pw, (i, v)
                tag = (v, base[11]) if i == 10 else (base[10], v)
                assert c["wifi_ssid"] == "Phase10-%02X%02X" % tag
        if i < 10:
            assert seen == one_way, (i, "".join(sorted(seen)))


def test_the_wifi_text_escapes_what_the_standard_reserves():
    assert wifi_text({"wifi_ssid": "a;b", "wifi_pw": "p:w\\d,\"x"}) == 'WIFI:S:a\\;b;T:WPA;P:p\\:w\\\\d\\,\\"x;;'


def test_the_page_on_the_device_is_the_one_its_source_makes():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build", "table_page.py"), "--check"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
