# engine_mpy/modules.py: builtin() gives the built-in module itself, never a file of the
# same name on the path (on MicroPython a plain import looks for the file first, a search
# of the flash at every import statement run).
import sys

from engine_mpy.modules import builtin

FOLDER = "/tmp/phase10-test-modules"


def _folder_with(name, text):
    import os
    try:
        os.mkdir(FOLDER)
    except OSError:
        pass
    with open(FOLDER + "/" + name, "w") as f:
        f.write(text)


def _remove_folder():
    import os
    for name in ("json.py", "array.py", "machine.py"):
        try:
            os.remove(FOLDER + "/" + name)
        except OSError:
            pass
    try:
        os.rmdir(FOLDER)
    except OSError:
        pass


def test_builtin_is_the_built_in_module_not_a_file_on_the_path():
    _folder_with("json.py", "raise ImportError('the file json.py was imported')\n")
    _folder_with("array.py", "raise ImportError('the file array.py was imported')\n")
    sys.path.insert(0, FOLDER)
    try:
        json = builtin("json")
        assert json.loads("[1, 2]") == [1, 2]
        assert json.dumps({"a": 1}, separators=(",", ":")) == '{"a":1}'
        a = builtin("array").array("I", [7])
        assert a[0] == 7
    finally:
        sys.path.remove(FOLDER)
        _remove_folder()


def test_a_plain_import_would_take_the_file_on_micropython():
    # what builtin() avoids; CPython keeps its own json once imported, so only there
    if sys.implementation.name != "micropython":
        return
    _folder_with("json.py", "raise ImportError('the file json.py was imported')\n")
    sys.path.insert(0, FOLDER)
    try:
        try:
            exec("import json")
            took_file = False
        except ImportError:
            took_file = True
        assert took_file
    finally:
        sys.path.remove(FOLDER)
        _remove_folder()


def test_kept_built_ins_are_the_built_ins_but_machine_is_what_a_plain_import_finds():
    # start-up keeps time, os, json, array (the built-ins, never a file of their name: no
    # search of the flash) and machine as a plain import finds it (a stand-in file wins),
    # but on a board's port the built-in machine, found without a search
    from engine_mpy.modules import keep_builtins
    if sys.implementation.name != "micropython":
        return
    _folder_with("json.py", "raise ImportError('the file json.py was imported')\n")
    _folder_with("machine.py", "STAND_IN = 1\n")
    sys.path.insert(0, FOLDER)
    saved = {n: sys.modules.pop(n, None) for n in ("json", "machine")}
    try:
        keep_builtins()
        assert sys.modules["json"].loads("[3]") == [3]
        assert getattr(sys.modules["machine"], "STAND_IN", 0) == 1
        # on a board's port no file stands in for it: the built-in, found without a search
        sys.modules.pop("machine")
        keep_builtins("rp2")
        assert not hasattr(sys.modules["machine"], "STAND_IN")
        assert sys.modules["machine"] is __import__("umachine")
    finally:
        for n, mod in saved.items():
            sys.modules.pop(n, None)
            if mod is not None:
                sys.modules[n] = mod
        sys.path.remove(FOLDER)
        _remove_folder()
