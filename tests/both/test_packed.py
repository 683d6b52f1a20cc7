# Records kept compact in RAM on the host (engine_mpy.packed.Packed): each item is its JSON
# text, and every way the engine and the screens read the list gives back exactly the item
# that went in; the score sheet's rows (engine_mpy.cards.Rows) a few bytes a hand. On both
# runtimes.
import json

from check import raises

from engine_mpy import savefile, saveload
from engine_mpy.classic import Classic
from engine_mpy.masters import Masters
from engine_mpy.game import RuleError
from engine_mpy.packed import Packed

HELD = ([8, 2, 0, 0], [7, 3, 0, 0], [6, 3, 1, 0], [9, 0, 0, 1], [5, 4, 1, 0], [6, 2, 0, 2])


def long_game(hands=20):
    g = Classic({"players": ["Ann", "Bob", "Cid", "Dee", "Eve", "Flo"], "dealer": 0})
    want = []
    for h in range(hands):
        out = h % 6
        rec = {"out": out, "left": [None if p == out else HELD[(p + h) % 6] for p in range(6)]}
        g.add(rec)
        want.append(rec)
    return g, want


def test_a_long_game_keeps_its_hands_as_text_and_sheet_rows_as_bytes_and_reads_them_back():
    # 20 hands of six players (30 with a load beside them would not fit the test heap)
    g, want = long_game()
    assert len(g.records) == 20 and list(g.records) == want and g.records == want
    assert all([type(v) is str for v in g.records._v])
    assert len(g.state.rows.b) == 55 * (1 + 4 * 6) and len(g.state.rows) == 20   # room for the longest game
    # the sheet's rows: who went out, points, completed, phases attempted, running totals
    total = [0] * 6
    for h in range(20):
        out, pts, ok, phs, tot = g.state.rows[h]
        assert out == h % 6 and pts[out] == 0 and ok[out] is True
        for p in range(6):
            total[p] += pts[p]
        assert tot == total
    assert g.state.rows[-1] == g.state.rows[19] and g.state.total == total
    # a save writes the kept text as it is: the records as objects, a line each
    text = savefile.dumps(g)
    d = g.to_dict()
    assert type(d["records"]) is list and d["records"] == want
    assert [json.loads(t) for t in text.split("\n")[1:-1]] == d["records"]
    d = want = None
    h = saveload.loads(text)
    assert h.records == g.records and h.state.total == g.state.total


def test_undo_and_corrections_work_on_the_packed_list():
    g, want = long_game(8)
    g.undo()
    assert list(g.records) == want[:7] and len(g.state.rows) == 7
    # the last hand again: nobody but Ann laid a phase down (ten cards each, 50 points)
    fixed = {"out": 0, "left": [None] + [[10, 0, 0, 0]] * 5}
    g.replace(6, fixed)
    assert g.records[6] == fixed and g.records[:6] == want[:6]
    assert g.state.rows[6][1] == [0, 50, 50, 50, 50, 50] and g.state.rows[6][2] == [True] + [False] * 5
    # a refused correction changes nothing
    before = list(g.records)
    raises(RuleError, g.replace, 2, {"out": 9, "left": []})
    assert list(g.records) == before


def test_items_that_are_not_plain_json_are_kept_as_they_are():
    p = Packed()
    odd = [(1, 2), {1: "a"}, "text", 7, None, {"a": (1,)}]
    for x in odd:
        p.append(x)
    p.append({"ok": [1, None, True]})
    assert list(p) == odd + [{"ok": [1, None, True]}]
    assert [type(v) is str for v in p._v] == [False] * 6 + [True]
    q = p[2:] + [[5]]
    assert type(q) is Packed and list(q) == odd[2:] + [{"ok": [1, None, True]}, [5]]
    q[0] = {"x": 1}
    assert q[0] == {"x": 1} and p[2] == "text"       # a slice is a copy
    assert p != q and p == list(p)
    assert q.text(len(q) - 1) == "[5]" and p.text(0) == "[1,2]"


def test_masters_records_with_phases_round_trip():
    g = Masters({"players": ["Ann", "Bob"], "dealer": 0})
    rec = {"out": 0, "left": [None, [3, 0, 0, 0]], "phase": [1, 2]}
    g.add(rec)
    assert type(g.records._v[0]) is str and g.records[0]["phase"] == [1, 2]
    assert saveload.loads(savefile.dumps(g)).records == g.records


def test_a_loaded_save_drops_each_parsed_record_as_it_is_replayed():
    g, want = long_game(6)
    parsed = json.loads(json.dumps(want))
    h = Classic(g.settings, parsed, True)
    assert parsed == [None] * 6 and list(h.records) == want
    # a correction replays the game's own list: never consumed
    kept = list(h.records)
    h.replace(5, want[5])
    assert list(h.records) == kept
    plain = json.loads(json.dumps(want))
    Classic(g.settings, plain)
    assert plain == want
