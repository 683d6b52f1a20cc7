# The flash work of a save (make bench), on the micropython binary: MicroPython's own
# littlefs (os.VfsLfs2) mounted as an RP2040 mounts it (256-byte program pages, 4 KB erase
# sectors) on tests/blockflash.py's NOR flash, through the device's own saving code
# (firmware/game/session.py). A 6-player Classic game is started and played to 55 hands, a
# hand a commit as the table enters them; per commit this prints the bytes programmed and
# the sectors erased:
#   micropython tools/bench/bench_flash.py        (MICROPYPATH: build dir, its lib, tests/both, tests)
#   "save PROGRAMMED_BYTES ERASES" per hand, "start ..." for the game's first save
# tools/bench/bench.py turns them into milliseconds at stated flash timings.
from blockflash import NorFlash, MpyFs, BLOCK
from firmware.game.session import Session

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Flo"]
FAIL = [10, 0, 0, 0]


class Counting(NorFlash):
    def __init__(self, data):
        NorFlash.__init__(self, data)
        self.programmed = 0

    def prog(self, block, off, buf):
        self.programmed += len(buf)
        return NorFlash.prog(self, block, off, buf)


def main():
    fs = MpyFs("lfs", prog=256)
    flash = Counting(b"\xff" * (BLOCK * fs.blocks))
    fs.mkfs(flash)
    m = fs.mount(flash)
    s = Session(m.store)

    def mark(what, err):
        if err:
            raise SystemExit("%s refused: %s" % (what, err))
        print(what, flash.programmed, flash.erases)
        flash.programmed = 0
        flash.erases = 0

    flash.programmed = flash.erases = 0
    mark("start", s.start("classic", {"players": SIX, "dealer": 0}))
    for h in range(55):
        # in hand h player h % 6 goes out completing their phase, the others hold ten
        out = h % 6
        mark("save", s.commit("add", {"out": out, "left": [None if p == out else list(FAIL) for p in range(6)]}))
    m.close()


main()
