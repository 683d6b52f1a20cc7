# The table on phones, switched on and off: the Settings line "Phones" (boards with Wi-Fi
# only, off by default) and start-up call switch(). It opens the access point and starts the
# page's server (firmware/phones/server.py) or stops both. The server's code is imported only here
# and only when the setting is on, so a device that never turns it on never loads it.

# Password letters: no 0/O, 1/l/I, so it reads off the OLED without doubt. 10 of 32: 50 bits.
_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
_PW_LEN = 10


def credentials(raw):
    """The access point's name and WPA2 password, made from random bytes raw (at least
    _PW_LEN + 2 of them): {"wifi_ssid": "Phase10-XXXX", "wifi_pw": 10 letters and digits}."""
    n = len(_LETTERS)
    pw = "".join(_LETTERS[raw[i] % n] for i in range(_PW_LEN))
    tag = "%02X%02X" % (raw[_PW_LEN], raw[_PW_LEN + 1])
    return {"wifi_ssid": "Phase10-" + tag, "wifi_pw": pw}


def has_wifi(app):
    return bool(getattr(app.board, "WIFI", None))


def new_credentials(app):
    """The settings to save with "table" turned on: a name and password the first time."""
    if app.settings.get("wifi_pw"):
        return None
    from firmware.phones import net
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
    """Start or stop the table as app.settings["table"] says: True its own access point,
    "join" the network set from the PC (app.wifi_net, firmware/files/wifi_file.py), False
    nothing (as on a board without Wi-Fi). A change of network stops the table and starts it
    on the other. A failure to start is said on a note; the game is never touched."""
    s = app.settings
    mode = s.get("table")
    if not has_wifi(app):
        mode = False
    t = app.server
    if t is not None and mode != app.server_mode:
        _stop(app)
        t = None
    app.server_fail = None
    if not mode or t is not None:
        return
    join = mode == "join"
    net_set = app.wifi_net
    if join and not net_set:
        app.server_fail = "no network set"   # (the caller shows it: see failure())
        return
    if not join and not s.get("wifi_pw"):
        return
    try:
        from firmware.phones import net
        if join:
            net.join(net_set["ssid"], net_set["pw"])
            ip = None
        else:
            ip = net.start_ap(app.board.WIFI, s["wifi_ssid"], s["wifi_pw"])
        from firmware.phones.server import Server
        # port 80 on every interface on a board (the simulator and tests set their own)
        port = app.server_port
        app.server = Server(app, app.server_host, port)
        app.server_mode = mode
        app.server_url = None if ip is None else _url(ip, port)
        if join:
            # the server listens on every address, the joined one as soon as it comes;
            # the loop's pause looks at how the join goes (Server.wait calls this)
            app.server.watch = _Join(app, port).look
    except Exception as e:    # (no Wi-Fi, no room, a port taken): never the device's end
        app.server = None
        _net_off(join)
        app.say("The table on phones could not start (%s): the game goes on." % (e,))


# How long a join may take before the device gives up (ms, the app's clock): a home
# router answers within a few seconds; 20 s covers a slow DHCP.
JOIN_MS = 20000
_LOOK_MS = 250      # the station's state is asked this often while it joins

# What the screen and the note say for each reason a join fails (and "timeout")
_REASONS = {
    "wrong password": "the password is wrong",
    "not found": "the network is not in range",
    "refused": "the network refused the device",
    "no network set": "no network is set from the PC",
}


def reason(what):
    """The words for why a join failed (app.server_fail)."""
    if what == "timeout":
        return "no answer in %d s" % (JOIN_MS // 1000)
    return _REASONS.get(what, what)


class _Join:
    """Watches a join from the loop's pause (firmware/phones/server.py, Server.wait): once joined,
    the page's address; if it fails or takes too long, the table stops and says why."""

    def __init__(self, app, port):
        self.app = app
        self.port = port
        self.t0 = app.clock.ticks_ms()
        self.last = self.t0

    def look(self):
        app = self.app
        clk = app.clock
        now = clk.ticks_ms()
        if clk.ticks_diff(now, self.last) < _LOOK_MS:
            return
        self.last = now
        from firmware.phones import net
        what, ip = net.join_state()
        if what == "joined":
            app.server_url = _url(ip, self.port)
            app.server.watch = None
            app.top().dirty = True
            return
        if what == "joining":
            if clk.ticks_diff(now, self.t0) < JOIN_MS:
                return
            what = "timeout"
        _stop(app)
        app.server_fail = what
        _said(app)


def _said(app):
    # the Phones screen shows a failure itself, with the offer of the device's own network
    top = app.top() if app.stack else None
    if top is not None and top.module == "phones":
        top.dirty = True
        return
    app.say(failure(app))
    app.tell()


def failure(app):
    """The note for a join that failed (app.server_fail)."""
    net_set = app.wifi_net
    return ("The table on phones could not join %s: %s. Settings > Phones: own Wi-Fi opens "
            "the device's own network instead." % (net_set["ssid"] if net_set else "a network",
                                                     reason(app.server_fail)))


def _url(ip, port):
    return "http://%s/" % ip if port == 80 else "http://%s:%d/" % (ip, port)


def _net_off(join):
    try:
        from firmware.phones import net
        if join:
            net.leave()
        else:
            net.stop_ap()
    except Exception:
        pass


def _stop(app):
    t = app.server
    app.server = None
    app.server_url = None
    t.watch = None
    t.stop()
    _net_off(app.server_mode == "join")
    app.server_mode = None
    import sys
    for m in ("firmware.phones.server", "firmware.phones.page", "microdot", "microdot.microdot", "microdot.helpers"):
        sys.modules.pop(m, None)
