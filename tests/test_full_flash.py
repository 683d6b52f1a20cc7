"""A hand the flash refuses for want of room leaves the save exactly as it was, with no torn
line for the next start to find (issue 23, finding 5): on MicroPython's own littlefs as a
board mounts it, filled up for real on the micropython binary, and in the simulator's
folder on the PC, whose disk fills in the middle of the append."""
import errno
import os
import subprocess

from engine_mpy import savefile
from engine_mpy.classic import Classic
from firmware.game.session import Session
from firmware.files.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
TWO = ["Ann", "Bob"]
FAIL = [10, 0, 0, 0]
HAND = {"out": 0, "left": [None, FAIL]}


def first_save():
    """A game of one hand saved as the device saves it (with its id: a save without one is
    an earlier version's, written out again at the first start)."""
    g = Classic({"players": TWO, "dealer": 0}, [HAND])
    g.id = "f1a5400000000001"
    return savefile.dumps(g)


LFS_FULL = r"""
import os
from firmware.files.store import Store
from firmware.game.session import Session

class RAMFlash:
    # 4 KB blocks, as rp2.Flash and esp32.Partition report
    def __init__(self, n):
        self.data = bytearray(b"\xff" * (4096 * n))
    def readblocks(self, b, buf, off=0):
        a = b * 4096 + off
        buf[:] = self.data[a:a + len(buf)]
    def writeblocks(self, b, buf, off=0):
        a = b * 4096 + off
        self.data[a:a + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self.data[arg * 4096:(arg + 1) * 4096] = b"\xff" * 4096
            return 0

fl = RAMFlash(10)
os.VfsLfs2.mkfs(fl)
os.mount(os.VfsLfs2(fl), "/f")
f = open("/f/game.json", "w")
f.write(SAVE)
f.close()
# the rest of the flash taken by other files, each committed, 64 bytes at a time at last
size = 2048
n = 0
while size >= 64:
    try:
        f = open("/f/filler%d" % n, "wb")
        try:
            f.write(b"x" * size)
        finally:
            f.close()
        n += 1
    except OSError:
        size //= 2
s = Session(Store("/f"))
s.load()
refused = 0
for k in range(40):
    err = s.commit("add", HAND)
    if err:
        refused += 1
        break
f = open("/f/game.json", "rb")
on_flash = f.read()
f.close()
again = Session(Store("/f"))
again.load()
print("refused", refused, "|", err, "|", len(s.game.records), len(again.game.records), "|", again.messages)
g = again.game.records
# the save on the flash, as it stands, compared by its game
print("same", len(g) == len(s.game.records))
"""


def test_a_full_littlefs_refuses_the_hand_and_keeps_the_save_whole(tmp_path):
    script = tmp_path / "full.py"
    script.write_text("SAVE = %r\nHAND = %r\n" % (first_save(), HAND) + LFS_FULL)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=1M", str(script)],
                       env=dict(os.environ, MICROPYPATH=ROOT), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    first, second = r.stdout.splitlines()
    refused, err, counts, messages = first.split(" | ")
    assert refused == "refused 1" and "flash full" in err, first
    hands, hands_again = counts.split()
    # the game in RAM went back to what the flash holds, and the next start reads it whole
    assert hands == hands_again and messages == "[]", first
    assert second == "same True"


def test_a_pc_disk_that_fills_during_the_append_leaves_the_save_as_it_was(tmp_path):
    root = str(tmp_path)
    path = os.path.join(root, "game.json")
    with open(path, "w") as f:
        f.write(first_save())
    before = open(path, "rb").read()
    full = []

    def open_fn(p, mode="r"):
        f = open(p, mode)
        if "a" not in mode:
            return f

        class Filling:
            # half the line reaches the disk, then it is full
            def write(self, data):
                f.write(data[:len(data) // 2])
                f.flush()
                full.append(p)
                raise OSError(errno.ENOSPC, "No space left on device")

            def close(self):
                f.close()
        return Filling()
    s = Session(Store(root, os, open_fn))
    s.load()
    err = s.commit("add", HAND)
    assert full and err is not None and "flash full" in err, err
    assert open(path, "rb").read() == before
    again = Session(Store(root))
    again.load()
    assert again.messages == [] and len(again.game.records) == 1
