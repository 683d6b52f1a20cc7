# The device's screens and input name the key codes as module constants of their own
# (`_UP = const(1)`: folded into the code, no import, no name in RAM); they must be the
# codes of firmware/edges/keys.py, the one list.
import glob
import os
import re

from firmware.edges import keys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_inlined_key_code_is_the_one_in_keys():
    seen = 0
    for f in glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True):
        with open(f) as fh:
            src = fh.read()
        assert "from firmware.edges.keys import" not in src, f
        for name, value in re.findall(r"^_(UP|DOWN|LEFT|RIGHT|OK|BACK|HELP|REPEAT|KEY_MASK) = const\((\w+)\)", src, re.M):
            assert int(value, 0) == getattr(keys, name), (f, name)
            seen += 1
    assert seen > 50
