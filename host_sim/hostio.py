"""What the host commands share: their argument parser, reading a file a player gives them,
writing an output a player names (never replacing a pipe, a device or a link with a plain
file), and leaving quietly when the reader of their output goes away (`... | head`)."""
import argparse
import errno
import os
import sys

# The most a host command reads of a saved game: a game of many hands is tens of KB and
# could never outgrow a board's flash. Reading stops there, so a wrong file (a disk image)
# gets an answer at once instead of filling the PC's memory. (A layout is read by the
# device's own reader, with the device's own limit: host_sim/cli_board.py.)
SAVE_LIMIT = 512 * 1024
# How text the commands write holds half a character (a lone surrogate, "\ud800": JSON
# can hold one in a player's name, UTF-8 cannot): written as its escape, the rest of the
# name and of the output as they are, where it stopped the command with a traceback.
HALVES = "backslashreplace"


class Done(Exception):
    """The parser has answered (help printed, or a usage error said): args[0] is the exit
    status. main(argv) returns it, so tests and `python -m` both see a status, not an exit."""


# What the device's readers (engine_mpy/, firmware/) may raise on content they cannot take:
# for a host command that content is a damaged file (one line, exit 2), never a traceback.
# Caught only around a reader's call, so a host command's own bug still shows.
DAMAGED = (ValueError, TypeError, KeyError, IndexError, RecursionError, AttributeError)


def damaged(e):
    """The words for an error of DAMAGED raised by a device reader."""
    return "the file is damaged (its content stops the reader: %s)" % type(e).__name__


class Parser(argparse.ArgumentParser):
    """argparse for the host commands: a usage error is one line, exit 2 (every refusal of
    a host command is one line); the help keeps the layout of its description."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        """Refuse in one line: what is wrong and where the help is (argparse would print
        the usage first)."""
        self.exit(2, "%s: error: %s (see --help)\n" % (self.prog, " ".join(message.split()).rstrip(".")))

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise Done(status)


def _say(msg, said):
    """A reason a file cannot be read: into said when given (the caller prints it with the
    others), else on stderr."""
    if said is None:
        print(msg, file=sys.stderr)
    else:
        said.append(msg)


def open_file(path, what="file", said=None):
    """path opened for reading in binary, or None after saying why not (on stderr, or into
    the list said): missing, unreadable, a folder, or not a plain file at all (a device such
    as /dev/zero, a named pipe, a socket: one could never end, or never start, and a layout
    or a save is a file). A named pipe is opened without waiting for a writer, so the
    answer is immediate."""
    import stat
    if os.path.isdir(path):
        _say("%s: cannot read: it is a folder, not a %s" % (path, what), said)
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        _say("%s: cannot read: %s" % (path, e.strerror or e), said)
        return None
    f = os.fdopen(fd, "rb")
    try:
        mode = os.fstat(fd).st_mode
    except OSError as e:
        f.close()
        _say("%s: cannot read: %s" % (path, e.strerror or e), said)
        return None
    if stat.S_ISDIR(mode):
        f.close()
        _say("%s: cannot read: it is a folder, not a %s" % (path, what), said)
        return None
    if not stat.S_ISREG(mode):
        f.close()
        _say("%s: cannot read: not a plain file (a device, pipe or socket), so not a %s" % (path, what), said)
        return None
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return f


def read_text(path, limit, what="file", said=None):
    """The file's text, or None after saying why it cannot be read (on stderr, or into the
    list said): missing, unreadable, a folder or not a plain file (open_file), not UTF-8
    text, or longer than limit bytes (what names the kind of file in that message)."""
    f = open_file(path, what, said)
    if f is None:
        return None
    try:
        with f:
            data = f.read(limit + 1)
    except OSError as e:
        _say("%s: cannot read: %s" % (path, e.strerror or e), said)
        return None
    if len(data) > limit:
        _say("%s: cannot read: over %d bytes, too long for a %s" % (path, limit, what), said)
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        _say("%s: cannot read: not UTF-8 text (byte %d)" % (path, e.start), said)
        return None


def make_folder(path, opt):
    """Make the folder path (and its parents) if it is not there yet: None, or why it
    cannot be made, in one line naming the option that gave it (a file in the way, a
    folder the user may not write in)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        return "%s %s: cannot make this folder: %s" % (opt, path, e.strerror or e)
    return None


def csv_safe(row):
    """A CSV row (a dict) whose text cells no spreadsheet runs as a formula: a cell that
    starts with =, +, -, @, a tab or a carriage return (a player named "=HYPERLINK(...)")
    gets a ' first, which a spreadsheet shows as text and does not run (OWASP's advice for
    CSV injection). Numbers stay numbers (a Twist move of -1)."""
    out = {}
    for k, v in row.items():
        if isinstance(v, str) and v[:1] in ("=", "+", "-", "@", "\t", "\r"):
            v = "'" + v
        out[k] = v
    return out


def out_problem(path, opt):
    """Why the output path given with option opt cannot be written, or None: checked before
    anything is read or written. "-" is the standard output; a symbolic link is judged by
    what it points to; a pipe or a character device (a terminal, /dev/null) is written as
    it is; a plain file, or a new one in a folder that exists, is written whole."""
    import stat
    if path == "-":
        return None
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(real)
        if not os.path.isdir(folder):
            return "%s %s: no folder %s (make it first)" % (opt, path, folder)
        return None
    except OSError as e:
        return "%s %s: %s" % (opt, path, e.strerror or e)
    if stat.S_ISDIR(mode):
        return "%s %s: a folder; give a file name" % (opt, path)
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        return "%s %s: not a file, a pipe or a character device (a socket or a disk?): not written" % (opt, path)
    return None


def write_out(path, data):
    """Write data (text or bytes) to the output path, one that out_problem let through.
    "-": the standard output. A pipe or a character device: opened and written as it is,
    never replaced (a reader at the other end gets the bytes; /dev/null stays /dev/null).
    A plain file (or a new one): written whole to a temporary file beside it, then renamed
    over it with the old file's permissions, so an interrupted write never leaves half a
    sheet. A symbolic link is followed and its target written so (not written through the
    link in place: that would give up the whole-or-nothing write; the link stays a link).
    OSError (a full disk, a pipe closed early) leaves a plain file as it was."""
    import stat
    import tempfile
    if path == "-":
        if isinstance(data, str):
            sys.stdout.write(data)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    if isinstance(data, str):
        data = data.encode("utf-8", HALVES)
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is not None and (stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode)):
        with open(real, "wb") as f:
            f.write(data)
        return
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a file, a pipe or a character device")
    if st is not None and not os.access(real, os.W_OK):
        # a read-only file: refused as writing into it would be (the rename alone could)
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    folder, name = os.path.split(real)
    fd, tmp = tempfile.mkstemp(prefix="." + name + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask      # as open() would have made it
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_outs(prog, outs):
    """Write each (path, data) of outs with write_out; the exit status: 0, or 2 after one
    line naming the output that could not be written. The standard output's reader
    leaving (`... --csv - | head`) is left to run: a quiet stop."""
    for path, data in outs:
        try:
            write_out(path, data)
        except BrokenPipeError:
            if path == "-":
                raise
            print("%s: cannot write %s: its reader left (%s)" % (prog, path, os.strerror(errno.EPIPE)),
                  file=sys.stderr)
            return 2
        except OSError as e:
            print("%s: cannot write %s: %s" % (prog, path, e.strerror or e), file=sys.stderr)
            return 2
    return 0


def _quiet_stdout():
    """Point the standard output at nothing: Python would flush it again at exit and
    complain about the same error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run(main, argv):
    """Run a host command's main(argv) -> status as a program. When the output's reader
    leaves early (`python -m host_sim board show | head -3`), stop without a traceback and
    with the status of a program ended by SIGPIPE, as cat or seq would."""
    try:
        sys.stdout.reconfigure(errors=HALVES)     # (print's and write_out's "-")
    except AttributeError:      # a standard output replaced by a caller
        pass
    try:
        status = main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return 141
    except OSError as e:
        # The commands catch the errors of the files they write; what reaches here is the
        # standard output failing (`> /dev/full`, a disk filling up): one line, exit 2.
        if e.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)):
            raise
        _quiet_stdout()
        sys.stderr.write("python -m host_sim: cannot write its output: %s\n" % (e.strerror or e))
        return 2
