"""What the live views (host_sim/term.py, host_sim/window.py) share: the device's clock
kept on the PC's (Live), and --phones (serve_phones). Here, below the views and below
host_sim/sim.py that picks one, so no view imports the module that imports it (issue 43)."""
import sys


class Live:
    """The device's clock kept on the PC's, for the terminal and the window: run() runs
    the device's loop up to now. With the table on phones the loop's pause between keys is
    served in real time (firmware/phones/server.py), so running it for the time since the last
    call, as this did, took that time again, and each call ran longer than the one before:
    keys waited seconds, more the longer the session (issue 41). Here the device runs only
    what its clock lacks of the real time since the start, at most MOST_MS a call, and a
    key waiting at the PC (waiting(): the terminal's input, the window's events) ends the
    run and the device's pause at once, as a pressed button ends a board's."""

    MOST_MS = 100

    def __init__(self, dev, waiting=None):
        import time
        self._now = time.monotonic
        self.dev = dev
        self.t0 = self._now()
        self.v0 = dev.clock.t
        self.waiting = waiting or (lambda: False)
        app = dev.app
        pending = app.buttons.pending
        # the pause's "is a key queued?" (App._pause) asks the PC too
        app.key_waiting = lambda: pending() or self.waiting()

    def run(self):
        clk = self.dev.clock
        now = self._now()
        behind = int((now - self.t0) * 1000) - (clk.t - self.v0)
        if behind <= 0:
            # ahead (keys played, work charged on the virtual clock): real time catches up
            # from here, nothing is owed
            self.t0 = now
            self.v0 = clk.t
            return
        if behind > self.MOST_MS:
            # (the PC was busy or asleep) the device does not make up the rest
            self.v0 += behind - self.MOST_MS
            behind = self.MOST_MS
        end = clk.t + behind
        app = self.dev.app
        while clk.t < end and not self.waiting():
            app.step()


def serve_phones(dev, o):
    """--phones PORT: the device serves the table on this PC's PORT (started now if
    Settings > Phones is on already, else when it is turned on); says where."""
    if o.get("phones") is None:
        return
    dev.app.server_port = o["phones"]
    from firmware import main as fw
    fw.table_on(dev.app)
    sys.stderr.write("host_sim: the table on phones, once Settings > Phones is on: http://<this PC>:%d/\n"
                     % o["phones"])
