"""The device code's layout (issue 23): no import cycle among the modules of engine_mpy/ and
firmware/ (an import inside a function counts: it is a dependency all the same), and no
name with a leading underscore imported from another module. Read with ast over the
sources, so it holds every module, loaded or not."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("engine_mpy", "firmware")


def modules():
    """{module name: path} for every device module."""
    out = {}
    for pkg in PACKAGES:
        for folder, _, files in os.walk(os.path.join(ROOT, pkg)):
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, f), ROOT)[:-3].replace(os.sep, ".")
                    if rel.endswith(".__init__"):
                        rel = rel[:-9]
                    out[rel] = os.path.join(folder, f)
    return out


def imports(path, known):
    """[(module imported, [names imported from it], line)] of one source file, device
    modules only; `from pkg import mod` counts as importing pkg.mod."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in known:
                    out.append((a.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [a.name for a in node.names]
            subs = [node.module + "." + n for n in names if node.module + "." + n in known]
            for s in subs:
                out.append((s, [], node.lineno))
            rest = [n for n in names if node.module + "." + n not in known]
            if node.module in known and (rest or not subs):
                out.append((node.module, rest, node.lineno))
    return out


def graph():
    known = modules()
    g = {}
    for name, path in known.items():
        g[name] = imports(path, known)
    return known, g


def cycles(g):
    """Every cycle of the import graph, each once, as a list of module names."""
    edges = {m: sorted({t for t, _, _ in g[m] if t != m and t != m.rsplit(".", 1)[0]}) for m in g}
    found = []
    seen = set()

    def walk(start, m, path):
        for t in edges.get(m, ()):
            if t == start:
                key = frozenset(path)
                if key not in seen:
                    seen.add(key)
                    found.append(path + [start])
            elif t not in path and t > start:
                walk(start, t, path + [t])
    for m in sorted(edges):
        walk(m, m, [m])
    return found


def test_no_import_cycle_among_the_device_modules():
    known, g = graph()
    assert "firmware.game.session" in known and "engine_mpy.saveload" in known   # the walk found them
    found = cycles(g)
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


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
