"""The README's pictures of the device's screens, made by the simulator.

  python tools/gen/readme_shots.py          write docs/img/NAME.png for every screen in SHOTS
  python tools/gen/readme_shots.py --check  exit 1 when a picture differs from what it would be

Each picture is a golden screen (host_sim/golden.py CASES: its key script played on a fresh
simulated device, the same run the golden tests hold to tests/golden/NAME.txt), drawn SCALE
times larger in an OLED's colours with a dark border, so it reads on a web page. Run it
after a deliberate change to one of these screens (after `make golden`), look, commit.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

DIR = os.path.join(ROOT, "docs", "img")
SCALE = 3
BORDER = 2                  # panel pixels of dark glass around the picture
LIT = (170, 225, 255)       # a white-blue SSD1306 pixel
DARK = (8, 10, 16)          # the unlit glass

# The screens shown in README.md, by their golden names.
SHOTS = (
    "cards_standings",      # Phase 10 / Masters: the game's home, the standings
    "cards_hand_counts",    # the end of a hand: one player's cards left
    "twist_home_hand3",     # Phase 10 Twist: the home screen, the pawns' spaces
    "twist_board",          # Twist: the board
    "dice_turn_made",       # Phase 10 Dice: a turn, the phase made on the third roll
    "dice_home",            # Dice: the home screen, whose turn and the totals
)


def path(name):
    return os.path.join(DIR, name + ".png")


def rows_of(name):
    """The screen as 64 strings of 128 characters ('#' lit), played from its key script."""
    from host_sim import golden
    return golden.render(dict(golden.CASES)[name]).splitlines()


def picture(rows):
    """The rows as a Pillow RGB image, SCALE times larger, with BORDER of dark glass."""
    from PIL import Image
    h, w = len(rows), len(rows[0])
    img = Image.new("RGB", (w + 2 * BORDER, h + 2 * BORDER), DARK)
    px = img.load()
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "#":
                px[x + BORDER, y + BORDER] = LIT
    return img.resize((img.width * SCALE, img.height * SCALE), Image.NEAREST)


def rows_in(png):
    """The panel's pixels read back from a picture made by picture(): 64 rows of '#'/'.'."""
    from PIL import Image
    img = Image.open(png).convert("RGB")
    w = img.width // SCALE - 2 * BORDER
    h = img.height // SCALE - 2 * BORDER
    px = img.load()
    out = []
    for y in range(h):
        out.append("".join("#" if px[(x + BORDER) * SCALE + SCALE // 2, (y + BORDER) * SCALE + SCALE // 2] == LIT
                           else "." for x in range(w)))
    return out


def main(argv):
    check = argv == ["--check"]
    if argv and not check:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    differ = []
    for name in SHOTS:
        rows = rows_of(name)
        p = path(name)
        if check:
            try:
                same = rows_in(p) == rows
            except OSError:
                same = False
            if not same:
                differ.append(os.path.relpath(p, ROOT))
            continue
        os.makedirs(DIR, exist_ok=True)
        picture(rows).save(p, optimize=True)
        print("wrote", os.path.relpath(p, ROOT))
    if differ:
        print("not the screens they show: %s (run python tools/gen/readme_shots.py)" % ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
