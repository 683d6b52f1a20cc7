# The saved settings (settings.json): what a fresh device uses, reading them at start
# (firmware/main.py) and saving one when the Settings screen commits it. Loaded for those
# moments only, then dropped: the app reads its settings from app.settings.
import json

SETTINGS_FILE = "settings.json"

# What a fresh device uses. dim_s / off_s are seconds of no key; 0 means never.
DEFAULTS = {
    "contrast": 128,
    "dim_s": 60,
    "off_s": 300,
    "three_button": False,
    "entry": "cards",
    "sh1106": False,
}
# The table on phones' settings ("table", "wifi_ssid", "wifi_pw": firmware/phones.py) are
# in the file only once it has been turned on (read with .get), so a device that never
# uses it writes, and holds in RAM, the settings it always did.


def check_settings(d):
    """The saved settings as a full dict, or None when the text is not settings at all.
    Unknown keys are dropped and a bad or missing value falls back to its default, so one
    bad value never loses the others."""
    if not isinstance(d, dict):
        return None
    out = {}
    for k in DEFAULTS:
        v = d.get(k, DEFAULTS[k])
        dv = DEFAULTS[k]
        if isinstance(dv, bool):
            ok = v is True or v is False
        elif isinstance(dv, int):
            ok = isinstance(v, int) and v is not True and v is not False and 0 <= v <= 0xFFFF
            if ok and k == "contrast":
                ok = v <= 255
        else:
            ok = v in ("cards", "points")
        out[k] = v if ok else dv
    if "table" in d:
        from firmware.phones import check_settings as table_settings
        table_settings(d, out)
    return out


def _parse_settings(text):
    return check_settings(json.loads(text))


def load(store):
    """(settings, message, unread): the saved settings or the defaults, and what went
    wrong if anything (a damaged file is set aside by the store and the defaults used;
    one that could not be read is left alone, unread, and the defaults used meanwhile)."""
    if store is None:
        return dict(DEFAULTS), None, False
    text, msg, unread = store.read(SETTINGS_FILE, _parse_settings)
    if text is None:
        return dict(DEFAULTS), msg, unread
    return _parse_settings(text), msg, False


def save(app, key, value):
    """Commit one setting. Writes flash only when the value really changes; returns
    whether it did."""
    if app.settings.get(key, False) == value:
        return False
    new = dict(app.settings)
    new[key] = value
    if app.settings_unread:
        # settings.json is there but could not be read: never written over with settings
        # built without it. The change holds until power-off.
        app.say("settings.json could not be read, so the change is not saved: it holds until the device is switched off.")
    elif app.store is not None and not app.store.write_atomic(
            SETTINGS_FILE, json.dumps(new, separators=(",", ":"))):
        # Flash refused (full, read-only): the setting holds until power-off and the
        # player is told.
        app.say(app.store.error)
    app.settings = new
    _apply(app, key)
    app.tell()
    return True


def _apply(app, key):
    if key == "contrast":
        app.display.contrast(app.settings["contrast"])
    elif key == "three_button":
        # at once, on the buttons the timer samples into (the OK that chose it is let go)
        app.buttons.use_three(app.settings["three_button"])
    elif key == "sh1106":
        # The display driver is set up once, at start-up.
        app.say("The display type takes effect at the next start.")
    elif key == "table":
        # the access point and the page's server start or stop at once
        __import__("firmware.phones").phones.switch(app)
    # dim_s / off_s are read live by the loop.
