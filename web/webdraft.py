# A hand half entered, kept by the web build through a reload, a pull of the page or a
# phone discarding the tab (issue 49): the open entry as a draft beside the device's files
# (web/draft.mjs keeps its text in the browser's storage, apart from the flash), never a
# write to the flash: the board's rule that only commits are written stands.
#
# The draft is the screens from the game's home up to the entry (a Phase 10 or Masters
# hand, a Twist hand or the choices before it, a Dice turn): each screen's module and its
# argument, the place of those under the entry (their park(), as the stack keeps a
# parked screen), and the entry's own values (what was typed, the page it is on; for a
# hand its HandEntry, for a Dice turn its Turn). Coming back, the device is started on
# its files as always, then those screens are opened again with make() as the app opens
# them and the entry's values put back: the same page, with the same entries. Notes or
# Help over the entry are not kept (the entry is shown again, as after closing them).
# web/worker.mjs takes a draft after each frame and puts it back at start, only for the very
# game.json it was taken with (its CRC): a commit made since makes a draft of its own.
import json

# The screens that hold an entry, and the objects of theirs whose values go with them
ENTRIES = {"hand": ("entry",), "twist_before": (), "twist_hand": (), "dice_turn": ("turn",)}
# A screen's attributes that are the app's or the stack's, not the entry's
_SKIP = ("app", "module", "arg", "parked", "dirty", "game")


def _app():
    import webdevice
    return webdevice.app()


def _out(v, ids):
    """v as JSON-able data, its kinds kept (a tuple stays a tuple, a bytearray shared by two
    attributes stays one); a value of no plain kind (a game, an engine's state): _NO."""
    if v is None or type(v) in (bool, int, float, str):
        return v
    t = type(v)
    if t is tuple:
        out = []
        for x in v:
            x = _out(x, ids)
            if x is _NO:
                return _NO
            out.append(x)
        return {"t": out}
    if t is bytes:
        return {"b": list(v)}
    if t is bytearray or t is list:
        k = id(v)
        if k in ids:
            return {"ref": ids[k]}
        n = ids[k] = ids.get(None, 0)      # (numbered in order, never again)
        ids[None] = n + 1
        if t is bytearray:
            return {"ba": list(v), "id": n}
        out = []
        for x in v:
            x = _out(x, ids)
            if x is _NO:
                del ids[k]
                return _NO
            out.append(x)
        return {"l": out, "id": n}
    if t is dict:
        out = []
        for k in v:
            x = _out(v[k], ids)
            if x is _NO or type(k) is not str:
                return _NO
            out.append([k, x])
        return {"d": out}
    return _NO


_NO = object()


def _in(x, ids):
    if type(x) is not dict:
        return x
    if "t" in x:
        return tuple([_in(v, ids) for v in x["t"]])
    if "b" in x:
        return bytes(x["b"])
    if "ref" in x:
        return ids[x["ref"]]
    if "ba" in x:
        v = ids[x["id"]] = bytearray(x["ba"])
        return v
    if "l" in x:
        v = ids[x["id"]] = []
        for e in x["l"]:
            v.append(_in(e, ids))
        return v
    out = {}
    for k, e in x["d"]:
        out[k] = _in(e, ids)
    return out


def _values(obj, ids, inner=()):
    """obj's own values that are plain data, [name, value] in the order they are read back
    (a value two attributes share is written once, then named); inner: names of objects of
    obj's whose values go too, after its own (a hand's entry, a turn)."""
    out = []
    d = obj.__dict__
    for name in sorted(d):
        if name in _SKIP or name in inner:
            continue
        v = _out(d[name], ids)
        if v is not _NO:
            out.append([name, v])
    for name in inner:
        out.append(["." + name, _values(d[name], ids)])
    return out


def _put(obj, values, ids):
    for name, v in values:
        if name[0] == ".":
            _put(getattr(obj, name[1:]), v, ids)
        else:
            setattr(obj, name, _in(v, ids))


def snapshot():
    """The draft of the entry open on the device, as JSON text; "" when no entry is open."""
    app = _app()
    stack = app.stack
    s = app.session
    if s is None or s.game is None:
        return ""
    at = -1
    for i in range(len(stack) - 1, 0, -1):
        scr = stack[i]
        if scr.module in ENTRIES and not scr.parked and not (scr.module == "dice_turn" and scr.free):
            at = i
            break
    if at < 0:
        return ""
    ids = {}
    under = []
    for scr in stack[1:at]:
        st = scr.state if scr.parked else scr.park()
        under.append([scr.module, _out(scr.arg, ids), _out(st, ids)])
    scr = stack[at]
    return json.dumps({"game": s.game.KIND, "under": under, "entry": scr.module,
                       "arg": _out(scr.arg, ids), "values": _values(scr, ids, ENTRIES[scr.module])})


def resume(text):
    """The device, just started on its files (the menu up), back on the draft's entry:
    True, or False when the draft is not for the game it holds (then nothing changed)."""
    app = _app()
    d = json.loads(text)
    s = app.session
    if s is None or s.game is None or s.game.KIND != d["game"] or len(app.stack) != 1:
        return False
    ids = {}
    for module, arg, st in d["under"]:
        scr = app.push(module, _in(arg, ids))
        st = _in(st, ids)
        if st is not None:
            scr.resume(st)
    scr = app.push(d["entry"], _in(d["arg"], ids))
    _put(scr, d["values"], ids)
    scr.dirty = True
    app.redraw()
    return True
