"""What the host commands share: their argument parser, reading a file a player gives them,
and leaving quietly when the reader of their output goes away (`... | head`)."""
import argparse
import os
import sys

# The most a host command reads of a file it is given. The device itself refuses a layout
# over 4,096 bytes (engine_mpy.board_layout.MAX_FILE); a saved game of many hands is tens of
# KB and could never outgrow a board's flash. Reading stops there, so a wrong file (a disk
# image, /dev/zero) gets an answer at once instead of filling the PC's memory.
SAVE_LIMIT = 512 * 1024


class Done(Exception):
    """The parser has answered (help printed, or a usage error said): args[0] is the exit
    status. main(argv) returns it, so tests and `python -m` both see a status, not an exit."""


class Parser(argparse.ArgumentParser):
    """argparse for the host commands: usage errors exit 2 with the usage line, as before;
    the help keeps the layout of its description."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise Done(status)


def read_text(path, limit, what="file"):
    """The file's text, or None after saying on stderr why it cannot be read: missing,
    unreadable, a folder, not UTF-8 text, or longer than limit bytes (what names the kind
    of file in that message)."""
    try:
        if os.path.isdir(path):
            print("%s: cannot read: it is a folder, not a %s" % (path, what), file=sys.stderr)
            return None
        with open(path, "rb") as f:
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
