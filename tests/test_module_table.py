"""The table of the modules the device drops or keeps by name (firmware/memory/policy.py):
every name in it is a
module of this device, so a module renamed or moved cannot leave a stale name there, which
would drop or keep nothing and say nothing (the move into role folders left main.py's
"firmware.fastdraw_" so). Read off the sources, as tests/test_layout.py reads them: a
module needs no import here (many want the board's machine module)."""
import os

from firmware.memory import policy
from tests.test_layout import modules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# groups matched as the start of a module's name (policy.py says which)
PREFIXES = ("RULES", "START_ONLY", "START_DRAWS", "SCREENS", "HELP_TEXTS")


def groups():
    """{group name: its names} for every group of the table: each upper-case name of
    policy.py whose value is a module's name or a tuple of them."""
    out = {}
    for k, v in vars(policy).items():
        if not k.isupper() or k.startswith("_"):
            continue
        if isinstance(v, str):
            v = (v,)
        if isinstance(v, tuple) and v and all(isinstance(x, str) and "." in x for x in v):
            out[k] = v
    return out


def known():
    """Every device module's name, and every package's (a folder of them)."""
    names = set(modules())
    for m in list(names):
        parts = m.split(".")
        for i in range(1, len(parts)):
            names.add(".".join(parts[:i]))
    return names


def stale(table, names):
    """[(group, name)] of the table's names that name no module."""
    out = []
    for group, entries in table.items():
        for n in entries:
            if group in PREFIXES:
                if not any(m.startswith(n) for m in names):
                    out.append((group, n))
            elif n not in names:
                out.append((group, n))
    return out


def test_every_name_in_the_table_is_a_module_of_this_device():
    table = groups()
    # the groups the device drops and keeps by (a group lost from this reading would pass
    # unchecked)
    assert set(table) >= {"FINISH", "HELPERS", "HISTORY_WRITERS", "SAVE_READERS", "READ_AT_START", "RULES",
                          "ALWAYS", "START_ONLY", "START_DRAWS", "SCREENS", "HELP_TEXTS"}, sorted(table)
    assert stale(table, known()) == []


def test_a_prefix_names_a_package_or_modules_and_a_name_a_module():
    # a package's prefix ends in "." (every module in it), or starts modules' names
    for group in PREFIXES:
        for n in groups()[group]:
            if n.endswith("."):
                assert os.path.isdir(os.path.join(ROOT, *n[:-1].split("."))), (group, n)


def test_the_check_finds_a_stale_name():
    names = known()
    assert stale({"HELPERS": ("firmware.roster",), "START_DRAWS": ("firmware.fastdraw_",)}, names) == [
        ("HELPERS", "firmware.roster"), ("START_DRAWS", "firmware.fastdraw_")]
    assert stale({"HELPERS": ("firmware.files.roster",), "START_DRAWS": ("firmware.draw.fastdraw_",)}, names) == []
