# The table on phones, switched on and off: the Settings line "Phones" (boards with Wi-Fi
# only, off by default) and start-up call switch(). It opens the access point and starts the
# page's server (firmware/table.py) or stops both. The server's code is imported only here
# and only when the setting is on, so a device that never turns it on never loads it.

# Password letters: no 0/O, 1/l/I, so it reads off the OLED without doubt. 10 of 32: 50 bits.
_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
_PW_LEN = 10


def credentials(raw):
    """The access point's name and WPA2 password, made from random bytes raw (at least
    _PW_LEN + 2 of them): {"wifi_ssid": "Phase10-XXXX", "wifi_pw": 10 letters}."""
    n = len(_LETTERS)
    pw = "".join(_LETTERS[raw[i] % n] for i in range(_PW_LEN))
    tag = "%02X%02X" % (raw[_PW_LEN], raw[_PW_LEN + 1])
    return {"wifi_ssid": "Phase10-" + tag, "wifi_pw": pw}


def check_settings(d, out):
    """The table's settings of a settings file's dict d into out (settings_file's
    check_settings: a bad value falls back to its default, the others are kept)."""
    v = d.get("table")
    out["table"] = v is True
    v = d.get("wifi_ssid", "")
    out["wifi_ssid"] = v if isinstance(v, str) and len(v) <= 32 and _printable(v) else ""
    v = d.get("wifi_pw", "")
    # WPA2: 8 to 63 printable characters
    out["wifi_pw"] = v if isinstance(v, str) and 8 <= len(v) <= 63 and _printable(v) else ""


def _printable(v):
    for ch in v:
        if not " " <= ch <= "~":
            return False
    return True


def has_wifi(app):
    return bool(getattr(app.board, "WIFI", None))


def new_credentials(app):
    """The settings to save with "table" turned on: a name and password the first time."""
    if app.settings.get("wifi_pw"):
        return None
    from firmware import net
    return credentials(net.random_bytes(_PW_LEN + 2))


def wifi_text(s):
    """What a phone camera joins with (the standard Wi-Fi QR text)."""
    return "WIFI:S:%s;T:WPA;P:%s;;" % (_escape(s["wifi_ssid"]), _escape(s["wifi_pw"]))


def _escape(v):
    out = ""
    for ch in v:
        out += "\\" + ch if ch in "\\;,:\"" else ch
    return out


def switch(app):
    """Start or stop the table as app.settings["table"] says (nothing on a board without
    Wi-Fi). A failure to start is said on a note; the game is never touched."""
    s = app.settings
    on = s.get("table") and has_wifi(app) and s.get("wifi_pw")
    t = app.table
    if on and t is None:
        try:
            from firmware import net
            ip = net.start_ap(app.board.WIFI, s["wifi_ssid"], s["wifi_pw"])
            from firmware.table import Table
            # port 80 on every interface on a board (the simulator and tests set their own)
            port = getattr(app, "table_port", 80)
            app.table = Table(app, getattr(app, "table_host", "0.0.0.0"), port)
            app.table_url = "http://%s/" % ip if port == 80 else "http://%s:%d/" % (ip, port)
        except Exception as e:    # (no Wi-Fi, no room, a port taken): never the device's end
            app.table = None
            try:
                from firmware import net
                net.stop_ap()
            except Exception:
                pass
            app.say("The table on phones could not start (%s): the game goes on." % (e,))
    elif not on and t is not None:
        app.table = None
        t.stop()
        from firmware import net
        try:
            net.stop_ap()
        except OSError:
            pass
        import sys
        for m in ("firmware.table", "firmware.table_page", "microdot", "microdot.microdot", "microdot.helpers"):
            sys.modules.pop(m, None)
