# Settings: one line per setting. OK (or RIGHT) on a line starts changing it, UP/DOWN pick
# the value, OK commits it, BACK or LEFT leaves it as it was. Flash is written only when a
# committed value differs from the saved one (firmware/files/settings_file.save), never while
# browsing.
from firmware.screens.base import ListScreen, LINE_H

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


# (setting, label, values, what each value reads as)
_CONTRAST = (1, 32, 64, 96, 128, 160, 192, 224, 255)
ITEMS = (
    ("contrast", "Contrast", _CONTRAST, ("1", "2", "3", "4", "5", "6", "7", "8", "9")),
    ("dim_s", "Dim after", (30, 60, 120, 300, 600, 1200, 0),
     ("30 s", "1 min", "2 min", "5 min", "10 min", "20 min", "never")),
    ("off_s", "Off after", (120, 300, 600, 1800, 3600, 0),
     ("2 min", "5 min", "10 min", "30 min", "1 hour", "never")),
    ("three_button", "3 buttons", (False, True), ("no", "yes")),
    ("entry", "Hands by", ("cards", "points"), ("cards", "points")),
    ("sh1106", "SH1106", (False, True), ("no", "yes")),
)
# Only on a board with Wi-Fi (firmware/phones/control.py): the standings on the players' phones.
PHONES = ("table", "Phones", (False, True), ("off", "on"))
# With a network set from the PC (firmware/files/wifi_file.py): the device's own, or that one.
PHONES_JOIN = ("table", "Phones", (False, True, "join"), ("off", "own Wi-Fi", "join Wi-Fi"))


def nearest(values, v):
    """Index of the value closest to v (a hand-edited file may hold one not offered)."""
    best = 0
    for i in range(len(values)):
        if values[i] == v:
            return i
        if not isinstance(v, bool) and isinstance(v, int) and not isinstance(values[i], bool)\
                and isinstance(values[i], int) and abs(values[i] - v) < abs(values[best] - v):
            best = i
    return best


class Settings(ListScreen):
    title = "Settings"

    def __init__(self, app):
        self.items = ITEMS
        if getattr(app.board, "PANEL", None):
            # the board's panel is fixed (the browser's): no controller to choose
            self.items = tuple(i for i in ITEMS if i[0] != "sh1106")
        if getattr(app.board, "WIFI", None):
            self.items = self.items + (PHONES_JOIN if app.wifi_net else PHONES,)
        ListScreen.__init__(self, app, len(self.items))
        self.editing = False
        self.choice = 0

    def label(self, i):
        return self.items[i][1]

    def value(self, i):
        item = self.items[i]
        if self.editing and i == self.sel:
            return item[3][self.choice]
        return item[3][nearest(item[2], self.app.settings.get(item[0], False))]

    def choose(self, i):
        item = self.items[i]
        self.editing = True
        self.choice = nearest(item[2], self.app.settings.get(item[0], False))
        self.dirty = True
        return True

    def _preview(self):
        # Contrast shows itself while it is being chosen; nothing is saved yet.
        item = self.items[self.sel]
        if item[0] == "contrast":
            self.app.display.contrast(item[2][self.choice])

    def _end(self):
        self.editing = False
        self.dirty = True
        self.app.display.contrast(self.app.settings["contrast"])

    def key(self, k):
        if not self.editing:
            return ListScreen.key(self, k)
        base = k & _KEY_MASK
        values = self.items[self.sel][2]
        if base == _UP or base == _DOWN:
            c = self.choice + (1 if base == _UP else -1)
            if 0 <= c < len(values):
                self.choice = c
                self._preview()
                self.dirty = True
            return True
        if base == _OK or base == _RIGHT:
            key, v = self.items[self.sel][0], values[self.choice]
            app = self.app
            if key == "table" and v is True:
                # the network's name and password, the first time: saved with "table"
                from firmware.phones.control import new_credentials
                c = new_credentials(app)
                if c:
                    app.settings.update(c)
            from firmware.files import settings_file
            changed = settings_file.save(app, key, v)
            self._end()
            if key == "table" and v:
                if not changed and app.server is None:
                    # on already, but not running (a join that failed): try again
                    __import__("firmware.phones.control").phones.control.switch(app)
                if app.server is not None or app.server_fail:
                    app.push("phones")   # how to join: the QR codes, or why it cannot
            return True
        if base == _BACK or base == _LEFT:
            self._end()
            return True
        return True

    def draw_row(self, c, i):
        if not (self.editing and i == self.sel):
            ListScreen.draw_row(self, c, i)
            return
        # Being changed: the label plain, the value inverted, and arrows on its left
        # saying which ways it can still go (UP: the next value in the list).
        y = self.y
        c.text(self.label(i), 2, y)
        v = self.value(i)
        w = c.text_width(v)
        x = self.right - w
        c.text(v, x, y)
        c.invert_rect(x - 2, y, w + 3, LINE_H)
        if self.choice < len(self.items[i][2]) - 1:
            c.glyph("up", x - 20, y)
        if self.choice > 0:
            c.glyph("down", x - 11, y)

def make(app, arg):
    return Settings(app)
