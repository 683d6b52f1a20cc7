"""The code's layout, read with ast over the sources, so it holds every module, loaded or not
(an import inside a function counts: it is a dependency all the same):

- no import cycle anywhere in the tree: engine_mpy/, firmware/, host_sim/, tools/, web/ and
  tests/ (issue 43; issue 23 held the device code alone), each cycle said with the file:line
  of each of its imports, so the message says where to cut;
- no name with a leading underscore imported from another module of the device code;
- the folder rule of firmware/ (issue 43): each folder directly under firmware/ says in its
  README.md which folders its modules may import (`May import: engine_mpy, firmware/memory`),
  its modules import nothing else of the device code, and the rules form an order.

The helpers (modules, graph, cycles, describe, folder_rules, folder_problems...) take the
tree's root, so tests here run them on small trees made up in tmp_path.
"""
import ast
import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("engine_mpy", "firmware")          # the device code
TREE = PACKAGES + ("host_sim", "tools", "web", "tests")
# The folders a bare `import X` may find X in, besides the importer's own folder: tools'
# and tests' scripts put tools/ (and tests/, tests/both) on sys.path and import each other
# by bare name (`import perf_table`, `from bench import ...`, `from worst import ...`); the
# twin runs put host_sim/ there (`from vclock import ...`).
_TOOLS = ("tools", "tools/bench", "tools/build", "tools/checks", "tools/gen")
SEARCH = {"tools": _TOOLS + ("tests", "host_sim"), "tests": ("tests", "tests/both") + _TOOLS + ("host_sim",),
          "host_sim": ("host_sim",)}
SKIP_DIRS = {"node_modules", "__pycache__"}


def modules(tops=PACKAGES, root=ROOT):
    """{module name: path} for every .py under the folders `tops` of `root`, named by its
    path from root (firmware/screens/home.py: firmware.screens.home)."""
    out = {}
    for pkg in tops:
        for folder, dirs, files in os.walk(os.path.join(root, pkg)):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, f), root)[:-3].replace(os.sep, ".")
                    if rel.endswith(".__init__"):
                        rel = rel[:-9]
                    out[rel] = os.path.join(folder, f)
    return out


def _literal_import(node):
    """The module name of `__import__("a.b")` / `importlib.import_module("a.b")` with a
    string literal; for `__import__("a.b." + name)` the literal package, "a.b"; else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    f = node.func
    if not ((isinstance(f, ast.Name) and f.id == "__import__")
            or (isinstance(f, ast.Attribute) and f.attr == "import_module")):
        return None
    a = node.args[0]
    if isinstance(a, ast.Constant) and isinstance(a.value, str):
        return a.value
    if (isinstance(a, ast.BinOp) and isinstance(a.op, ast.Add) and isinstance(a.left, ast.Constant)
            and isinstance(a.left.value, str) and a.left.value.endswith(".")):
        return a.left.value[:-1]
    return None


def raw_imports(path, module):
    """[(dotted name, [names imported from it], line)] of one source file, every import
    statement and literal __import__, relative ones made absolute from `module` (its name);
    `from X import a, b` gives X with [a, b], a literal __import__ its name with []."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    is_pkg = os.path.basename(path) == "__init__.py"
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append((a.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                parts = module.split(".") if is_pkg else module.split(".")[:-1]
                parts = parts[:len(parts) - (node.level - 1)]
                name = ".".join(parts + ([node.module] if node.module else []))
            out.append((name, [a.name for a in node.names], node.lineno))
        else:
            lit = _literal_import(node)
            if lit:
                out.append((lit, [], node.lineno))
    return out


def _search(module):
    """The dotted folders a bare name imported by `module` is looked for in (the device
    code is imported by full names only: a bare name there is the board's, as `machine`)."""
    top = module.split(".", 1)[0]
    if top in PACKAGES:
        return ()
    own = module.rsplit(".", 1)[0] if "." in module else ""
    return tuple(dict.fromkeys(([own] if own else []) + [s.replace("/", ".") for s in SEARCH.get(top, ())]))


def _resolve(name, module, known):
    """The module of the tree `name` means when `module` imports it, or None (the standard
    library, a third-party package, the board's own)."""
    if name in known:
        return name
    for folder in _search(module):
        if folder + "." + name in known:
            return folder + "." + name
    return None


def imports(path, known, module=None):
    """[(module imported, [names imported from it], line)] of one source file, modules of
    `known` only; `from pkg import mod` counts as importing pkg.mod."""
    if module is None:
        module = next(m for m, p in known.items() if p == path)
    out = []
    for name, names, line in raw_imports(path, module):
        subs = [s for s in (_resolve(name + "." + n, module, known) for n in names) if s]
        for s in subs:
            out.append((s, [], line))
        rest = [n for n in names if not _resolve(name + "." + n, module, known)]
        t = _resolve(name, module, known) if name else None
        if t and (rest or not subs):
            out.append((t, rest, line))
    return out


def graph(tops=PACKAGES, root=ROOT):
    known = modules(tops, root)
    return known, {name: imports(path, known, name) for name, path in known.items()}


def _edges(g):
    # a module's import of itself or of its own package is no dependency between two modules
    return {m: sorted({t for t, _, _ in g[m] if t != m and not m.startswith(t + ".")}) for m in g}


def _reach(edges, start):
    seen, todo = {start}, [start]
    while todo:
        for t in edges.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def cycles(g, most=200):
    """Every cycle of the import graph, each once (by its modules), as a list of module
    names from its smallest back to it; at most `most` of them."""
    edges = _edges(g)
    reach = {m: _reach(edges, m) for m in edges}
    found = []
    seen = set()

    def walk(start, m, path, within):
        for t in edges.get(m, ()):
            if len(found) >= most:
                return
            if t == start:
                key = frozenset(path)
                if key not in seen:
                    seen.add(key)
                    found.append(path + [start])
            elif t not in path and t > start and t in within:
                walk(start, t, path + [t], within)
    for m in sorted(edges):
        # only the modules on a way back to m can be on a cycle through it: the walk stays
        # among them, so a large tree without cycles costs one reachability pass
        within = {t for t in reach[m] if m in reach.get(t, ())}
        if len(within) > 1:
            walk(m, m, [m], within)
    return found


def describe(found, g, known, root=ROOT):
    """Each cycle as its modules, then the file:line of each import along it: where to cut."""
    out = []
    for c in found:
        out.append("import cycle: " + " -> ".join(c))
        for a, b in zip(c, c[1:]):
            lines = sorted({line for t, _, line in g[a] if t == b})
            where = os.path.relpath(known[a], root) if a in known else a
            out.append("  %s:%s imports %s" % (where, ",".join(map(str, lines)), b))
    return "\n".join(out)


def test_no_import_cycle_among_the_device_modules():
    known, g = graph()
    assert "firmware.game.session" in known and "engine_mpy.saveload" in known   # the walk found them
    found = cycles(g)
    assert not found, "\n" + describe(found, g, known)


def test_no_import_cycle_anywhere_in_the_tree():
    known, g = graph(TREE)
    for m in ("host_sim.sim", "tools.bench.bench", "web.webdevice", "tests.worst", "tests.both.soak"):
        assert m in known, m            # the walk found every part of the tree
    # tools-local and tests-local imports are resolved (the circles they can close count)
    assert any(t == "tools.checks.heapcap" for t, _, _ in g["tools.bench.bench"])
    assert any(t == "tests.worst" for t, _, _ in g["tools.bench.bench_table"])
    found = cycles(g)
    assert not found, "\n" + describe(found, g, known)


def test_no_private_name_imported_from_another_module():
    known, g = graph()
    bad = []
    for m, deps in g.items():
        for t, names, line in deps:
            for n in names:
                if n.startswith("_") and t != m:
                    bad.append("%s:%d imports %s from %s" % (known[m], line, n, t))
    assert not bad, "\n".join(bad)


def test_the_checks_can_fail():
    # the cycle finder and the private-name finder on a graph made up here
    g = {"a": [("b", [], 1)], "b": [("c", ["_x"], 2)], "c": [("a", [], 3)], "d": [("a", [], 4)]}
    assert cycles(g) == [["a", "b", "c", "a"]]
    assert cycles({"a": [("b", [], 1)], "b": []}) == []
    # two cycles through one module: both found, each import said where it is
    g = {"a": [("b", [], 1), ("c", [], 2)], "b": [("a", [], 5)], "c": [("a", [], 7), ("a", [], 9)]}
    assert cycles(g) == [["a", "b", "a"], ["a", "c", "a"]]
    text = describe(cycles(g), g, {"a": os.path.join(ROOT, "a.py"), "c": os.path.join(ROOT, "c.py")})
    assert "a.py:2 imports c" in text and "c.py:7,9 imports a" in text


def _write(root, files):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_the_tree_walk_resolves_local_relative_and_function_imports(tmp_path):
    # tools' scripts import each other by bare name, tests' helpers by tests.x or bare,
    # a package relative; each import below closes a cycle only if it is resolved
    _write(tmp_path, {
        "tools/bench/bench.py": "def main():\n    import perf_table\n",
        "tools/gen/perf_table.py": "from bench import BUDGETS\n",
        "tests/table_keys.py": "import worst\n",
        "tests/worst.py": "def f():\n    from tests import table_keys\n",
        "host_sim/__init__.py": "",
        "host_sim/sim.py": "def front():\n    from . import term\n",
        "host_sim/term.py": "from .sim import Live\n",
        "web/webdevice.py": "import machine\n",
        "web/machine.py": "x = __import__('webdevice')\n",
        "firmware/app.py": "import machine\n",       # the board's, not web/machine.py
    })
    known, g = graph(TREE, str(tmp_path))
    assert cycles(g) == [["host_sim.sim", "host_sim.term", "host_sim.sim"],
                         ["tests.table_keys", "tests.worst", "tests.table_keys"],
                         ["tools.bench.bench", "tools.gen.perf_table", "tools.bench.bench"],
                         ["web.machine", "web.webdevice", "web.machine"]]
    assert g["firmware.app"] == []
    text = describe(cycles(g), g, known, str(tmp_path))
    assert os.path.join("tools", "bench", "bench.py") + ":2 imports tools.gen.perf_table" in text
    assert os.path.join("tools", "gen", "perf_table.py") + ":1 imports tools.bench.bench" in text


# --- the folder rule of firmware/ ---------------------------------------------------------
# Each folder directly under firmware/ says in the first lines of its README.md what its
# modules may import, e.g. `May import: engine_mpy, firmware/memory, firmware/edges`: each
# entry engine_mpy, firmware (the top-level firmware/*.py) or firmware/<folder>, or the one
# word `nothing`; the folder's own modules are always allowed. The top-level modules
# (main.py, app.py...) may import anything. The folders' rules must form an order: none
# allows, directly or through others, a folder that allows it back.
MAY_IMPORT = re.compile(r"^\s*May import:\s*(.*?)\s*$")
README_LINES = 10       # how far down the README the line may be


def device_folder(name, root=ROOT):
    """The folder of the device code a dotted name is in, as a rule names it: "engine_mpy",
    "firmware" (a top-level module), "firmware/<folder>"; None outside the device code (the
    board's modules, the standard library). A module firmware/x.py wins over a folder
    firmware/x/, as it does on the import path."""
    parts = name.split(".")
    if parts[0] == "engine_mpy":
        return "engine_mpy"
    if parts[0] != "firmware":
        return None
    if len(parts) > 1 and not os.path.isfile(os.path.join(root, "firmware", parts[1] + ".py")) \
            and os.path.isdir(os.path.join(root, "firmware", parts[1])):
        return "firmware/" + parts[1]
    return "firmware"


def _on_disk(name, root):
    path = os.path.join(root, *name.split("."))
    return os.path.isfile(path + ".py") or os.path.isdir(path)


def firmware_folders(root=ROOT):
    """The folders directly under firmware/ that hold .py files (at any depth)."""
    base = os.path.join(root, "firmware")
    out = []
    for d in sorted(os.listdir(base)):
        if d in SKIP_DIRS or d.startswith(".") or not os.path.isdir(os.path.join(base, d)):
            continue
        if any(f.endswith(".py") for _, _, files in os.walk(os.path.join(base, d)) for f in files):
            out.append("firmware/" + d)
    return out


def folder_rules(root=ROOT):
    """({folder: (allowed folders, README path, line)}, [problems]) read from the README.md of
    each folder of firmware_folders(); a folder without one or without its line, or an entry
    that names no folder, is a problem."""
    rules, problems = {}, []
    folders = firmware_folders(root)
    for folder in folders:
        readme = os.path.join(root, folder, "README.md")
        rel = os.path.relpath(readme, root)
        if not os.path.isfile(readme):
            problems.append("%s: no README.md; its first lines need `May import: ...`" % folder)
            continue
        with open(readme, encoding="utf-8") as f:
            head = [f.readline() for _ in range(README_LINES)]
        found = [(i + 1, MAY_IMPORT.match(t)) for i, t in enumerate(head) if MAY_IMPORT.match(t)]
        if not found:
            problems.append("%s: no `May import: ...` line in its first %d lines" % (rel, README_LINES))
            continue
        line, m = found[0]
        allowed = [a.strip() for a in m.group(1).split(",") if a.strip()]
        if allowed == ["nothing"]:      # `May import: nothing` (an empty list says the same)
            allowed = []
        for a in allowed:
            if a not in ("engine_mpy", "firmware") and a not in folders:
                problems.append("%s:%d: May import %r, which is not engine_mpy, firmware or a folder "
                                "firmware/NAME with modules" % (rel, line, a))
        rules[folder] = (set(allowed) - {folder}, rel, line)
    return rules, problems


def rule_cycles(rules):
    """The cycles of the folders' "may import" graph (firmware/a allows firmware/b: a -> b)."""
    g = {f: [(t, [], line) for t in sorted(allowed) if t in rules] for f, (allowed, _, line) in rules.items()}
    return cycles(g)


def folder_problems(root=ROOT):
    """Everything that breaks the folder rule, each with its file:line: folders without their
    rule, rules that allow each other, and every import (at the top or in a function, or a
    literal __import__) of a module in firmware/F of the device code outside F that F's
    README does not allow."""
    rules, problems = folder_rules(root)
    for c in rule_cycles(rules):
        problems.append("folders allow each other: %s (%s)" % (
            " -> ".join(c), ", ".join("%s:%d" % rules[f][1:] for f in c[:-1])))
    bad = []
    for module, path in sorted(modules(PACKAGES, root).items()):
        here = device_folder(module, root)
        if here in (None, "firmware", "engine_mpy") or here not in rules:
            continue        # the top level may import anything; a folder without rule is said above
        allowed, readme, _ = rules[here]
        for name, names, line in raw_imports(path, module):
            # `from firmware.x import y`: firmware.x.y if y is a module (or folder), else firmware.x
            subs = [name + "." + n for n in names if _on_disk(name + "." + n, root)]
            for target in subs + ([name] if len(subs) < len(names) or not names else []):
                there = device_folder(target, root)
                if there is not None and there != here and there not in allowed:
                    bad.append((os.path.relpath(path, root), line, target, there, readme,
                                ", ".join(sorted(allowed)) or "nothing"))
    return problems + ["%s:%d imports %s (%s), which %s does not allow (May import: %s)" % b
                       for b in sorted(set(bad))]


def test_firmware_folders_import_only_what_their_readme_allows():
    if not glob.glob(os.path.join(ROOT, "firmware", "*", "README.md")):
        pytest.skip("no firmware/*/README.md yet: the folder rule holds once the folders say "
                    "what they may import")
    problems = folder_problems()
    assert not problems, "\n" + "\n".join(problems)


def test_the_folder_rule_can_fail(tmp_path):
    good = {
        "engine_mpy/cards.py": "X = 1\n",
        "firmware/app.py": "from firmware.draw import text\nimport firmware.memory.store\n",
        "firmware/memory/README.md": "# memory\n\nMay import: engine_mpy\n",
        "firmware/memory/store.py": "from engine_mpy import cards\nimport machine\n",
        "firmware/memory/read.py": "from firmware.memory import store\n",
        "firmware/draw/README.md": "# draw\nMay import: firmware/memory, engine_mpy\n",
        "firmware/draw/text.py": "def f():\n    from firmware.memory.store import X\n",
        "firmware/layouts/short.txt": "a folder without modules needs no rule\n",
    }
    _write(tmp_path, good)
    root = str(tmp_path)
    assert folder_problems(root) == []
    assert folder_rules(root)[0]["firmware/draw"][0] == {"firmware/memory", "engine_mpy"}

    # an upward import, inside a function and as a literal __import__
    _write(tmp_path, {"firmware/memory/store.py": good["firmware/memory/store.py"]
                      + "def g():\n    from firmware.draw import text\n    __import__('firmware.app')\n"})
    p = folder_problems(root)
    assert len(p) == 2, p
    assert p[0].startswith(os.path.join("firmware", "memory", "store.py") + ":4 imports firmware.draw.text "
                           "(firmware/draw), which " + os.path.join("firmware", "memory", "README.md"))
    assert p[1].startswith(os.path.join("firmware", "memory", "store.py") + ":5 imports firmware.app (firmware)")
    _write(tmp_path, good)

    # a folder with modules and no README, then a README without the line
    _write(tmp_path, {"firmware/edges/pins.py": "import machine\n"})
    assert folder_problems(root) == ["firmware/edges: no README.md; its first lines need `May import: ...`"]
    _write(tmp_path, {"firmware/edges/README.md": "# edges\nThe pins.\n"})
    assert folder_problems(root) == [os.path.join("firmware", "edges", "README.md")
                                     + ": no `May import: ...` line in its first %d lines" % README_LINES]
    _write(tmp_path, {"firmware/edges/README.md": "# edges\nMay import: firmware/nothing\n"})
    assert "May import 'firmware/nothing'" in folder_problems(root)[0]
    _write(tmp_path, {"firmware/edges/README.md": "# edges\nMay import:\n"})
    assert folder_problems(root) == []
    _write(tmp_path, {"firmware/edges/README.md": "# edges\nMay import: nothing\n"})
    assert folder_problems(root) == []
    _write(tmp_path, {"firmware/edges/pins.py": "from engine_mpy import cards\n"})
    assert folder_problems(root) == [os.path.join("firmware", "edges", "pins.py") + ":1 imports engine_mpy.cards "
                                     "(engine_mpy), which " + os.path.join("firmware", "edges", "README.md")
                                     + " does not allow (May import: nothing)"]
    _write(tmp_path, {"firmware/edges/pins.py": "import machine\n"})

    # two folders allowing each other: through a third as well
    _write(tmp_path, {"firmware/memory/README.md": "May import: engine_mpy, firmware/edges\n",
                      "firmware/edges/README.md": "May import: firmware/draw\n"})
    p = folder_problems(root)
    assert p == ["folders allow each other: firmware/draw -> firmware/memory -> firmware/edges -> firmware/draw "
                 "(%s:2, %s:1, %s:1)" % tuple(os.path.join("firmware", f, "README.md")
                                               for f in ("draw", "memory", "edges"))], p
