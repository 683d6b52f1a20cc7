"""What the host commands share: their argument parser, reading a file a player gives them,
and leaving quietly when the reader of their output goes away (`... | head`)."""
import argparse
import os
import sys

# The most a host command reads of a saved game: a game of many hands is tens of KB and
# could never outgrow a board's flash. Reading stops there, so a wrong file (a disk image)
# gets an answer at once instead of filling the PC's memory. (A layout is read by the
# device's own reader, with the device's own limit: host_sim/cli_board.py.)
SAVE_LIMIT = 512 * 1024


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


def open_file(path, what="file"):
    """path opened for reading in binary, or None after saying on stderr why not: missing,
    unreadable, a folder, or not a plain file at all (a device such as /dev/zero, a named
    pipe, a socket: one could never end, or never start, and a layout or a save is a file).
    A named pipe is opened without waiting for a writer, so the answer is immediate."""
    import stat
    if os.path.isdir(path):
        print("%s: cannot read: it is a folder, not a %s" % (path, what), file=sys.stderr)
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        print("%s: cannot read: %s" % (path, e.strerror or e), file=sys.stderr)
        return None
    f = os.fdopen(fd, "rb")
    try:
        mode = os.fstat(fd).st_mode
    except OSError as e:
        f.close()
        print("%s: cannot read: %s" % (path, e.strerror or e), file=sys.stderr)
        return None
    if stat.S_ISDIR(mode):
        f.close()
        print("%s: cannot read: it is a folder, not a %s" % (path, what), file=sys.stderr)
        return None
    if not stat.S_ISREG(mode):
        f.close()
        print("%s: cannot read: not a plain file (a device, pipe or socket), so not a %s" % (path, what),
              file=sys.stderr)
        return None
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return f


def read_text(path, limit, what="file"):
    """The file's text, or None after saying on stderr why it cannot be read: missing,
    unreadable, a folder or not a plain file (open_file), not UTF-8 text, or longer than
    limit bytes (what names the kind of file in that message)."""
    f = open_file(path, what)
    if f is None:
        return None
    try:
        with f:
            data = f.read(limit + 1)
    except OSError as e:
        print("%s: cannot read: %s" % (path, e.strerror or e), file=sys.stderr)
        return None
    if len(data) > limit:
        print("%s: cannot read: over %d bytes, too long for a %s" % (path, limit, what), file=sys.stderr)
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        print("%s: cannot read: not UTF-8 text (byte %d)" % (path, e.start), file=sys.stderr)
        return None


def run(main, argv):
    """Run a host command's main(argv) -> status as a program. When the output's reader
    leaves early (`python -m host_sim board show | head -3`), stop without a traceback and
    with the status of a program ended by SIGPIPE, as cat or seq would."""
    try:
        status = main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # Python would try to flush stdout again at exit and complain: point it at nothing.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141
