# Power cuts at block level, on the filesystems MicroPython itself puts on a board's flash
# (issue 15): the real littlefs (os.VfsLfs2, and littlefs-python's copy of the same C code
# on CPython) and MicroPython's FAT (os.VfsFat), on a RAM flash that behaves as the NOR flash
# of an RP2040 or an ESP32 and loses power in the middle of one of its erases or programs.
# Every save goes through the device's own code (Session, endgame.end_game, endgame.abandon);
# after each cut the image the flash holds is mounted again and the device's start-up
# reading code runs on it, twice.
#
# Runs under both runtimes. On MicroPython it is a script (tests/test_blockcut.py runs it
# with the micropython binary):
#   micropython tests/blockflash.py FS [every=N] [modes=torn,clean] [prog=N] [long=1] [upto=N] KIND/ACTION ...
# FS is lfs or fat; what it prints: main().
import os
import sys

from firmware.files.store import Store
from firmware.game.session import Session
from firmware.game import endgame
from firmware.files import roster
from engine_mpy import savefile
from powercut import GAMES

MPY = sys.implementation.name == "micropython"

# The erase block of the flash filesystem on the boards this device runs on: rp2.Flash and
# esp32.Partition both report 4096 (ioctl 5), and littlefs and FAT use it as their block or
# sector size there.
BLOCK = 4096
LFS_BLOCKS = 32     # 128 KB: room for every file and their copies (a board has 1 MB or more)
FAT_BLOCKS = 64     # 256 KB: about the smallest FAT MicroPython's mkfs makes of 4 KB sectors
# littlefs as MicroPython configures it (extmod/vfs_lfs.c): read and program size 32 (the
# ESP32's VfsLfs2 default; an RP2040 mounts with progsize=256: prog=256), a cache of
# 4 x max(read, prog) bytes, lookahead 32, block_cycles 100.
READ = 32
LOOKAHEAD = 32
CYCLES = 100

ACTIONS = ("start", "add", "undo", "replace", "finish", "abandon")
KINDS = ("classic", "masters", "twist", "dice")
# A correction of the first hand (turn) that the engine accepts, per kind.
ALT = {"classic": {"out": 0, "left": [None, [3, 0, 0, 0]]},
       "masters": {"out": 1, "left": [[10, 0, 0, 0], None], "phase": [0, 1]},
       "twist": {"out": 1, "left": [10, None]},
       "dice": {"player": 0, "faces": "1111111111"}}
LONG_KINDS = ("classic", "dice")   # the kinds whose two first records can follow each other for ever
FIRST = ["Ann", "Cid"]   # the players of the game finished before each action: a roster and a history to lose


def game_of(kind):
    for g in GAMES:
        if g[0] == kind:
            return g
    raise ValueError(kind)


class NorFlash:
    """A NOR flash in RAM with 4 KB erase blocks, as MicroPython's block-device protocol
    sees it (readblocks/writeblocks/ioctl, the extended form littlefs uses) and as
    littlefs-python's context does (read/prog/erase). An erase sets a block to 0xFF; a
    program can only clear bits (new = old AND data); writeblocks without an offset erases
    the blocks and then programs them, as rp2.Flash and esp32.Partition do (FAT uses it).

    cut_at = k: the power goes during the k-th erase or program (from 0). mode "torn": that
    operation is half done. A program is done in order, page after page, so half the bytes
    are programmed and the rest are still erased. An erase acts on the whole block at once
    and a cut leaves its cells part way: each byte has some of its 0 bits back at 1 (a
    pseudo-random mix), so the block holds neither the old data nor an erased block.
    mode "clean": the power goes just before the k-th operation starts.
    What the flash holds at that moment is kept in .image; the device goes on running on
    the flash as if nothing happened (what it does after the cut never reaches the flash,
    and this way it cannot fail differently: littlefs' C code cannot take an exception)."""

    def __init__(self, data, bs=BLOCK):
        self.bs = bs
        self.data = bytearray(data)
        self.ops = 0
        self.erases = 0
        self.cut_at = -1
        self.mode = "torn"
        self.image = None
        self.cut = None     # ("erase" or "prog", block) of the operation cut

    def _cut(self, block, off, buf):
        # buf None: an erase of block. Returns nothing; keeps .image when this is the cut.
        k = self.ops
        self.ops += 1
        if k != self.cut_at:
            return
        self.cut = ("erase" if buf is None else "prog", block)
        img = bytearray(self.data)
        if self.mode == "torn":
            a = block * self.bs + off
            if buf is None:
                x = (k * 2654435761 + 12345) & 0xFFFFFFFF or 1
                for i in range(a, a + self.bs):
                    x ^= (x << 13) & 0xFFFFFFFF
                    x ^= x >> 17
                    x ^= (x << 5) & 0xFFFFFFFF
                    img[i] |= x & 0xFF
            else:
                for i in range(len(buf) // 2):
                    img[a + i] &= buf[i]
        self.image = bytes(img)

    # --- the flash operations ---------------------------------------------------------------
    def erase(self, block):
        self._cut(block, 0, None)
        self.erases += 1
        a = block * self.bs
        self.data[a:a + self.bs] = b"\xff" * self.bs
        return 0

    def prog(self, block, off, buf):
        self._cut(block, off, buf)
        a = block * self.bs + off
        d = self.data
        for i in range(len(buf)):
            d[a + i] &= buf[i]
        return 0

    # --- MicroPython's block-device protocol -------------------------------------------------
    def readblocks(self, block, buf, off=0):
        a = block * self.bs + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:   # FAT: erase, then program, block after block
            for i in range(len(buf) // self.bs):
                self.erase(block + i)
                self.prog(block + i, 0, memoryview(buf)[i * self.bs:(i + 1) * self.bs])
            return
        self.prog(block, off, buf)

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.bs
        if op == 5:
            return self.bs
        if op == 6:
            return self.erase(arg)
        return 0

    # --- littlefs-python's context -----------------------------------------------------------
    def read(self, cfg, block, off, size):
        a = block * self.bs + off
        return self.data[a:a + size]


# --- what the device finds at its next start ------------------------------------------------
def observe(store, listdir):
    """What a start finds on the flash: the running game (its save as text, or None), the
    roster, the finished games, every message the start would show, and the files left.
    THE one place that knows how the saves are read: adapt it when the formats change."""
    s = Session(store)
    g = s.load()
    game = None if g is None else savefile.dumps(g)
    g = None
    rows, rmsg, unread = roster.load(store)
    from firmware.history import histbrowse
    said = []
    b, msg, unread = histbrowse.read(store, said)
    if unread:
        said.append(msg)
    hist = [b.game(i) for i in range(b.count)] if b else None
    hist = hist or None
    return (game, s.message, rows, rmsg, hist, " ".join(said) or None, sorted(listdir()))


def lost_everything(seen):
    """What observe() saw: no game, no roster and no history (finding 6 on FAT)."""
    return len(seen) == 7 and seen[0] is None and not seen[2] and not seen[4]


def silent(seen):
    """What observe() saw: the start had nothing to say about any file."""
    return len(seen) == 7 and seen[1] is None and seen[3] is None and seen[5] is None


class App:
    """What endgame.end_game()/abandon() use of the app: its store and session."""

    def __init__(self, store):
        self.store = store
        self.session = Session(store)
        self.session.load()


def started(store, tag):
    """A Session whose new game's id is tag's (the same on every run: the runs compared
    start the same games)."""
    s = Session(store)
    s.urandom = lambda n: bytes([tag]) * n
    return s


def act(store, kind, action):
    """One action of the device on a game of kind, through the code the screens call."""
    k, settings, records, rec = game_of(kind)
    if action == "start":
        return started(store, 0xC3).start(k, settings)
    if action == "add":
        s = Session(store)
        s.load()
        return s.commit("add", rec)
    if action == "undo":
        s = Session(store)
        s.load()
        return s.commit("undo")
    if action == "replace":
        s = Session(store)
        s.load()
        return s.commit("replace", 0, ALT[kind])
    if action == "finish":
        return endgame.end_game(App(store))
    if action == "abandon":
        return endgame.abandon(App(store))
    raise ValueError(action)


def setup(store, kind, action, long=False):
    """The flash before the action: a finished game (a roster and a history), and for every
    action but start a game of kind running with one hand (turn) played; long: a long
    game (a save of several blocks' programs, not inline in littlefs' directory)."""
    assert started(store, 0xA1).start("classic", {"players": FIRST, "dealer": 0}) is None
    app = App(store)
    assert app.session.commit("add", {"out": 0, "left": [None, [10, 0, 0, 0]]}) is None
    assert endgame.end_game(app) is None
    if action == "start":
        return
    k, settings, records, rec = game_of(kind)
    s = started(store, 0xB2)
    assert s.start(k, settings) is None
    for r in records:
        assert s.commit("add", r) is None
    if long:
        if kind not in LONG_KINDS:
            raise ValueError("no long game of " + kind)
        for i in range(8):
            assert s.commit("add", rec) is None
            assert s.commit("add", records[0]) is None


def older(store, i):
    """One save more before the action (a player renamed, and back the next time): the
    action meets littlefs' directory log one step fuller."""
    assert roster.rename(store, 0, FIRST[0] if i % 2 else "Amy") is None


# --- the filesystems ----------------------------------------------------------------------
class Mounted:
    def __init__(self, store, listdir, close):
        self.store = store
        self.listdir = listdir
        self.close = close


class MpyFs:
    """MicroPython's own littlefs (lfs) or FAT (fat), mounted in the VFS."""
    n = 0

    def __init__(self, kind, prog=32):
        self.kind = kind
        self.prog = prog
        self.blocks = LFS_BLOCKS if kind == "lfs" else FAT_BLOCKS

    def _vfs(self, flash):
        if self.kind == "fat":
            return os.VfsFat(flash)
        return os.VfsLfs2(flash, readsize=READ, progsize=self.prog, lookahead=LOOKAHEAD)

    def mkfs(self, flash):
        if self.kind == "fat":
            os.VfsFat.mkfs(flash)
        else:
            os.VfsLfs2.mkfs(flash, readsize=READ, progsize=self.prog, lookahead=LOOKAHEAD)

    def mount(self, flash):
        MpyFs.n += 1
        root = "/blk%d" % MpyFs.n
        os.mount(self._vfs(flash), root)

        def close():
            os.umount(root)
        # names as bytes: a torn FAT directory holds names that are not text
        return Mounted(Store(root), lambda: os.listdir(root.encode()), close)


class PyLfs:
    """CPython: littlefs-python (the littlefs C code) on the same flash, configured as
    MicroPython configures it, with Store's os and open over it."""

    kind = "lfs"

    def __init__(self, prog=32, cycles=CYCLES, metadata_max=0):
        import littlefs
        self.littlefs = littlefs
        self.prog = prog
        self.cycles = cycles
        self.metadata_max = metadata_max
        self.blocks = LFS_BLOCKS

    def _fs(self, flash):
        lf = self.littlefs
        cache = min(BLOCK, 4 * max(READ, self.prog))
        return lf.LittleFS(context=_Context(flash), mount=False, block_size=BLOCK,
                           block_count=self.blocks, read_size=READ, prog_size=self.prog,
                           cache_size=cache, lookahead_size=LOOKAHEAD, block_cycles=self.cycles,
                           metadata_max=self.metadata_max)

    def mkfs(self, flash):
        self._fs(flash).format()

    def mount(self, flash):
        fs = self._fs(flash)
        _lfs_call(fs.mount)    # never format a flash that does not mount (LittleFS(mount=True) would)
        osm = LfsOs(fs)
        return Mounted(Store("/", osm, osm.open), lambda: osm.listdir("/"), fs.unmount)


class _Context:
    """littlefs-python's user context: the flash's read/prog/erase."""

    def __init__(self, flash):
        self.flash = flash

    def read(self, cfg, block, off, size):
        return self.flash.read(cfg, block, off, size)

    def prog(self, cfg, block, off, data):
        return self.flash.prog(block, off, data)

    def erase(self, cfg, block):
        return self.flash.erase(block)

    def sync(self, cfg):
        return 0


def _lfs_call(fn, *args):
    # littlefs-python raises LittleFSError (not an OSError) with a negative errno: the
    # store expects OSError(errno), as MicroPython's VfsLfs2 raises.
    from littlefs import LittleFSError
    try:
        return fn(*args)
    except LittleFSError as e:
        raise OSError(-e.code, str(e))


class LfsOs:
    """The os functions and open() the store uses, on a littlefs-python filesystem."""

    def __init__(self, fs):
        self.fs = fs

    def stat(self, p):
        st = _lfs_call(self.fs.stat, p)
        return (0o040000 if st.type == 2 else 0o100000, 0, 0, 0, 0, 0, st.size, 0, 0, 0)

    def listdir(self, p="/"):
        return _lfs_call(self.fs.listdir, p)

    def ilistdir(self, p="/"):
        return [(n, 0x4000 if self.fs.stat(p.rstrip("/") + "/" + n).type == 2 else 0x8000, 0)
                for n in self.listdir(p)]

    def mkdir(self, p):
        return _lfs_call(self.fs.mkdir, p)

    def remove(self, p):
        return _lfs_call(self.fs.remove, p)

    unlink = remove

    def rename(self, a, b):
        return _lfs_call(self.fs.rename, a, b)

    def open(self, p, mode="r"):
        return _LfsFile(_lfs_call(self.fs.open, p, mode))


class _LfsFile:
    def __init__(self, f):
        self.f = f

    def __getattr__(self, name):
        fn = getattr(self.f, name)
        if not callable(fn):
            return fn
        return lambda *a: _lfs_call(fn, *a)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --- one job: every cut of one action ---------------------------------------------------------
def look(fs, image):
    """Mount image and start the device on it twice (a reboot between): (first, second).
    A flash that no longer mounts, or a start that raises, is a result too."""
    flash = NorFlash(image)
    out = []
    for i in range(2):
        try:
            m = fs.mount(flash)
        except Exception as e:
            out.append(("unmountable", repr(e)))
            continue
        try:
            out.append(observe(m.store, m.listdir))
        except Exception as e:
            out.append(("start failed", repr(e)))
        m.close()
    return out[0], out[1]


def images(fs, kind, action, long=False, upto=0):
    """The flash before the action, as (age, image): at age 0, and after each further save
    (older()) up to upto at which the action erases another number of blocks than at age
    0. littlefs' directory log fills with each save and, once full, is compacted into the
    other block of its pair (an erase); these are the ages at which that compaction comes
    in the middle of the action (at a different place for each), where a cut is the most
    likely to hurt. The images come one at a time (the MicroPython heap)."""
    flash = NorFlash(b"\xff" * (fs.blocks * BLOCK))
    fs.mkfs(flash)
    m = fs.mount(flash)
    setup(m.store, kind, action, long)
    m.close()
    first = None
    for age in range(upto + 1):
        image = bytes(flash.data)
        probe = NorFlash(image)
        m = fs.mount(probe)
        assert act(m.store, kind, action) is None
        m.close()
        if first is None:
            first = probe.erases
        if age == 0 or probe.erases != first:
            yield age, image
        probe = image = None
        if age < upto:
            m = fs.mount(flash)
            older(m.store, age)
            m.close()


def cut_all(fs, before, kind, action, every=1, modes=("torn",), report=None):
    """Cut the power at every every-th erase or program of action on the flash image
    before (and at the last one), in each of modes. report(k, mode, verdict, seen, flash)
    per cut; verdict is "old", "new" or "other". Returns (cuts tried, operations of the
    action, erases among them, verdicts counted)."""
    old = look(fs, before)[0]
    flash = NorFlash(before)
    m = fs.mount(flash)
    assert act(m.store, kind, action) is None
    m.close()
    ops = flash.ops
    erases = flash.erases
    new = look(fs, bytes(flash.data))[0]
    assert new != old, "the action changed nothing"
    ks = list(range(0, ops, every))
    if ops and ks[-1] != ops - 1:
        ks.append(ops - 1)
    counts = {"old": 0, "new": 0, "other": 0}
    tried = 0
    for k in ks:
        for mode in modes:
            flash = NorFlash(before)
            flash.cut_at = k
            flash.mode = mode
            m = fs.mount(flash)
            err = act(m.store, kind, action)
            m.close()
            assert err is None, err
            assert flash.image is not None
            first, second = look(fs, flash.image)
            if first == second and first == old:
                verdict = "old"
            elif first == second and first == new:
                verdict = "new"
            else:
                verdict = "other"
            counts[verdict] += 1
            tried += 1
            if report:
                report(k, mode, verdict, (first, second), flash)
    return tried, ops, erases, counts


def fat_layout(flash):
    """(first FAT sector, root directory's first sector, first data sector) from a FAT
    boot sector: the blocks a cut can hit."""
    b = flash.data
    ss = b[11] | b[12] << 8
    reserved = b[14] | b[15] << 8
    nfats = b[16]
    root_entries = b[17] | b[18] << 8
    fatsz = b[22] | b[23] << 8
    d = reserved + nfats * fatsz
    return reserved, d, d + (root_entries * 32 + ss - 1) // ss


def main(argv):
    """See the top of this file. Prints "layout FAT DIR DATA" (fat), then per cut
    "cut JOB AGE K MODE OP BLOCK VERDICT LOST SILENT [what the start found]" (only the
    cuts with another verdict than old or new unless verbose=1) and per job and age
    "ran JOB AGE CUTS OPS ERASES OLD NEW OTHER"."""
    fsname = argv[0]
    opts = {"every": "1", "modes": "torn", "prog": "32", "long": "0", "upto": "0", "verbose": "0"}
    jobs = []
    for a in argv[1:]:
        if "=" in a:
            k, v = a.split("=", 1)
            opts[k] = v
        else:
            jobs.append(a)
    fs = MpyFs(fsname, int(opts["prog"]))
    if fsname == "fat":
        flash = NorFlash(b"\xff" * (fs.blocks * BLOCK))
        fs.mkfs(flash)
        print("layout %d %d %d" % fat_layout(flash))
    modes = tuple(opts["modes"].split(","))
    verbose = opts["verbose"] == "1"
    for job in jobs:
        kind, action = job.split("/")
        for age, before in images(fs, kind, action, opts["long"] == "1", int(opts["upto"])):

            def report(k, mode, verdict, seen, flash):
                if verdict == "other" or verbose:
                    print("cut %s %d %d %s %s %d %s %d %d %r" % (
                        job, age, k, mode, flash.cut[0], flash.cut[1], verdict,
                        lost_everything(seen[0]), silent(seen[0]), seen[0]))
            tried, ops, erases, counts = cut_all(fs, before, kind, action, int(opts["every"]),
                                                 modes, report)
            before = None
            print("ran %s %d %d %d %d %d %d %d" % (job, age, tried, ops, erases, counts["old"],
                                                  counts["new"], counts["other"]))


if MPY and __name__ == "__main__":
    main(sys.argv[1:])
