# Headless front end: run the key script on the virtual clock (no real time passes), print
# the panel as text art and optionally save it as a PNG.
import io
import shutil
import sys
import tempfile

from host_sim import hostio, script


def run(o, steps):
    tmp = None
    state = o["state"]
    if state is None:
        # A fresh board each run, so a script gives the same screen every time.
        tmp = state = tempfile.mkdtemp(prefix="phase10-sim-")
    else:
        why = hostio.make_folder(state, "--state")
        if why:
            sys.stderr.write("host_sim: %s\n" % why)
            return 2
    try:
        dev = script.Device(board=o["board"], state=state, mem_free=o["mem_free"],
                        bounce=o["bounce"], panel=o["panel"])
        dev.play(steps)
        rows = dev.rows()
        sys.stdout.write("\n".join(rows) + "\n")
        if o["png"]:
            buf = io.BytesIO()
            dev.panel().png(buf)
            try:
                hostio.write_out(o["png"], buf.getvalue())
            except OSError as e:
                sys.stderr.write("host_sim: --png %s: cannot write: %s\n" % (o["png"], e.strerror or e))
                return 2
        if o["stats"]:
            n, us = dev.bus()
            sys.stderr.write("bus: %d bytes, %d us\n" % (n, us))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0
