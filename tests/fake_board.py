"""A stand-in board on a pseudo-terminal: it speaks MicroPython's REPL protocol as a board
does, so mpremote's real serial code runs against it (`host_sim pull --port PORT`).

    board = FakeBoard({"game.json": b"..."}, mode="healthy")
    ... connect to board.port ...
    board.close()

What it answers, with the bytes MicroPython's REPL sends at each step (its pyexec):
- while its "app" runs, only Ctrl-C: the app stops with a KeyboardInterrupt and the
  friendly REPL's banner and ">>> " follow;
- friendly REPL: Ctrl-A enters the raw REPL ("raw REPL; CTRL-B to exit\\r\\n>"), Ctrl-D
  soft-reboots and runs the app again (main.py), Enter gives a new ">>> ";
- raw REPL: code up to Ctrl-D is answered "OK", its output, "\\x04", its error, "\\x04",
  then the next ">"; raw-paste mode ("\\x05A\\x01" -> "R\\x01" + window + "\\x01", "\\x01" for
  each window taken, "\\x04" to acknowledge the end), or "R\\x00" to refuse it; Ctrl-D on an
  empty line soft-reboots without running the app; Ctrl-B goes back to the friendly REPL.
The code is run by CPython's exec in one namespace kept between commands (mpremote keeps
`f` and `r` there across commands), with `os` and `open` over a dict of files, `machine`
with a real-time clock (.rtc: what it was set to) and print captured. Writing is not possible (every attempt is recorded in .writes and fails) unless
the board is made writable: then open(.., "wb"), os.rename and os.remove change .files as
littlefs does (a rename replaces the file it lands on), every change still recorded in
.writes; full=True makes a write fail as a full flash does (ENOSPC, the file half there).

Modes, for the failures pull must survive:
  healthy   a board running the app
  busy      never answers (a program that ignores Ctrl-C, a hung board)
  garbage   answers noise, never the REPL's prompts (not MicroPython, wrong speed...)
  garbled   gives the raw REPL, then answers commands with noise
  stop      stops answering for good once stop_after bytes of file contents were sent,
            in the middle of that answer
  unplug    as stop, but the line goes away (the master side closes: EIO on the PC)
  lowmem    every command fails with MemoryError until a soft reset frees the heap
  short     its listing gives each file 10 bytes more than a read returns
"""
import builtins
import errno
import io
import os
import select
import struct
import threading
import tty

BANNER = b"MicroPython v1.26.0 on 2025-08-09; Raspberry Pi Pico with RP2040\r\nType \"help()\" for more information.\r\n"
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
NOISE = b"\xfe\x80$GPGGA,1234*5\xff\x00garbage\r\n"

_ERRNAMES = {errno.ENOENT: "ENOENT", errno.EROFS: "EROFS", errno.EIO: "EIO", errno.ENOTDIR: "ENOTDIR",
             errno.ENOSPC: "ENOSPC"}


class _BoardError(Exception):
    """An exception raised by the board's code, shown as MicroPython shows it."""


class FakeBoard:
    def __init__(self, files, mode="healthy", stop_after=0, raw_paste=True, window=32,
                 dirs=("firmware", "lib"), writable=False, full=False, clock=True):
        """files: {name in the root: bytes}. dirs: folders in the root (listed, never read).
        clock: it has machine.RTC (False: a port without the machine module)."""
        self.files = dict(files)
        self.clock = clock
        self.writable = writable
        self.full = full
        self.dirs = tuple(dirs)
        self.mode = mode
        self.stop_after = stop_after
        self.raw_paste = raw_paste
        self.window = window
        self.state = "friendly" if mode == "busy" else "app"
        self.rtc = None              # the date and time machine.RTC().datetime() was set to
        self.app_starts = 0          # times the app was started again by a soft reboot
        self.soft_resets = 0         # soft reboots of any kind
        self.writes = []             # every attempt to change the flash
        self.commands = []           # the code received, in order
        self.served = 0              # bytes of file contents sent
        self.dead = False
        self._heap_ok = mode != "lowmem"
        self._ns = None
        self._line = b""             # a raw REPL command being received
        self._paste = None           # bytes received in raw-paste mode, or None
        self._paste_count = 0
        self._esc = b""              # the start of a "\x05A\x01" raw-paste request
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)      # no echo, no line editing: a serial line
        self.port = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # --- the line --------------------------------------------------------------------------
    def close(self):
        self._stop.set()
        self._thread.join(5)
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def _send(self, data):
        if self.dead or not data:
            return
        try:
            os.write(self.master, data)
        except OSError:
            self.dead = True

    def _serve(self):
        while not self._stop.is_set():
            if self.master < 0:
                return
            try:
                r, _, _ = select.select([self.master], [], [], 0.05)
            except (OSError, ValueError):
                return
            if not r:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                continue        # no one has the port open just now
            if self.dead or self.mode == "busy":
                continue
            if self.mode == "garbage":
                self._send(NOISE)
                continue
            for i in range(len(data)):
                self._byte(data[i:i + 1])
                if self.dead:
                    break

    # --- the REPL states ---------------------------------------------------------------------
    def _byte(self, b):
        st = self.state
        if st == "app":
            if b == b"\x03":
                self._send(b"Traceback (most recent call last):\r\n  File \"main.py\", line 4, in <module>\r\n"
                           b"KeyboardInterrupt: \r\n" + BANNER + b">>> ")
                self.state = "friendly"
            return
        if st == "friendly":
            if b == b"\x01":
                self._send(b"\r\n" + RAW_PROMPT)
                self.state = "raw"
                self._line = b""
            elif b == b"\x04":
                self._soft_reboot(run_app=True)
            elif b in (b"\r", b"\x03"):
                self._send(b"\r\n>>> ")
            return
        if self._paste is not None:
            self._paste_byte(b)
            return
        # raw REPL
        if self._esc or (b == b"\x05" and not self._line):
            self._esc += b
            if self._esc == b"\x05A\x01":
                self._esc = b""
                if self.raw_paste:
                    # the window size, then "\x01": room for two windows to begin with
                    self._send(b"R\x01" + struct.pack("<H", self.window) + b"\x01")
                    self._paste = b""
                    self._paste_count = 0
                else:
                    self._send(b"R\x00")
            elif not b"\x05A\x01".startswith(self._esc):
                self._esc = b""
            return
        if b == b"\x01":
            self._send(b"\r\n" + RAW_PROMPT)
            self._line = b""
        elif b == b"\x02":
            self._send(b"\r\n" + BANNER + b">>> ")
            self.state = "friendly"
        elif b == b"\x03":
            self._line = b""
        elif b == b"\x04":
            if not self._line:
                self._send(b"OK\r\n")
                self._soft_reboot(run_app=False)
                return
            code, self._line = self._line, b""
            self._send(b"OK")
            self._run(code)
        else:
            self._line += b

    def _paste_byte(self, b):
        if b == b"\x04":
            code, self._paste = self._paste, None
            self._send(b"\x04")
            self._run(code)
            return
        self._paste += b
        self._paste_count += 1
        if self._paste_count == self.window:
            self._paste_count = 0
            self._send(b"\x01")     # room for one more window

    def _soft_reboot(self, run_app):
        self.soft_resets += 1
        self._ns = None
        self._heap_ok = True
        self._send(b"MPY: soft reboot\r\n")
        if run_app:
            self.app_starts += 1
            self.state = "app"
        else:
            self.state = "raw"
            self._send(RAW_PROMPT)

    # --- running the code mpremote sends -------------------------------------------------------
    def _run(self, code):
        text = code.decode("utf-8", "replace")
        self.commands.append(text)
        if self.mode == "garbled":
            self._send(NOISE + b"\x04\x04>")
            return
        out = io.StringIO()
        err = b""
        if not self._heap_ok:
            err = b"Traceback (most recent call last):\r\n  File \"<stdin>\", line 1\r\nMemoryError: memory allocation failed, allocating 256 bytes\r\n"
        else:
            ns = self._namespace(out)
            served = self.served
            try:
                exec(compile(text, "<stdin>", "exec"), ns)
            except _BoardError as e:
                err = _traceback(e.args[0])
            except OSError as e:
                err = _traceback("OSError: [Errno %d] %s" % (e.errno, _ERRNAMES.get(e.errno, "EIO")))
            except Exception as e:
                err = _traceback("%s: %s" % (type(e).__name__, e))
            reply = out.getvalue().replace("\n", "\r\n").encode()
            if self.mode in ("stop", "unplug") and self.served >= self.stop_after > served:
                # the line dies in the middle of this answer
                self._send(reply[:len(reply) // 2])
                self.dead = True
                if self.mode == "unplug":
                    os.close(self.master)
                    self.master = -1
                return
            self._send(reply)
        self._send(b"\x04" + err + b"\x04>")

    def _namespace(self, out):
        if self._ns is not None:
            self._ns["__builtins__"]["print"].out = out
            return self._ns
        board = self
        fake_os = _FakeOs(board)

        fake_machine = _FakeMachine(board)

        def imp(name, globals=None, locals=None, fromlist=(), level=0):
            if name == "os":
                return fake_os
            if name == "machine" and board.clock:
                return fake_machine
            raise _BoardError("ImportError: no module named '%s'" % name)

        class Print:
            def __call__(self, *args, sep=" ", end="\n"):
                self.out.write(sep.join(str(a) for a in args) + end)
        pr = Print()
        pr.out = out
        b = dict(vars(builtins))
        b.update({"__import__": imp, "print": pr, "open": lambda p, mode="r": _open(board, p, mode)})
        self._ns = {"__builtins__": b, "__name__": "__main__"}
        return self._ns


class _FakeMachine:
    """The board's machine module as far as its real-time clock: RTC().datetime(t) sets it
    (recorded in board.rtc, as the 8-tuple MicroPython takes), datetime() reads it."""

    def __init__(self, board):
        self._board = board

    def RTC(self):
        board = self._board

        class Rtc:
            def datetime(self, t=None):
                if t is None:
                    return board.rtc or (2021, 1, 1, 4, 0, 0, 0, 0)
                if len(t) != 8 or not all(isinstance(x, int) for x in t):
                    raise _BoardError("TypeError: the RTC takes 8 whole numbers")
                board.rtc = tuple(t)
        return Rtc()


def _traceback(last):
    return b"Traceback (most recent call last):\r\n  File \"<stdin>\", line 1, in <module>\r\n" + last.encode() + b"\r\n"


def _name(path):
    p = path.lstrip("/")
    if "/" in p:
        raise OSError(errno.ENOENT, path)
    return p


class _CountingFile(io.BytesIO):
    def __init__(self, board, data):
        io.BytesIO.__init__(self, data)
        self.board = board

    def read(self, n=-1):
        b = io.BytesIO.read(self, n)
        self.board.served += len(b)
        return b


class _WriteFile(io.BytesIO):
    """A file opened for writing on a writable board: in .files from the open on, its
    bytes there as they are written (a full flash takes half of a write, then fails)."""

    def __init__(self, board, name):
        io.BytesIO.__init__(self)
        self.board = board
        self.name = name
        board.files[name] = b""

    def write(self, b):
        if self.board.full:
            io.BytesIO.write(self, b[:len(b) // 2])
            self.board.files[self.name] = self.getvalue()
            raise OSError(errno.ENOSPC, self.name)
        n = io.BytesIO.write(self, b)
        self.board.files[self.name] = self.getvalue()
        return n


def _open(board, path, mode):
    if any(c in mode for c in "wax+"):
        board.writes.append(("open", path, mode))
        if not board.writable or "w" not in mode:
            raise OSError(errno.EROFS, path)
        f = _WriteFile(board, _name(path))
        return f if "b" in mode else io.TextIOWrapper(f)
    name = _name(path)
    if name not in board.files:
        raise OSError(errno.ENOENT, path)
    f = _CountingFile(board, board.files[name])
    return f if "b" in mode else io.TextIOWrapper(f)


class _FakeOs:
    """The part of MicroPython's os that reads; the rest records the attempt and fails."""

    def __init__(self, board):
        self._board = board

    def ilistdir(self, path="/"):
        if path not in ("", "/", "."):
            raise OSError(errno.ENOENT, path)
        for d in self._board.dirs:
            yield (d, 0x4000, 0, 0)
        for name in sorted(self._board.files):
            extra = 10 if self._board.mode == "short" else 0
            yield (name, 0x8000, 0, len(self._board.files[name]) + extra)

    def listdir(self, path="/"):
        return [e[0] for e in self.ilistdir(path)]

    def stat(self, path):
        name = _name(path)
        if name in self._board.dirs or name == "":
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if name not in self._board.files:
            raise OSError(errno.ENOENT, path)
        return (0x8000, 0, 0, 0, 0, 0, len(self._board.files[name]), 0, 0, 0)

    def remove(self, path):
        self._board.writes.append(("remove", path))
        if not self._board.writable:
            raise OSError(errno.EROFS, "remove")
        name = _name(path)
        if name not in self._board.files:
            raise OSError(errno.ENOENT, path)
        del self._board.files[name]

    def rename(self, src, dst):
        self._board.writes.append(("rename", src, dst))
        if not self._board.writable:
            raise OSError(errno.EROFS, "rename")
        a, b = _name(src), _name(dst)
        if a not in self._board.files:
            raise OSError(errno.ENOENT, src)
        self._board.files[b] = self._board.files.pop(a)

    def __getattr__(self, name):
        if name in ("mkdir", "rmdir", "unlink", "chdir", "mount", "umount", "sync"):
            def refuse(*args):
                self._board.writes.append((name,) + args)
                raise OSError(errno.EROFS, name)
            return refuse
        raise AttributeError(name)
