"""python -m host_sim [options]: the firmware app on the PC, edges replaced.

With no option: the terminal view (arrows, Enter = OK, Esc or l = long OK, q = quit).
A key script (--keys) runs first in every view; --headless runs it on a virtual clock,
prints the screen as 64 lines of 128 characters ('#' lit, '.' dark) and exits.
"""
import os
import sys

from host_sim import hostio, script

_HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(_HERE)
# The fake machine module replaces the board's: first on the path, as in the twin run.
_TWIN = os.path.join(_HERE, "twin")

# The host commands `python -m host_sim COMMAND ...` (host_sim/__main__.py): name ->
# (module, what it does), listed in this help too.
COMMANDS = {
    "show": ("host_sim.cli_show", "read a saved game (game.json) and print standings and score sheet"),
    "dice": ("host_sim.cli_dice", "dice score PHASE D1..D10: score ten dice for a phase; dice advise PHASE ROLLS_LEFT D1..D10: which dice to hold"),
    "board": ("host_sim.cli_board", "board check FILE | board show: check a Twist board layout, or draw the default"),
    "pull": ("host_sim.cli_pull", "pull [--port PORT] [DIR]: copy the saved games off a board over USB (never writes to it)"),
    "wifi": ("host_sim.cli_wifi", "wifi --ssid NAME --password PW | wifi --forget: the network the table on phones joins, over USB"),
    "export": ("host_sim.cli_export", "export FILE --csv OUT --html OUT: a game's or a history's score sheets as CSV and a page to print"),
    "stats": ("host_sim.cli_stats", "stats DIR [--csv OUT] [--html OUT]: each player's games, wins and averages over the history"),
}


def _boards():
    names = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "firmware", "boards"))
                   if f.endswith(".py") and not f.startswith("_"))
    return ", ".join(names)


def parser():
    epilog = ["commands (python -m host_sim COMMAND --help for each):"]
    for name, (_, what) in COMMANDS.items():
        epilog.append("  %-8s %s" % (name, what))
    p = hostio.Parser(prog="python -m host_sim", usage="%(prog)s [options]  |  %(prog)s COMMAND ...",
                      description=__doc__.split("\n\n", 1)[1].strip(), epilog="\n".join(epilog))
    view = p.add_mutually_exclusive_group()
    view.add_argument("--headless", action="store_true",
                      help="run --keys on a virtual clock, print the screen as text and exit")
    view.add_argument("--window", action="store_true", help="a window that looks like the OLED (needs pygame and a display)")
    p.add_argument("--keys", metavar='"K K ..."', default="",
                   help="key script: UP DOWN LEFT RIGHT OK LONG_OK WAIT:ms HOLD_<KEY>:ms")
    p.add_argument("--state", metavar="DIR",
                   help="the board's filesystem (settings.json, game.json...) lives in DIR; default: "
                        "state/ for the terminal and window, a fresh temporary folder for --headless")
    p.add_argument("--png", metavar="FILE", help="(headless) also save the screen as a PNG; its folder must exist")
    p.add_argument("--board", metavar="NAME", default="pico",
                   help="board file to wire up, firmware/boards/NAME.py: %s (default pico)" % _boards())
    p.add_argument("--bounce", metavar="N", type=int, default=0,
                   help="contact bounce: the next N pin reads after each press or release chatter "
                        "between the old and new level")
    p.add_argument("--panel", choices=("ssd1306", "sh1106"), default="ssd1306",
                   help="the emulated display controller (default ssd1306)")
    p.add_argument("--mem-free", metavar="N", type=int,
                   help="report N bytes free on the About screen (repeatable screens)")
    p.add_argument("--stats", action="store_true", help="(headless) print bus bytes and bus time on stderr")
    p.add_argument("--phones", metavar="PORT", type=int,
                   help="(terminal, window) the table on phones from this PC: the page on PORT of every "
                        "address this PC has, once Settings > Phones is on (a board with Wi-Fi: "
                        "--board pico_w, esp32, esp32_s3 or esp32_c3)")
    return p


class Usage(Exception):
    pass


def parse_args(argv):
    """The options as a dict (the front ends read o["keys"], o["state"], ...). Raises
    hostio.Done after help or a usage error, Usage for a value that cannot work."""
    o = vars(parser().parse_args(argv))
    if o["bounce"] < 0:
        raise Usage("--bounce takes a whole number of 0 or more")
    if o["state"] is not None and os.path.exists(o["state"]) and not os.path.isdir(o["state"]):
        raise Usage("--state %s: not a folder" % o["state"])
    if o["phones"] is not None:
        if not 1 <= o["phones"] <= 65535:
            raise Usage("--phones takes a port number, 1 to 65535")
        if o["board"] not in ("pico_w", "esp32", "esp32_s3", "esp32_c3"):
            raise Usage("--phones needs a board with Wi-Fi: --board pico_w, esp32, esp32_s3 or esp32_c3")
    png = o["png"]
    if png == "-":
        raise Usage("--png -: the standard output holds the screen as text; give a file name")
    why = png is not None and hostio.out_problem(png, "--png")
    if why:
        raise Usage(why)
    return o


def use_fake_machine():
    """Put the fake machine module (host_sim/twin/machine.py) first on the path."""
    if _TWIN not in sys.path:
        sys.path.insert(0, _TWIN)


def main(argv):
    if argv[:1] == ["help"]:
        argv = ["--help"]
    try:
        o = parse_args(argv)
        steps = script.parse(o["keys"])
    except hostio.Done as d:
        return d.args[0]
    except (Usage, script.ScriptError) as e:
        sys.stderr.write("host_sim: %s\n" % (e.args[0],))
        return 2
    use_fake_machine()
    try:
        return _front(o, steps)
    except script.ScriptError as e:
        sys.stderr.write("host_sim: %s\n" % (e.args[0],))
        return 2


def _front(o, steps):
    if o["headless"]:
        from host_sim import headless
        return headless.run(o, steps)
    if o["window"]:
        from host_sim import window
        return window.run(o, steps)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Piped or in CI: nothing to read keys from, so show where the script leaves the
        # device and say how to drive it, rather than wait forever.
        from host_sim import headless
        sys.stderr.write("host_sim: not a terminal, so no live view; the screen after "
                         "--keys follows. Script it with: python -m host_sim --headless "
                         "--keys \"DOWN OK ...\"\n")
        return headless.run(o, steps)
    from host_sim import term
    return term.run(o, steps)
