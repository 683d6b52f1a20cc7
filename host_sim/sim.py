"""python -m host_sim [options]: the firmware app on the PC, edges replaced.

  (no option)         terminal view (arrows, Enter = OK, Esc or l = long OK, q = quit)
  --window            a window that looks like the OLED (needs pygame)
  --headless          run --keys on a virtual clock, print the screen as 64 lines of
                      128 characters ('#' lit, '.' dark) and exit
  --keys "K K ..."    key script: UP DOWN LEFT RIGHT OK LONG_OK WAIT:ms HOLD_<KEY>:ms
  --state DIR         the board's filesystem (settings.json, game.json...) lives in DIR;
                      default: state/ for the terminal and window, a fresh temporary
                      folder for --headless
  --png FILE          (headless) also save the screen as a PNG
  --board NAME        board file to wire up (firmware/boards/NAME.py; default pico)
  --bounce N          contact bounce: the next N pin reads after each press or
                      release chatter between the old and new level
  --panel KIND        the emulated display controller: ssd1306 (default) or sh1106
  --mem-free N        report N bytes free on the About screen (repeatable screens)
  --stats             (headless) print bus bytes and bus time on stderr
"""
import os
import sys

from host_sim import script

_HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(_HERE)
# The fake machine module replaces the board's: first on the path, as in the twin run.
_TWIN = os.path.join(_HERE, "twin")


class Usage(Exception):
    pass


def parse_args(argv):
    o = {"headless": False, "window": False, "keys": "", "state": None, "png": None,
         "board": "pico", "bounce": 0, "panel": "ssd1306", "mem_free": None, "stats": False}
    flags = {"--headless": "headless", "--window": "window", "--stats": "stats"}
    values = {"--keys": "keys", "--state": "state", "--png": "png", "--board": "board",
              "--bounce": "bounce", "--mem-free": "mem_free", "--panel": "panel"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in flags:
            o[flags[a]] = True
        elif a.split("=", 1)[0] in values:
            if "=" in a:
                k, v = a.split("=", 1)
            else:
                if i + 1 >= len(argv):
                    raise Usage("%s needs a value" % a)
                k, v = a, argv[i + 1]
                i += 1
            o[values[k]] = v
        else:
            raise Usage("unknown option %r" % a)
        i += 1
    for k in ("bounce", "mem_free"):
        if o[k] is not None:
            try:
                o[k] = int(o[k])
            except ValueError:
                raise Usage("--%s takes a whole number" % k.replace("_", "-"))
    if o["panel"] not in ("ssd1306", "sh1106"):
        raise Usage("--panel is ssd1306 or sh1106")
    return o


def use_fake_machine():
    """Put the fake machine module (host_sim/twin/machine.py) first on the path."""
    if _TWIN not in sys.path:
        sys.path.insert(0, _TWIN)


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    try:
        o = parse_args(argv)
        steps = script.parse(o["keys"])
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
