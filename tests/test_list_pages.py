"""Lists turn a page at a time (issue 25: fewer bytes on the display's bus a key): the
selection moves within the page shown, and the page turns when it leaves it, the last
page a full one; a read-only page turns a page a press. On the simulated device, History
of 30 games: a move within the page sends a fraction of what a page turn sends."""
from firmware.screens.base import ListScreen, Page
from host_sim import script, sim
from tests import table_keys as K
from tests.test_finish_after_frame import history_file
from tests.test_damage_said import flash

sim.use_fake_machine()


def lst(n):
    s = ListScreen(None, n)
    return s


def test_the_selection_turns_the_page_when_it_leaves_it():
    s = lst(20)
    rows = s.rows()
    for i in range(1, rows):
        s.move(1)
        assert (s.sel, s.top) == (i, 0)
    s.move(1)
    assert (s.sel, s.top) == (rows, rows)            # the next page, on its first line
    s.move(-1)
    assert (s.sel, s.top) == (rows - 1, 0)           # back: the page before, its last line
    s.move(-rows + 1)
    s.move(-1)                                       # from the first line up: wraps
    assert (s.sel, s.top) == (19, 20 - rows)         # to the last, on a full last page
    s.move(1)
    assert (s.sel, s.top) == (0, 0)
    for _ in range(19):
        s.move(1, True)
    assert s.sel == 19 and s.top == 20 - rows        # the last page is full
    s.move(1, True)
    assert s.sel == 19                               # a held key stops at the end


def test_a_short_list_never_scrolls_and_the_menu_moves_a_line_to_its_last_entry():
    s = lst(5)
    for _ in range(7):
        s.move(1)
        assert s.top == 0
    m = lst(s.rows() + 1)
    for _ in range(s.rows()):
        m.move(1)
    assert (m.sel, m.top) == (s.rows(), 1)           # a full last page: one line on


def test_a_read_only_page_turns_a_page_a_press():
    p = Page(None, [("line %d" % i, None) for i in range(17)])
    rows = p.rows()
    p.move(1)
    assert p.top == rows
    p.move(1)
    assert p.top == 17 - rows                        # the end: a full last page
    p.move(-1)
    assert p.top == 17 - 2 * rows
    p.move(-1)
    assert p.top == 0


def test_history_moves_within_a_page_for_a_fraction_of_a_page_turns_bytes(tmp_path):
    dev = script.Device(state=flash(tmp_path, {"history.json": history_file(1, 30)}))
    dev.play(script.parse(K.menu("history")))
    h = dev.app.top()
    assert h.module == "history" and h.count == 30
    rows = h.rows()
    sent = []
    for _ in range(rows):
        b0 = dev.bus()[0]
        dev.play(script.parse("DOWN"))
        sent.append(dev.bus()[0] - b0)
    assert (h.sel, h.top) == (rows, rows)
    within, turn = sent[:-1], sent[-1]
    assert max(within) * 2 < turn, sent


def count_reads(history):
    """The list of game numbers History's reader is asked for from now on (each read
    appended as it is made)."""
    read = []
    game = history.games.game

    def counted(i):
        read.append(i)
        return game(i)
    history.games.game = counted
    return read


def test_history_turning_back_to_the_page_just_left_reads_no_game(tmp_path):
    # a page of games read from the flash took 150 ms on an RP2040: the page just left
    # is kept, and (on a heap with room, as here) the next page is read while the table
    # reads this one; a page further away is read again
    dev = script.Device(state=flash(tmp_path, {"history.json": history_file(1, 40)}))
    dev.play(script.parse(K.menu("history")))
    dev.app.run_for(2000)
    h = dev.app.top()
    rows = h.rows()
    read = count_reads(h)

    def play(keys):
        del read[:]
        dev.play(script.parse(keys))
        dev.app.run_for(2000)        # the table reads the page
    play(" ".join(["DOWN"] * rows))                   # the next page: read already
    assert h.top == rows and sorted(read) == list(range(2 * rows, 3 * rows))   # (the one after)
    play("UP")                                        # back: nothing read
    assert h.top == 0 and read == []
    play(" ".join(["DOWN"] * (rows + 1)))             # two pages on: the one after read
    assert h.top == 2 * rows and sorted(read) == list(range(3 * rows, 4 * rows))
    play(" ".join(["UP"] * (rows + 1)))               # the first page, two back:
    assert h.top == 0 and sorted(read) == list(range(rows))      # read again
