# The simulator end to end on CPython: the firmware app unchanged on the fake machine,
# keys pressed through the fake pins and the real button state machine, the screen read
# back from the controller emulator.
import os
import subprocess
import sys

from host_sim import script, sim, term
from tests import table_keys as K

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_sim(*args, stdin=subprocess.DEVNULL):
    return subprocess.run([sys.executable, "-m", "host_sim"] + list(args), cwd=ROOT,
                          stdin=stdin, capture_output=True, text=True, timeout=120)


def device(tmp_path, keys="", **kw):
    dev = script.Device(state=str(tmp_path), **kw)
    dev.play(script.parse(keys))
    return dev


def test_headless_prints_64_lines_of_128_and_exits_0():
    r = run_sim("--headless", "--keys", K.menu("new game"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 64
    assert all(len(l) == 128 and set(l) <= {"#", "."} for l in lines)
    # The New game page: its title bar is lit, its body mostly dark.
    assert lines[0].count("#") > 64 and lines[40].count("#") < 64


def test_bad_key_name_exits_2_with_a_message():
    r = run_sim("--headless", "--keys", "DOWN JUMP OK")
    assert r.returncode == 2
    assert r.stdout == ""
    assert "JUMP" in r.stderr and "LONG_OK" in r.stderr
    assert run_sim("--headless", "--keys", "WAIT:soon").returncode == 2
    assert run_sim("--headless", "--frobnicate").returncode == 2


def test_not_a_terminal_shows_the_screen_and_says_how_to_script():
    r = run_sim()
    assert r.returncode == 0
    assert len(r.stdout.splitlines()) == 64
    assert "--headless" in r.stderr


def test_window_without_pygame_says_so():
    try:
        import pygame  # noqa: F401
        return  # installed: nothing to check here
    except ImportError:
        pass
    r = run_sim("--window")
    assert r.returncode == 2 and "pygame" in r.stderr


def test_png(tmp_path):
    from PIL import Image
    p = tmp_path / "s.png"
    r = run_sim("--headless", "--png", str(p))
    assert r.returncode == 0, r.stderr
    img = Image.open(p)
    assert img.size == (512, 256)
    # The title bar is lit, the bottom-right corner is not.
    assert img.getpixel((200, 10)) > 0 and img.getpixel((500, 250)) == 0


SETTINGS = K.menu("settings")


def test_browsing_settings_writes_no_file(tmp_path):
    dev = device(tmp_path, SETTINGS + " DOWN DOWN UP OK UP LEFT LONG_OK")
    assert dev.app.store.writes == 0
    assert not os.path.exists(tmp_path / "settings.json")


def test_state_continues_saved_settings(tmp_path):
    # Contrast: OK to change, UP one step (128 -> 160), OK to commit.
    dev = device(tmp_path, SETTINGS + " OK UP OK")
    assert dev.app.store.writes == 1
    assert dev.panel().contrast == 160
    # A second run on the same folder starts with it.
    dev2 = device(tmp_path)
    assert dev2.app.settings["contrast"] == 160
    assert dev2.panel().contrast == 160
    # And through the command line: the same settings screen both times.
    a = run_sim("--headless", "--state", str(tmp_path), "--keys", SETTINGS).stdout
    b = "\n".join(device(tmp_path, SETTINGS).rows()) + "\n"
    assert a == b


def test_idle_dims_then_switches_off_and_only_the_dark_screen_swallows_its_key(tmp_path):
    dev = device(tmp_path, "DOWN UP")   # back on New game, where the menu opens
    first = dev.rows()
    panel = dev.panel()
    dev.play(script.parse("WAIT:599000"))
    assert panel.contrast == 128
    dev.play(script.parse("WAIT:1500"))
    assert panel.on and panel.contrast < 128
    # the press that wakes a dimmed screen acts: the cursor moves (issue 26)
    dev.play(script.parse("DOWN"))
    assert panel.contrast == 128 and dev.app.top().sel == 1
    dev.play(script.parse("UP WAIT:1801000"))
    assert not panel.on
    assert all(set(r) == {"."} for r in dev.rows())
    n = dev.machine.bus.bytes
    dev.play(script.parse("OK"))  # lights the dark screen only: OK would open "New game"
    assert panel.on and panel.contrast == 128
    assert dev.rows() == first and dev.app.top().module == "menu"
    # Waking costs a few command bytes, not a redraw.
    assert dev.machine.bus.bytes - n < 20
    dev.play(script.parse("OK"))
    assert dev.app.top().module == "newgame"


def test_a_menu_move_sends_two_page_rows(tmp_path):
    # Moving the selection down by one changes two 8-pixel rows of the panel, next to each
    # other, in columns 0-126 (the selection bar; without a game the menu's seven lines fit,
    # no scroll mark): one command transaction (address + 00h 21h 0 126 22h p0 p1 = 8 bytes)
    # and a data transaction per row (address + 40h + 127 = 129 bytes). (From the first
    # line a third row changes too: the dark line under the title bar comes back lit.)
    dev = device(tmp_path, "DOWN")
    n = dev.machine.bus.bytes
    dev.play(script.parse("DOWN"))
    assert dev.machine.bus.bytes - n == 8 + 2 * 129


def test_contact_bounce_changes_nothing(tmp_path):
    keys = "DOWN OK LONG_OK DOWN"   # from New game: Dice roller and back, then History
    clean = device(tmp_path / "a", keys).rows()
    bouncy = device(tmp_path / "b", keys, bounce=3).rows()
    assert clean == bouncy
    assert device(tmp_path / "c", keys).app.top().sel == 2


def test_holding_down_repeats_and_stops_at_the_end(tmp_path):
    dev = device(tmp_path, "HOLD_DOWN:2000")
    m = dev.app.top()
    assert m.sel == 6 and m.label(6) == "About"   # stops there (no game: seven lines)


def test_braille_cells():
    rows = ["." * 128 for _ in range(64)]
    rows[0] = "#" + "." * 127          # top-left dot of the first cell
    rows[3] = "." + "#" + "." * 126     # bottom-right dot of the first cell
    out = term.braille(rows)
    assert len(out) == 16 and all(len(l) == 64 for l in out)
    assert out[0][0] == chr(0x2800 + 0x01 + 0x80)
    assert out[0][1] == chr(0x2800) and out[1][0] == chr(0x2800)


def test_terminal_keys():
    assert term.keys_from("\x1b[A\x1b[Bx\r") == ["UP", "DOWN", "OK"]
    assert term.keys_from("\x1b") == ["LONG_OK"]
    assert term.keys_from("lq") == ["LONG_OK", "QUIT"]
