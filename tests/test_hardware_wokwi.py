# The wiring documents agree with the board files, so a maker who follows them gets the
# pins the firmware reads: the Wokwi diagrams (followed wire by wire, as nets) and the
# wiring tables in hardware/<board>/README.md.
import json
import os
import re

from firmware.edges.board import BOARDS, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hardware")
KEYS = ("up", "down", "left", "right", "ok")

# Wokwi board part -> how its GPIO pins are named
WOKWI_BOARDS = {
    "wokwi-pi-pico": re.compile(r"^GP(\d+)$"),
    "board-esp32-devkit-c-v4": re.compile(r"^(\d+)$"),
}


def nets(diagram):
    """Union the wires into nets: {endpoint: root}. A pushbutton's 1.l/1.r are one contact
    and 2.l/2.r the other, joined inside the part."""
    parent = {}

    def find(a):
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def join(a, b):
        parent[find(a)] = find(b)

    for c in diagram["connections"]:
        join(c[0], c[1])
    for p in diagram["parts"]:
        if p["type"] == "wokwi-pushbutton":
            join(p["id"] + ":1.l", p["id"] + ":1.r")
            join(p["id"] + ":2.l", p["id"] + ":2.r")
    return {a: find(a) for a in list(parent)}


def on_net(net, endpoint, board_id):
    """The board's pins on the same net as endpoint."""
    root = net.get(endpoint)
    return sorted(a.split(":", 1)[1] for a, r in net.items() if r == root and a.startswith(board_id + ":"))


def gpio_of(pins, pattern):
    found = [int(m.group(1)) for m in (pattern.match(p) for p in pins) if m]
    assert len(found) == 1, pins
    return found[0]


def check_diagram(key):
    with open(os.path.join(HW, key, "diagram.json")) as f:
        d = json.load(f)
    b = load(key)
    boards = [p for p in d["parts"] if p["type"] in WOKWI_BOARDS]
    assert len(boards) == 1
    bid, pattern = boards[0]["id"], WOKWI_BOARDS[boards[0]["type"]]
    assert "micropython" in boards[0]["attrs"]["env"]
    types = sorted(p["type"] for p in d["parts"])
    assert types.count("board-ssd1306") == 1 and types.count("wokwi-pushbutton") == 5
    oled = [p for p in d["parts"] if p["type"] == "board-ssd1306"][0]
    assert int(oled["attrs"].get("i2cAddress", "0x3c"), 16) == 0x3C
    net = nets(d)
    o = oled["id"]
    assert gpio_of(on_net(net, o + ":SDA", bid), pattern) == b.SDA
    assert gpio_of(on_net(net, o + ":SCL", bid), pattern) == b.SCL
    assert on_net(net, o + ":VCC", bid) == ["3V3"]
    assert all(p.startswith("GND") for p in on_net(net, o + ":GND", bid))
    for key_name, gpio in zip(KEYS, b.BUTTONS):
        btn = "btn_" + key_name
        assert [p for p in d["parts"] if p["id"] == btn][0]["attrs"]["label"] == key_name.upper()
        a, z = on_net(net, btn + ":1.l", bid), on_net(net, btn + ":2.l", bid)
        # one contact on the button's GPIO and nothing else, the other on ground only
        assert gpio_of(a, pattern) == gpio and len(a) == 1, (key_name, a)
        assert z and all(p.startswith("GND") for p in z), (key_name, z)


def test_wokwi_pico_matches_the_board_file():
    check_diagram("pico")


def test_wokwi_esp32_matches_the_board_file():
    check_diagram("esp32")


def test_a_miswired_diagram_is_caught():
    # swap two button wires in a copy of the Pico diagram: the check must notice
    with open(os.path.join(HW, "pico", "diagram.json")) as f:
        d = json.load(f)
    for c in d["connections"]:
        if c[0] == "pico:GP16":
            c[0] = "pico:GP17"
        elif c[0] == "pico:GP17":
            c[0] = "pico:GP16"
    net = nets(d)
    assert gpio_of(on_net(net, "btn_up:1.l", "pico"), WOKWI_BOARDS["wokwi-pi-pico"]) == 17


ROW = re.compile(r"^\| (OLED SDA|OLED SCL|button UP|button DOWN|button LEFT|button RIGHT|button OK) \| [^|]* \| (?:GP|GPIO)(\d+) \|$")


def test_every_board_has_a_wiring_page_that_matches_its_file():
    for key in BOARDS:
        b = load(key)
        with open(os.path.join(HW, key, "README.md")) as f:
            text = f.read()
        rows = dict(m.groups() for m in map(ROW.match, text.splitlines()) if m)
        want = {"OLED SDA": b.SDA, "OLED SCL": b.SCL}
        for name, gpio in zip(("UP", "DOWN", "LEFT", "RIGHT", "OK"), b.BUTTONS):
            want["button " + name] = gpio
        assert {k: int(v) for k, v in rows.items()} == want, key
        assert "## Parts" in text and "```" in text  # a parts list and a text diagram


def test_board_files_have_their_wiring_table_and_distinct_pins():
    for key in BOARDS:
        b = load(key)
        pins = [b.SDA, b.SCL] + list(b.BUTTONS)
        assert len(set(pins)) == 7, key  # no pin used twice
        assert b.I2C_FREQ == 400_000
        with open(os.path.join(ROOT, "firmware", "boards", key + ".py")) as f:
            src = f.read()
        for name in ("SDA", "SCL", "UP", "DOWN", "LEFT", "RIGHT", "OK"):
            assert re.search(r"^#.*%s" % name, src, re.M), (key, name)
