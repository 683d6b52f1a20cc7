"""History opens reading history.json only (issue 25: 1,000 games took most of a second to
open on a Pico): each older file counts 100 games until the list reaches it, then the list
is exactly what the files hold. Played on the simulated device."""
import sys

from firmware.files import store as store_mod
from firmware.screens import history as history_screen
from host_sim import script, sim
from tests import table_keys as K
from tests.test_damage_said import flash, notes, press
from tests.test_history_full_notes import archive
from tests.test_list_pages import count_reads

sim.use_fake_machine()


def opened(monkeypatch):
    names = []
    real = store_mod.Store.open

    def counting(self, name, mode="rb"):
        names.append(name)
        return real(self, name, mode)
    monkeypatch.setattr(store_mod.Store, "open", counting)
    return names


def test_history_reads_the_older_files_only_when_the_list_reaches_them(tmp_path, monkeypatch):
    # an older file short of 100 games (as a damaged one set aside would leave things)
    dev = script.Device(state=flash(tmp_path, {"history.1.json": archive(1, 3), "history.2.json": archive(4, 100),
                                               "history.json": archive(104, 10)}))
    names = opened(monkeypatch)
    press(dev, K.menu("history"))
    h = dev.app.top()
    # (the page after the first, rows 6-11, is read ahead while the first is shown: its
    # last two games are the newest of history.2.json; history.1.json is two pages on)
    assert h.module == "history" and "history.1.json" not in names, names
    assert set(names) <= {"history.json", "history.2.json"}, names
    assert h.games.game(h.sel)["n"] == 113
    # down into history.2.json: read then, its 100 games as counted
    dev.play(script.parse(K.down(10)))
    assert "history.2.json" in names and "history.1.json" not in names
    assert h.games.game(h.sel)["n"] == 103
    # UP from the top wraps to the oldest game: history.1.json read, the list made exact
    dev.play(script.parse(K.up(10) + " UP"))
    assert notes(dev) == []
    h = dev.app.top()
    assert h.count == 113 and h.sel == 112 and h.games.game(h.sel)["n"] == 1, (h.count, h.sel)
    # and round again to the newest
    dev.play(script.parse("DOWN"))
    assert dev.app.top().sel == 0 and dev.app.top().games.game(0)["n"] == 113


def test_the_next_page_and_the_games_on_screen_are_read_while_the_list_is_read(tmp_path):
    # On a heap with room (the simulator's), History reads the next page's games while
    # the table reads the first (App polls its tick), so turning the page and opening a
    # game read none of their games from the flash then.
    dev = script.Device(state=flash(tmp_path, {"history.json": archive(1, 30)}))
    press(dev, K.menu("history"))
    h = dev.app.top()
    n = h.rows()
    read = count_reads(h)
    dev.app.run_for(2000)                 # the table reads the first page
    assert sorted(h.shown) == list(range(2 * n)), sorted(h.shown)
    # of each game, what its page reads (not the rest of its line: a score sheet is most
    # of a finished game's line)
    assert set(h.shown[n][2]) == {"game", "players", "winners", "hands", "done"}
    dev.play(script.parse(K.down(n)))     # the page turns...
    assert h.top == n and h.sel == n
    assert not [i for i in read if i < 2 * n], read     # ...to games already read
    assert sorted(read) == list(range(2 * n, 3 * n)), read   # (and the next are read)
    del read[:]
    dev.play(script.parse("OK"))          # the game on that row (newest first: 30 - n)
    g = dev.app.top()
    assert g.module == "history" and read == [], read
    assert ("Hands", "3") in g.lines and ("  Cid", None) in g.lines
    # the page that reading the game's line from the flash gives
    whole = history_screen.Game(None, h.games.game(n))
    assert (g.title, g.lines) == (whole.title, whole.lines)


def test_the_reading_ahead_takes_one_game_a_poll(tmp_path):
    # a key pressed while the next page is read waits for one game's reading at most
    dev = script.Device(state=flash(tmp_path, {"history.json": archive(1, 30)}))
    press(dev, K.menu("history"))
    h = dev.app.top()
    n = h.rows()
    for i in range(n, 2 * n):        # as if the page had just been turned to
        del h.shown[i]
    seen = []
    for _ in range(4 * n):
        dev.app.step()
        seen.append(len([i for i in h.shown if i >= n]))
    steps = [b - a for a, b in zip([0] + seen, seen)]
    assert max(steps) == 1 and seen[-1] == n, seen


def page(e):
    g = history_screen.Game(None, e)
    return g.title, g.lines


def test_what_history_keeps_of_a_game_makes_the_same_page_as_its_whole_line():
    # History keeps PAGE_READS of each game read ahead: a field the page came to read
    # without it being named there would be missing from a page opened from the
    # read-ahead. The longest lines of each kind, unfinished, co-won and a variation.
    from tests import worst
    lines = []
    for e in worst._finished_entries():
        lines += [e, dict(e, done=False), dict(e, winners=e["players"][:2]),
                  dict(e, variation="first_n", phases=7), dict(e, variation="even"),
                  dict(e, start=1795896000), dict(e, start=1795896000, end=1795903200)]
    for e in lines:
        kept = {k: e[k] for k in history_screen.PAGE_READS if k in e}
        assert len(kept) < len(e)
        assert page(kept) == page(e), e
    # and each field named is read: without it some page differs
    for k in history_screen.PAGE_READS:
        assert [e for e in lines if k in e and page({f: v for f, v in e.items() if f != k}) != page(e)], k


def test_on_a_small_heap_a_games_page_is_made_after_the_collection_before_it_opens(tmp_path, monkeypatch):
    # A game's page is made when it opens, after the collection a small heap makes before
    # a screen is built (Memory.room), not in the list's OK with the garbage of reading the
    # game still about
    dev = script.Device(state=flash(tmp_path, {"history.json": archive(1, 30)}))
    dev.app.memory.small = True
    press(dev, K.menu("history"))
    assert dev.app.top().module == "history" and dev.app.top().shown[0][2] is None
    seen = []
    # (the module the list was made from: the app loads a screen's module afresh)
    mod = sys.modules[type(dev.app.top()).__module__]
    real_page, real_room = mod.Game, dev.app.memory.room

    def game_page(app, e):
        seen.append("page")
        return real_page(app, e)

    def room():
        seen.append("collect")
        return real_room()
    monkeypatch.setattr(mod, "Game", game_page)
    monkeypatch.setattr(dev.app.memory, "room", room)
    press(dev, "OK")
    g = dev.app.top()
    assert g.module == "history" and ("  Cid", None) in g.lines
    assert seen == ["collect", "page"], seen


def damaged_between(tmp_path, newest=30):
    """newest games in history.json, history.2.json 500 bytes of garbage, 100 games in
    history.1.json: History counts 100 games for history.2.json till the list reaches it."""
    return script.Device(state=flash(tmp_path, {
        "history.json": archive(101, newest), "history.2.json": bytes(range(7, 250)) * 2 + b"x" * 14,
        "history.1.json": archive(1, 100)}))


def test_an_older_file_found_damaged_while_history_is_open_is_said_then(tmp_path):
    # the message waited in the browser's list, read only as History opens: 100 games left
    # the list and history.2.json became history.2.json.bad1 without a word (issue 42)
    dev = damaged_between(tmp_path)
    assert press(dev, K.menu("history")) == []
    h = dev.app.top()
    said = []
    while h.sel < 29 and not said:
        said = press(dev, "DOWN") + notes(dev)
    said += press(dev, "DOWN")     # into the older files: a read of history.2.json at the latest
    assert len(said) == 1 and "history.2.json" in said[0] and "history.2.json.bad1" in said[0], said
    assert (tmp_path / "history.2.json.bad1").exists() and not (tmp_path / "history.2.json").exists()
    h = dev.app.top()
    assert h.module == "history" and h.count == 130 and h.games.game(30)["n"] == 100


def test_an_older_file_found_damaged_by_the_read_ahead_is_said_then(tmp_path):
    # on a heap with room the next page is read while the first is shown: with 7 games in
    # history.json the first page is theirs and the next reaches history.2.json
    dev = damaged_between(tmp_path, 7)
    said = press(dev, K.menu("history"))      # (the keys, and the polls between them)
    h = dev.app.top()
    assert h.module == "history" and h.rows() <= 7 < 2 * h.rows() and h.top == 0
    assert len(said) == 1 and "history.2.json.bad1" in said[0], said
    assert h.count == 107
