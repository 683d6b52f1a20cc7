# Board detection, /board.json overrides and the machine objects made from a board file.
import json
import os
import subprocess

from firmware.edges import board
from firmware.boards import pico, esp32

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


def test_guess_from_the_names_micropython_reports():
    # sys.implementation._machine as printed by MicroPython's own board definitions
    assert board.guess("Raspberry Pi Pico with RP2040") == "pico"
    assert board.guess("Raspberry Pi Pico W with RP2040") == "pico_w"
    assert board.guess("Raspberry Pi Pico2 with RP2350") == "pico"
    assert board.guess("Raspberry Pi Pico 2 W with RP2350") == "pico_w"
    assert board.guess("pico w") == "pico_w"  # as a maker might write it
    assert board.guess("Generic ESP32 module with ESP32") == "esp32"
    assert board.guess("Generic ESP32S3 module with ESP32S3") == "esp32_s3"
    assert board.guess("ESP32C3 module with ESP32C3") == "esp32_c3"
    assert board.guess("linux [GCC 14.2.1] version") is None


def test_detect_by_name_without_config(tmp_path):
    b = board.detect(config=str(tmp_path / "none.json"), name="Generic ESP32 module with ESP32")
    assert (b.KEY, b.SDA, b.SCL, b.BUTTONS) == ("esp32", 21, 22, (32, 33, 25, 26, 27))
    assert b.message is None


def test_unknown_board_falls_back_and_says_so(tmp_path):
    b = board.detect(config=str(tmp_path / "none.json"), name="some new board")
    assert b.KEY == "pico" and "not recognised" in b.message


def write(tmp_path, obj):
    p = tmp_path / "board.json"
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(p)


def test_board_json_names_the_board_and_moves_pins(tmp_path):
    cfg = write(tmp_path, {"board": "esp32", "sda": 18, "scl": 19, "buttons": [32, 33, None, None, 27]})
    b = board.detect(config=cfg, name="Raspberry Pi Pico with RP2040")
    assert b.KEY == "esp32" and b.NAME == esp32.NAME
    assert (b.SDA, b.SCL, b.BUTTONS) == (18, 19, (32, 33, None, None, 27))
    assert b.message is None
    assert esp32.SDA == 21  # the board file itself is untouched


def test_bad_board_json_never_stops_the_start(tmp_path):
    b = board.detect(config=write(tmp_path, "{board: esp32"), name="Raspberry Pi Pico with RP2040")
    assert b.KEY == "pico" and "not valid JSON" in b.message
    b = board.detect(config=write(tmp_path, {"board": "uno"}), name="Raspberry Pi Pico with RP2040")
    assert b.KEY == "pico" and "uno" in b.message
    b = board.detect(config=write(tmp_path, {"sda": 99, "buttons": [1, 2], "scl": 3}), name="pico")
    assert (b.SDA, b.SCL, b.BUTTONS) == (pico.SDA, 3, pico.BUTTONS)
    assert "sda" in b.message and "buttons" in b.message


class FakeMachine:
    """Records what the firmware asks of machine."""

    def __init__(self):
        self.made = []
        outer = self

        class Pin:
            IN, OUT, PULL_UP = 1, 2, 3

            def __init__(self, n, mode=None, pull=None):
                self.n, self.mode, self.pull = n, mode, pull
                outer.made.append(("Pin", n, mode, pull))

        class I2C:
            def __init__(self, i, scl=None, sda=None, freq=None):
                outer.made.append(("I2C", i, scl.n, sda.n, freq))

        self.Pin, self.I2C = Pin, I2C


def test_make_i2c_and_pins_from_a_board_file_or_a_detected_board(tmp_path):
    m = FakeMachine()
    board.make_i2c(pico, m)
    assert m.made == [("Pin", 5, None, None), ("Pin", 4, None, None), ("I2C", 0, 5, 4, 400_000)]
    m = FakeMachine()
    b = board.detect(config=write(tmp_path, {"buttons": [16, 17, None, None, 20]}), name="pico")
    pins = board.make_pins(b, m)
    assert pins[2] is None and pins[3] is None
    assert [p.n for p in pins if p] == [16, 17, 20]
    assert all(p.mode == m.Pin.IN and p.pull == m.Pin.PULL_UP for p in pins if p)


def test_detect_runs_on_micropython(tmp_path):
    cfg = write(tmp_path, {"board": "esp32_c3", "sda": 8})
    code = ("from firmware.edges import board\n"
            "b = board.detect(config=%r)\n"
            "print(b.KEY, b.SDA, b.SCL, b.BUTTONS, b.message)\n"
            "b = board.detect(config='/nonexistent/board.json')\n"
            "print(b.KEY, b.message is not None)\n" % cfg)
    script = tmp_path / "detect.py"
    script.write_text(code)
    r = subprocess.run([MICROPYTHON, str(script)], env=dict(os.environ, MICROPYPATH=ROOT),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    # the unix port calls itself "linux ...": no board by that name, so pico and a message
    assert r.stdout.splitlines() == ["esp32_c3 8 6 (0, 1, 3, 4, 10) None", "pico True"]
