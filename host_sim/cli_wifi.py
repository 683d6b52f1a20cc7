"""python -m host_sim wifi --ssid NAME --password PW [--port PORT] [--timeout SECONDS] [--no-restart]
python -m host_sim wifi --forget [--port PORT] [--timeout SECONDS] [--no-restart]

Set the Wi-Fi network the table on phones joins (a board with Wi-Fi: Pico W, ESP32), over
USB: the name and password go into the board's wifi.json, which the device reads at start.
Then, on the device, Settings > Phones > "join Wi-Fi" joins it (instead of opening the
device's own network) and shows the page's address there and its QR code. --forget removes
the network: the device then offers its own network only.

The name is 1 to 32 bytes; the password is WPA2's, 8 to 63 printable ASCII characters (or
the key itself, 64 hex digits). --password - reads it from the first line of standard input
(so it is not on the command line). What is refused is refused before the board is asked:
nothing on it changes.

What happens to the board: as for `pull`, the app stops while the file is written (a hand
being entered and not yet committed is lost, as after a power cut; every committed hand is
already saved), then it is restarted and reads the new network. The file is written whole
or not at all: a new copy beside the old, renamed over it once complete, then read back.

A board that is absent, busy, or answers something other than MicroPython, or a flash that
refuses the write: the reason on stderr, exit 2; the board's files are as they were.
"""
import sys

from host_sim import cli_pull, hostio

EXIT_FAIL = cli_pull.EXIT_FAIL
NAME = "wifi.json"     # firmware/files/wifi_file.py's WIFI_FILE (the device reads it)


def _write_code(data):
    """What the board runs to save data as /wifi.json, as the device's own store saves a
    file (firmware/files/store.py): a .tmp copy renamed over the file (on FAT, where rename
    refuses to replace, the old one is removed first; the device takes back the .tmp
    copy after a power cut there). A write the flash refuses leaves no .tmp behind."""
    return (
        "import os\n"
        "p='/%s'\n"
        "t=p+'.tmp'\n"
        "try:\n"
        " f=open(t,'wb')\n"
        " try:\n"
        "  f.write(%r)\n"
        " finally:\n"
        "  f.close()\n"
        "except OSError:\n"
        " try:\n"
        "  os.remove(t)\n"
        " except OSError:\n"
        "  pass\n"
        " raise\n"
        "try:\n"
        " os.rename(t,p)\n"
        "except OSError:\n"
        " os.remove(p)\n"
        " os.rename(t,p)\n" % (NAME, data))


_FORGET = (
    "import os\n"
    "n=0\n"
    "for q in ('/%s','/%s.tmp'):\n"
    " try:\n"
    "  os.remove(q)\n"
    "  n+=1\n"
    " except OSError as e:\n"
    "  if e.args[0]!=2:\n"
    "   raise\n"
    "print(n)\n" % (NAME, NAME))


def write_network(port, data, timeout=cli_pull.TIMEOUT, restart=True, sent=None):
    """Save data as the board's wifi.json and read it back. Returns restarted. sent (a
    list) gets True once the board was asked to write (before that, nothing changed)."""
    def work(board, where):
        where[0] = "writing /" + NAME
        if sent is not None:
            sent.append(True)
        board.exec(_write_code(data))
        where[0] = "reading /%s back" % NAME
        back = bytes(board.fs_readfile("/" + NAME, chunk_size=cli_pull.CHUNK))
        if back != data:
            raise ValueError("/%s reads back as %d bytes, not the %d written" % (NAME, len(back), len(data)))
    return cli_pull.on_board(port, work, timeout, restart)[1]


def forget_network(port, timeout=cli_pull.TIMEOUT, restart=True, sent=None):
    """Remove the board's wifi.json. Returns (whether there was one, restarted)."""
    def work(board, where):
        where[0] = "removing /" + NAME
        if sent is not None:
            sent.append(True)
        return int(board.exec(_FORGET).strip() or b"0") > 0
    return cli_pull.on_board(port, work, timeout, restart)


def parser():
    p = hostio.Parser(prog="python -m host_sim wifi", description=__doc__.split("\n\n", 1)[1])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--ssid", metavar="NAME", help="the network's name (1 to 32 bytes)")
    what.add_argument("--forget", action="store_true", help="remove the network set before")
    p.add_argument("--password", metavar="PW",
                   help="its WPA2 password (8 to 63 printable ASCII characters, or 64 hex digits); "
                        "- reads it from standard input")
    p.add_argument("--port", help="the board's serial port (/dev/ttyACM0, COM3...); "
                                  "default: the one board found on USB")
    p.add_argument("--timeout", type=float, default=cli_pull.TIMEOUT, metavar="SECONDS",
                   help="silence after which the board counts as not answering (default %g)" % cli_pull.TIMEOUT)
    p.add_argument("--no-restart", action="store_true",
                   help="leave the board at the MicroPython prompt instead of restarting the app")
    return p


def _left(sent, data):
    """What a failure left on the board."""
    if not sent:
        return "Nothing on the board changed."
    if data is None:
        return "Its wifi.json may be gone or not: run the command again."
    # the write is a copy renamed over the old file: one or the other, whole
    return "Its wifi.json is whole, the old network or the new: run the command again."


def _refuse(msg):
    print("wifi: %s. Nothing was written to the board." % msg, file=sys.stderr)
    return EXIT_FAIL


def main(argv):
    if argv[:1] == ["help"]:
        argv = ["--help"]
    try:
        args = parser().parse_args(argv)
    except hostio.Done as d:    # --help, or a bad option (the parser said why)
        return d.args[0]
    if not args.timeout > 0:
        return _refuse("--timeout must be more than 0 seconds")
    data = None
    if args.forget:
        if args.password is not None:
            return _refuse("--forget takes no --password")
    else:
        pw = args.password
        if pw is None:
            return _refuse("--ssid needs --password (- reads it from standard input)")
        if pw == "-":
            pw = sys.stdin.readline().rstrip("\r\n")
        from firmware.files import wifi_file
        why = wifi_file.check(args.ssid, pw)
        if why:
            return _refuse(why)
        data = wifi_file.text(args.ssid, pw).encode()
    restart = not args.no_restart
    sent = []
    try:
        port = args.port or cli_pull.find_port()
        if data is None:
            there, restarted = forget_network(port, args.timeout, restart, sent)
        else:
            restarted = write_network(port, data, args.timeout, restart, sent)
    except cli_pull.PullError as e:
        msg = e.args[0]
        print("wifi: %s%s %s%s" % (
            msg, "" if msg.endswith(("?", ":", ".")) else ".", _left(sent, data),
            " The app on the board may be stopped: press its reset button." if e.app_stopped else ""),
            file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print("wifi: interrupted. %s" % _left(sent, data), file=sys.stderr)
        return EXIT_FAIL
    if data is None:
        print("The board on %s %s." % (port, "forgot its network: the table on phones opens the device's own"
                                       if there else "had no network set: nothing to forget"))
    else:
        print("The board on %s joins %s for the table on phones: on the device, Settings > Phones > "
              "join Wi-Fi." % (port, args.ssid))
    if args.no_restart:
        print("The app on the board is stopped: press its reset button to start it again.")
    elif restarted:
        print("The app on the board was restarted.")
    else:
        print("The board did not confirm the restart: if its screen is frozen, press its reset button.")
    return 0
