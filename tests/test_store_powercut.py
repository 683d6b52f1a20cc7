# More power cuts than the shared tests: a second cut while the next start is recovering,
# the store on real files (CPython's os), and the store on a real littlefs (MicroPython's
# own VfsLfs2 on a RAM block device that dies after N block writes). CPython only.
import os
import subprocess
import sys

from firmware.files.store import Store, GAME
from firmware.files import storeread
from fakeflash import FakeFlash, PowerCut
from test_store import OLD, NEW, store_on

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")

FLASHES = ({}, {"fat": True}, {"fat": True, "erased": True})


def test_second_cut_while_recovering():
    # cut a save at k, then cut the recovery at start at j, then start again: still old or new
    for args in FLASHES:
        for old in (OLD, None):
            before = {"/game.json": old.encode()} if old else {}
            for k in range(12):
                fs = FakeFlash(before, **args)
                fs.cut_at = k
                try:
                    store_on(fs).write_atomic(GAME, NEW)
                except PowerCut:
                    pass
                after_save = dict(fs.files)
                for j in range(4):
                    fs = FakeFlash(after_save, **args)
                    fs.cut_at = j
                    try:
                        storeread.read(store_on(fs), GAME)
                    except PowerCut:
                        pass
                    fs.power_on()
                    text, msg, unread = storeread.read(store_on(fs), GAME)
                    assert text in (old, NEW), (args, k, j, fs.files)
                    assert msg is None


def test_damage_found_at_start_on_real_files(tmp_path):
    root = str(tmp_path / "state")
    s = Store(root)  # the simulator's folder is made on first use
    assert s.write_atomic(GAME, OLD) is None
    assert sorted(os.listdir(root)) == ["game.json"]
    # truncate it as a bad flash or a pulled card would
    with open(os.path.join(root, "game.json"), "w") as f:
        f.write(OLD[:-7])
    text, msg, unread = storeread.read(Store(root), GAME)
    assert text is None and "game.json.bad1" in msg
    assert sorted(os.listdir(root)) == ["game.json.bad1"]
    with open(os.path.join(root, "game.json.bad1")) as f:
        assert f.read() == OLD[:-7]
    s = Store(root)
    assert s.write_atomic(GAME, NEW) is None and s.write_atomic(GAME, OLD) is None  # rename over a file
    assert storeread.read(Store(root), GAME) == (OLD, None, False)
    assert sorted(os.listdir(root)) == ["game.json", "game.json.bad1"]


# Runs under MicroPython: format a littlefs v2 image in RAM, save OLD, then for every N
# save NEW with the power cut at the Nth block program/erase (half the block written),
# mount what the flash holds and read it back with a fresh Store.
LFS_SCRIPT = r"""
import os
from firmware.files.store import Store
from firmware.files import storeread

class RAMFlash:
    def __init__(self, data):
        self.bs = 256
        self.data = bytearray(data)
        self.left = -1  # block operations before the power goes (-1: never)
        self.dead = False
    def _op(self):
        # An exception cannot cross littlefs' C code, so after the cut the flash simply
        # takes nothing more: what it holds is what a board would find at the next start.
        if self.left == 0:
            self.dead = True
        if self.left > 0:
            self.left -= 1
        return self.dead
    def readblocks(self, b, buf, off=0):
        a = b * self.bs + off
        buf[:] = self.data[a:a + len(buf)]
    def writeblocks(self, b, buf, off=0):
        a = b * self.bs + off
        if self.dead:
            return
        if self._op():
            h = len(buf) // 2  # the program that was under way when the power went
            self.data[a:a + h] = buf[:h]
            return
        self.data[a:a + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.bs
        if op == 5:
            return self.bs
        if op == 6:
            if self.dead or self._op():
                return 0
            a = arg * self.bs
            self.data[a:a + self.bs] = b"\xff" * self.bs
            return 0

OLD, NEW = $TEXTS
n = 0

def mount(data):
    global n
    n += 1
    fl = RAMFlash(data)
    os.mount(os.VfsLfs2(fl), "/f%d" % n)
    return fl, "/f%d" % n

fl = RAMFlash(b"\xff" * (256 * 48))
os.VfsLfs2.mkfs(fl)
fl, root = mount(fl.data)
Store(root).write_atomic("game.json", OLD)
image = bytes(fl.data)
os.umount(root)
k = 0
while True:
    fl, root = mount(image)
    fl.left = k
    Store(root).write_atomic("game.json", NEW)
    done = not fl.dead
    after = bytes(fl.data)
    try:
        os.umount(root)
    except Exception:
        pass
    fl, root = mount(after)
    text, msg, unread = storeread.read(Store(root), "game.json")
    print(k, "old" if text == OLD else "new" if text == NEW else repr(text), msg)
    os.umount(root)
    if done:
        break
    k += 1
"""


def test_power_cut_at_every_block_write_on_real_littlefs(tmp_path):
    # a few blocks long, as a real game file is
    old = '{"pad":"%s","save":%s}' % ("o" * 700, OLD)
    new = '{"pad":"%s","save":%s}' % ("n" * 900, NEW)
    script = tmp_path / "lfs_cut.py"
    # in the script's text: this micropython binary crashes on long command-line arguments
    script.write_text(LFS_SCRIPT.replace("$TEXTS", "%r, %r" % (old, new)))
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=1M", str(script)],
                       env=dict(os.environ, MICROPYPATH=ROOT), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    lines = [ln.split(" ", 2) for ln in r.stdout.splitlines()]
    assert len(lines) > 5  # the save took several block operations, each one cut
    for k, what, msg in lines:
        assert what in ("old", "new"), (k, what)
        assert msg == "None", (k, msg)
    # before the rename is committed the old save stands; the last line is the save finishing
    assert lines[0][1] == "old" and lines[-1][1] == "new"
