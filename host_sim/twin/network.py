# A stand-in for MicroPython's `network` module on the PC (the simulator and the unix
# MicroPython tests put this folder first on the path, as for `machine`): the access point
# the table on phones opens is only recorded, and the station that joins a network behaves
# as the tests tell it (NETWORKS: which networks are "in range", with what password); the page is served on the PC's own sockets,
# at the address this machine has on its network (127.0.0.1 without one), so a phone on
# the same Wi-Fi can open the simulator's page.
AP_IF = 1
STA_IF = 0
AUTH_WPA2_PSK = 3
# a station's states, with the values rp2's cyw43 driver gives them
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_GOT_IP = 3
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3

CONFIG = {}          # the last config() given, for the tests
# The networks the station finds: {name: password}; a name whose password is None is in
# range but never answers (the join times out). None: any network joins, with any
# password (the simulator, so `make sim` shows a joined table). Tests set it.
NETWORKS = None
JOIN_POLLS = 3       # status() calls that say "connecting" before the outcome
STATION = {}         # what the station was given: ssid, key, active; polls so far


def _address():
    try:
        import socket
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))   # UDP: nothing is sent
            return s.getsockname()[0]
        finally:
            s.close()
    except Exception:
        return "127.0.0.1"


class WLAN:
    def __init__(self, interface):
        self.interface = interface
        self.on = False

    def config(self, **kw):
        CONFIG.clear()
        CONFIG.update(kw)

    def active(self, on=None):
        if self.interface == STA_IF:
            if on is not None:
                STATION["active"] = on
            return STATION.get("active", False)
        if on is not None:
            self.on = on
            CONFIG["active"] = on
        return self.on

    def connect(self, ssid, key=None):
        STATION.clear()
        STATION.update(ssid=ssid, key=key, active=True, polls=0)

    def disconnect(self):
        STATION["ssid"] = None

    def status(self):
        if self.interface != STA_IF or not STATION.get("ssid"):
            return STAT_IDLE
        STATION["polls"] += 1
        if STATION["polls"] <= JOIN_POLLS:
            return STAT_CONNECTING
        if NETWORKS is None:
            return STAT_GOT_IP
        if STATION["ssid"] not in NETWORKS:
            return STAT_NO_AP_FOUND
        pw = NETWORKS[STATION["ssid"]]
        if pw is None:
            return STAT_CONNECTING
        return STAT_GOT_IP if pw == STATION["key"] else STAT_WRONG_PASSWORD

    def ifconfig(self):
        ip = CONFIG.get("ip") or _address()
        return (ip, "255.255.255.0", ip, ip)
