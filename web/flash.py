# The browser's flash as the device's store sees it: the os module and open function that
# firmware/files/store.py takes (Store(root, os_mod, open_fn)), as a board's littlefs behaves.
# The files are read from the port's in-memory filesystem, which holds what the browser
# keeps; every change is handed to the page's storage (web/worker.mjs, then web/flash.mjs)
# when it is made, and one the browser refused is an OSError here (ENOSPC for want of room,
# EIO for a failure), with the file left exactly as it was, as a full flash leaves it. So
# the device's own handling of a full flash (room made in the history, or "Could not save")
# is what a refused write meets, and nothing is ever reported saved that was not kept.
#
# A file written is committed when it is closed, whole (an append included: littlefs
# commits an append at close, or not at all): MicroPython does not report an error from
# closing a file of its own, so the commit is made here, and raised here.
import os

import pagejs      # the worker's functions (web/worker.mjs registerJsModule)

stat = os.stat
listdir = os.listdir
ilistdir = os.ilistdir
mkdir = os.mkdir


class Written:
    """A file of the flash open for writing: its bytes go to the in-memory copy as they
    come, and to the browser's storage in one step when it is closed."""

    def __init__(self, path, mode):
        self.path = path
        self.at = -1            # an append: where it starts (what is kept before it)
        if "a" in mode:
            try:
                self.at = os.stat(path)[6]
            except OSError:
                self.at = 0
        self.f = open(path, mode)

    def write(self, b):
        return self.f.write(b)

    def flush(self):
        pass

    def close(self):
        f = self.f
        if f is None:
            return
        self.f = None
        f.close()
        err = pagejs.commit(self.path, self.at)
        if err:
            raise OSError(err)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_file(path, mode="rb"):
    if "w" in mode or "a" in mode or "+" in mode:
        return Written(path, mode)
    return open(path, mode)


def rename(src, dst):
    err = pagejs.rename(src, dst)
    if err:
        raise OSError(err)


def remove(path):
    err = pagejs.remove(path)
    if err:
        raise OSError(err)


def statvfs(path):
    """As a littlefs answers: 512-byte blocks, f_bavail those the device may still use."""
    total = pagejs.room_total()
    free = pagejs.room_free()
    return (512, 512, total // 512, free // 512, free // 512, 0, 0, 0, 0, 255)
