# How a phone joins the table (Settings > Phones, once on): first the Wi-Fi, its QR code a
# phone camera joins with (WIFI:S:...;T:WPA;P:...;;) beside the network's name and password;
# RIGHT or DOWN: the page's address and its QR code. OK, BACK or LEFT on the first closes.
# On a network joined instead (set from the PC, firmware/phones/control.py): "Joining" with its
# name until the device has its address there, then the address and its QR code; or why
# it could not join, with OK to open the device's own network instead.
from firmware.screens.base import Screen, LINE_H, W, wrap

try:
    from micropython import const
except ImportError:
    const = lambda x: x

# Key codes (firmware/edges/keys.py has them all; tests/test_keys_inlined.py checks these)
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

    def _state(self):
        """"own": the device's access point (two pages); "joined" (one page, the address),
        "joining" or "failed" on the network set from the PC."""
        app = self.app
        if app.server_fail:
            return "failed"
        if app.settings.get("table") != "join":
            return "own"
        return "joined" if app.server_url else "joining"

    def _text(self):
        if self.page == 0 and self._state() == "own":
            from firmware.phones.control import wifi_text
            return wifi_text(self.app.settings)
        return self.app.server_url or ""

    def key(self, k):
        k &= _KEY_MASK
        st = self._state()
        if st == "failed" and k == _OK:
            # the device's own network instead (its name and password made the first time)
            from firmware.phones.control import new_credentials
            from firmware.files import settings_file
            app = self.app
            c = new_credentials(app)
            if c:
                app.settings.update(c)
            if not settings_file.save(app, "table", True):
                __import__("firmware.phones.control").phones.control.switch(app)
            self.page = 0
            self.code = None
            self.dirty = True
            return True
        if st != "own":
            if k == _OK or k == _BACK or k == _LEFT:
                self.app.pop()
            return True
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
        st = self._state()
        if st == "joining" or st == "failed":
            self.code = None
            _words(c, self.app, st)
            return
        if st == "joined":
            self.page = 1
        if self.code is None:
            from firmware.phones import qr
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
            s = self.app.settings
            lines = ["Wi-Fi"] + _cut(s["wifi_ssid"], cols) + ["Password"] + _cut(s["wifi_pw"], cols)
        else:
            url = self.app.server_url or ""
            # (on a joined network the phones are on it already: the address is the first step)
            lines = ["Then open" if st == "own" else "Open"] + _cut(url[7:].rstrip("/"), cols)
        y = 0
        for t in lines:
            c.text(t, x, y)
            y += LINE_H
        if st == "own":
            # (UP/DOWN turn the page with five buttons or three)
            c.text("DOWN more" if self.page == 0 else "UP back", x, 64 - LINE_H)


def _words(c, app, st):
    net = app.wifi_net
    name = net["ssid"] if net else ""
    if st == "joining":
        lines = ["Joining"] + wrap(name, 21)[:3] + ["", "OK: close"]
    else:
        from firmware.phones.control import reason
        why = reason(app.server_fail)
        lines = ["Cannot join"] + wrap(name, 21)[:1] + wrap(why, 21)[:2] + ["OK: own Wi-Fi", "hold OK: close"]
    y = 0
    for t in lines[:6]:
        c.text(t, 0, y)
        y += LINE_H


def _cut(s, n):
    """s in lines of at most n characters, a long one broken after its last "-" or "."
    within them where it can (a network's name, an address: 192.168.1. / 57)."""
    out = []
    while s:
        k = n
        i = max(s.rfind("-", 0, n), s.rfind(".", 0, n)) + 1
        if len(s) > n and i > 0:
            k = i
        out.append(s[:k])
        s = s[k:]
    return out


def make(app, arg):
    return Phones(app)
