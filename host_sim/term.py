# Terminal front end (the default): the 128x64 panel as 64x16 braille cells, which fits an
# 80x24 terminal, driven by the keyboard. A terminal reports key presses but not releases,
# so each key is a short press (Esc or l: a long OK, which is BACK).
import os
import select
import sys

from host_sim import hostio, live_view, script

# Braille dot bits for (x, y) inside a 2x4 cell.
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))

_HELP = "arrows: move  Enter: OK  Esc/l: back (long OK)  ?: help (OK+UP)  q: quit"


def braille(rows):
    """64 text rows ('#'/'.') as 16 lines of 64 braille characters."""
    out = []
    for cy in range(0, 64, 4):
        line = []
        for cx in range(0, 128, 2):
            b = 0
            for dy in range(4):
                r = rows[cy + dy]
                if r[cx] == "#":
                    b |= _DOTS[dy][0]
                if r[cx + 1] == "#":
                    b |= _DOTS[dy][1]
            line.append(chr(0x2800 + b))
        out.append("".join(line))
    return out


def frame_text(dev):
    rows = dev.rows()
    lines = braille(rows)
    app = dev.app
    state = ("on", "dimmed", "off")[app.asleep]
    n, us = dev.bus()
    top = "+" + "-" * 64 + "+"
    body = ["|" + s + "|" for s in lines]
    dim = "\x1b[2m" if app.asleep == 1 else ""
    end = "\x1b[0m" if dim else ""
    status = "display %s  bus %d bytes %.1f ms" % (state, n, us / 1000)
    return "\x1b[H" + "\r\n".join([top] + [dim + b + end for b in body] + [top, status + "\x1b[K", _HELP + "\x1b[K"]) + "\r\n"


_SEQ = {"\x1b[A": "UP", "\x1b[B": "DOWN", "\x1b[C": "RIGHT", "\x1b[D": "LEFT",
        "\x1bOA": "UP", "\x1bOB": "DOWN", "\x1bOC": "RIGHT", "\x1bOD": "LEFT"}


def keys_from(data):
    """Names of the presses in a chunk of terminal input; 'QUIT' for q / Ctrl-C."""
    out = []
    i = 0
    while i < len(data):
        seq = data[i:i + 3]
        if seq in _SEQ:
            out.append(_SEQ[seq])
            i += 3
            continue
        ch = data[i]
        i += 1
        if ch in "\r\n ":
            out.append("OK")
        elif ch == "\x1b" or ch == "l":
            out.append("LONG_OK")
        elif ch in "q\x03":
            out.append("QUIT")
        elif ch in "?":
            out.append("HELP")
        elif ch in "wk":
            out.append("UP")
        elif ch in "sj":
            out.append("DOWN")
        elif ch in "ah":
            out.append("LEFT")
        elif ch == "d":
            out.append("RIGHT")
    return out


def run(o, steps):
    import termios
    import tty
    state = o["state"] or os.path.join(os.getcwd(), "state")
    why = hostio.make_folder(state, "--state")
    if why:
        sys.stderr.write("host_sim: %s\n" % why)
        return 2
    dev = script.Device(board=o["board"], state=state, mem_free=o["mem_free"],
                        bounce=o["bounce"], panel=o["panel"])
    live_view.serve_phones(dev, o)
    dev.play(steps)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setraw(fd)
        out.write("\x1b[?25l\x1b[2J")
        live = live_view.Live(dev, lambda: bool(select.select([fd], [], [], 0)[0]))
        shown = None
        while True:
            r, _, _ = select.select([fd], [], [], 0.02)
            names = keys_from(os.read(fd, 64).decode("utf-8", "replace")) if r else []
            if "QUIT" in names:
                break
            if names:
                dev.play(script.parse(" ".join(names)))
            # The device's clock follows real time between key presses (idle dim/off).
            live.run()
            text = frame_text(dev)
            if text != shown:
                out.write(text)
                out.flush()
                shown = text
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[?25h\n")
        out.flush()
    return 0
