# The network edge: the Wi-Fi access point the table on phones opens, the network it joins
# instead when the owner set one from the PC (firmware/files/wifi_file.py), their addresses, and
# random bytes for the access point's password. Every call to MicroPython's `network` module is here; the
# board file says which Wi-Fi chip it has (WIFI: "cyw43" on a Pico W, "esp32" on the
# ESP32s, None without Wi-Fi). The simulator and the unix tests put a fake `network` first
# on the path (host_sim/twin/network.py), as they do for `machine`; the sockets themselves
# are asyncio's, real everywhere.


def start_ap(wifi, ssid, password):
    """Open the access point with WPA2 and return its IP address (str)."""
    import network
    ap = network.WLAN(network.AP_IF)
    if wifi == "cyw43":
        # rp2's driver takes ssid/key and uses WPA2-AES when a key is given
        ap.config(ssid=ssid, key=password)
    else:
        ap.config(essid=ssid, password=password, authmode=network.AUTH_WPA2_PSK)
    ap.active(True)
    return ap.ifconfig()[0]


def stop_ap():
    import network
    network.WLAN(network.AP_IF).active(False)


def join(ssid, password):
    """Start joining the network as a station; join_state() says how it goes (a join
    takes seconds: the app loop goes on meanwhile)."""
    import network
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.connect(ssid, password)


def join_state():
    """(what, address): "joining", "joined" with its IP address, or why it cannot join:
    "wrong password", "not found" or "refused". The drivers name their states alike
    (network.STAT_*) but not all of them: the ESP32's handshake timeout is what a wrong
    password gives there, its association and beacon failures a refusal."""
    import network
    sta = network.WLAN(network.STA_IF)
    st = sta.status()
    if st == network.STAT_GOT_IP:
        return "joined", sta.ifconfig()[0]
    for name, what in (("STAT_WRONG_PASSWORD", "wrong password"), ("STAT_HANDSHAKE_TIMEOUT", "wrong password"),
                       ("STAT_NO_AP_FOUND", "not found"), ("STAT_CONNECT_FAIL", "refused"),
                       ("STAT_ASSOC_FAIL", "refused"), ("STAT_BEACON_TIMEOUT", "refused")):
        if st == getattr(network, name, None):
            return what, None
    return "joining", None


def leave():
    import network
    sta = network.WLAN(network.STA_IF)
    try:
        sta.disconnect()
    except OSError:
        pass
    sta.active(False)


def random_bytes(n):
    """n bytes from the hardware's random source (the Wi-Fi password is made from them)."""
    import os
    return os.urandom(n)
