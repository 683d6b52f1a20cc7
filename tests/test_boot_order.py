"""Start-up with a running game (issue 25): on a heap with room the first frame, the menu
naming the game's kind off the save's first line, goes out before the save is read (the
.mpy install spent half its start-up reading the 55-hand save); a small heap reads it
first. A save that cannot be read is said after, and the menu then opens on New game."""
from engine_mpy import savefile
from firmware.game import session as session_mod
from firmware.draw.display import Display
from host_sim import script, sim
from tests.test_damage_said import flash, notes, v1_save

sim.use_fake_machine()
FAIL = [10, 0, 0, 0]
SETTINGS = {"players": ["Ann", "Bob"], "dealer": 0}


def boot(tmp_path, monkeypatch, files, small=False):
    """The device started on files: (what happened in order: "frame" with the panel's rows,
    "load"; the device)."""
    import machine
    seen = []
    real_show = Display.show
    real_load = session_mod.Session.load

    def show(self):
        real_show(self)
        seen.append(("frame", machine.panel().rows()))

    def load(self):
        seen.append(("load", None))
        return real_load(self)
    monkeypatch.setattr(Display, "show", show)
    monkeypatch.setattr(session_mod.Session, "load", load)
    monkeypatch.setattr(session_mod, "small_heap", lambda: small)
    dev = script.Device(state=flash(tmp_path, files))
    return seen, dev


def game():
    return {"game.json": v1_save("classic", SETTINGS, [{"out": 0, "left": [None, FAIL]}])}


def test_the_menu_names_the_game_before_its_save_is_read(tmp_path, monkeypatch):
    seen, dev = boot(tmp_path, monkeypatch, game())
    order = [k for k, _ in seen]
    assert order[0] == "frame" and "load" in order
    assert dev.app.session.game is not None and dev.app.session.game.KIND == "classic"
    # the first frame is the menu as it stays once the game is read: "Continue Phase 10"
    assert dev.app.top().module == "menu" and dev.app.top().sel == 0
    assert dev.app.top().label(0) == "Continue Phase 10"
    assert seen[0][1] == dev.rows()
    # and the game is there to continue
    dev.play(script.parse("OK"))
    assert dev.app.top().module == "cards_home"


def test_a_small_heap_reads_the_save_before_the_first_frame(tmp_path, monkeypatch):
    seen, dev = boot(tmp_path, monkeypatch, game(), small=True)
    assert [k for k, _ in seen][:2] == ["load", "frame"]
    assert dev.app.top().label(0) == "Continue Phase 10"


def test_a_save_that_cannot_be_read_is_said_after_the_first_frame_and_the_menu_opens_on_new_game(tmp_path, monkeypatch):
    bad = {"game.json": '{"format":"phase10","v":1,"game":"classic","settings":{"players":["Ann"]},"records":[}'}
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    good, _ = boot(tmp_path / "good", monkeypatch, game())
    monkeypatch.undo()
    seen, dev = boot(tmp_path / "bad", monkeypatch, bad)
    # the first frame names the kind the first line says, as for a good save
    assert seen[0][0] == "frame" and seen[0][1] == good[0][1]
    said = notes(dev)
    assert said and "game.json" in said[0]
    assert dev.app.session.game is None
    assert dev.app.top().module == "menu" and dev.app.top().sel == 0
    assert dev.app.top().label(0) == "New game"          # (no game: no Continue line)
    assert dev.rows() != seen[0][1]


def test_a_finish_journal_or_an_unknown_kind_is_read_before_the_first_frame(tmp_path, monkeypatch):
    files = {"game.json": v1_save("classic", SETTINGS, []).replace('"classic"', '"poker"')}
    seen, dev = boot(tmp_path, monkeypatch, files)
    assert [k for k, _ in seen][:2] == ["load", "frame"]
    assert dev.app.session.game is None


def test_the_kinds_a_first_frame_names_are_the_ones_the_save_reader_knows():
    assert sorted(session_mod.KNOWN) == sorted(savefile.KINDS)


def start_short(tmp_path, monkeypatch, where, files):
    """main.run() on the fake machine, on files, with where(monkeypatch, main) making
    start-up run out of memory: (the panel's bytes, the note's bytes as they should be,
    the files before and after)."""
    import machine
    import pytest
    from firmware import main
    from firmware.draw import gfx
    from firmware.edges.board import Board
    from firmware.screens.base import wrap
    from host_sim.vclock import VirtualClock
    state = flash(tmp_path, files)
    saved = _files(tmp_path)
    where(monkeypatch, main)
    machine.reset_world("ssd1306")
    clock = VirtualClock(0)
    machine.use_clock(clock)
    real = main.build
    # the board's main.run(), on the fake machine
    monkeypatch.setattr(main, "build", lambda board: real(board, clock, state, None, 1))
    with pytest.raises(MemoryError):
        main.run(Board("pico"))
    want = gfx.canvas(bytearray(1024))
    lines = wrap(main.OUT_OF_MEMORY % 0)      # (CPython has no heap figure to give)
    assert len(lines) == 8 and lines[0] == "Out of memory at"
    for i, line in enumerate(lines):
        want.text(line, 0, 8 * i)
    return machine.panel().raw(), bytes(want.buf), saved, _files(tmp_path)


def _files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _short(*a):
    raise MemoryError("memory allocation failed")


def test_start_up_out_of_memory_says_so_on_the_display(tmp_path, monkeypatch):
    # A heap too small for this install (the .mpy install on an ESP32's first 64 KB: the
    # bench's --heap 64) runs out while start-up reads the game: the display says what to
    # do, where a first frame had stayed up that no key moved; the save is untouched
    def reading(monkeypatch, main):
        monkeypatch.setattr(session_mod.Session, "load", _short)
        monkeypatch.setattr(session_mod, "small_heap", lambda: True)     # read before the menu
    shown, want, before, after = start_short(tmp_path, monkeypatch, reading, game())
    assert shown == want and after == before


def test_out_of_memory_starting_the_table_on_phones_is_said_the_same_way(tmp_path, monkeypatch):
    # the last of start-up: the table on phones, its server's code and the network
    def table(monkeypatch, main):
        from firmware.app import App
        monkeypatch.setattr(main, "table_on", _short)
        monkeypatch.setattr(App, "run", lambda app: None)     # (were the error let through)
    shown, want, before, after = start_short(tmp_path, monkeypatch, table, {})
    assert shown == want and after == before
