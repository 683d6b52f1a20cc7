# Every reader of the device's files run out of memory at each of its reads in turn (as a
# board short of heap would): the file is left byte for byte as it was and a message says
# so. The running game's save: test_session.py; here the settings, the roster, the
# history (a finish into it, and the History screen's browsing), the Twist layout and the
# finish journal.
# It passes from 115K (the table of modules in firmware/memory/policy.py, loaded with the
# first reader, is 3.5 KB of this 64-bit heap; a finish looks for the game's id in the
# history first, issue 48: 114K before):
# micropython heap: 120K
import json

from fakeflash import FakeFlash, Reader
from firmware.files.store import Store
from firmware.game.session import Session

PLAYERS = {"players": ["Ann", "Bob"], "dealer": 0, "variation": "first_n", "phases": 1}
FAIL = [10, 0, 0, 0]


class Once(FakeFlash):
    """A flash whose read number k (counted over every file opened for reading, from 0)
    runs out of memory, once; reads never change a file."""

    def __init__(self, files, k):
        FakeFlash.__init__(self, files)
        self.left = k
        self.starved = False

    def open(self, p, mode="r"):
        f = FakeFlash.open(self, p, mode)
        if "r" in mode:
            return _Reader(self, f.data)
        return f


class _Reader(Reader):
    def __init__(self, fs, data):
        Reader.__init__(self, data)
        self.fs = fs

    def _tick(self):
        fs = self.fs
        if fs.left == 0:
            fs.left = -1
            fs.starved = True
            raise MemoryError("memory allocation failed")
        if fs.left > 0:
            fs.left -= 1

    def read(self, n=-1):
        self._tick()
        return Reader.read(self, n)

    def readline(self, limit=-1):
        self._tick()
        return Reader.readline(self, limit)

    def readinto(self, buf):
        self._tick()
        return Reader.readinto(self, buf)


def every_read(files, run):
    """run(fs) with read k starved, k = 0, 1, ... until a run starves none; each starved
    run returns (message, names that must be unchanged). Returns how many were starved."""
    k = 0
    while True:
        fs = Once(dict(files), k)
        msg, keep = run(fs)
        if not fs.starved:
            return k
        assert msg and ("could not be read" in msg or "short of memory" in msg), (k, msg)
        for name in keep:
            assert fs.files.get(name) == files.get(name), (k, name)
        k += 1


def store(fs):
    return Store("/", fs, fs.open)


def test_settings():
    from firmware.files import settings_file
    files = {"/settings.json": b'{"contrast":192,"dim_s":30}'}

    def run(fs):
        settings, msg, unread = settings_file.load(store(fs))
        if fs.starved:
            assert unread and settings == settings_file.DEFAULTS
        return msg, ["/settings.json"]
    assert every_read(files, run) >= 1


def _finished_game_files():
    """A device with a finished 2-player game to finish, a roster and a history."""
    fs = FakeFlash()
    s = Session(store(fs))
    s.start("classic", PLAYERS)
    s.commit("add", {"out": 0, "left": [None, FAIL]})
    assert s.game.state.over
    fs.files["/roster.json"] = b'[["Ann",3,1,90,6],["Bob",3,2,80,6]]'
    lines = ['{"format":"phase10-history","v":2}']
    for n in range(1, 4):
        lines.append(json.dumps({"n": n, "game": "classic", "players": ["Ann", "Bob"],
                                 "winners": ["Bob"], "hands": 2, "done": True}))
    fs.files["/history.json"] = ("\n".join(lines) + "\n").encode()
    return dict((k, bytes(v)) for k, v in fs.files.items())


class _App:
    def __init__(self, fs):
        self.store = store(fs)
        self.session = Session(self.store)
        self.session.load()


def _reads(run, files):
    """How many reads run(fs) makes with nothing starved."""
    fs = Once(dict(files), -1)
    real = _Reader._tick
    seen = [0]

    def tick(self):
        seen[0] += 1
        real(self)
    _Reader._tick = tick
    try:
        run(fs)
    finally:
        _Reader._tick = real
    return seen[0]


def test_roster_and_history_at_a_finish():
    # Finishing reads the roster, then the history. A read that fails leaves the roster
    # and the history as they were: the finish is refused (the game still running) or,
    # once its journal is written, completed later; it never writes what it could not
    # read. (The game's own load, done first, is test_session's to starve.)
    from firmware.game import endgame
    files = _finished_game_files()
    k = _reads(_App, files)
    starved = 0
    while True:
        fs = Once(dict(files), k)
        app = _App(fs)
        assert app.session.game is not None and not fs.starved
        msg = endgame.end_game(app)
        if not fs.starved:
            assert msg is None and app.session.game is None and "/game.json" not in fs.files
            break
        assert msg and ("could not be read" in msg or "short of memory" in msg), (k, msg)
        assert fs.files["/history.json"] == files["/history.json"], k
        if "/finish.json" not in fs.files:
            # refused before the journal: nothing changed at all, the game runs on
            assert app.session.game is not None and fs.files == files, k
        k += 1
        starved += 1
    assert starved >= 2


def test_history_browsed():
    from firmware.history import histbrowse
    files = _finished_game_files()

    def run(fs):
        said = []
        b, msg, unread = histbrowse.read(store(fs), said)
        if not unread:
            msg = " ".join(said) or None
            if fs.starved:
                assert False, "a starved read must be said"
        return msg, ["/history.json"]
    assert every_read(files, run) >= 2


def test_twist_layout():
    from firmware.screens import newgame
    files = {"/twist_layout.txt": b"# mine\n1S 2 T 3 T 4 T 5 T 6 T 7 T 8 T 9 10R\n"}

    class App:
        def __init__(self, fs):
            self.store = store(fs)
            self.said = []

        def say(self, m):
            self.said.append(m)

    def run(fs):
        app = App(fs)
        codes = newgame._layout(app)
        if fs.starved:
            # the default board, said; the owner's file kept
            assert len(codes) == 27
        else:
            assert len(codes) == 17 and not app.said
        return " ".join(app.said) or None, ["/twist_layout.txt"]
    assert every_read(files, run) >= 1


def test_finish_journal():
    # A finish cut short by a power cut left its journal: the next start completes it,
    # unless a read fails: the journal unread touches nothing; the history unread is left
    # as it is and the journal kept for the next start. Always said.
    files = _finished_game_files()
    entry = {"n": 4, "game": "classic", "players": ["Ann", "Bob"], "winners": ["Ann"],
             "hands": 1, "done": True}
    files["/finish.json"] = json.dumps({"n": 4, "roster": [["Ann", 4, 2, 90, 7], ["Bob", 4, 2, 130, 7]],
                                        "entry": entry}).encode()

    def run(fs):
        s = Session(store(fs))
        s.load()
        msg = " ".join(s.messages) or None
        if fs.starved and "finish.json could not be read" in (msg or ""):
            return msg, list(files)
        return msg, ["/history.json"] if "/finish.json" in fs.files else []
    assert every_read(files, run) >= 2
