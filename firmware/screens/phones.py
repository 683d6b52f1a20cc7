# How a phone joins the table (Settings > Phones, once on): first the Wi-Fi, its QR code a
# phone camera joins with (WIFI:S:...;T:WPA;P:...;;) beside the network's name and password;
# RIGHT or DOWN: the page's address and its QR code. OK, BACK or LEFT on the first closes.
from firmware.screens.base import Screen, LINE_H, W

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/keys.py has them all; tests/test_keys_inlined.py checks these)
_UP = const(1)
_DOWN = const(2)
_LEFT = const(3)
_RIGHT = const(4)
_OK = const(5)
_BACK = const(6)
_KEY_MASK = const(0x7F)


class Phones(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.page = 0
        self.code = None      # (size, modules) of the page's QR code, made once per page

    def _text(self):
        if self.page == 0:
            from firmware.phones import wifi_text
            return wifi_text(self.app.settings)
        return getattr(self.app, "table_url", None) or ""

    def key(self, k):
        k &= _KEY_MASK
        if k == _RIGHT or k == _DOWN or k == _UP or (k == _LEFT and self.page):
            p = 1 - self.page if k != _LEFT else 0
            if p != self.page:
                self.page = p
                self.code = None
                self.dirty = True
            return True
        if k == _OK or k == _BACK or k == _LEFT:
            self.app.pop()
            return True
        return True

    def draw(self, c):
        if self.code is None:
            from firmware import qr
            self.code = qr.encode(self._text())
        size, m = self.code
        s = 2 if size * 2 + 6 <= 64 else 1
        box = size * s + 6
        c.fill_rect(0, 0, box, box)       # lit: the code's quiet zone around dark modules
        for y in range(size):
            row = y * size
            for x in range(size):
                if m[row + x]:
                    c.fill_rect(3 + x * s, 3 + y * s, s, s, 0)
        x = box + 3
        cols = (W - x) // 6
        if self.page == 0:
            st = self.app.settings
            lines = ["Wi-Fi"] + _cut(st["wifi_ssid"], cols) + ["Password"] + _cut(st["wifi_pw"], cols)
        else:
            url = getattr(self.app, "table_url", None) or ""
            lines = ["Then open"] + _cut(url[7:].rstrip("/"), cols)
        y = 0
        for t in lines:
            c.text(t, x, y)
            y += LINE_H
        c.text("more >" if self.page == 0 else "< back", x, 64 - LINE_H)


def _cut(s, n):
    """s in lines of at most n characters, a long one broken after a "-" where it can."""
    out = []
    while s:
        k = n
        i = s.find("-") + 1
        if len(s) > n and 0 < i <= n:
            k = i
        out.append(s[:k])
        s = s[k:]
    return out


def make(app, arg):
    return Phones(app)
