"""History shows a game's date and hour on its page, where the table's clock knew them (issue
48), on the simulated device: a game finished here (the simulator's clock: 28 Nov 2026,
20:00), one whose line has only its start, and one of earlier firmware with no time at all.
(Not a golden screen: the page in the browser runs on the browser's own clock.)"""
import json
import os

from host_sim import script, sim
from tests import table_keys as K
from tests.test_wording import drawn

sim.use_fake_machine()
HEAD = '{"format":"phase10-history","v":2}\n'


def test_a_games_page_shows_its_date_and_hour_where_known(tmp_path):
    # A and B's game abandoned for a new one (as the golden screen "history" does), opened
    keys = " ".join([K.new_game("classic", ["A", "B"], dealer=0), "LONG_OK", K.menu("new game", game=True),
                     "DOWN OK DOWN OK OK DOWN OK DOWN DOWN OK DOWN OK", "LONG_OK", K.menu("history", game=True), "OK"])
    dev = script.Device(state=str(tmp_path))
    dev.play(script.parse(keys))
    words = drawn(dev)
    assert dev.app.top().module == "history"
    # first, above the game's hands: the day, and the hour at the right
    assert "28 Nov 2026" in words and "20:00" in words, words
    assert words.index("28 Nov 2026") < words.index("Hands"), words


def test_a_line_with_its_start_only_shows_that_and_one_with_no_time_none(tmp_path):
    e = {"n": 1, "game": "classic", "players": ["Ann", "Bob"], "winners": ["Ann"], "done": True, "hands": 1,
         "variation": "first_n", "phases": 1, "first": 0, "totals": [0, 50], "made": [1, 0], "sheet": "003A2"}
    with open(os.path.join(str(tmp_path), "history.json"), "w") as f:
        f.write(HEAD + json.dumps(e) + "\n" + json.dumps(dict(e, n=2, start=1795982400 + 3 * 3600 + 25 * 60)) + "\n")
    dev = script.Device(state=str(tmp_path))
    dev.play(script.parse(K.menu("history") + " OK"))     # the newest: game 2
    words = drawn(dev)
    assert "29 Nov 2026" in words and "23:25" in words, words
    dev.play(script.parse("OK DOWN OK"))                  # back, then game 1: no time kept
    words = drawn(dev)
    assert not [w for w in words if "2026" in w or ":" in w], words
    assert "Hands" in words
