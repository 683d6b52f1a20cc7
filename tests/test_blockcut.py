# Power cuts at block level on the filesystems MicroPython itself puts on a board (issue 15,
# finding 6): the flash stops in the middle of an erase or a program (tests/blockflash.py)
# while the device saves a hand, an undo, a correction, a new game, a finished or an
# abandoned game of every kind, through its own code. After each cut the next start must
# find exactly the state before the action or the state after it, and a second start the
# same. littlefs (os.VfsLfs2 on the micropython binary, littlefs-python's copy of the same C
# code on CPython) always does. MicroPython's FAT loses every file when the cut comes while
# it rewrites its directory sector, and nothing on top of FAT can prevent it: the device
# tells FAT at start and says how to move to littlefs (firmware/files/fscheck.py,
# hardware/README.md "FAT flash"). make test runs a representative part (seconds); make
# soak (SOAK=1) every cut point of every action wherever the compaction of littlefs'
# directory log falls in it, on both program sizes the boards use.
import os
import subprocess

import pytest

import soak
import blockflash as bf
from firmware.game import session as session_mod

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
JOBS = ["%s/%s" % (k, a) for k in bf.KINDS for a in bf.ACTIONS]
# A filesystem test, not a heap test: room for a few copies of the flash image.
HEAP = "4M"
# littlefs' directory log fills with each save and is compacted into the other block of its
# pair when full: every 13 to 17 saves here. Each action is cut at age 0 (a fresh log) and at
# every age up to UPTO saves later where the compaction comes in the middle of the action
# (blockflash.images): twice round the log, the compaction at every place in the action.
UPTO = 34


def micropython(*args):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "tests"),
                                                        os.path.join(ROOT, "tests", "both")]))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=" + HEAP, os.path.join(ROOT, "tests", "blockflash.py")]
                       + list(args), env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    return r.stdout.splitlines()


def ran(lines):
    """The "ran" lines: [(job, age, cuts, ops, erases, old, new, other)]."""
    out = []
    for ln in lines:
        w = ln.split()
        if w[0] == "ran":
            out.append((w[1],) + tuple(int(x) for x in w[2:]))
    return out


def least_ops(job):
    """The fewest flash operations (erases, programs) the action of job can take."""
    return 1 if job.endswith("/add") else 3


def check_never_lost(runs, lines):
    """Every cut of every job gave the old state or the new one; returns the cuts tried."""
    others = [ln for ln in lines if ln.startswith("cut ")]
    assert not others, "\n".join(others[:5])
    n = 0
    for job, age, cuts, ops, erases, old, new, other in runs:
        assert other == 0
        # each action took several flash operations, each cut (an added hand is one line
        # appended: with the RP2040's program size, 256, one program of littlefs' log)
        assert ops >= least_ops(job) and cuts >= ops, (job, age, cuts)
        assert old > 0, (job, age)                   # a cut early keeps the state before
        n += cuts
    return n


def test_littlefs_never_loses_anything_on_micropython():
    # The short form: every kind, every action, both ways of cutting, on a fresh directory
    # log, and the finish wherever a compaction falls in it; the long form: every action
    # wherever a compaction falls, with the ESP32's program size (32) and the RP2040's
    # (256), and long games (saves of several programs, in blocks of their own).
    runs = []
    lines = []
    if soak.LONG:
        upto = "upto=%d" % UPTO
        for prog in ("32", "256"):
            lines += micropython("lfs", "prog=" + prog, "modes=torn,clean", upto, *JOBS)
        longs = ["%s/%s" % (k, a) for k in bf.LONG_KINDS for a in bf.ACTIONS if a != "start"]
        lines += micropython("lfs", "long=1", "modes=torn,clean", upto, *longs)
    else:
        lines += micropython("lfs", "modes=torn,clean", *JOBS)
        lines += micropython("lfs", "upto=20", "classic/finish")
    runs = ran(lines)
    n = check_never_lost(runs, lines)
    assert {r[0] for r in runs} == set(JOBS)
    assert len([r for r in runs if r[0] == "classic/finish" and r[1] > 0]) >= 2   # compactions found
    soak.ran(n, "block-level power cuts on MicroPython's littlefs (every kind: start, hand, undo, correction, finish, abandon)")


class _NoGC:
    # CPython: the session's gc.collect() (there for MicroPython's heap) walks every object
    # pytest holds, thousands of times here; the run is the same without it.
    @staticmethod
    def collect():
        pass


@pytest.fixture
def no_gc(monkeypatch):
    if hasattr(session_mod, "gc"):
        monkeypatch.setattr(session_mod, "gc", _NoGC)


def test_littlefs_never_loses_anything_on_cpython(no_gc):
    # The same littlefs C code through littlefs-python, on the same flash model, configured
    # as MicroPython does. Then littlefs under stress: a directory log of 512 bytes
    # (compacted every few saves) moved to fresh blocks at every other compaction
    # (block_cycles 1, where MicroPython has 100: the move every few saves instead of after
    # hundreds): the short form cuts the finish there, the long form every action.
    stress = bf.PyLfs(cycles=1, metadata_max=512)
    if soak.LONG:
        configs = [(bf.PyLfs(), JOBS, UPTO), (bf.PyLfs(prog=256), JOBS, UPTO), (stress, JOBS, 12)]
    else:
        configs = [(bf.PyLfs(), JOBS, 0), (stress, ["classic/finish"], 6)]
    n = 0
    for fs, jobs, upto in configs:
        for job in jobs:
            kind, action = job.split("/")
            for age, before in bf.images(fs, kind, action, False, upto):
                bad = []
                cuts, ops, erases, counts = bf.cut_all(
                    fs, before, kind, action, 1, ("torn", "clean"),
                    lambda k, mode, verdict, seen, flash: verdict == "other" and bad.append((k, mode, flash.cut, seen[0])))
                assert not bad, (job, age, bad[:3])
                assert ops >= least_ops(job) and cuts >= ops and counts["old"] > 0, (job, age, cuts, counts)
                n += cuts
    soak.ran(n, "block-level power cuts on littlefs-python (every kind and action)")


def test_fat_loses_every_file_when_a_cut_hits_its_directory_sector():
    # Finding 6, and why the device does not trust FAT: MicroPython's FAT on a flash that
    # erases a 4 KB sector and then programs it (rp2.Flash, esp32.Partition) rewrites its
    # directory sector on every save; a cut between the erase and the end of the program
    # leaves the directory blank or garbled and the next start finds no game, no roster,
    # no history, and says nothing. Nothing the saves do on top of FAT can prevent it: the
    # directory and the allocation table are shared by every file on the flash.
    jobs = JOBS if soak.LONG else ["classic/add", "classic/finish", "dice/abandon"]
    lines = micropython("fat", "modes=torn,clean", "verbose=1", *jobs)
    fat, directory, data = (int(x) for x in lines[0].split()[1:])
    assert lines[0].startswith("layout") and fat < directory < data
    in_dir = lost = quiet_lost = 0
    lost_elsewhere = 0
    for ln in lines:
        w = ln.split(None, 10)
        if w[0] != "cut":
            continue
        block, verdict, gone, quiet = int(w[6]), w[7], w[8] == "1", w[9] == "1"
        if directory <= block < data:
            in_dir += 1
            lost += gone
            quiet_lost += gone and quiet
        elif gone:
            lost_elsewhere += 1
    runs = ran(lines)
    assert {r[0] for r in runs} == set(jobs)
    assert in_dir >= 4 * len(jobs)     # the directory sector is rewritten at least once per save
    # each rewrite of it: half erased, erased and not yet programmed: everything gone
    # (the start says a file could not be read where FAT's garbled directory gives an
    # error; a blank directory leaves nothing to say)
    assert lost * 2 >= in_dir, (lost, in_dir)
    assert lost_elsewhere == 0
    soak.ran(in_dir, "power cuts while FAT rewrites its directory sector, %d of them losing every file (%d with no message)"
             % (lost, quiet_lost))


PROBE = r"""
import os, sys
from blockflash import NorFlash, BLOCK
from firmware.files.store import Store

fat = NorFlash(b"\xff" * (64 * BLOCK))
os.VfsFat.mkfs(fat)
os.mount(os.VfsFat(fat), "/fat")
lfs = NorFlash(b"\xff" * (32 * BLOCK))
os.VfsLfs2.mkfs(lfs)
os.mount(os.VfsLfs2(lfs), "/lfs")
from firmware.files import fscheck
print("empty", fscheck.case_blind("/fat"), fscheck.case_blind("/lfs"))
for root in ("/fat", "/lfs"):
    Store(root).write_atomic("settings.json", "{}")
    Store(root).write_atomic("game.json", "{}")
ops = fat.ops + lfs.ops


class OldOs:
    # MicroPython before 1.25: mount() has no list of the mounts
    def mount(self, *args):
        if not args:
            raise TypeError("function missing 2 required positional arguments")
    def __getattr__(self, name):
        return getattr(os, name)


print("mounts", fscheck.is_fat("/fat"), fscheck.is_fat("/lfs"), fscheck.is_fat("/fat/x"), fscheck.is_fat("/"))
print("probe", fscheck.case_blind("/fat"), fscheck.case_blind("/lfs"))
fscheck.os = OldOs()
print("old", fscheck.is_fat("/fat"), fscheck.is_fat("/lfs"))
fscheck.os = os
print("check", fscheck.check("/fat") == fscheck.MESSAGE, "firmware.files.fscheck" in sys.modules)
from firmware.files import fscheck
print("check", fscheck.check("/lfs"))
print("writes", fat.ops + lfs.ops - ops)
"""


def test_fscheck_tells_fat_from_littlefs_on_micropython(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "both")]))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=" + HEAP, str(script)], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [
        "empty False False",           # no name to look up yet: nothing saved to lose
        "mounts True False True False",  # the mount list (MicroPython 1.25+); "/" is the unix port's own
        "probe True False",             # FAT finds GAME.JSON as game.json, littlefs does not
        "old True False",               # an older MicroPython: the lookup decides
        "check True False",             # the message, and the module leaves RAM
        "check None",
        "writes 0",                     # the check never writes the flash
    ]


def test_the_fat_message_fits_a_note():
    from firmware.files.fscheck import MESSAGE
    from firmware.screens.base import wrap
    lines = wrap(MESSAGE)
    assert len(lines) <= 6              # what the note screen shows
    assert "hardware/README.md" in MESSAGE and "FAT flash" in MESSAGE
    with open(os.path.join(ROOT, "hardware", "README.md")) as f:
        assert "## FAT flash" in f.read()   # the section the message names


START = r"""
# The device started on MicroPython's FAT and on its littlefs: the notes it shows.
import os
import sys


class RamFlash:
    # a block device in RAM (512-byte blocks), enough for VfsFat and VfsLfs2
    def __init__(self, n):
        self.data = bytearray(n * 512)

    def readblocks(self, i, buf, off=0):
        o = i * 512 + off
        buf[:] = self.data[o:o + len(buf)]

    def writeblocks(self, i, buf, off=None):
        o = i * 512 + (off or 0)
        self.data[o:o + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 512
        if op == 5:
            return 512
        if op == 6:
            return 0


from host_sim import script
for kind in sys.argv[1:]:
    dev = RamFlash(256)
    vfs = os.VfsFat if kind == "fat" else os.VfsLfs2
    vfs.mkfs(dev)
    os.mount(vfs(dev), "/" + kind)
    d = script.Device(state="/" + kind)
    said = []
    while d.app.top().module == "note" and len(said) < 5:
        said.append(" ".join(d.app.top().lines))
        d.play(script.parse("OK"))
    print(kind, d.app.top().module, repr(said))
    d = None
    os.umount("/" + kind)
"""


def test_the_device_started_on_fat_says_so_and_on_littlefs_says_nothing(tmp_path):
    # The whole start-up (firmware/main.py) on the micropython binary with the twin's fake
    # board, its files on MicroPython's own FAT, then on its littlefs: the notes read off
    # the screen as a player reads them.
    import adafruit_ssd1306
    (tmp_path / "start.py").write_text(START)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "host_sim", "twin"),
                                                        os.path.dirname(adafruit_ssd1306.__file__)]))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=" + HEAP, str(tmp_path / "start.py"), "fat", "lfs"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    from firmware.files.fscheck import MESSAGE
    from firmware.screens.base import wrap
    assert r.stdout.splitlines() == ["fat menu %r" % [" ".join(wrap(MESSAGE, 20))], "lfs menu []"]
