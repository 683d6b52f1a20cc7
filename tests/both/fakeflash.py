# A flash in RAM for the tests of the store and everything above it: files in a dict of
# bytes, a power cut at any step of a save (PowerCut), littlefs-like or FAT-like. A module
# of its own, so a test that only needs a flash does not carry test_store's tests on the
# MicroPython test heap.


class PowerCut(BaseException):
    """The power went at this step. Not an Exception: nothing in the store may catch it."""


class FakeFlash:
    """Files in a dict of bytes. Writes of a new file reach the flash at once (worse than
    littlefs, which drops an unclosed file), in two halves, and a cut in the middle of a
    write leaves the rest as erased flash (0xFF) when erased=True, as on FAT. An append
    (mode "ab") is committed whole when the file is closed, as littlefs does; on FAT
    (fat=True) it reaches the flash at once, so a cut can leave a torn last line."""

    def __init__(self, files=None, fat=False, erased=False, room=None):
        self.files = dict(files or {})
        self.dirs = set()
        self.fat = fat
        self.erased = erased
        self.room = room     # bytes the files may take in all (None: no limit)
        self.cut_at = -1
        self.steps = 0
        self.done = []  # what each step was, for a failure message

    def step(self, what):
        if self.steps == self.cut_at:
            raise PowerCut(what)
        self.steps += 1
        if len(self.done) < 12:   # the first steps, for a failure message (RAM: MicroPython)
            self.done.append(what)

    def power_on(self):
        self.cut_at = -1
        self.steps = 0
        self.done = []

    # the os functions the store uses
    def stat(self, p):
        if p in self.files:
            return (0o100000, 0, 0, 0, 0, 0, len(self.files[p]), 0, 0, 0)
        if p in self.dirs:
            return (0o040000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)

    def listdir(self, d):
        """The folder's names in littlefs's order, by name (history.10.json before
        history.2.json), never the order they were made in: code that wants an order
        sorts what it lists. (FAT lists its folder's slots in order, a freed slot taken
        by the next file made: not the order they were made in either.)"""
        d = d.rstrip("/") + "/"
        names = [p[len(d):] for p in self.files if p.startswith(d) and "/" not in p[len(d):]]
        names.sort()
        return names

    def mkdir(self, p):
        self.step("mkdir " + p)
        self.dirs.add(p)

    def remove(self, p):
        if p not in self.files:
            raise OSError(2)
        self.step("remove " + p)
        del self.files[p]

    def rename(self, a, b):
        if a not in self.files:
            raise OSError(2)
        if self.fat and b in self.files:
            self.step("rename refused " + b)
            raise OSError(17)  # EEXIST
        self.step("rename %s %s" % (a, b))
        self.files[b] = self.files.pop(a)

    def open(self, p, mode="r"):
        if "r" in mode:
            if p not in self.files:
                raise OSError(2)
            return Reader(self.files[p])
        self.step("open " + p)
        if "a" in mode:
            if not self.fat:
                return _Append(self, p)
            self.files[p] = bytearray(self.files.get(p, b""))
            return self.writer(p)
        self.files[p] = bytearray()
        return self.writer(p)

    def writer(self, p):
        return _Writer(self, p)

    def take(self, n):
        """n more bytes are written: OSError 28 (ENOSPC) when they do not fit in room."""
        if self.room is not None and sum(len(v) for v in self.files.values()) + n > self.room:
            raise OSError(28)


class Reader:
    """A file open for reading: what the store and its readers call."""

    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0

    def read(self, n=-1):
        d = self.data
        end = len(d) if n is None or n < 0 else min(len(d), self.pos + n)
        out = d[self.pos:end]
        self.pos = end
        return out

    def readinto(self, buf):
        b = self.read(len(buf))
        buf[:len(b)] = b
        return len(b)

    def readline(self, limit=-1):
        d = self.data
        end = d.find(b"\n", self.pos)
        end = len(d) if end < 0 else end + 1
        if limit is not None and limit >= 0:
            end = min(end, self.pos + limit)
        out = d[self.pos:end]
        self.pos = end
        return out

    def seek(self, pos, whence=0):
        self.pos = pos if whence == 0 else (self.pos + pos if whence == 1 else len(self.data) + pos)
        return self.pos

    def tell(self):
        return self.pos

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, p):
        self.fs = fs
        self.p = p

    def write(self, data):
        fs = self.fs
        fs.take(len(data))
        buf = fs.files[self.p]
        half = len(data) // 2
        fs.step("write first half")
        buf.extend(data[:half])
        try:
            fs.step("write rest")
        except PowerCut:
            if fs.erased:
                buf.extend(b"\xff" * (len(data) - half))
            raise
        buf.extend(data[half:])
        return len(data)

    def close(self):
        self.fs.step("close")


class _Append:
    """littlefs: what is appended is on the flash once the file is closed, not before."""

    def __init__(self, fs, p):
        self.fs = fs
        self.p = p
        self.buf = bytearray()

    def write(self, data):
        self.fs.step("append")
        self.fs.take(len(self.buf) + len(data))
        self.buf.extend(data)
        return len(data)

    def close(self):
        fs = self.fs
        fs.step("close (commit)")
        # one new block for the file (a 112K MicroPython heap holds the test's saves)
        fs.files[self.p] = b"".join((fs.files.get(self.p, b""), self.buf))
