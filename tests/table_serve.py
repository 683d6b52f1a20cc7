# The device serving the table on phones, for tests/test_table_page.py and
# tools/bench/bench_table.py: under the micropython binary, the firmware's real app (built by
# firmware.main on STATE, a Pico W's board file, the fake `machine` and `network` of
# tests/table_wire and host_sim/twin) turns Settings > Phones on as the Settings screen does, then runs its
# loop on the real clock, serving on 127.0.0.1:PORT (real sockets, the loopback only).
# Between steps it looks in CMD (a folder) for:
#   hand.json  a record to commit as the hand entry screens do (session.apply; the loop's
#              next step saves it and the page is told): "COMMITTED n" is printed
#   key        a key press (its name inside) through the pins, as a player presses it
#   stop       the end: the figures as one JSON line, "FIGURES {...}"
# and says each key's press to its frame (ms) as it comes: "KEYMS n"
#   micropython table_serve.py STATE PORT CMD
import json
import os
import sys

import machine


def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False


def _take(p):
    with open(p) as f:
        t = f.read()
    os.remove(p)
    return t


def main(argv):
    state, port, cmd = argv[0], int(argv[1]), argv[2]
    from firmware.edges.board import Board
    from firmware import main as fw
    from firmware.edges.clock import Clock
    board = Board("pico_w")
    clock = Clock()
    app = fw.build(board, clock, state)
    app.server_host = "127.0.0.1"
    app.server_port = port
    fw.table_on(app)       # as at a start with the setting on (firmware/main.run)
    from firmware.phones import control
    from firmware.files import settings_file
    c = control.new_credentials(app)       # as the Settings screen turns it on
    if c:
        app.settings.update(c)
    settings_file.save(app, "table", True)
    control = settings_file = fw = None
    t = app.server
    if t is None:
        print("FAILED", app.messages)
        return
    print("READY", app.server_url, app.settings["wifi_ssid"], app.settings["wifi_pw"])
    # each key's delay from its press (the pin) to the end of the first frame drawn after
    # the app took it (ms, the real clock): make bench-table's and tools/bench/bench_phones.py's
    # key to frame figure
    import time
    # when the last key was pressed (until its frame), the keys handled before it, when it
    # was pressed
    press = [None, 0, 0]
    show = app.display.show

    def shown():
        show()
        if press[0] is not None and app.handled > press[1]:
            # said at once, not kept: a list growing through a long run took heap the
            # firmware's server needs (the tests' heap is the least that serves)
            print("KEYMS", time.ticks_diff(time.ticks_ms(), press[0]))
            press[0] = None

    app.display.show = shown
    n = 0
    steps = 0
    pressed = None
    presses = 0
    keys = {"UP": 0, "DOWN": 1, "LEFT": 2, "RIGHT": 3, "OK": 4}
    while True:
        app.step()
        steps += 1
        if pressed is not None and pressed not in machine.press_at and \
                time.ticks_diff(time.ticks_ms(), press[2]) > 100:
            machine.held.discard(pressed)      # let go 100 ms after it was pressed
            pressed = None
        if steps % 20:
            continue
        h = cmd + "/hand.json"
        if _exists(h):
            rec = json.loads(_take(h))
            err = app.session.apply("add", rec)
            n += 1
            print("COMMITTED", n, err)
        k = cmd + "/key"
        if _exists(k) and pressed is None:
            pressed = board.BUTTONS[keys[_take(k).strip()]]
            # pressed 0 to 39 ms from now, whatever the loop is doing then
            at = time.ticks_add(time.ticks_ms(), presses * 17 % 40)
            machine.press_at[pressed] = at
            press[0] = press[2] = at
            press[1] = app.handled
            presses += 1
        if _exists(cmd + "/stop"):
            import gc
            gc.collect()
            fig = {"steps": steps, "served": t.served, "made": t.made, "refused": t.web.refused,
                   "dropped": t.web.dropped, "evicted": t.web.evicted, "most": t.web.most, "late_max_ms": t.late_max, "slice_max_us": t.slice_max_us,
                   "request_max_us": t.request_max_us, "pressed": presses,
                   "commits": app.commits, "handled": app.handled,
                   "mem_free": gc.mem_free() if hasattr(gc, "mem_free") else -1}
            print("FIGURES", json.dumps(fig))
            return


main(sys.argv[1:])
