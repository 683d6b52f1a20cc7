"""Random key mashing on the simulated device (issues 6 and 7).

    .venv/bin/python tools/checks/mash.py --events 100000 --seed 1      # the long form (make soak)
    .venv/bin/python tools/checks/mash.py --events 3000 --seed 2 --twin # and the same keys on the twin

Key events from the whole vocabulary (UP DOWN LEFT RIGHT OK, LONG_OK, held keys that
auto-repeat, short waits and now and then a wait long enough to dim and switch off the
display) go to the firmware on the CPython simulator (host_sim.script.Device on a state
folder). Pure chance rarely gets a hand past the rules, so a guide that reads the screen on
top plays most events with a purpose (start games of all four kinds, enter hands that
stand, undo, correct, draw Twist cards, roll and enter dice, finish games, visit every other
screen) and plain random keys are mixed in. After every event:
  - no exception escaped the firmware;
  - game.json, when there is one, loads (engine_mpy.saveload.loads) and equals the game in
    RAM; there is none exactly when no game runs;
  - settings.json, roster.json and history.json parse as the device reads them;
  - no NAME.bad (a file the device wrote and then called damaged) and no NAME.tmp is left.
Now and then the device is power-cycled (rebuilt on the same folder) and must resume the
same game with the same settings and no message.

A failure raises MashError naming the event, with the folder as it was at the last start
and the keys since then saved as a replayable case (--keys for python -m host_sim).
--twin replays a run's keys (no power cycles) on the micropython binary from .mpy files
and compares every screen along the way and the files at the end with the CPython run.
"""
import gc
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from host_sim import script, sim  # noqa: E402

sim.use_fake_machine()

from engine_mpy import savefile, saveload  # noqa: E402
from engine_mpy.dice_eval import (FACE_NUM, FACE_COL, N_DICE, best, show_faces)  # noqa: E402
from firmware.files.settings_file import check_settings  # noqa: E402
from firmware.files.store import GAME, SETTINGS, ROSTER, HISTORY  # noqa: E402
from firmware.edges.keys import REPEAT  # noqa: E402,F401
from tests.table_keys import dice_path  # noqa: E402

KINDS = ("classic", "masters", "twist", "dice")
MEM_FREE = 40000   # as the twin runner reports it, so About draws the same on both
# (not phones: the mash runs a Pico, which has no Wi-Fi; tests/test_table_sim.py drives it)
SCREENS = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "firmware", "screens"))
                 if f.endswith(".py") and f not in ("__init__.py", "base.py", "phones.py"))
# What a run must have done, besides opening every screen (see Mash.missing()).
FEATURES = ("hand", "undo", "correction", "twist_card_drawn", "twist_card_entered",
            "dice_rolled", "dice_entered", "display_off_woken", "power_cycle", "name_added",
            "setting_changed")

# Plain random keys: (token, weight). Held keys auto-repeat (UP/DOWN) or are a long press.
_RANDOM = (("UP", 20), ("DOWN", 20), ("LEFT", 8), ("RIGHT", 10), ("OK", 25), ("LONG_OK", 4),
           ("HOLD_UP", 2), ("HOLD_DOWN", 2), ("HOLD_OK", 1), ("HOLD_LEFT", 1),
           ("HOLD_RIGHT", 1), ("WAIT", 3), ("SLEEP", 0.15), ("CHORD", 1.5))
_NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK")
_LOW_NUMS = (1, 2, 3, 4, 0)


class MashError(AssertionError):
    pass


def _pick(rnd, pairs):
    total = sum(w for _, w in pairs)
    x = rnd.random() * total
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


def _good_faces():
    """Per Dice phase, one throw of the real set (a face index per die) that makes it:
    what a lucky table enters, so Dice games get to the end. Mostly face 0, where the
    entry of real dice starts each die, so few keys enter it."""
    rnd = random.Random(10)
    nums = bytearray(N_DICE)
    cols = bytearray(N_DICE)
    out = {}
    for ph in range(1, 11):
        top = None
        for _ in range(4000):
            faces = [0 if rnd.random() < 0.6 else rnd.randrange(6) for _ in range(N_DICE)]
            show_faces(faces, nums, cols)
            cost = sum(1 for f in faces if f)
            if (top is None or cost < top[0]) and best(ph, nums, cols)[0] >= 0:
                top = (cost, faces)
        out[ph] = top[1]
    return out


_GOOD = {}


def _parse(tok):
    """A token as script steps: the simulator's key words, and CHORD_UP+OK (buttons
    pressed together)."""
    if tok.startswith("CHORD_"):
        bits = 0
        for k in tok[6:].split("+"):
            bits |= script.KEY_BITS[k]
        return [(bits, script.PRESS_MS, script.GAP_MS)]
    return script.parse(tok)


def _added(old, new):
    """The entries of list new that old has not (history.json keeps the newest 20)."""
    for s in range(len(old) + 1):
        if old[s:] == new[:len(old) - s]:
            return new[len(old) - s:]
    return new


def _files(state):
    """The state folder as {name: bytes}."""
    out = {}
    for n in sorted(os.listdir(state)):
        p = os.path.join(state, n)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                out[n] = f.read()
    return out


class Mash:
    """A mashing run on a state folder. run(n) plays n more events; report() says what was
    covered. power: whether to power-cycle now and then (off for a twin comparison)."""

    def __init__(self, seed=1, state=None, guide=0.72, power=True, record=False):
        self.seed = seed
        self.rnd = random.Random(seed)
        self.own = state is None
        self.state = state or tempfile.mkdtemp(prefix="phase10-mash-")
        self.guide_p = guide
        self.power = power
        self.record = record       # keep every token and a screen per chunk (twin check)
        self.tokens = []
        self.screens = []
        self.n = 0
        self.opened = {}
        self.on_top = {}
        self.counts = {f: 0 for f in FEATURES}
        self.counts.update({"tiebreak": 0, "long_wait": 0, "notes": 0, "twist_hand_card": 0})
        self.counts.update(("correction_" + k, 0) for k in KINDS)
        self.seen = set()
        self.started = dict.fromkeys(KINDS, 0)
        self.finished = dict.fromkeys(KINDS, 0)
        self.abandoned = dict.fromkeys(KINDS, 0)
        self.commits = 0
        self.flash_writes = 0     # saves and removals, over every start
        self.wall = 0.0
        self.good = _GOOD or _GOOD.update(_good_faces()) or _GOOD
        self.plans = {}
        self._steps = {}
        self.next_power = self._power_gap()
        if self.rnd.random() < 0.4 and not os.path.exists(os.path.join(self.state, "twist_layout.txt")):
            # the owner's own Twist board (the short example) on some devices
            shutil.copy(os.path.join(ROOT, "firmware", "layouts", "short.txt"),
                        os.path.join(self.state, "twist_layout.txt"))
        self.boot()
        self.first_files = self.boot_files
        # CPython's collector then skips the long-lived simulator and test objects on
        # the firmware's many gc.collect() calls: a run goes about twice as fast.
        gc.freeze()

    # --- the device ----------------------------------------------------------------------
    def _power_gap(self):
        return self.n + self.rnd.randint(300, 3000) if self.power else -1

    def boot(self):
        """Start the device on the folder (a first start, or a restart after power-off)."""
        self.boot_files = _files(self.state)
        self.boot_keys = []
        settings = {}
        if "settings.json" in self.boot_files:
            try:
                settings = json.loads(self.boot_files["settings.json"])
            except ValueError:
                pass
        # The panel the owner fitted: the one the settings name.
        panel = "sh1106" if settings.get("sh1106") is True else "ssd1306"
        seed = 1 if self.record else self.rnd.randrange(1, 1 << 30)
        # contact bounce on some starts (the twin's runner has none)
        bounce = 0 if self.record or self.rnd.random() < 0.7 else self.rnd.randint(1, 4)
        self.boot_how = (seed, bounce, panel)
        self.dev = script.Device(state=self.state, mem_free=MEM_FREE, seed=seed, panel=panel,
                                 bounce=bounce)
        self.app = self.dev.app
        self.plans = {}
        self.stack = list(self.app.stack)
        self.top = self.stack[-1]
        for s in self.stack:
            self.opened[s.module] = self.opened.get(s.module, 0) + 1
        self.game = self.app.session.game
        self.recs = list(self.game.records) if self.game is not None else None
        self.writes = -1
        self.asleep = 0
        self.hist = self._history()
        self.check_files()
        self.names = self.roster_len
        self.settings = dict(self.app.settings)

    def power_cycle(self):
        self.check_files()
        self.flash_writes += self.app.store.writes
        before = self.disk_game
        settings = dict(self.app.settings)
        self.boot()
        self.counts["power_cycle"] += 1
        app = self.app
        g = app.session.game
        if (g.to_dict() if g is not None else None) != before:
            self.fail("after a restart the running game is not the one saved")
        if app.settings != settings:
            self.fail("after a restart the settings differ: %r, were %r" % (app.settings, settings))
        names = [s.module for s in app.stack]
        if names != ["menu"]:
            self.fail("after a restart the screens are %r, not the menu (a message?)" % names)
        self.next_power = self._power_gap()

    # --- checks --------------------------------------------------------------------------
    def fail(self, what, tb=""):
        case = tempfile.mkdtemp(prefix="phase10-mash-case-")
        start = os.path.join(case, "state")
        os.mkdir(start)
        for n, b in self.boot_files.items():
            with open(os.path.join(start, n), "wb") as f:
                f.write(b)
        with open(os.path.join(case, "keys.txt"), "w") as f:
            f.write(" ".join(self.boot_keys) + "\n")
        with open(os.path.join(case, "device.json"), "w") as f:
            f.write(json.dumps(dict(zip(("seed", "bounce", "panel"), self.boot_how))) + "\n")
        raise MashError(
            "mash seed %d, event %d (%s, on %s): %s\n%s"
            "replay: .venv/bin/python tools/checks/mash.py --replay %s  (last keys: %s)"
            % (self.seed, self.n, self.boot_keys[-1] if self.boot_keys else "-",
               "/".join(s.module for s in self.stack), what, tb, case,
               " ".join(self.boot_keys[-12:])))

    def _history(self):
        """The history's games, oldest first: the full files moved aside (history.K.json,
        K up), then history.json; each a header line, then a line a game."""
        names = [n for n in os.listdir(self.state) if n.startswith("history.") and n[8:-5].isdigit()]
        names.sort(key=lambda n: int(n[8:-5]))
        out = []
        for n in names + [HISTORY]:
            p = os.path.join(self.state, n)
            if not os.path.exists(p):
                continue
            with open(p) as f:
                lines = f.read().split("\n")
            if json.loads(lines[0]) != {"format": "phase10-history", "v": 2} or lines[-1] != "":
                self.fail("%s has no header or a line cut short" % n)
            out += [json.loads(t) for t in lines[1:-1]]
        return out

    def check_files(self):
        """The files on the folder against the device in RAM (see the module's doc)."""
        st = self.state
        for n in os.listdir(st):
            if ".bad" in n or n.endswith(".tmp"):
                self.fail("%s is on the flash" % n)
        app = self.app
        g = app.session.game
        p = os.path.join(st, GAME)
        if os.path.exists(p):
            with open(p) as f:
                text = f.read()
            try:
                disk = saveload.loads(text).to_dict()
            except savefile.SaveError as e:
                self.fail("game.json does not load: %s" % e.args[0])
            if g is None:
                self.fail("game.json is on the flash but no game runs")
            if g.to_dict() != disk:
                self.fail("game.json differs from the game in RAM")
            self.disk_game = disk
        else:
            if g is not None:
                self.fail("a game runs but game.json is not on the flash")
            self.disk_game = None
        p = os.path.join(st, SETTINGS)
        if os.path.exists(p):
            with open(p) as f:
                s = check_settings(json.loads(f.read()))
            if s != app.settings:
                self.fail("settings.json %r differs from the settings in RAM %r" % (s, app.settings))
        p = os.path.join(st, ROSTER)
        self.roster_len = 0
        self.roster = {}
        if os.path.exists(p):
            from firmware.files import roster
            with open(p) as f:
                rows = roster._check(f.read())
            if rows is None:
                self.fail("roster.json is not a roster")
            self.roster_len = len(rows)
            self.roster = dict((row[0], row) for row in rows)
        h = self._history()
        if not isinstance(h, list) or [e for e in h if not isinstance(e, dict) or e.get("game") not in KINDS]:
            self.fail("history.json is not a list of games")
        return h

    def observe(self):
        """After an event: what opened, what was committed, the files when they changed."""
        app = self.app
        stack = app.stack
        old = self.stack
        for s in stack:
            for o in old:
                if o is s:
                    break
            else:
                m = s.module
                self.opened[m] = self.opened.get(m, 0) + 1
                if m == "note":
                    self.counts["notes"] += 1
        self.stack = list(stack)
        if stack[-1] is not self.top:
            # back on top: its plan starts over (see plan())
            self.top = stack[-1]
            e = self.plans.get(id(self.top))
            if e is not None and e[0] is self.top:
                e[1]["back"] = True
        top = stack[-1].module
        self.on_top[top] = self.on_top.get(top, 0) + 1
        if top == "twist_before" and stack[-1].mode in (2, 3):
            # a Twist card shown to its player (drawn) or being entered from a real deck
            s = stack[-1]
            k = (id(s), s.k, s.mode)
            if k not in self.seen:
                self.seen.add(k)
                self.counts["twist_card_drawn" if s.mode == 2 else "twist_card_entered"] += 1
        if self.asleep == 2 and app.asleep == 0:
            self.counts["display_off_woken"] += 1
        self.asleep = app.asleep
        w = app.store.writes
        g = app.session.game
        changed = g is not self.game or (g is not None and list(g.records) != self.recs)
        if w == self.writes and not changed and self.n % 50:
            return
        if changed and w == self.writes:
            self.fail("the game in RAM changed but nothing was saved")
        self.writes = w
        self.roster_was = self.roster
        h = self.check_files()
        if h != self.hist:
            for e in _added(self.hist, h):
                (self.finished if e.get("done") else self.abandoned)[e["game"]] += 1
                self.check_entry(e)
        self.hist = h
        if self.roster_len > self.names:
            self.counts["name_added"] += self.roster_len - self.names
        self.names = self.roster_len
        if app.settings != self.settings:
            self.counts["setting_changed"] += 1
            self.settings = dict(app.settings)
        if g is not self.game:
            if g is not None:
                self.started[g.KIND] += 1
                if g.records:
                    self.fail("a new game starts with records")
        elif g is not None and changed:
            self.commits += 1
            a, b = self.recs, list(g.records)
            if len(b) == len(a) + 1 and b[:-1] == a:
                self.classify(g, b[-1])
            elif len(b) == len(a) - 1 and b == a[:-1]:
                self.counts["undo"] += 1
            elif len(b) == len(a):
                self.counts["correction"] += 1
                self.counts["correction_" + g.KIND] += 1
            else:
                self.fail("records went from %d to %d in one event" % (len(a), len(b)))
        self.game = g
        self.recs = list(g.records) if g is not None else None

    def check_entry(self, e):
        """A game just put in the history: the one that ran, and (finished) its players'
        figures in the roster moved on by exactly this game."""
        g = self.game
        if g is None or e["game"] != g.KIND or e["players"] != g.settings["players"] \
                or e["hands"] != len(self.recs):
            self.fail("history entry %r is not the game that ran" % (e,))
        before = self.roster_was
        for name in e["players"]:
            new = self.roster.get(name)
            old = before.get(name) or [name, 0, 0, 0, 0]
            if not e["done"]:
                if new != before.get(name):
                    self.fail("an abandoned game changed %s's figures in the roster" % name)
                continue
            if new is None:
                if len(self.roster) < 20:
                    self.fail("%s of a finished game is not in the roster" % name)
                continue
            if new[1] != old[1] + 1 or new[2] != old[2] + (name in e["winners"]):
                self.fail("%s's games/wins went from %r to %r" % (name, old[1:3], new[1:3]))

    def classify(self, g, rec):
        if "tiebreak" in rec:
            self.counts["tiebreak"] += 1
            return
        self.counts["hand"] += 1
        if g.KIND == "twist":
            for c in rec.get("pick") or ():
                if isinstance(c, int):
                    self.counts["twist_hand_card"] += 1
        elif g.KIND == "dice":
            self.counts["dice_entered" if rec.get("how") == "entered" else "dice_rolled"] += 1

    # --- events --------------------------------------------------------------------------
    def token(self):
        if self.rnd.random() < self.guide_p:
            return self.guide()
        t = _pick(self.rnd, _RANDOM)
        r = self.rnd
        if t.startswith("HOLD_"):
            return "%s:%d" % (t, r.randint(100, 3000) if t != "HOLD_OK" else r.randint(600, 2500))
        if t == "CHORD":
            if self.record:
                return "OK"   # the twin's script has no chords
            # two or three buttons at once, a mashing palm
            return "CHORD_" + "+".join(r.sample(_NAMES, r.choice((2, 2, 3))))
        if t == "WAIT":
            return "WAIT:%d" % r.randint(10, 3000)
        if t == "SLEEP":
            # long enough to dim, sometimes to switch the display off (default 600 s, 1800 s; up to an hour set)
            self.counts["long_wait"] += 1
            return "WAIT:%d" % r.choice((16000, 601000, 1801000, 3601000))
        return t

    def press(self, tok):
        steps = self._steps.get(tok)
        if steps is None:
            steps = self._steps[tok] = _parse(tok)
        self.boot_keys.append(tok)
        try:
            self.dev.play(steps)
        except Exception as e:  # any exception out of the firmware is the bug to report
            self.fail("%s: %s" % (type(e).__name__, e), traceback.format_exc())

    def run(self, events, chunk=100):
        t0 = time.time()
        end = self.n + events
        line = []
        while self.n < end:
            if self.n == self.next_power:
                self.power_cycle()
            tok = self.token()
            self.press(tok)
            self.n += 1
            self.observe()
            if self.record:
                line.append(tok)
                if len(line) == chunk or self.n == end:
                    self.tokens.append(" ".join(line))
                    self.screens.append("\n".join(self.dev.rows()) + "\n")
                    line = []
        self.wall += time.time() - t0
        return self

    def close(self):
        if self.own:
            shutil.rmtree(self.state, ignore_errors=True)

    # --- the guide: a key with a purpose for the screen on top ----------------------------
    def plan(self, scr):
        """This screen's plan (a dict kept while the screen is on the stack); "fresh" when
        it has just come (back) on top."""
        k = id(scr)
        e = self.plans.get(k)
        if e is None or e[0] is not scr:
            e = self.plans[k] = (scr, {"back": True})
        p = e[1]
        p["fresh"] = p.pop("back", False)
        if len(self.plans) > 40:
            live = set(id(s) for s in self.app.stack)
            for key in [key for key in self.plans if key not in live]:
                del self.plans[key]
        return p

    def guide(self):
        scr = self.app.top()
        if self.app.asleep:
            return "OK"
        f = getattr(self, "g_" + scr.module, None)
        p = self.plan(scr)
        if f is None:
            return self.g_side(scr, p)
        return f(scr, p)

    def nav(self, sel, target, ok="OK", wrap=0):
        """The key that moves a list's selection towards target, ok once there; a list
        that wraps (wrap = its length) the shorter way round."""
        if wrap and sel != target:
            return "DOWN" if (target - sel) % wrap <= wrap // 2 else "UP"
        if sel < target:
            return "DOWN"
        if sel > target:
            return "UP"
        return ok

    def g_side(self, scr, p):
        """A screen visited for itself: a few keys, then back."""
        if "budget" not in p:
            p["budget"] = self.rnd.randint(2, 25)
        p["budget"] -= 1
        if p["budget"] < 0:
            return "LONG_OK"
        return self.rnd.choice(("UP", "DOWN", "DOWN", "OK", "RIGHT"))

    def g_note(self, scr, p):
        return "OK"

    def g_menu(self, scr, p):
        running = self.app.session.game is not None
        w = [(0, 60 if running else 2), (1, 6 if running else 60)]
        w += [(i, 5) for i in range(2, 8)]
        # (the menu's entries as its rows: without a game there is no Continue line)
        w = [(i - scr.first, x) for i, x in w if i >= scr.first]
        return self._home_go(scr, p, w)

    def g_newgame(self, scr, p):
        from firmware.screens import newgame as ng
        r = self.rnd
        s = scr.step
        if "kind" not in p:
            w = [(k, 1.0 / (1 + 2 * self.finished[k] + self.started[k])) for k in KINDS]
            p["kind"] = _pick(r, w)
            p["var"] = r.randrange(4)
            p["n"] = r.randint(1, 10)
            p["players"] = (r.choice((1, 1, 2, 3, 4, 8)) if p["kind"] == "dice"
                            else r.choice((2, 2, 3, 3, 4, 5, 6)))
            p["dealer"] = r.randrange(p["players"] + 1)
        if s == 0:   # a game is running: abandon it?
            if "yes" not in p:
                p["yes"] = r.random() < 0.6
            return self.nav(scr.sel, 1 if p["yes"] else 0)
        if s == 1:
            return self.nav(scr.sel, KINDS.index(p["kind"]))
        if s == 2:
            return self.nav(scr.sel, p["var"])
        if s == 3:
            return "UP" if scr.n < p["n"] else ("DOWN" if scr.n > p["n"] else "OK")
        if s == 4:
            k = len(scr.names)
            want = p["players"]
            if len(scr.picked) > want:
                return self.nav(scr.sel, scr.picked[-1])
            if len(scr.picked) == want:
                return self.nav(scr.sel, k + 1)
            free = [i for i in range(k) if i not in scr.picked]
            if not free:
                if k >= 20:
                    p["players"] = len(scr.picked) or 1
                    return "UP"
                return self.nav(scr.sel, k)     # + New player
            if scr.sel < k and scr.sel not in scr.picked:
                return "OK"
            return self.nav(scr.sel, free[0])
        if s == 5:
            return self.nav(scr.sel, min(p["dealer"], scr.count - 1))
        return "OK"

    def g_picker(self, scr, p):
        from firmware.screens.picker import WHEEL, MAX_LEN
        r = self.rnd
        t = scr.text
        if "name" not in p:
            p["name"] = r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "".join(
                r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(0, 4)))
        elif p.get("done") and t == p["name"]:
            # "done" was refused (the name is taken, say): one letter more, or another name
            p["name"] = t + "x" if len(t) < MAX_LEN else "Z"
        p["done"] = False
        want = p["name"]
        if t == want:
            ch = 0                               # done
        elif want.startswith(t):
            ch = WHEEL.index(want[len(t)])       # the next letter
        else:
            ch = len(WHEEL) - 1                  # typed by chance: delete back
        n = len(WHEEL)
        d = (ch - scr.pos) % n
        if d == 0:
            p["done"] = ch == 0
            return "OK"
        return "UP" if d <= n // 2 else "DOWN"

    def _home_go(self, scr, p, choices):
        """The key towards a line of a list picked by weight (kept until it is chosen);
        -1 among the choices means going back."""
        if p["fresh"] or "want" not in p:
            p["want"] = _pick(self.rnd, choices)
        w = p["want"]
        if w < 0:
            return "LONG_OK"
        t = self.nav(scr.sel, w)
        if t == "OK":
            p.pop("want")
        return t

    def g_confirm(self, scr, p):
        # The Undo question (firmware/screens/confirm.py): mostly yes, sometimes back out.
        return "OK" if self.rnd.random() < 0.85 else "LONG_OK"

    def g_cards_home(self, scr, p):
        n = scr.n
        return self._home_go(scr, p, ((n, 80), (n + 1, 3), (n + 2, 3), (n + 3, 5), (n + 4, 1),
                                      (self.rnd.randrange(n), 2), (-1, 2)))

    def g_hand(self, scr, p):
        r = self.rnd
        en = scr.entry
        n = en.n
        if "out" not in p:
            p["out"] = r.randrange(n)
            p["done"] = [r.random() < 0.7 for _ in range(n)]
        st = scr.stage
        if self.refused(p, st == 0):
            return "LONG_OK"
        # (the hand page's lists and steppers stop at their ends: the way to go is chosen)
        if st == 0:
            if scr.choice != p["out"]:
                return "DOWN" if scr.choice < p["out"] else "UP"
            return "OK"
        if st == 4:
            # the check page filled in what the entries leave open: the guide changes a
            # player's answer where it means another (Phase 10: completed or not), or at
            # random once (Masters: another phase that fits), then saves
            for q in range(n):
                if not en.open[q]:
                    continue
                if en.masters:
                    key = "chk%d" % q
                    if key not in p:
                        p[key] = r.random() < 0.3
                    if not p[key]:
                        continue
                elif en.made[q] == p["done"][q]:
                    continue
                if scr.row == q:
                    return "OK"
                return "UP" if scr.row == -1 or scr.row > q else "DOWN"
            return "DOWN" if scr.row != -1 else "OK"
        who = scr.p
        if st == 1:
            key = "ph%d" % who
            if key not in p or p[key] >= len(scr.opts):
                p[key] = r.randrange(len(scr.opts))
            if scr.choice != p[key]:
                return "UP" if scr.choice < p[key] else "DOWN"   # UP: a higher phase
            p["chk%d" % who] = False
            return "OK"
        done = p["done"][who]
        if st == 3:
            want = 0 if done else 1
            return "OK" if scr.choice == want else ("DOWN" if scr.choice < want else "UP")
        e = en.left[who]
        if isinstance(e, list):
            # fewer than ten cards (completed) or ten (not): LEFT takes cards away, hold OK
            # takes back what chance pressed on the page; with three buttons UP/DOWN step
            # the total on the first column and DOWN takes the other kinds off on theirs
            t = e[0] + e[1] + e[2] + e[3]
            if scr.three:
                f = scr.col
                if f == 0:
                    return "DOWN" if done and t == 10 else ("UP" if not done and t < 10 else "OK")
                return "DOWN" if e[f] else "OK"
            if (t < 10) == done:
                return "OK"
            if done:
                return "LEFT"
            return "LONG_OK" if en.nundo else "OK"
        want = 5 if done else 50
        return "UP" if e < want else ("DOWN" if e > want else "OK")

    def refused(self, p, first):
        """For a hand entry: after the rules refused it (a note came and went), go back
        page by page to the first (first: there now) and enter it again, the guide
        putting right what chance typed; after the third refusal, leave."""
        notes = self.counts["notes"]
        if p.get("notes", notes) != notes:
            p["rewind"] = True
            p["refusals"] = p.get("refusals", 0) + 1
        p["notes"] = notes
        if p.get("refusals", 0) > 3:
            return True
        if p.get("rewind"):
            if not first:
                return True
            p["rewind"] = False
        return False

    def g_gameover(self, scr, p):
        r = self.rnd
        if scr.tie:
            if "want" not in p or p["fresh"]:
                p["want"] = r.randint(2, scr.count - 1)
            return self.nav(scr.sel, p["want"])
        L = len(scr.order)
        return self._home_go(scr, p, ((L, 75), (L + 1, 8), (L + 2, 12), (-1, 5)))

    def g_sheet(self, scr, p):
        if not scr.pick:
            return self.g_side(scr, p)
        if "want" not in p:
            p["want"] = self.rnd.randrange(scr.hands())
        return self.nav(scr.sel, p["want"])

    def g_twist_home(self, scr, p):
        base = scr.head + scr.n
        acts = scr.acts
        if "Play hand" in acts:
            w = ((base, 82), (base + 1, 3), (base + 2, 6), (base + 3, 4),
                 (self.rnd.randrange(scr.n), 2), (-1, 3))
        else:
            w = ((base + 3, 70), (base, 5), (base + 1, 5), (base + 2, 12), (-1, 5))
        return self._home_go(scr, p, w)

    def g_twist_before(self, scr, p):
        r = self.rnd
        m = scr.mode
        if m == 1 or m == 2:
            return "OK"
        if m == 3:
            return r.choice(("UP", "DOWN", "OK", "OK"))
        key = "k%d" % scr.k
        if key not in p or p["fresh"]:
            p[key] = _pick(r, ((0, 3), (1, 3), (2, 3), (3, 1)))
        return self.nav(scr.sel, p[key])

    def g_twist_hand(self, scr, p):
        r = self.rnd
        if "out" not in p:
            p["out"] = r.randrange(scr.n)
            p["left"] = [r.choice((10, 10, 1, 1, 2, 3)) for _ in range(scr.n)]
        pg = scr.page
        if self.refused(p, pg == 0):
            # counts every phase allows (10: not made, 1: made) from now on
            p["left"] = [r.choice((10, 1)) for _ in range(scr.n)]
            return "LONG_OK"
        if pg == 0:
            return self.nav(scr.sel, p["out"])
        if pg == 1:
            q = scr.others()[scr.k]
            v, want = scr.left[q], p["left"][q]
            if v == want:
                return "OK"
            return "UP" if v < want else "DOWN"
        if pg == 2:
            return r.choice(("UP", "OK", "OK"))
        return self.nav(scr.sel, scr.count - 1)

    def g_twist_board(self, scr, p):
        return self.rnd.choice(("OK", "OK", "UP", "DOWN"))

    def g_twist_sheet(self, scr, p):
        if "want" not in p:
            p["want"] = self.rnd.randrange(scr.count - 1) if self.rnd.random() < 0.7 else -1
        if p["want"] < 0:
            return "LONG_OK"
        return self.nav(scr.sel, p["want"])

    def g_dice_order(self, scr, p):
        return "OK" if self.rnd.random() < 0.9 else "DOWN"

    def g_dice_home(self, scr, p):
        acts = scr.acts
        if 1 in acts:
            w = ((acts.index(1), 85), (acts.index(2), 4), (acts.index(3), 4), (-1, 3))
        else:
            w = ((acts.index(4), 75), (acts.index(2), 8), (acts.index(3), 12), (-1, 5))
        return self._home_go(scr, p, w)

    def g_dice_turn(self, scr, p):
        r = self.rnd
        if scr.free:
            return self.g_side(scr, p)
        if "mode" not in p:
            p["mode"] = _pick(r, (("roll", 55), ("good", 35), ("any", 10)))
            if p["mode"] == "good":
                faces = self.good[scr.phase]
            else:
                faces = [r.randrange(6) for _ in range(N_DICE)]
            p["want"] = [(FACE_NUM[d * 6 + faces[d]], FACE_COL[d * 6 + faces[d]]) for d in range(N_DICE)]
            if p["mode"] == "any" and r.random() < 0.5:
                # dice no real set can show: the turn must refuse them
                p["want"][0] = (p["want"][0][0], (p["want"][0][1] + 1) % 4)
                p["want"][1] = (p["want"][1][0], (p["want"][1][1] + 2) % 4)
            p["scores"] = 0
        if scr.ask == 1:
            return "OK"
        if scr.ask == 2:
            return "OK" if r.random() < 0.3 else "LONG_OK"
        acts = scr.actions()
        n = N_DICE + len(acts)

        def nav(target, ok="OK"):
            if self.app.settings["three_button"]:
                return self.nav(scr.sel, target, ok, n)    # UP/DOWN go round in a line
            if scr.sel == target:
                return ok
            return dice_path(scr.sel, target, acts).split()[0]   # on the layout as drawn

        if scr.edit:
            d = scr.sel
            num, col = p["want"][d]
            if scr.edit == 1:       # three buttons: the number, then the colour
                return "OK" if scr.nums[d] == num else "UP"
            if scr.edit == 2:
                return "OK" if scr.cols[d] == col else "UP"
            if scr.nums[d] != num:
                return "UP"
            return "OK" if scr.cols[d] == col else "RIGHT"
        if "Hint" in acts and scr.hint is None and r.random() < 0.1:
            return nav(N_DICE + acts.index("Hint"))   # now and then the advisor's hint
        if not scr.entering and (p["mode"] == "roll" or scr.count):
            if scr.count and (scr.score >= 0 or "Roll" not in acts or p.get("holds") == []
                              and r.random() < 0.3):
                return nav(N_DICE + acts.index("Stop"))
            if scr.count and p.get("holds") is None:
                p["holds"] = r.sample(range(N_DICE), r.randint(0, 4))
            if scr.count and p["holds"]:
                d = p["holds"][0]
                if scr.sel == d:
                    p["holds"].pop(0)
                    return "OK"
                return nav(d)
            t = nav(N_DICE + acts.index("Roll"))
            if t == "OK":
                p["holds"] = None
            return t
        if not scr.entering:
            return nav(N_DICE + 1)      # Real dice
        if scr.where is None:
            for d in range(N_DICE):
                if (scr.nums[d], scr.cols[d]) != p["want"][d]:
                    return nav(d)
            if p["scores"] > 2:
                # refused: these dice are not a real throw; enter a good one
                p["want"] = [(FACE_NUM[d * 6 + f], FACE_COL[d * 6 + f])
                             for d, f in enumerate(self.good[scr.phase])]
                p["scores"] = 0
            t = nav(N_DICE)
            if t == "OK":
                p["scores"] += 1
            return t
        return nav(N_DICE + 1)          # Stop

    def g_settings(self, scr, p):
        from firmware.screens.settings import ITEMS
        r = self.rnd
        s = self.app.settings
        if "todo" not in p:
            p["todo"] = r.randint(1, 3)
        if not scr.editing:
            if p["todo"] <= 0 and "item" not in p:
                return "LONG_OK"
            if "item" not in p:
                # back to five buttons and the fitted panel more often than away from them
                if s["three_button"] and r.random() < 0.7:
                    p["item"], p["value"] = 3, 0
                elif s["sh1106"] and r.random() < 0.7:
                    p["item"], p["value"] = 5, 0
                else:
                    p["item"] = r.randrange(len(ITEMS))
                    p["value"] = r.randrange(len(ITEMS[p["item"]][2]))
                    if p["item"] in (3, 5) and r.random() < 0.7:
                        p["value"] = 0
            return self.nav(scr.sel, p["item"])
        if "item" not in p or scr.sel != p["item"]:
            return "LONG_OK"
        if scr.choice < p["value"]:
            return "UP"
        if scr.choice > p["value"]:
            return "DOWN"
        del p["item"]
        p["todo"] -= 1
        return "OK"

    # --- the report ----------------------------------------------------------------------
    def missing(self):
        """What the run has not reached yet (empty: complete coverage)."""
        out = ["screen " + m for m in SCREENS if not self.opened.get(m)]
        for k in KINDS:
            if not self.started[k]:
                out.append("started " + k)
            if not self.finished[k]:
                out.append("finished " + k)
        out += [f for f in FEATURES if not self.counts[f]]
        return out

    def report(self):
        c = self.counts
        lines = [
            "mash: seed %d, %d events in %.1f s (%.0f events/s), %d flash writes"
            % (self.seed, self.n, self.wall, self.n / self.wall if self.wall else 0,
               self.flash_writes + self.app.store.writes),
            "commits (saved changes to the running game): %d = %d hands/turns, %d tie-break "
            "hands, %d undos, %d corrections" % (self.commits, c["hand"], c["tiebreak"], c["undo"],
                                                 c["correction"]),
            "games started:   " + ", ".join("%s %d" % (k, self.started[k]) for k in KINDS),
            "games finished:  " + ", ".join("%s %d" % (k, self.finished[k]) for k in KINDS),
            "games abandoned: " + ", ".join("%s %d" % (k, self.abandoned[k]) for k in KINDS),
            "corrections: " + ", ".join("%s %d" % (k, c["correction_" + k]) for k in KINDS),
            "Twist cards drawn %d, entered %d, hands saved with one %d; Dice turns rolled %d, "
            "entered %d" % (c["twist_card_drawn"], c["twist_card_entered"], c["twist_hand_card"],
                            c["dice_rolled"], c["dice_entered"]),
            "notes shown %d; settings changed %d; names added %d; long waits %d, display "
            "off and woken %d; power cycles %d" % (c["notes"], c["setting_changed"], c["name_added"],
                                                   c["long_wait"], c["display_off_woken"],
                                                   c["power_cycle"]),
            "screens (made / events on top; the menu and a game's home are made again "
            "each time they come back on top):",
        ]
        for m in SCREENS:
            lines.append("  %-13s %6d / %7d" % (m, self.opened.get(m, 0), self.on_top.get(m, 0)))
        miss = self.missing()
        lines.append("coverage: " + ("complete" if not miss else "MISSING " + ", ".join(miss)))
        return "\n".join(lines)


# --- the twin ------------------------------------------------------------------------------
def twin(events, seed, heap="256K", chunk=100):
    """Play a CPython mash (no power cycles) and the same keys on the micropython binary
    from .mpy files (tests/test_twin.py play(): the firmware under the capped heap, its
    display wired out to the controller emulator here); the screens after every chunk of
    keys and the files at the end must be the same. Returns the CPython Mash (closed)."""
    from tests.test_twin import play
    m = Mash(seed, power=False, record=True)
    state = tempfile.mkdtemp(prefix="phase10-mash-twin-")
    try:
        m.run(events, chunk)
        for n, data in m.first_files.items():    # the folder the CPython run started on
            with open(os.path.join(state, n), "wb") as f:
                f.write(data)
        try:
            got = play(state, m.tokens, heap=heap, each=True)   # the mash plays a key a call
        except AssertionError as e:
            raise MashError("seed %d: the twin failed: %s" % (seed, str(e)[-3000:]))
        for i in range(len(got)):
            if got[i] != m.screens[i]:
                raise MashError("seed %d: the twin's screen differs after chunk %d of %d keys: "
                                "%s" % (seed, i + 1, chunk, m.tokens[i]))

        # The same values; MicroPython orders a dict's keys its own way in the text. The
        # saves and the history are a JSON value a line.
        def values(files):
            return dict((k, [json.loads(t) for t in v.split(b"\n") if t] if k.endswith(".json") else v)
                        for k, v in files.items())

        a, b = values(_files(m.state)), values(_files(state))
        if a != b:
            raise MashError("seed %d: the twin's files differ: %r vs %r" % (seed, sorted(a), sorted(b)))
    finally:
        shutil.rmtree(state, ignore_errors=True)
        m.close()
    return m


def replay(case, keep=None):
    """Play a failure case (tools/checks/mash.py wrote it) on a copy of its folder: the device as
    it started (seed, bounce, panel), then its keys. Returns the Device."""
    with open(os.path.join(case, "device.json")) as f:
        how = json.loads(f.read())
    with open(os.path.join(case, "keys.txt")) as f:
        toks = f.read().split()
    state = keep or tempfile.mkdtemp(prefix="phase10-mash-replay-")
    shutil.copytree(os.path.join(case, "state"), state, dirs_exist_ok=True)
    dev = script.Device(state=state, mem_free=MEM_FREE, seed=how["seed"], panel=how["panel"],
                        bounce=how["bounce"])
    for t in toks:
        dev.play(_parse(t))
    return dev


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", help="play on this folder (kept); default a fresh temporary one")
    ap.add_argument("--twin", action="store_true",
                    help="no power cycles; then the same keys on the micropython twin")
    ap.add_argument("--heap", default="256K", help="the twin's heap (default 256K)")
    ap.add_argument("--replay", metavar="CASE", help="replay a failure case; prints the screen")
    a = ap.parse_args(argv)
    if a.replay:
        dev = replay(a.replay, a.state)
        print("\n".join(dev.rows()))
        print("screens: " + "/".join(s.module for s in dev.app.stack))
        return 0
    try:
        if a.twin:
            t0 = time.time()
            m = twin(a.events, a.seed, a.heap)
            print(m.report())
            print("twin: the same %d keys on micropython (.mpy, heap %s): same screens and "
                  "files (%.1f s in all)" % (m.n, a.heap, time.time() - t0))
            return 0
        m = Mash(a.seed, state=a.state)
        try:
            m.run(a.events)
        finally:
            print(m.report())
            m.close()
    except MashError as e:
        print(str(e), file=sys.stderr)
        return 1
    return 0 if not m.missing() else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
