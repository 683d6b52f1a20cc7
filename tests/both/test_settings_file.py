# settings.json as the device reads it at start (firmware/files/settings_file.py load): the
# phones' own Wi-Fi, a name and a WPA2 password the device made, kept as saved when WPA2
# can open it; one it cannot (a password of 1, 7 or 64 characters, a name over 32 bytes)
# is dropped whole and said, Phones is off until it is turned on again (which makes a new
# pair), and every other setting is kept.
import json

from fakeflash import FakeFlash
from firmware.files.store import Store
from firmware.files.settings_file import load

SAVED = {"contrast": 40, "dim_s": 0, "off_s": 60, "three_button": True, "entry": "points", "sh1106": True,
         "table": True, "wifi_ssid": "Phase10-3F7A", "wifi_pw": "k7mqx2vh9d"}


def loaded(**change):
    d = dict(SAVED)
    d.update(change)
    fs = FakeFlash({"/settings.json": json.dumps(d).encode()})
    settings, msg, unread = load(Store("/", fs, fs.open))
    assert not unread and fs.files["/settings.json"] == json.dumps(d).encode()     # read, left as it is
    for k in ("contrast", "dim_s", "off_s", "three_button", "entry", "sh1106"):
        assert settings[k] == SAVED[k], (k, settings)
    return settings, msg


def test_a_network_wpa2_can_open_is_kept_as_saved():
    for ssid, pw in (("Phase10-3F7A", "k7mqx2vh9d"), ("P", "8 chars!"), ("N" * 32, "~" * 63),
                     ("Kitchen net", "p w;:,\\\"'"), ("a b", "aB3" * 21)):
        s, msg = loaded(wifi_ssid=ssid, wifi_pw=pw)
        assert msg is None, msg
        assert (s["table"], s["wifi_ssid"], s["wifi_pw"]) == (True, ssid, pw)


def test_a_network_wpa2_cannot_open_is_dropped_said_and_phones_is_off():
    for ssid, pw, why in (
            ("Phase10-3F7A", "k", "password is 1 character, WPA2 takes 8 to 63"),
            ("Phase10-3F7A", "k7mqx2v", "password is 7 characters, WPA2 takes 8 to 63"),
            ("Phase10-3F7A", "0123456789abcdef" * 4, "password is 64 characters, WPA2 takes 8 to 63"),
            ("Phase10-3F7A", "x" * 64, "password is 64 characters, WPA2 takes 8 to 63"),
            ("Phase10-3F7A", "", "password is 0 characters, WPA2 takes 8 to 63"),
            ("N" * 33, "k7mqx2vh9d", "name is 33 bytes, Wi-Fi takes 1 to 32"),
            ("", "k7mqx2vh9d", "name is 0 bytes, Wi-Fi takes 1 to 32"),
            ("Caf\u00e9", "k7mqx2vh9d", "name holds a character that is not printable ASCII"),
            ("Phase10-3F7A", "k7mqx\tvh9d", "password holds a character that is not printable ASCII"),
            (12345, "k7mqx2vh9d", "name or password is not text"),
            ("Phase10-3F7A", None, "name or password is not text")):
        s, msg = loaded(wifi_ssid=ssid, wifi_pw=pw)
        assert (s["table"], s["wifi_ssid"], s["wifi_pw"]) == (False, "", ""), (ssid, pw, s)
        assert msg == ("settings.json: the phones' own Wi-Fi %s. Phones is off: Settings > Phones makes a "
                       "new network." % why), (ssid, pw, msg)
    # Phones on with no network at all (none was ever made: a file edited by hand)
    d = dict(SAVED)
    del d["wifi_ssid"], d["wifi_pw"]
    fs = FakeFlash({"/settings.json": json.dumps(d).encode()})
    s, msg, unread = load(Store("/", fs, fs.open))
    assert s["table"] is False and "name is 0 bytes" in msg and "Phones is off" in msg, msg


def test_on_the_network_set_from_the_pc_the_own_one_is_dropped_and_said_the_same():
    s, msg = loaded(table="join", wifi_pw="k")
    assert (s["table"], s["wifi_ssid"], s["wifi_pw"]) == ("join", "", "")
    assert msg == ("settings.json: the phones' own Wi-Fi password is 1 character, WPA2 takes 8 to 63. "
                   "Settings > Phones makes a new network."), msg
    # Phones off and no network ever made: nothing to say
    s, msg = loaded(table=False, wifi_ssid="", wifi_pw="")
    assert msg is None and (s["table"], s["wifi_ssid"], s["wifi_pw"]) == (False, "", "")


def test_a_damaged_file_and_its_last_save_are_said_one_after_the_other():
    # settings.json damaged, its last save (a .tmp, a save cut short) taken back: what the
    # reader says, then the network dropped from that save
    last = dict(SAVED, wifi_pw="k")
    fs = FakeFlash({"/settings.json": b'{"contrast": 40, "wifi_pw": "k', "/settings.json.tmp": json.dumps(last).encode()})
    s, msg, unread = load(Store("/", fs, fs.open))
    assert not unread and s["contrast"] == 40 and (s["table"], s["wifi_pw"]) == (False, "")
    first, _, second = msg.partition("; its last save is used. ")
    assert first.startswith("settings.json was damaged (") and "kept as settings.json.bad1" in first, msg
    assert second == ("settings.json: the phones' own Wi-Fi password is 1 character, WPA2 takes 8 to 63. Phones "
                      "is off: Settings > Phones makes a new network."), msg
