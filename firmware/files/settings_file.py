# The saved settings (settings.json): what a fresh device uses, reading them at start
# (firmware/main.py) and saving one when the Settings screen commits it. Loaded for those
# moments only, then dropped: the app reads its settings from app.settings.
import json

SETTINGS_FILE = "settings.json"
TEXT_LIMIT = 512   # six settings are under 120 bytes: longer is damaged before it is read

# What a fresh device uses. dim_s / off_s are seconds of no key; 0 means never. A hand
# of Phase 10 at the table lasts a few minutes (a game of 10-20 hands, 45-90 minutes on the
# box), so the screen dims after 10 minutes, well past a hand (the press that wakes a dimmed
# screen acts, firmware/app.py), and goes dark after 30, a break: the press that lights a
# dark screen does nothing else, as the player could not see what it would do.
DEFAULTS = {
    "contrast": 128,
    "dim_s": 600,
    "off_s": 1800,
    "three_button": False,
    "entry": "cards",
    "sh1106": False,
}
# The table on phones' settings ("table", "wifi_ssid", "wifi_pw"; checked by check_table,
# turned on by firmware/phones/control.py) are in the file only once it has been turned on
# (read with .get), so a device that never uses it writes, and holds in RAM, the settings
# it always did.


def check_settings(d, said=None):
    """The saved settings as a full dict, or None when the text is not settings at all.
    Unknown keys are dropped and a bad or missing value falls back to its default, so one
    bad value never loses the others; said (a list), when given, gets a sentence for a
    value the player must hear of (the phones' network: check_table)."""
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
        check_table(d, out, said)
    return out


def check_table(d, out, said=None):
    """The table on phones' settings of a settings file's dict d into out (a bad value
    falls back to its default, the others are kept). The device's own network is a pair
    the device made (firmware/phones/control.py: "Phase10-XXXX" and 10 letters and
    digits): one that WPA2 cannot open (network_why) is dropped whole, and Phones turned
    off with it, so that turning it on again makes a new pair; why is added to said."""
    v = d.get("table")
    # True: its own access point; "join": the network set from the PC (wifi_file.py)
    out["table"] = v if v is True or v == "join" else False
    ssid = d.get("wifi_ssid", "")
    pw = d.get("wifi_pw", "")
    why = None
    if ssid != "" or pw != "" or out["table"] is True:
        why = network_why(ssid, pw)
    if why is None:
        out["wifi_ssid"] = ssid
        out["wifi_pw"] = pw
        return
    out["wifi_ssid"] = out["wifi_pw"] = ""
    off = ""
    if out["table"] is True:
        out["table"] = False
        off = " Phones is off:"
    if said is not None:
        said.append("settings.json: the phones' own Wi-Fi %s.%s Settings > Phones makes a new "
                    "network." % (why, off))


def network_why(ssid, pw):
    """Why ssid and pw cannot be the device's own network (the end of a sentence), or
    None: a name of 1 to 32 printable ASCII characters (bytes), a WPA2 password of 8 to
    63. (Not the 64 hex digits of a key that wifi.json takes: the device never makes one,
    and the players read the password off the screen and type it.)"""
    if not isinstance(ssid, str) or not isinstance(pw, str):
        return "name or password is not text"
    for v, what in ((ssid, "name"), (pw, "password")):
        if not _printable(v):
            return "%s holds a character that is not printable ASCII" % what
    n = len(ssid)
    if not 1 <= n <= 32:
        return "name is %d byte%s, Wi-Fi takes 1 to 32" % (n, "" if n == 1 else "s")
    n = len(pw)
    if not 8 <= n <= 63:
        return "password is %d character%s, WPA2 takes 8 to 63" % (n, "" if n == 1 else "s")
    return None


def _printable(v):
    for ch in v:
        if not " " <= ch <= "~":
            return False
    return True


def _parse_settings(text):
    from engine_mpy.lines import parse
    return check_settings(parse(text))


def load(store):
    """(settings, message, unread): the saved settings or the defaults, and what went
    wrong if anything (a damaged file is set aside by the store and the defaults used;
    one that could not be read is left alone, unread, and the defaults used meanwhile)."""
    if store is None or not (store.exists(SETTINGS_FILE) or store.exists(SETTINGS_FILE + ".tmp")):
        # nothing saved (a device whose settings were never changed): the reader, which
        # would find the same, is not loaded (about 30 ms of an .mpy install's start)
        return dict(DEFAULTS), None, False
    from firmware.files import storeread
    text, msg, unread = storeread.read(store, SETTINGS_FILE, _parse_settings, TEXT_LIMIT)
    if text is None:
        return dict(DEFAULTS), msg, unread
    from engine_mpy.lines import parse
    said = [msg] if msg else []
    settings = check_settings(parse(text), said)
    return settings, " ".join(said) or None, False


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
    elif app.store is not None:
        # Flash refused (full, read-only): the setting holds until power-off and the
        # player is told.
        app.say(app.store.write_atomic(SETTINGS_FILE, json.dumps(new, separators=(",", ":"))))
    app.settings = new
    app.apply_setting(key)     # (the display, the buttons, the phones: the app's, not a file's)
    app.tell()
    return True
