"""The README as a new user meets it: it stands alone (no link or path outside the
repository, no placeholder), is short, shows the controls, every link in it and in docs/
leads to a file of the repository, its pictures are the screens they say they are, and
every command it shows works: `make ...` lines are checked with `make -n` (the target
exists and its recipe expands; nothing runs, so `make deploy` needs no board), and
`python -m host_sim ...` lines are run, in a folder holding the files they name (a saved
game, a pulled folder with a history, a Twist layout), and must exit 0; a command that
needs a board (pull) is run with --help."""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
DOCS = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
NEEDS_BOARD = ("pull", "wifi")   # host commands that talk to a board over USB
PULLED = "board-20250131-142530"  # the pulled folder the README's examples name

sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import readme_shots  # noqa: E402


def text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def links(path):
    """The targets of the Markdown links and images in a file, outside code."""
    t = re.sub(r"```.*?```", "", text(path), flags=re.S)
    t = re.sub(r"`[^`\n]*`", "", t)
    return re.findall(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", t)


def commands(path):
    """Every command line the file shows: the lines of its fenced code blocks and its
    inline code spans that start with `make ` or run python -m host_sim."""
    t = text(path)
    found = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", t, flags=re.S):
        found += block.splitlines()
    rest = re.sub(r"```.*?```", "", t, flags=re.S)
    found += re.findall(r"`([^`\n]+)`", rest)
    out = []
    for line in found:
        line = line.strip()
        if line.startswith("make ") or re.match(r"(\.venv/bin/)?python3? -m host_sim\b", line):
            out.append(line)
    return out


# --- it stands alone ----------------------------------------------------------------------
def test_readme_points_nowhere_outside_the_repository():
    t = text(README)
    for bad in ("../", "shared/", "OWNER", "REPO", "<owner>", "<repo>", "/work/", "/home/"):
        assert bad not in t, "README.md mentions %r" % bad
    for target in links(README):
        assert not re.match(r"[a-z]+:", target), "README.md links outside the repository: %s" % target
        assert not target.startswith("/"), target


def test_readme_is_short():
    n = len(text(README).splitlines())
    assert n <= 125, "README.md has %d lines; the detail belongs in docs/" % n


def test_readme_shows_the_controls():
    t = text(README)
    for word in ("UP", "DOWN", "LEFT", "RIGHT", "OK", "Help"):
        assert re.search(r"\b%s\b" % word, t), "README.md does not mention %s" % word
    assert "Hold OK and press UP" in t
    assert "Three-button mode" in t


# --- links and pictures -------------------------------------------------------------------
@pytest.mark.parametrize("path", [README] + DOCS, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_relative_link_leads_to_a_file_of_the_repository(path):
    here = os.path.dirname(path)
    for target in links(path):
        if re.match(r"(https?|mailto):", target) or target.startswith("#"):
            continue
        f = os.path.realpath(os.path.join(here, target.split("#", 1)[0]))
        assert f.startswith(ROOT + os.sep), "%s: %s is outside the repository" % (os.path.relpath(path, ROOT), target)
        assert os.path.exists(f), "%s: %s does not exist" % (os.path.relpath(path, ROOT), target)
    assert "../shared" not in text(path)


def test_readme_links_every_document():
    linked = {os.path.normpath(t) for t in links(README)}
    for d in DOCS:
        assert os.path.relpath(d, ROOT) in linked, "README.md's More list lacks %s" % os.path.relpath(d, ROOT)


# Pictures of the PC companion's pages, not screens of the device: made by their tool
# (tools/gen/league_shot.py: the league's page in Chromium)
PAGES = ("docs/img/league.png",)


def test_the_pictures_are_the_golden_screens_they_name():
    shown = [t for t in links(README) if t.startswith("docs/img/") and t not in PAGES]
    assert sorted(shown) == sorted("docs/img/%s.png" % n for n in readme_shots.SHOTS)
    for name in readme_shots.SHOTS:
        with open(os.path.join(ROOT, "tests", "golden", name + ".txt")) as f:
            want = f.read().splitlines()
        got = readme_shots.rows_in(readme_shots.path(name))
        assert got == want, "docs/img/%s.png is not the screen tests/golden/%s.txt: run python tools/gen/readme_shots.py" % (name, name)


def test_the_pictures_of_pages_are_shown_and_are_pictures():
    # the league's page, as tools/gen/league_shot.py photographs it (in README and in
    # docs/pc-companion.md)
    for page in PAGES:
        assert page in links(README) and page[len("docs/"):] in links(os.path.join(ROOT, "docs", "pc-companion.md"))
        with open(os.path.join(ROOT, page), "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(head[16:20], "big")
        assert 600 <= width <= 1200, width


def test_a_changed_screen_is_caught(tmp_path, monkeypatch):
    # The check above can fail: a picture one pixel off reads back different.
    rows = readme_shots.rows_of("cards_standings")
    img = readme_shots.picture(rows)
    x, y = (readme_shots.BORDER + 5) * readme_shots.SCALE, (readme_shots.BORDER + 40) * readme_shots.SCALE
    for dx in range(readme_shots.SCALE):
        for dy in range(readme_shots.SCALE):
            img.putpixel((x + dx, y + dy), readme_shots.LIT if rows[40][5] == "." else readme_shots.DARK)
    p = tmp_path / "x.png"
    img.save(p)
    back = readme_shots.rows_in(str(p))
    assert back != rows and sum(a != b for r, s in zip(back, rows) for a, b in zip(r, s)) == 1


# --- every command it shows works ----------------------------------------------------------
def test_the_readme_shows_the_two_commands_and_host_commands():
    cmds = commands(README)
    assert "make sim" in [c.split("#")[0].strip() for c in cmds]
    assert "make test" in [c.split("#")[0].strip() for c in cmds]
    host = [c for c in cmds if "host_sim" in c]
    subs = {shlex.split(c, comments=True)[3] for c in host if len(shlex.split(c, comments=True)) > 3}
    for sub in ("show", "export", "stats", "pull", "dice", "board"):
        assert sub in subs, "README.md shows no %s command" % sub


@pytest.mark.parametrize("line", sorted({c for c in commands(README) if c.startswith("make ")}))
def test_each_make_command_exists(line):
    argv = shlex.split(line, comments=True)
    r = subprocess.run(["make", "-n"] + argv[1:], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, "%s: %s" % (line, r.stderr)


def saved_games(folder):
    """The files the README's host commands name, made by the device's own code: a running
    game (game.json), a pulled folder with a running game and a history of two finished
    games, and a Twist layout of one's own."""
    from engine_mpy import savefile, summary
    from engine_mpy.classic import Classic
    from firmware.history.entries import write_entry

    running = Classic({"players": ["Ann", "Bob", "Cid"], "dealer": 0})
    running.add({"out": 0, "left": [None, [7, 2, 0, 1], [10, 0, 0, 0]]})
    running.add({"out": 1, "left": [[1, 1, 0, 0], None, [10, 0, 0, 0]]})
    with open(os.path.join(folder, "game.json"), "w") as f:
        f.write(savefile.dumps(running))

    over = Classic({"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1})
    over.add({"out": 0, "left": [None, [10, 0, 0, 0]]})
    from host_sim.golden import SAVED
    dice = SAVED["dice_over"]()     # a whole Dice game of Ann and Bob, to its end
    lines = ['{"format":"phase10-history","v":2}\n']
    for n, g in enumerate((over, dice), 1):
        assert summary.winners(g), "the sample game %d is not over" % n
        parts = []
        write_entry(summary.entry(g, True, n), parts.append)
        lines.append("".join(parts) + "\n")
    pulled = os.path.join(folder, PULLED)
    os.mkdir(pulled)
    with open(os.path.join(pulled, "history.json"), "w") as f:
        f.write("".join(lines))
    shutil.copy(os.path.join(folder, "game.json"), pulled)
    shutil.copy(os.path.join(ROOT, "firmware", "layouts", "short.txt"), os.path.join(folder, "my_board.txt"))


def test_each_host_command_runs(tmp_path):
    saved_games(str(tmp_path))
    env = dict(os.environ, PYTHONPATH=ROOT)
    ran = 0
    for line in commands(README):
        argv = shlex.split(line, comments=True)
        if not argv or argv[0].startswith("make"):
            continue
        args = argv[3:]
        if args and args[0] in NEEDS_BOARD:
            args = [args[0], "--help"]
        r = subprocess.run([sys.executable, "-m", "host_sim"] + args, cwd=str(tmp_path), env=env,
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert r.returncode == 0 and "Traceback" not in r.stderr, "%s\n%s" % (line, r.stderr)
        assert r.stdout.strip() or args[0] == "export", "%s printed nothing" % line
        ran += 1
    assert ran >= 8
    # export wrote what it was asked for
    for line in commands(README):
        argv = shlex.split(line, comments=True)
        for opt in ("--csv", "--html"):
            if "export" in argv and opt in argv:
                out = tmp_path / argv[argv.index(opt) + 1]
                assert out.exists() and out.stat().st_size > 0, out
