# A stand-in for MicroPython's `network` module on the PC (the simulator and the unix
# MicroPython tests put this folder first on the path, as for `machine`): the access point
# the table on phones opens is only recorded; the page is served on the PC's own sockets,
# at the address this machine has on its network (127.0.0.1 without one), so a phone on
# the same Wi-Fi can open the simulator's page.
AP_IF = 1
STA_IF = 0
AUTH_WPA2_PSK = 3

CONFIG = {}          # the last config() given, for the tests


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
        if on is not None:
            self.on = on
            CONFIG["active"] = on
        return self.on

    def ifconfig(self):
        ip = CONFIG.get("ip") or _address()
        return (ip, "255.255.255.0", ip, ip)
