# The network edge: the Wi-Fi access point the table on phones opens, its address, and
# random bytes for its password. Every call to MicroPython's `network` module is here; the
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


def random_bytes(n):
    """n bytes from the hardware's random source (the Wi-Fi password is made from them)."""
    import os
    return os.urandom(n)
