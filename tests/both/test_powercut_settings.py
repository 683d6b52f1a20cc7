# A power cut at every step of saving a setting (settings_file.save) and the roster (a name
# added, a name changed): after a restart the file read is exactly the old or the new one.
# The games: test_powercut_saves.py and test_powercut_finish.py (modules of their own: the MicroPython test heap
# holds the app or a game engine, not both).
import soak
from powercut import FakeFlash, cut_everywhere, store_on
from firmware.files.store import SETTINGS, ROSTER
from firmware.files import roster


def test_a_setting():
    files = {"/" + SETTINGS: b'{"contrast":128,"dim_s":60}'}

    from firmware.app import App as RealApp
    from firmware.files.settings_file import load as load_settings, save

    class SettingsApp(RealApp):
        # the real settings save, without a display
        def __init__(self, store):
            self.store = store
            self.messages = []
            self.settings, msg, self.settings_unread = load_settings(store)

        def tell(self):
            pass

    def action(store):
        assert save(SettingsApp(store), "dim_s", 120)
    n = cut_everywhere(files, action, (SETTINGS,))
    assert n > 10
    soak.ran(n, "power cuts saving a setting")
    # the action did change the setting on the flash (cut_everywhere saw old != new)
    fs = FakeFlash(files)
    action(store_on(fs))
    assert load_settings(store_on(fs))[0]["dim_s"] == 120 and fs.files != files


def test_a_roster_name_added_and_renamed():
    files = {"/" + ROSTER: b'[["Ann",1,1,50,3]]'}
    n = cut_everywhere(files, lambda store: roster.add(store, "Bob"), (ROSTER,))
    n += cut_everywhere(files, lambda store: roster.rename(store, 0, "Anna"), (ROSTER,))
    assert n > 20
    soak.ran(n, "power cuts saving the roster")
    # what the device wrote, read back as the next start reads it
    fs = FakeFlash(files)
    roster.add(store_on(fs), "Bob")
    roster.rename(store_on(fs), 0, "Anna")
    assert roster.load(store_on(fs)) == ([["Anna", 1, 1, 50, 3], ["Bob", 0, 0, 0, 0]], None, False)
