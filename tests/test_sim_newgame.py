# Engineer A's screens on the simulator, driven by keys from start-up: the menu's wiring,
# New game (all four games, the variations, abandoning a running game), the character
# picker, Players, History and Rules. The game screens of the other engineers are only
# pushed here: the test records the push (with its argument) and what is on flash.
import json

from tests import histfile
import os

from host_sim import script, sim
from tests import table_keys as K
from firmware.screens.picker import WHEEL

sim.use_fake_machine()

NEW_GAME = K.menu("new game")      # the menu opens on New game when no game runs
# Players page: "+ New player" (OK) opens the picker; table_keys types the name on it.
ADD_A = "OK " + K.type_name("A")          # "+ New player" is row 0 of an empty roster
ADD_B = "DOWN OK " + K.type_name("B")     # after A: rows A, + New player, Next
ADD_C = "DOWN OK " + K.type_name("C")


def device(tmp_path, keys=""):
    dev = script.Device(state=str(tmp_path))
    pushed = []
    # (the app's push is the stack's own, bound once: a screen's push goes through the
    # app's, the stack's own opening of a screen through the stack's)
    push = dev.app.screens.push

    def spy(name, arg=None):
        pushed.append((name, arg))
        return push(name, arg)
    dev.app.push = dev.app.screens.push = spy
    dev.pushed = pushed
    dev.play(script.parse(keys))
    return dev


def saved(tmp_path, name):
    """A file on the simulated flash, parsed: game.json as its header with its records
    (a line each), history.json as its games, the others as JSON."""
    if name == "history.json":
        return histfile.games(tmp_path)
    with open(os.path.join(str(tmp_path), name)) as f:
        if name != "game.json":
            return json.load(f)
        lines = f.read().split("\n")
    d = json.loads(lines[0])
    d["records"] = [json.loads(t) for t in lines[1:] if t]
    return d


def names_of(dev):
    # Screens pushed, in order.
    return [p[0] for p in dev.pushed]


def three_new_players():
    # Phase 10 -> Standard -> A, B, C (each added is seated) -> Next.
    return " ".join([NEW_GAME, "OK OK", ADD_A, ADD_B, ADD_C, "DOWN DOWN OK"])


def test_classic_with_three_new_players_reaches_the_score_pad(tmp_path):
    # First dealer: rows Random, A, B, C; DOWN DOWN OK picks B (seat 1).
    dev = device(tmp_path, three_new_players() + " DOWN DOWN OK")
    assert names_of(dev)[-1] == "cards_home"
    g = dev.app.session.game
    assert g.KIND == "classic"
    assert g.settings == {"players": ["A", "B", "C"], "dealer": 1, "variation": "standard"}
    on_flash = saved(tmp_path, "game.json")
    assert on_flash["game"] == "classic" and on_flash["settings"] == g.settings
    assert on_flash["records"] == []
    assert saved(tmp_path, "roster.json") == [["A", 0, 0, 0, 0], ["B", 0, 0, 0, 0], ["C", 0, 0, 0, 0]]
    # The wizard is gone from the stack: back from the game's home is the menu.
    assert [s.module for s in dev.app.stack][0] == "menu" and "newgame" not in [s.module for s in dev.app.stack]


def test_a_random_dealer_comes_from_the_app_random_source(tmp_path):
    dev = device(tmp_path, three_new_players() + " OK")
    from firmware.edges.rng import Rng
    assert dev.app.session.game.settings["dealer"] == Rng(1).randrange(3)


def test_variations_first_n_and_even(tmp_path):
    # First N phases (row 2), N from 5 down to 3, then players A and B, dealer A.
    keys = " ".join([NEW_GAME, "OK DOWN DOWN OK DOWN DOWN OK", ADD_A, ADD_B, "DOWN DOWN OK DOWN OK"])
    dev = device(tmp_path / "a", keys)
    assert dev.app.session.game.settings == {"players": ["A", "B"], "dealer": 0,
                                             "variation": "first_n", "phases": 3}
    keys = " ".join([NEW_GAME, "OK UP OK", ADD_A, ADD_B, "DOWN DOWN OK DOWN DOWN OK"])
    dev = device(tmp_path / "b", keys)
    assert dev.app.session.game.settings["variation"] == "even"
    assert dev.app.session.game.settings["dealer"] == 1


def test_too_few_players_is_refused_with_the_engines_words(tmp_path):
    dev = device(tmp_path, " ".join([NEW_GAME, "OK OK", ADD_A, "DOWN DOWN OK"]))
    assert dev.app.top().module == "note"
    assert "2 to 6" in dev.app.top().lines[0] + " " + " ".join(dev.app.top().lines[1:])
    assert dev.app.session.game is None and not os.path.exists(os.path.join(str(tmp_path), "game.json"))


def test_masters_and_twist_and_a_bad_layout_file(tmp_path):
    keys = " ".join([NEW_GAME, "DOWN OK", ADD_A, ADD_B, "DOWN DOWN OK DOWN OK"])
    dev = device(tmp_path / "m", keys)
    assert dev.app.session.game.KIND == "masters" and names_of(dev)[-1] == "cards_home"
    os.makedirs(str(tmp_path / "t"))
    with open(str(tmp_path / "t" / "twist_layout.txt"), "w") as f:
        f.write("1S 1 T T 10R\n")
    keys = " ".join([NEW_GAME, "DOWN DOWN OK", ADD_A, ADD_B, "DOWN DOWN OK DOWN OK"])
    dev = device(tmp_path / "t", keys)
    g = dev.app.session.game
    assert g.KIND == "twist"
    from engine_mpy.board_layout import DEFAULT_LAYOUT
    assert g.settings["layout"] == DEFAULT_LAYOUT
    assert names_of(dev)[-2:] == ["twist_home", "note"]
    assert "twist_layout.txt" in dev.pushed[-1][1] and "default board" in dev.pushed[-1][1]


def test_dice_goes_on_to_the_turn_order_roll(tmp_path):
    # One player is enough for Dice (solitaire); no dealer page.
    dev = device(tmp_path, " ".join([NEW_GAME, "UP OK", ADD_A, "DOWN DOWN OK"]))
    assert dev.pushed[-1] == ("dice_order", {"players": ["A"]})
    assert dev.app.session.game is None


def test_continue_only_with_a_game_and_it_opens_its_home(tmp_path):
    # issue 41: without a game the menu showed Continue, which led to "No game is running."
    dev = device(tmp_path, "")
    m = dev.app.top()
    assert m.module == "menu" and [m.label(i) for i in range(m.count)][:2] == ["New game", "Dice roller"]
    assert not any(m.label(i).startswith("Continue") for i in range(m.count))
    # With the game started the menu comes back on Continue, which opens its home.
    dev.play(script.parse(three_new_players() + " DOWN OK LONG_OK"))
    m = dev.app.top()
    assert m.module == "menu" and m.sel == 0 and m.label(0) == "Continue Phase 10" and m.count == 8
    dev.play(script.parse(K.menu("continue", game=True)))
    assert names_of(dev)[-1] == "cards_home"
    assert names_of(dev).count("cards_home") == 2


def test_new_game_while_one_runs_asks_and_keeps_it_on_no(tmp_path):
    dev = device(tmp_path, three_new_players() + " DOWN OK LONG_OK")
    first = saved(tmp_path, "game.json")
    writes = dev.app.store.writes
    # The menu comes back on Continue (a game started): DOWN to New game. "No, keep
    # playing" is the default answer.
    dev.play(script.parse(K.menu("new game", game=True) + " OK"))
    assert dev.app.top().module == "menu" and saved(tmp_path, "game.json") == first
    assert dev.app.store.writes == writes
    # Yes, then a Masters game with A and B: the Classic game goes to History unfinished.
    # The menu kept its place on New game. Yes; Masters; seat A and B of the roster A, B,
    # C; Next; dealer A.
    dev.play(script.parse("OK DOWN OK DOWN OK OK DOWN OK DOWN DOWN DOWN OK DOWN OK"))
    assert dev.app.session.game.KIND == "masters"
    assert dev.app.session.game.settings["players"] == ["A", "B"]
    hist = saved(tmp_path, "history.json")
    # the game's id and start as its save held them, and when it was abandoned (the
    # simulator's clock: after its start, not after now)
    head = first
    end = hist[0].pop("end")
    assert head["start"] <= end <= dev.clock.wall()
    assert hist == [{"n": 1, "game": "classic", "players": ["A", "B", "C"], "winners": [], "hands": 0,
                     "done": False, "variation": "standard", "first": 0, "totals": [0, 0, 0],
                     "made": [0, 0, 0], "sheet": "", "id": head["id"], "start": head["start"]}]


def test_backing_out_of_new_game_changes_nothing(tmp_path):
    dev = device(tmp_path, three_new_players() + " LEFT LEFT LEFT LEFT")
    assert dev.app.top().module == "menu" and dev.app.session.game is None
    assert not os.path.exists(os.path.join(str(tmp_path), "game.json"))


def test_players_list_and_rename(tmp_path):
    # Players: add "A", then open A and rename it "Ab" (OK: rename; the wheel starts on
    # done for a name that has letters, "b" is that many UPs above it).
    dev = device(tmp_path, K.menu("players") + " " + ADD_A)
    assert saved(tmp_path, "roster.json") == [["A", 0, 0, 0, 0]]
    dev.play(script.parse("OK OK " + K.ups(WHEEL.index("b")) + " OK OK"))
    assert saved(tmp_path, "roster.json") == [["Ab", 0, 0, 0, 0]]
    assert dev.app.top().module == "players" and dev.app.top().title == "Ab"
    dev.play(script.parse("LEFT"))
    assert dev.app.top().label(0) == "Ab" and dev.app.top().value(0) == "0 games"


def test_picker_refuses_a_taken_name_and_keeps_the_text(tmp_path):
    dev = device(tmp_path, K.menu("players") + " " + ADD_A + " DOWN OK " + K.type_name("A"))
    assert dev.app.top().module == "note" and "already" in " ".join(dev.app.top().lines)
    dev.play(script.parse("OK"))
    assert dev.app.top().module == "picker" and dev.app.top().text == "A"
    dev.play(script.parse("DOWN OK"))    # the wheel below "done" is "delete"
    assert dev.app.top().module == "picker" and dev.app.top().text == ""
    dev.play(script.parse("LEFT"))       # LEFT on an empty name: back, nothing added
    assert dev.app.top().module == "players" and saved(tmp_path, "roster.json") == [["A", 0, 0, 0, 0]]


def test_history_lists_games_newest_first(tmp_path):
    # three games of three kinds, oldest first in the file as the device writes them
    lines = ['{"format":"phase10-history","v":2}',
             '{"n":1,"game":"classic","players":["Ann","Bob"],"winners":["Ann"],"hands":3,"done":true}',
             '{"n":2,"game":"dice","players":["Ann","Bob"],"winners":["Bob"],"hands":20,"done":true}',
             '{"n":3,"game":"twist","players":["Ann","Bob"],"winners":[],"hands":1,"done":false}']
    (tmp_path / "history.json").write_text("\n".join(lines) + "\n")
    dev = device(tmp_path, K.menu("history"))
    h = dev.app.top()
    assert h.module == "history" and h.count == 3
    assert [(h.label(i), h.value(i)) for i in range(3)] == [("unfinished", "Twist"), ("Bob", "Dice"),
                                                           ("Ann", "Phase 10")]


def test_an_abandoned_game_is_listed_unfinished(tmp_path):
    dev = device(tmp_path, three_new_players() + " DOWN OK LONG_OK")
    dev.play(script.parse(K.menu("new game", game=True)
                          + " DOWN OK DOWN OK OK DOWN OK DOWN DOWN DOWN OK DOWN OK LONG_OK"))
    dev.play(script.parse(K.menu("history", game=True)))
    h = dev.app.top()
    assert h.module == "history" and h.count == 1 and h.label(0) == "unfinished"
    assert h.value(0) == "Phase 10"
    dev.play(script.parse("OK"))
    assert dev.app.top().title == "Phase 10" and ("Unfinished", None) in dev.app.top().lines


def test_rules_page_through_phases_and_twist_cards(tmp_path):
    dev = device(tmp_path, K.menu("rules"))
    r = dev.app.top()
    assert r.module == "rules" and r.page == 0
    dev.play(script.parse("DOWN RIGHT DOWN"))
    assert r.page == 3
    dev.play(script.parse("UP LEFT LEFT LEFT"))
    assert dev.app.top().module == "menu"      # LEFT on the first page goes back
    dev = device(tmp_path, K.menu("rules") + " UP")
    assert dev.app.top().page == 19            # wraps to Twist card 10


def test_the_variations_offered_are_the_engines():
    from engine_mpy import classic as cards
    from firmware.screens import newgame
    assert newgame.VARIATIONS == cards.VARIATIONS
    assert newgame.VARIATION_NAMES == cards.VARIATION_NAMES


def test_the_player_limits_are_the_engines():
    from engine_mpy.classic import Classic
    from engine_mpy.masters import Masters
    from engine_mpy.game import RuleError
    from engine_mpy.savefile import game_class
    from firmware.screens import newgame
    for (label, kind), (lo, hi) in zip(newgame._GAMES, newgame._LIMITS):
        cls = game_class(kind)
        names = ["P%d" % i for i in range(hi + 1)]
        cls({"players": names[:lo]})
        cls({"players": names[:hi]})
        for bad in (names[:lo - 1], names[:hi + 1]):
            try:
                cls({"players": bad})
            except RuleError:
                continue
            raise AssertionError("%s takes %d players" % (kind, len(bad)))


def test_the_first_n_stepper_offers_the_engines_range(tmp_path):
    # New game's N stepper has its own copy of the range the card engine takes for
    # "phases": from 5 it stops at 1 going down and at 10 going up, and the engine takes
    # exactly those ends.
    from engine_mpy.classic import Classic
    from engine_mpy.game import RuleError
    dev = device(tmp_path, NEW_GAME + " OK DOWN DOWN OK " + " ".join(["DOWN"] * 6))
    assert dev.app.top().step == 3 and dev.app.top().n == 1
    dev.play(script.parse(" ".join(["UP"] * 12)))
    assert dev.app.top().n == 10
    for n in (1, 10):
        Classic({"players": ["A", "B"], "variation": "first_n", "phases": n})
    for n in (0, 11):
        try:
            Classic({"players": ["A", "B"], "variation": "first_n", "phases": n})
        except RuleError:
            continue
        raise AssertionError("the engine takes %d phases" % n)


def test_the_twin_shows_the_same_screens_at_the_twin_heap(tmp_path):
    # New game, the picker, Players, History and Rules on the micropython binary from .mpy
    # at the twin's cap (test_twin.HEAP): byte-identical to CPython. (Starting a game loads the card
    # engine and the score pad, which the game screens' own twin tests cover.)
    import test_twin
    for keys in (" ".join([NEW_GAME, "OK OK", ADD_A, ADD_B, "DOWN DOWN OK"]),   # dealer page
                 NEW_GAME + " OK DOWN DOWN OK DOWN",                            # N stepper
                 K.menu("players") + " " + ADD_A + " OK OK UP",                 # rename picker
                 K.menu("history"), K.menu("rules") + " UP"):
        a = tmp_path / ("t%d" % len(keys))
        b = tmp_path / ("c%d" % len(keys))
        os.makedirs(str(a))
        os.makedirs(str(b))
        got = test_twin.twin(keys, str(a))
        want, _ = test_twin.cpython(keys, str(b))
        assert got == want, keys


def roster_opens(dev):
    """The modes roster.json is opened in on the device's flash, from now on."""
    st = dev.app.store
    names = []
    real = st.open_path

    def counting(path, mode="r"):
        if path.endswith("roster.json"):
            names.append(mode)
        return real(path, mode)
    st.open_path = counting
    return names


def test_the_roster_is_read_while_the_page_before_the_players_is_read(tmp_path):
    # On a heap with room (the simulator's) the roster is read once the variation page is
    # on the panel and no key waits, so OK to the players page reads nothing then.
    with open(os.path.join(str(tmp_path), "roster.json"), "w") as f:
        json.dump([["Ann", 1, 0, 50, 3], ["Bob", 1, 1, 20, 3]], f)
    dev = device(tmp_path)
    opens = roster_opens(dev)
    dev.play(script.parse(NEW_GAME + " OK"))           # Phase 10: the variation page
    ng = dev.app.top()
    assert ng.module == "newgame" and ng.title == "Variation"
    assert opens == ["rb"] and ng.names == ["Ann", "Bob"]
    del opens[:]
    dev.play(script.parse("OK"))                       # Standard: the players page
    assert ng.title == "Players" and opens == []
    assert [ng.label(i) for i in range(2)] == ["Ann", "Bob"]


def test_a_damaged_roster_read_ahead_is_said_when_it_is_set_aside(tmp_path):
    # read ahead once New game's first page is up, a damaged roster is set aside then:
    # said then (the player may go back to the menu without opening the players page)
    with open(os.path.join(str(tmp_path), "roster.json"), "w") as f:
        f.write('[["Ann", 1, 0')
    dev = device(tmp_path, NEW_GAME)
    top = dev.app.top()
    assert os.path.exists(os.path.join(str(tmp_path), "roster.json.bad1"))
    assert top.module == "note" and "roster.json was damaged" in " ".join(top.lines)
    dev.play(script.parse("OK"))                       # the note read: New game's page
    assert dev.app.top().title == "New game"
    dev.play(script.parse("OK OK"))                    # Phase 10, Standard: the players
    ng = dev.app.top()
    assert ng.title == "Players" and ng.names == [] and names_of(dev).count("note") == 1
