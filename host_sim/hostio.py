"""What the host commands share: reading a file a player gives them."""
import sys


def read_text(path):
    """The file's text, or None after saying on stderr why it cannot be read."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        print("%s: cannot read: %s" % (path, e), file=sys.stderr)
        return None
