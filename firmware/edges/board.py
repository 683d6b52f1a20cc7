# Which board this is, and its bus and button pins made ready.
#
# One module per board in firmware/boards/: its I2C bus, display pins, button pins and a
# wiring table in the comments.
#
# detect() reads the board's own name (sys.implementation._machine, e.g. "Raspberry Pi Pico
# with RP2040", or os.uname().machine) and picks its file in firmware/boards/. A file
# /board.json on the device wins over that, and can move pins:
#   {"board": "esp32", "sda": 21, "scl": 22, "i2c_id": 0, "i2c_freq": 400000,
#    "buttons": [32, 33, 25, 26, 27]}
# (every key optional; a button given as null is not fitted). A bad board.json never stops
# the device: it is ignored and the reason kept in .message.
import sys

BOARDS = ("pico", "pico_w", "esp32", "esp32_s3", "esp32_c3")

# words in the board's own name -> board file; the more specific first. "pico w " with its
# space, or "Pico with RP2040" would read as a Pico W.
_NAMES = (
    ("pico w ", "pico_w"),
    ("pico 2 w ", "pico_w"),
    ("pico2 w ", "pico_w"),
    ("esp32s3", "esp32_s3"),
    ("esp32-s3", "esp32_s3"),
    ("esp32c3", "esp32_c3"),
    ("esp32-c3", "esp32_c3"),
    ("rp2040", "pico"),
    ("rp2350", "pico"),
    ("pico", "pico"),
    ("esp32", "esp32"),
)
_FIELDS = ("NAME", "MCU", "I2C_ID", "SDA", "SCL", "I2C_FREQ", "BUTTONS", "TIMER_ID", "WIFI")
_PIN_KEYS = (("sda", "SDA"), ("scl", "SCL"), ("i2c_id", "I2C_ID"))
CONFIG = "/board.json"


class Board:
    """A board file's constants (NAME, MCU, I2C_ID, SDA, SCL, I2C_FREQ, BUTTONS), with any
    overrides from board.json applied. KEY is the board file's name; message says what
    detect() could not honour (None when all went to plan)."""

    def __init__(self, key, mod=None):
        if mod is None:
            mod = load(key)
        self.KEY = key
        for f in _FIELDS:
            setattr(self, f, getattr(mod, f))
        # the panel's controller where the board fixes it (the browser's: an SSD1306), else
        # None: Settings chooses it (an SH1106 module on a board)
        self.PANEL = getattr(mod, "PANEL", None)
        self.message = None

    def __repr__(self):
        return "<Board %s SDA=%d SCL=%d buttons=%r>" % (self.KEY, self.SDA, self.SCL, self.BUTTONS)


def load(key):
    """The board file firmware/boards/<key>.py."""
    if key not in BOARDS:
        raise ValueError("no board file %r" % (key,))
    return __import__("firmware.boards." + key, None, None, ("NAME",))


def machine_name():
    name = getattr(sys.implementation, "_machine", None)
    if name:
        return name
    try:
        import os
        return os.uname().machine
    except (AttributeError, OSError):
        return ""


def guess(name):
    """The board file for a board's own name, or None."""
    low = name.lower() + " "
    for words, key in _NAMES:
        if words in low:
            return key
    return None


def read_config(path=CONFIG, open_fn=open):
    """(dict or None, message or None) from board.json; a missing file is no message."""
    try:
        f = open_fn(path)
    except OSError:
        return None, None
    try:
        import json
        cfg = json.loads(f.read())
    except Exception:
        return None, "board.json is not valid JSON: ignored."
    finally:
        f.close()
    if not isinstance(cfg, dict):
        return None, "board.json is not a JSON object: ignored."
    return cfg, None


def _pin_ok(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 48


def apply(board, cfg):
    """Apply board.json's pin overrides to board; returns a message for each key refused."""
    bad = []
    for k, attr in _PIN_KEYS:
        if k in cfg:
            if _pin_ok(cfg[k]):
                setattr(board, attr, cfg[k])
            else:
                bad.append(k)
    if "i2c_freq" in cfg:
        v = cfg["i2c_freq"]
        if isinstance(v, int) and 10_000 <= v <= 1_000_000:
            board.I2C_FREQ = v
        else:
            bad.append("i2c_freq")
    if "buttons" in cfg:
        v = cfg["buttons"]
        if isinstance(v, list) and len(v) == 5 and all(p is None or _pin_ok(p) for p in v):
            board.BUTTONS = tuple(v)
        else:
            bad.append("buttons")
    return bad


def detect(config=CONFIG, name=None, default="pico", open_fn=open):
    """The Board to use: board.json's "board", else the board's own name, else default."""
    cfg, msg = read_config(config, open_fn)
    key = None
    if cfg and "board" in cfg:
        key = cfg["board"]
        if key not in BOARDS:
            msg = "board.json names no known board (%r): ignored." % (key,)
            key = None
    if key is None:
        if name is None:
            name = machine_name()
        key = guess(name)
        if key is None:
            key = default
            msg = msg or "Board %r not recognised: %s pins used." % (name, key)
    board = Board(key)
    if cfg:
        bad = apply(board, cfg)
        if bad:
            msg = "board.json: bad value for %s: ignored." % ", ".join(bad)
    board.message = msg
    return board


def make_i2c(board, machine=None):
    """The display's bus, from a Board or a board module."""
    if machine is None:
        import machine
    return machine.I2C(board.I2C_ID, scl=machine.Pin(board.SCL), sda=machine.Pin(board.SDA),
                       freq=board.I2C_FREQ)


def make_timer(board, machine=None):
    """The timer that samples the buttons (machine.Timer(board.TIMER_ID)), or None when
    this board's MicroPython has none to give (the loop samples them instead)."""
    if machine is None:
        import machine
    try:
        return machine.Timer(board.TIMER_ID)
    except Exception:
        return None


def make_pins(board, machine=None):
    """The five button inputs (up, down, left, right, ok) with pull-ups; None where a
    button is not fitted. Feed them to buttons.PinReader."""
    if machine is None:
        import machine
    Pin = machine.Pin
    return [None if n is None else Pin(n, Pin.IN, Pin.PULL_UP) for n in board.BUTTONS]
