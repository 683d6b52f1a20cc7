# The code every key and every poll runs keeps its frames on the C stack. MicroPython gives a
# bytecode function its frame (its locals, its value stack, 3 words per try block) from the
# C stack when it fits in 11 words (py/objfun.c, VM_MAX_STATE_ON_STACK), else from the heap
# at every call. On an RP2040 such an allocation searched the heap for 0.1 to 0.5 ms, and
# the loop, the buttons' sampling, the display's update and the lists' rows each took one
# or more per key or per poll. The micropython binary prints each function's frame as it
# compiles at -v -v (N_STATE, N_EXC_STACK): this holds those functions to the limit, so a
# change that grows one shows here, not as a slower key on the board.
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY = os.path.join(os.path.dirname(sys.executable), "micropython")
LIMIT = 11     # words

# file: the functions (by name; every function of that name in the file) on the path of
# every key, every poll or every row drawn
HOT = {
    "firmware/app.py": ("step", "_input", "_key", "_idle_work", "_show", "_tick", "_pause",
                        "handle", "redraw", "_idle"),
    "firmware/stack.py": ("top",),
    "firmware/memory/policy.py": ("work",),
    "firmware/edges/buttons.py": ("sample", "_held", "_repeat", "_pressed", "_released", "_push",
                            "get", "pending", "_tick", "edges", "read", "still"),
    "firmware/draw/display.py": ("show", "_restore", "_update", "_run", "_windows", "_data",
                            "_send", "_rows", "_page_sh1106", "_pages_sh1106", "_cost",
                            "writeto"),
    "firmware/screens/base.py": ("draw", "draw_row", "right_text", "mark", "move", "_select",
                                 "scroll_mark", "_thumb", "_fill_thumb", "title_bar", "key"),
    "firmware/screens/cards_home.py": ("draw_row", "draw"),
    "firmware/screens/twist_home.py": ("draw_row", "_standing", "_winners"),
    # a hand's entry: every key of its pages (the cards page's presses the most)
    "firmware/screens/hand.py": ("key", "_key_out", "_key_phase", "_key_cards", "_key_ask",
                                 "_key_check", "back", "move", "go", "enter", "change",
                                 "change3", "cards_back", "move_row"),
    "firmware/game/hand_entry.py": ("press", "take_back", "more", "fewer", "step_cards",
                                    "step_total", "set_total", "add_points", "new_page",
                                    "_unnamed", "_renamed", "name_phase", "answer"),
}

_BLOCK = re.compile(r"code block '([^']*)'.*?\(N_STATE (\d+)\)\s*\(N_EXC_STACK (\d+)\)", re.S)


def frames(path):
    """{function name: [its frame in words, ...]} as the micropython binary compiles path."""
    src = os.path.join(ROOT, path)
    r = subprocess.run([MPY, "-v", "-v", "-c",
                        "compile(open(%r).read(), %r, 'exec')" % (src, path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    out = {}
    # (the first block is the -c line's own module)
    for name, n_state, n_exc in _BLOCK.findall(r.stdout + r.stderr)[1:]:
        out.setdefault(name, []).append(int(n_state) + 3 * int(n_exc))
    return out


def test_the_reader_sees_a_frame_over_the_limit():
    # the check itself: a function with 12 locals is over, one with a few is not
    got = frames("tests/frames_sample.py")
    assert max(got["twelve_locals"]) > LIMIT
    assert max(got["small"]) <= LIMIT
    assert max(got["small_with_try"]) >= got["small"][0] + 3     # a try block: 3 words


@pytest.mark.parametrize("path", sorted(HOT))
def test_what_runs_every_key_keeps_its_frames_on_the_c_stack(path):
    got = frames(path)
    over = []
    for name in HOT[path]:
        assert name in got, "%s has no function %s" % (path, name)
        if max(got[name]) > LIMIT:
            over.append("%s: %d words" % (name, max(got[name])))
    assert not over, "%s: frames over %d words (a heap allocation per call): %s" % (
        path, LIMIT, ", ".join(over))
