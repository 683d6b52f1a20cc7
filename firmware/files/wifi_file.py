# The network the table on phones joins (wifi.json), set by the owner from the PC:
# `python -m host_sim wifi --ssid NAME --password PW` writes it over USB and `--forget`
# removes it; the device only reads it, at start on a board with Wi-Fi (firmware/main.py),
# through the store's reader like the other files: a damaged one is set aside and said.
# The host command checks what it writes with the same check() the device reads with.
WIFI_FILE = "wifi.json"
TEXT_LIMIT = 256   # {"ssid": 32 bytes, "pw": 64} is under 130 bytes, escaped under 250
# A name holding half a character (engine_mpy/lines.py half_char) is refused: CPython's json
# wrote a character past U+FFFF as an escaped pair, which MicroPython's json reads as two
# halves (not the network's name); text() writes UTF-8 as it is.


def check(ssid, pw):
    """Why ssid and pw are not a network WPA2 can join (a sentence), or None when they are:
    a name of 1 to 32 bytes (UTF-8), a password of 8 to 63 printable ASCII characters or
    exactly 64 hex digits (the key itself)."""
    if not isinstance(ssid, str) or not isinstance(pw, str):
        return "the name and the password must be text"
    from engine_mpy.lines import half_char
    h = half_char(ssid)
    if h >= 0:
        return "a network's name is text: this one holds half a character (U+%04X)" % h
    n = len(ssid.encode())
    if not 1 <= n <= 32:
        return "a network's name is 1 to 32 bytes, this one is %d" % n
    for ch in ssid:
        if ch < " " or ch == "\x7f":
            return "a network's name holds no control characters"
    if len(pw) == 64:
        for ch in pw:
            if ch not in "0123456789abcdefABCDEF":
                return "a 64-character password is a key: hex digits only (0-9, a-f)"
        return None
    if not 8 <= len(pw) <= 63:
        return "a WPA2 password is 8 to 63 characters (or a key of 64 hex digits), this one is %d" % len(pw)
    for ch in pw:
        if not " " <= ch <= "~":
            return "a WPA2 password is printable ASCII: letters, digits, spaces and punctuation"
    return None


def _parse(text):
    from engine_mpy.lines import parse
    d = parse(text)
    if not isinstance(d, dict):
        raise ValueError("not a network")
    why = check(d.get("ssid"), d.get("pw"))
    if why:
        raise ValueError(why)
    return {"ssid": d["ssid"], "pw": d["pw"]}


def load(store):
    """(network, message, unread): {"ssid", "pw"} or None when no network is set, and what
    went wrong if anything (firmware/files/storeread.py: damaged set aside, unread left as is)."""
    if store is None:
        return None, None, False
    from firmware.files import storeread
    text, msg, unread = storeread.read(store, WIFI_FILE, _parse, TEXT_LIMIT)
    if text is None:
        return None, msg, unread
    return _parse(text), msg, False


def text(ssid, pw):
    """The file's text for a network check() accepts (what the host command writes): the
    name in UTF-8 as it is, never escaped (see _HALF_LO)."""
    import json
    d = {"ssid": ssid, "pw": pw}
    try:
        return json.dumps(d, ensure_ascii=False)
    except TypeError:     # MicroPython's json: no such option, it writes UTF-8 as it is
        return json.dumps(d)
