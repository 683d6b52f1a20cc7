# A command run as a player's account runs it: root (CI's user) reads any file, so a file
# with no read permission would prove nothing there. As root the command runs without the
# two capabilities that let it pass file permissions (setpriv, from util-linux).
import os
import shutil


def prefix():
    """What goes before a command's argv so file permissions bind it ([] when not root)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    assert setpriv, "run as root: setpriv (util-linux) is needed to check a file it may not read"
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
