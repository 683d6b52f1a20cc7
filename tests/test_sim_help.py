# The Help screen (hold OK and press UP, on any screen) and hand entry with three buttons,
# on the simulated device from its first key.
import os
import shutil
import tempfile

from host_sim import script, sim
from tests import table_keys as K

sim.use_fake_machine()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def screens():
    d = os.path.join(ROOT, "firmware", "screens")
    out = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".py"):
            with open(os.path.join(d, f)) as src:
                if "\ndef make(" in src.read():
                    out.append(f[:-3])
    return out


def test_every_screen_has_its_keys_in_help():
    from firmware.screens import help
    names = [m for m in screens() if m != "help"]
    assert len(names) > 20
    for m in names:
        assert help.keys_text(m), "no help for the %s screen" % m
    # and nothing is told of a screen that does not exist
    texts = [f[:-3] for f in os.listdir(os.path.join(ROOT, "firmware", "helptext")) if f.endswith(".py")]
    assert len(texts) > 20 and set(texts) <= set(names) and set(help._SAME) <= set(names)


def test_help_holds_only_the_text_of_the_screen_it_opens_over():
    # each screen's text is its own module: gone from sys.modules once Help has it (a
    # small heap), kept where the heap has room (loaded ahead: Memory.prefetch)
    import sys
    from engine_mpy.modules import forget
    from firmware.screens import help
    for m in [m for m in sys.modules if m.startswith("firmware.helptext.")]:
        forget(m, True)
    assert help.keys_text("hand") and help.keys_text("about") == help.keys_text("note")
    assert not [m for m in sys.modules if m.startswith("firmware.helptext.")]
    assert help.keys_text("no_such_screen") is None
    assert help.keys_text("hand", True) and "firmware.helptext.hand" in sys.modules
    forget("firmware.helptext.hand", True)


def test_on_a_heap_with_room_the_screens_help_text_is_loaded_ahead_and_dropped_with_the_rest():
    import sys
    from engine_mpy.modules import forget
    t = Dev()
    try:
        app = t.dev.app
        assert not app.memory.small
        forget("firmware.helptext.menu", True)
        app.memory.ahead_of = None
        app.run_for(2000)       # polls without a key: the code ahead, then the text
        assert app.top().module == "menu" and "firmware.helptext.menu" in sys.modules
        app.memory.evict()
        assert not [m for m in sys.modules if m.startswith("firmware.helptext.")]
    finally:
        t.close()


# Screens no golden case ends on, each opened by keys of its own (with a game running as
# the golden cases start them): every screen that names a shown item is checked.
_EXTRA = (
    ("players", lambda G: G.menu("players")),
    ("sheet", lambda G: " ".join([G._CA, G._CA_H1, "DOWN DOWN DOWN OK"])),   # Correct a hand
    ("gameover", lambda G: G._TIE + " OK"),   # the tie-break hand decided: a winner
    ("menu", lambda G: G._CA + " LONG_OK"),   # with a game running: Continue
)


def shown_by_screen():
    """{module: every text its screens drew} over the golden cases (host_sim/golden.py)
    and the extra scripts above: the title and lines drawn, and every line of a list,
    scrolled or not."""
    from host_sim import golden as G
    cases = [(keys, None) for _, keys in G.CASES] + [(f(G), m) for m, f in _EXTRA]
    out = {}
    for keys, want in cases:
        state = tempfile.mkdtemp(prefix="phase10-helpcheck-")
        try:
            dev, keys = G.start(keys, state)      # as the golden case sets its device up
            dev.play(script.parse(keys))
            app = dev.app
            scr = app.top()
            if want:
                assert scr.module == want, (want, scr.module)
            got = out.setdefault(scr.module, set())
            c = app.canvas
            text = c.text
            c.text = lambda s, *a, **k: (got.add(s), text(s, *a, **k))[1]
            try:
                app.redraw()
            finally:
                c.text = text
            got.add(getattr(scr, "title", "") or "")
            if callable(getattr(scr, "label", None)) and isinstance(getattr(scr, "count", None), int):
                try:
                    for i in range(scr.count):
                        got.add(scr.label(i) or "")
                        got.add(scr.value(i) or "")
                except AttributeError:
                    pass     # (a page of a screen whose list is another page's)
        finally:
            shutil.rmtree(state, ignore_errors=True)
    return out


_KEY_WORDS = ("UP", "DOWN", "LEFT", "RIGHT", "OK")


def keys_taken(module):
    """The keys a screen's code acts on: the ones its module compares key codes with
    (beside their const lines), those of a list (UP, DOWN, OK, RIGHT), and LEFT and OK,
    which go back on any screen that does not take them (app.py)."""
    import re
    with open(os.path.join(ROOT, "firmware", "screens", module + ".py")) as f:
        src = f.read()
    # a screen made of another screen's class (the free roller is a Dice turn) takes its keys
    for other in set(re.findall(r"^\s*from firmware\.screens\.(\w+) import", src, re.M)) - {"base"}:
        with open(os.path.join(ROOT, "firmware", "screens", other + ".py")) as f:
            src += f.read()
    taken = {"LEFT", "OK"}
    if re.search(r"^class \w+\((ListScreen|GameHome|Page)\)", src, re.M):
        taken |= {"UP", "DOWN", "OK", "RIGHT"}
    for k in _KEY_WORDS:
        uses = [l for l in src.splitlines() if re.search(r"\b_%s\b" % k, l) and "const(" not in l]
        if uses:
            taken.add(k)
    return taken


def test_help_names_only_what_its_screen_shows_and_takes():
    import re
    from firmware.screens import help
    shown = shown_by_screen()
    checked = 0
    for m in screens():
        if m == "help":
            continue
        text = help.keys_text(m)
        text = b" ".join(text) if isinstance(text, tuple) else text
        text = text.decode()
        items = re.findall(r'"([^"]+)"', text)
        if items:
            assert m in shown, "Help names items of %s, which no script opens" % m
            for item in items:
                assert any(item in s for s in shown[m]), \
                    "Help for %s names %r; the screen shows %r" % (m, item, sorted(shown[m]))
                checked += 1
        named = set(re.findall(r"\b(%s)\b" % "|".join(_KEY_WORDS), text))
        assert named <= keys_taken(m), "Help for %s names %s, which it does not take" % (
            m, sorted(named - keys_taken(m)))
    assert checked > 30
    # the standings' action is "End of hand", and the score sheet claims no correction
    # the plain sheet cannot make
    assert b'"End of hand"' in help.keys_text("cards_home") and b"Play hand" not in help.keys_text("cards_home")
    assert b"OK on a hand corrects it" not in help.keys_text("sheet")


def test_help_pages_down_and_the_phases_are_one_press_away():
    t = Dev()
    try:
        top = t.keys("HELP")
        assert top.module == "help" and top.top == 0
        t.keys("DOWN")
        assert top.top == 7                       # a page (7 lines) a press
        t.keys("UP UP")
        assert top.top == 0                       # stops at the top
        t.keys("RIGHT")
        lines = [s.decode() for s, _ in top.lines()]
        assert lines[top.top] == "Phases:"        # one press from anywhere
        t.keys("DOWN DOWN DOWN DOWN DOWN DOWN")
        assert top.top == top.count - 7           # stops at the end
        t.keys("RIGHT")
        assert top.top == 0                       # and RIGHT again: the top
        assert t.keys("OK").module == "menu"
    finally:
        t.close()


class Dev:
    def __init__(self):
        self.state = tempfile.mkdtemp(prefix="phase10-help-")
        self.dev = script.Device(state=self.state, mem_free=40000)

    def keys(self, k):
        self.dev.play(script.parse(k))
        return self.dev.app.top()

    def words(self):
        return " ".join(s.decode() for s, _ in self.dev.app.top().lines())

    def close(self):
        shutil.rmtree(self.state, ignore_errors=True)


def test_help_in_the_middle_of_a_hand_keeps_the_entry():
    t = Dev()
    try:
        t.keys(K.new_game("classic", ["Ann", "Bob", "Cid"], dealer=0))
        h = t.keys("OK DOWN OK LEFT LEFT LEFT UP")  # Bob out; Ann: 2 cards, one a 10-12
        assert h.module == "hand" and h.entry.left[0] == [1, 1, 0, 0]
        top = t.keys("HELP")
        assert top.module == "help"
        text = t.words()
        assert "10-12" in text and "Skip" in text and "Wild" in text
        # the dice colours and the phases are there too, each colour with its pattern
        assert "red solid" in text and "orange hatched" in text
        assert "blue dotted" in text and "green striped" in text
        assert "7 cards of one colour" in text
        # a second chord does not stack another help; OK goes back to the hand as it was
        assert t.keys("HELP").module == "help" and len(t.dev.app.stack) == 4
        h = t.keys("OK")
        assert h.module == "hand" and h.entry.left[0] == [1, 1, 0, 0] and h.seq[h.pos] & 7 == 0
        t.keys("OK OK OK")
        assert t.dev.app.session.game.records[0]["left"] == [[1, 1, 0, 0], None, [10, 0, 0, 0]]
    finally:
        t.close()


def test_help_on_the_dice_turn_tells_its_keys():
    t = Dev()
    try:
        t.keys(K.menu("dice roller") + " OK HELP")
        text = t.words()
        assert "Hint" in text and "holds it" in text and "Roll" in text
        assert t.keys("OK").module == "dice_roller" or t.dev.app.top().module == "dice_turn"
    finally:
        t.close()


def test_a_hand_entered_with_three_buttons():
    t = Dev()
    try:
        # Settings > 3 buttons: yes; then only UP, DOWN and OK (hold OK goes back)
        t.keys(K.menu("settings") + " DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP")
        assert t.dev.app.settings["three_button"] is True
        t.keys(K.new_game("classic", ["Ann", "Bob", "Cid"], dealer=0))
        assert t.dev.app.top().module == "cards_home"
        # Bob out. Ann completed phase 1 (6 cards laid: at most 4 kept): on the 1-9
        # column DOWN goes 10 -> 4 -> 3; OK to the 10-12 column, UP one; OK to Skip, UP
        # one; OK to Wild; OK: Cid, who keeps ten: OK through his four columns.
        h = t.keys("OK DOWN OK DOWN DOWN")
        assert h.entry.left[0] == [3, 0, 0, 0] and h.col == 0
        h = t.keys("OK UP OK UP")
        assert h.entry.left[0] == [1, 1, 1, 0] and h.col == 2
        # pressed LEFT and RIGHT do nothing with three buttons
        t.keys("LEFT RIGHT")
        assert h.entry.left[0] == [1, 1, 1, 0]
        # OK on the last column (Wld) goes on to Cid; he keeps ten 1-9: hold OK moves on
        t.keys("OK")
        assert h.col == 3
        t.keys("OK")
        assert h.seq[h.pos] & 7 == 2 and h.col == 0
        t.keys("LONG_OK")
        assert h.stage == 4                      # the check page
        t.keys("OK")
        rec = t.dev.app.session.game.records[0]
        assert rec["left"] == [[1, 1, 1, 0], None, [10, 0, 0, 0]]
        assert [p["total"] for p in t.dev.app.session.game.players()] == [30, 0, 50]
    finally:
        t.close()


def test_help_counts_its_lines_without_the_phases_texts_and_counts_them_right():
    # Help opens without loading the phases' texts (help._PHASE_LINES stands for their
    # lines): for every screen, its count and its "Phases:" line are the lines it shows
    import sys
    from firmware.screens import help
    t = Dev()
    try:
        for under in [m for m in screens() if m != "help"]:
            h = help.Help(t.dev.app, under)
            lines = [s for s, _ in h.lines()]
            assert h.count == len(lines), under
            assert lines[h.phases] == b"Phases:", under
            assert lines[:7] == [s for s, _ in h.page], under
            saved = sys.modules.pop("engine_mpy.phases", None)
            try:
                help.Help(t.dev.app, under)
                assert "engine_mpy.phases" not in sys.modules, under
            finally:
                if saved is not None:
                    sys.modules["engine_mpy.phases"] = saved
    finally:
        t.close()


THREE = K.menu("settings") + " DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP"
POINTS = K.menu("settings") + " DOWN DOWN DOWN DOWN OK UP OK LONG_OK UP UP UP UP"


def test_with_three_buttons_hold_ok_goes_to_the_next_player_from_every_page():
    # issue 41: on Ma's and Ca's hand page hold OK went back (the terminal's Escape is a
    # LONG_OK; HOLD_OK:800 a held OK): README and Help say it goes to the next player
    for kind, hold in (("masters", "LONG_OK"), ("classic", "HOLD_OK:800"), ("classic", "LONG_OK")):
        t = Dev()
        try:
            t.keys(THREE)
            t.keys(K.new_game(kind, ["Ma", "Ca", "Bo"], dealer=0))
            h = t.keys("OK OK")                  # End of hand; Ma went out
            if kind == "masters":
                h = t.keys("OK")                 # Ma's phase
            assert h.stage == 2 and h.seq[h.pos] & 7 == 1 and h.col == 0   # Ca's cards, first column
            t.keys(hold)
            assert h.stage == 2 and h.seq[h.pos] & 7 == 2, kind   # Bo's page
            t.keys("OK OK " + hold)              # from the third column too
            assert h.stage == 4, kind            # the check page
            # hold OK there: back to who went out, everything typed kept; there it leaves
            t.keys(hold)
            assert h.stage == 0 and h.choice == 0 and h.entry.left[1] == [10, 0, 0, 0]
            assert t.keys(hold).module == "cards_home"
            assert not t.dev.app.session.game.records
        finally:
            t.close()


def test_with_three_buttons_a_points_page_goes_on_with_hold_ok_and_shows_no_left_or_right():
    t = Dev()
    try:
        t.keys(THREE + " " + POINTS)
        assert t.dev.app.settings["entry"] == "points" and t.dev.app.settings["three_button"]
        t.keys(K.new_game("classic", ["Ma", "Ca", "Bo"], dealer=0))
        h = t.keys("OK OK UP")                   # Ma out; Ca: 65 points
        assert h.entry.left[1] == 65
        drawn = []
        c = t.dev.app.canvas
        glyph = c.glyph
        c.glyph = lambda name, *a: (drawn.append(name), glyph(name, *a))[1]
        try:
            t.dev.app.redraw()
        finally:
            c.glyph = glyph
        assert "up" in drawn and "left" not in drawn and "right" not in drawn
        t.keys("LONG_OK")
        assert h.seq[h.pos] & 7 == 2             # Bo's page
    finally:
        t.close()


def test_with_three_buttons_help_names_only_up_down_and_ok():
    import re
    from firmware.screens import help
    t = Dev()
    try:
        t.keys(THREE)
        app = t.dev.app
        assert app.settings["three_button"]
        for under in [m for m in screens() if m != "help"]:
            words = " ".join(s.decode() for s, _ in help.Help(app, under).lines(False))
            assert not re.search(r"\b(LEFT|RIGHT)\b|[<]", words), (under, words)
        hand = " ".join(s.decode() for s, _ in help.Help(app, "hand").lines(False))
        assert hand.startswith("Who went out") and "hold OK: next player" in hand and "undo" not in hand
        assert "Everywhere: hold OK goes back" in hand
        roller = " ".join(s.decode() for s, _ in help.Help(app, "dice_turn").lines(False))
        assert "in a line" in roller and "laid out" not in roller
        # and with five buttons, the five-button words (none of the three-button ones)
        t.keys(K.menu("settings") + " DOWN DOWN DOWN OK DOWN OK LONG_OK UP UP UP UP")
        assert not app.settings["three_button"]
        hand = " ".join(s.decode() for s, _ in help.Help(app, "hand").lines(False))
        assert "RIGHT one more Skip" in hand and "next player" not in hand
        assert "Everywhere: LEFT or hold OK goes back" in hand
    finally:
        t.close()


def test_the_undo_question_and_the_phones_pages_name_keys_three_buttons_have():
    # "<: keep" named a LEFT that three buttons do not have; hold OK keeps with both
    from firmware.screens import confirm
    t = Dev()
    try:
        t.keys(THREE + " " + K.new_game("classic", ["Ma", "Ca"], dealer=0))
        t.keys("OK OK OK OK OK OK OK")           # a hand saved: Ma out, Ca's four columns, save
        assert len(t.dev.app.session.game.records) == 1
        t.dev.app.push("confirm", "undo")
        drawn = []
        c = t.dev.app.canvas
        text = c.text
        c.text = lambda s, *a, **k: (drawn.append(s), text(s, *a, **k))[1]
        try:
            t.dev.app.redraw()
        finally:
            c.text = text
        hint = [s for s in drawn if s.startswith("OK: undo")]
        assert hint and "<" not in hint[0] and "hold: keep" in hint[0]
        t.keys("LONG_OK")                        # keeps it, as it says
        assert len(t.dev.app.session.game.records) == 1 and t.dev.app.top().module == "cards_home"
    finally:
        t.close()
