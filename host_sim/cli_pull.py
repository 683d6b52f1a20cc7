"""python -m host_sim pull [--port PORT] [--timeout SECONDS] [--no-restart] [DIR]

Copy the device's saved files off the board over USB into a new folder
DIR/board-YYYYMMDD-HHMMSS (DIR is the current folder unless given): the running game,
the finished games, the players, the settings, and any damaged copies the device set aside
(into bad/). Nothing is ever written to the board's files. The folder appears only once every file
was read whole: a board that stops answering halfway leaves DIR as it was. An earlier pull
is never overwritten (each pull gets its own folder).

What happens to the board: the app on it stops while its files are read (as Ctrl-C stops a
program): the screen keeps its last picture and the buttons do nothing. A hand being
entered and not yet committed is lost, as after a power cut; every committed hand is
already saved. Its clock is set to this PC's time (its files are not touched): the games
it starts from then on carry their date. Then the app is restarted (a soft reset, as the
reset button does, but the USB line stays up and the clock is kept): it opens the running
game again. With --no-restart the board stays at
the MicroPython prompt until its reset button is pressed or it is unplugged and plugged in.

Without --port the board is found among the USB serial ports by its USB ids (a Raspberry
Pi Pico, an Espressif chip's own USB, or a CP210x/CH340/CH9102/FTDI USB-serial bridge as
on ESP32 DevKitC boards); with several boards attached, choose one with --port.

A board that is absent, busy (answers nothing), or answers something other than
MicroPython: the reason on stderr, exit 2, nothing written.
"""
import contextlib
import fnmatch
import io
import json
import os
import shutil
import struct
import sys
import tempfile
import time

from host_sim import hostio

# What pull copies off the board: (pattern for a file name in the board's root, folder in
# the pull, what it is). A file goes by the first row that matches its name; files no row
# matches (the code, main.py) are not copied. Extend here: nothing else names the files.
FILES = (
    ("game.json", "", "the running game"),
    ("history*.json", "", "finished games"),
    ("roster.json", "", "the players"),
    ("settings.json", "", "the settings"),
    ("finish.json", "", "the journal of a game being finished"),
    ("board.json", "", "the board's pin choices"),
    ("wifi.json", "", "the network the table on phones joins (python -m host_sim wifi)"),
    ("*.json.bad[0-9]", "bad", "a damaged copy the device set aside (bad1 the oldest)"),
    ("*.json.tmp", "bad", "a save cut short (the device takes it back at start)"),
)
# The rows whose absence is worth saying (a new board has none of them).
EXPECTED = ("game.json", "history*.json", "roster.json", "settings.json")

# USB ids of the boards the device runs on: (vendor, product or None for any, what).
BOARD_USB_IDS = (
    (0x2E8A, None, "Raspberry Pi (Pico)"),
    (0x303A, None, "Espressif (ESP32 native USB)"),
    (0x10C4, 0xEA60, "CP210x USB-serial (ESP32 DevKitC)"),
    (0x1A86, 0x7523, "CH340 USB-serial"),
    (0x1A86, 0x55D4, "CH9102 USB-serial (ESP32 DevKitC V4)"),
    (0x0403, 0x6001, "FTDI USB-serial"),
)

MANIFEST = "pull.json"
CHUNK = 256          # bytes per read on the board: mpremote's own, small for a tight heap
TIMEOUT = 5.0        # seconds of silence before the board counts as not answering
EXIT_FAIL = 2


class PullError(Exception):
    """A reason the pull failed, in words for the player. app_stopped: the app on the
    board was stopped and not restarted."""

    def __init__(self, msg, app_stopped=False):
        Exception.__init__(self, msg)
        self.app_stopped = app_stopped


# --- finding the board ------------------------------------------------------------------------
def _usb_kind(port):
    vid, pid = getattr(port, "vid", None), getattr(port, "pid", None)
    for v, p, what in BOARD_USB_IDS:
        if vid == v and (p is None or pid == p):
            return what
    return None


def find_port(ports=None):
    """The one attached board's serial port. ports: serial.tools.list_ports.comports()."""
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    ports = sorted(ports, key=lambda p: p.device)
    boards = [(p, _usb_kind(p)) for p in ports if _usb_kind(p)]
    if len(boards) == 1:
        return boards[0][0].device
    if boards:
        raise PullError("several boards are attached; choose one with --port: " + "; ".join(
            "%s (%s%s)" % (p.device, what, ", serial number %s" % p.serial_number if p.serial_number else "")
            for p, what in boards))
    msg = ("no board found on USB: plug it in (with a data cable: some cables only charge), "
           "or give its port with --port")
    if ports:
        msg += ". Serial ports seen, none looks like a board: " + "; ".join(
            p.device + (" (%s)" % p.description if p.description not in (None, "n/a") else "")
            for p in ports)
    raise PullError(msg)


# --- talking to the board ---------------------------------------------------------------------
def _transport_class():
    from mpremote.transport_serial import SerialTransport

    class Board(SerialTransport):
        """mpremote's serial transport with every wait bounded by one timeout (its own
        default is 10 s between bytes, and none at all on some reads), and the last bytes
        heard kept for the message when they were not what was expected."""

        def __init__(self, port, timeout):
            self.answer_timeout = timeout
            self.heard = b""
            SerialTransport.__init__(self, port, baudrate=115200, timeout=timeout)

        def read_until(self, min_num_bytes, ending, timeout=10, data_consumer=None, timeout_overall=None):
            if timeout is None or timeout > self.answer_timeout:
                timeout = self.answer_timeout
            data = SerialTransport.read_until(self, min_num_bytes, ending, timeout, data_consumer, timeout_overall)
            self.heard = data
            return data

        def exec_raw(self, command, timeout=10, data_consumer=None):
            return SerialTransport.exec_raw(self, command, min(timeout, self.answer_timeout), data_consumer)

    return Board


def _listing(board):
    """[(name, folder in the pull, size listed)] for the board's files the table names."""
    out = []
    for e in board.fs_listdir("/"):
        if e.st_mode & 0x4000:
            continue
        for row, (pattern, folder, _) in enumerate(FILES):
            if fnmatch.fnmatchcase(e.name, pattern):
                out.append((row, e.name, folder, e.st_size))
                break
    out.sort()   # in the table's order
    return [(name, folder, size) for _, name, folder, size in out]


def _read_all(board, where):
    """{path in the pull: bytes}, names found. where[0] says what is being done."""
    where[0] = "listing its files"
    got = {}
    names = []
    for name, folder, size in _listing(board):
        where[0] = "reading /" + name
        data = bytes(board.fs_readfile("/" + name, chunk_size=CHUNK))
        # The listing's size is the file's: a shorter or longer copy was not read whole.
        # (A port whose listing has no sizes gives 0: then there is nothing to compare.)
        if size and len(data) != size:
            raise ValueError("read %d bytes of /%s, which the board lists as %d" % (len(data), name, size))
        got[folder + "/" + name if folder else name] = data
        names.append(name)
    return got, names


def _describe(data):
    text = data.decode("ascii", "replace").replace("\ufffd", "?")
    text = "".join(c if c.isprintable() else " " for c in text).strip()
    return text[-60:]


def read_board(port, timeout=TIMEOUT, restart=True, now=None):
    """Read every file the table names off the board on port, then set its clock to now
    (a time.struct_time; this PC's local time by default). Returns ({path in the pull:
    bytes}, [names found], restarted, the clock as set or None). Raises PullError with the
    reason."""
    def work(board, where):
        got = _read_all(board, where)
        return got, set_clock(board, where, now)
    ((got, names), clock), restarted = on_board(port, work, timeout, restart)
    return got, names, restarted, clock


# The board's real-time clock counts from a default after power-up (the RP2040's 2021, the
# ESP32's 2000): the device gives a game its times only once it was set
# (firmware/edges/clock.py wall). Pull and `make deploy` set it to this PC's local time over
# USB, as `mpremote rtc --set` does: MicroPython's RTC().datetime takes (year, month, day,
# weekday from Monday = 0, hours, minutes, seconds, subseconds). A soft reset keeps it.
def clock_code(t):
    """What the board runs to set its clock to t (a time.struct_time): prints "set", or
    "no clock" on a port without machine.RTC."""
    return ("try:\n"
            " import machine\n"
            " machine.RTC().datetime((%d,%d,%d,%d,%d,%d,%d,0))\n"
            " print('set')\n"
            "except Exception:\n"
            " print('no clock')\n" % (t.tm_year, t.tm_mon, t.tm_mday, t.tm_wday, t.tm_hour, t.tm_min, t.tm_sec))


def set_clock(board, where, now=None):
    """Set the clock of the board (at its raw REPL) to now (this PC's local time by
    default). Returns the time set ("2026-11-28 20:00"), or None when the board has no
    clock to set."""
    where[0] = "setting its clock"
    t = time.localtime() if now is None else now
    said = board.exec(clock_code(t))
    return time.strftime("%Y-%m-%d %H:%M", t) if said.strip() == b"set" else None


def start_app(port, timeout=TIMEOUT, now=None):
    """Stop what runs on the board on port, set its clock (as pull does) and start the app
    with a soft reset, which keeps the clock (a hard reset puts an RP2040's back to 2021):
    what `make deploy` does once the files are on it. Returns (the clock as set or None,
    restarted). Raises PullError."""
    return on_board(port, lambda board, where: set_clock(board, where, now), timeout, True)


def on_board(port, work, timeout=TIMEOUT, restart=True):
    """Stop the app on the board on port, run work(board, where) at its raw REPL (board:
    mpremote's transport; where[0] says what is being done, for the message if it fails),
    then restart the app (unless not restart). Returns (what work returned, restarted).
    Raises PullError with the reason. The host commands that talk to a board use this
    (pull reads, `wifi` writes one file)."""
    from mpremote.transport import TransportError, TransportExecError
    Board = _transport_class()
    where = ["waiting for its prompt"]
    # mpremote prints what it heard when a step fails: that goes into our message instead.
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            board = Board(port, timeout)
        except (TransportError, OSError, ValueError):
            raise PullError(_open_failure(port)) from None
        stopped = False     # whether the app was stopped (the raw REPL was reached)
        try:
            try:
                # Ctrl-C stops the app, Ctrl-A gives the raw REPL. No soft reset: nothing on
                # the board changes unless the heap is too full to work (below).
                board.enter_raw_repl(soft_reset=False, timeout_overall=timeout)
            except TransportError:
                raise PullError(_no_prompt(port, board.heard, timeout)) from None
            stopped = True
            try:
                done = work(board, where)
            except TransportExecError as e:
                if "MemoryError" not in e.error_output:
                    raise
                # The stopped app still holds the heap: a soft reset frees it (the files
                # are untouched; the app is restarted at the end anyway).
                where[0] = "waiting for its prompt"
                board.enter_raw_repl(soft_reset=True, timeout_overall=timeout)
                done = work(board, where)
            restarted = _restart(board) if restart else False
            return done, restarted
        except PullError:
            raise
        except Exception as e:
            raise PullError(_failure(e, port, where[0], timeout, board.heard), stopped) from None
        finally:
            try:
                board.close()
            except Exception:
                pass


def _failure(e, port, doing, timeout, heard):
    """The words for an exception met while talking to the board."""
    from mpremote.transport import TransportError, TransportExecError
    import serial
    if isinstance(e, TransportExecError):
        last = (e.error_output.strip().splitlines() or ["?"])[-1]
        return "the board failed %s: %s" % (doing, last)
    if isinstance(e, (TransportError, struct.error)):
        # mpremote's words for a reply that never came, or came short
        said = str(e)
        if isinstance(e, struct.error) or "timeout" in said or "response: b''" in said or not heard:
            return "the board on %s stopped answering while %s (%.3g s of silence)" % (port, doing, timeout)
        return "the board's answer made no sense while %s (%s)" % (doing, said)
    if isinstance(e, OSError):
        # mpremote turns an error on the board's filesystem into OSError(errno, path);
        # any other OSError (serial.SerialException is one) is the line itself.
        if isinstance(e, serial.SerialException) or not str(e.strerror).startswith("/"):
            return "the connection to the board on %s was lost while %s (unplugged?)" % (port, doing)
        return "the board failed %s: %s" % (doing, os.strerror(e.errno))
    if isinstance(e, (ValueError, SyntaxError)):
        return ("the board's answer made no sense while %s (%s): is it the device, and the "
                "cable sound?" % (doing, e))
    return "talking to the board failed while %s (%s: %s)" % (doing, type(e).__name__, e)


def _restart(board):
    """Leave the raw REPL and soft-reset from the normal prompt, which runs /main.py (the
    app) again. True when the board said it rebooted."""
    board.exit_raw_repl()
    board.serial.write(b"\x04")
    return board.read_until(1, b"soft reboot\r\n").endswith(b"soft reboot\r\n")


def missing_board(port):
    """The words for a board's serial port that is not there, or None when it is (and on
    Windows, whose COM ports are no files). tools/build/deploy.py says the same."""
    if os.name == "nt" or os.path.exists(port):
        return None
    return ("no board on %s: is it plugged in (with a data cable: some cables only "
            "charge)?" % port)


def _open_failure(port):
    missing = missing_board(port)
    if missing:
        return missing
    if os.name != "nt":
        # A serial port is a terminal device; a file, a folder or /dev/null only fail to
        # open as one, and no other program is to blame.
        kind = _not_a_tty(port)
        if kind:
            return "%s is not a serial port (%s): give the board's port, such as /dev/ttyACM0" % (port, kind)
    msg = "cannot open %s: another program has it open (Thonny, a serial monitor, mpremote?)" % port
    if os.name != "nt" and not os.access(port, os.R_OK | os.W_OK):
        msg += ", or you may not use it (on Linux, join the dialout group)"
    return msg


def _not_a_tty(port):
    """What port is when it is not a terminal device (None when it is, or cannot be told)."""
    import stat
    try:
        mode = os.stat(port).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a file"
    if not stat.S_ISCHR(mode):
        return "not a device"
    try:
        fd = os.open(port, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return None         # busy or not allowed: the caller's message says so
    try:
        return None if os.isatty(fd) else "a device, not a terminal"
    finally:
        os.close(fd)


def _no_prompt(port, heard, timeout):
    if not _describe(heard):
        return ("no answer from the board on %s within %.3g s: it is busy with a program that "
                "does not stop on Ctrl-C, or it is not running MicroPython. Press its reset "
                "button and try again" % (port, timeout))
    return ("the device on %s does not answer as a MicroPython board (it said: %r): is it the "
            "right port?" % (port, _describe(heard)))


# --- writing on the PC ------------------------------------------------------------------------
def write_pull(root, got, info, now=None):
    """Write the files into a new folder under root, all or nothing: they go to a hidden
    temporary folder first, which is renamed into place once complete. Returns its path."""
    now = time.localtime() if now is None else now
    made_root = not os.path.isdir(root)
    if made_root:
        os.makedirs(root)
    tmp = tempfile.mkdtemp(prefix=".pull-", dir=root)
    try:
        files = dict(got)
        files[MANIFEST] = (json.dumps(info, indent=1, sort_keys=True) + "\n").encode()
        for rel, data in sorted(files.items()):
            path = os.path.join(tmp, *rel.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        base = os.path.join(root, time.strftime("board-%Y%m%d-%H%M%S", now))
        final, n = base, 1
        while os.path.exists(final):   # two pulls in one second: never over an earlier one
            n += 1
            final = "%s-%d" % (base, n)
        os.rename(tmp, final)
        return final
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if made_root:
            try:
                os.rmdir(root)
            except OSError:
                pass
        raise


# --- the command --------------------------------------------------------------------------------
def parser():
    p = hostio.Parser(prog="python -m host_sim pull", description=__doc__.split("\n\n", 1)[1])
    p.add_argument("dir", nargs="?", default=".", metavar="DIR",
                   help="where the new board-YYYYMMDD-HHMMSS folder goes (default: here)")
    p.add_argument("--port", help="the board's serial port (/dev/ttyACM0, COM3...); "
                                  "default: the one board found on USB")
    p.add_argument("--timeout", type=float, default=TIMEOUT, metavar="SECONDS",
                   help="silence after which the board counts as not answering (default %g)" % TIMEOUT)
    p.add_argument("--no-restart", action="store_true",
                   help="leave the board at the MicroPython prompt instead of restarting the app")
    return p


def main(argv):
    try:
        args = parser().parse_args(argv)
    except hostio.Done as d:    # --help, or a bad option (the parser said why)
        return d.args[0]
    if not args.timeout > 0:
        print("pull: --timeout must be more than 0 seconds", file=sys.stderr)
        return EXIT_FAIL
    if os.path.exists(args.dir) and not os.path.isdir(args.dir):
        print("pull: %s is not a folder" % args.dir, file=sys.stderr)
        return EXIT_FAIL
    try:
        port = args.port or find_port()
        got, names, restarted, clock = read_board(port, args.timeout, not args.no_restart)
    except PullError as e:
        msg = e.args[0]
        # one line: the cause, then what it left as it was
        print("pull: %s%s Nothing was written in %s.%s" % (
            msg, "" if msg.endswith(("?", ":", ".")) else ".", os.path.abspath(args.dir),
            " The app on the board may be stopped: press its reset button." if e.app_stopped else ""),
            file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print("pull: interrupted. Nothing was written in %s." % os.path.abspath(args.dir), file=sys.stderr)
        return EXIT_FAIL
    missing = [pat for pat in EXPECTED if not any(fnmatch.fnmatchcase(n, pat) for n in names)]
    if got:
        info = {"port": port, "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "files": {rel: len(d) for rel, d in got.items()}, "missing": missing, "clock_set": clock}
        try:
            dest = write_pull(args.dir, got, info)
        except OSError as e:
            print("pull: cannot write into %s: %s. Nothing was written." % (args.dir, e.strerror or e),
                  file=sys.stderr)
            return EXIT_FAIL
        print("Copied %d file%s from the board on %s into %s:" % (len(got), "" if len(got) == 1 else "s", port, dest))
        for rel in sorted(got, key=lambda r: (r.count("/"), r)):
            print("  %-28s %7d bytes" % (rel, len(got[rel])))
    else:
        print("The board on %s has none of the device's files (a new board?): nothing copied." % port)
    if missing and got:
        print("Not on the board: %s" % ", ".join(missing))
    if clock:
        print("The board's clock was set to this PC's time (%s): the games it starts from now carry their date." % clock)
    else:
        print("The board has no clock to set (no machine.RTC): its games carry no date.")
    if args.no_restart:
        print("The app on the board is stopped: press its reset button to start it again.")
    elif restarted:
        print("The app on the board was restarted.")
    else:
        print("The board did not confirm the restart: if its screen is frozen, press its reset button.")
    return 0
