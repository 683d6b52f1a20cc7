# History files from elsewhere (a Download of the page's files, a board's pull) merged with
# the device's own history by each game's id (engine_mpy/ident.py): a game is held once, a
# game number once. The merged history is handed back whole, split as the device splits
# its own (history.json the newest SEGMENT games, history.K.json the older ones, K from 1),
# for the caller to write in one step (the web page's Load: web/webdevice.py). Nothing is
# written here. Loaded only for that, then dropped.
from engine_mpy.lines import parse
from firmware.files.store import HISTORY
from firmware.history.entries import HEAD, SEGMENT, N_MAX, archive_number, check_entry, files, write_entry
from firmware.history.histadd import ARCHIVES


def merge(store, loaded):
    """Merge loaded ({name: bytes}: history.json and history.K.json files) with the
    history on the device whose files store holds. Returns (message, files, remove):
    - files None: nothing is to be written, and message says why in one line (a file
      that is not a history file, or holds a damaged line; a device file that could not be
      read; nothing new: every game loaded is in the history already);
    - else files is the whole new history, {name: bytes}, and remove the names of the
      device's history files that are no longer part of it: the caller writes and removes
      them in one step; message says what the merge did (games added, games that were
      there already, games that differed).
    A game is the same game when its id is (a line of an earlier firmware, with none, gets
    the one derived from its content: engine_mpy/ident.py line_ids, which every device
    gives it). The same id with different content keeps the later finish (its "end"; the
    device's own when that does not tell). The device's games keep their numbers, the
    loaded ones theirs too unless that number is taken: then they are numbered after the
    newest. Over ARCHIVES + 1 files of SEGMENT games (1,000), the oldest go, said."""
    from engine_mpy.ident import entry_id, line_ids
    mine = []
    own = files(store)
    own.reverse()        # oldest first: history.1.json ... history.json
    for name in own:
        try:
            f = store.open(name, "rb")
        except OSError:
            continue
        try:
            data = f.read()
        except Exception as e:
            return "%s could not be read (%s): nothing was loaded." % (name, type(e).__name__), None, None
        finally:
            f.close()
        err = _games(name, data, mine)
        if err:
            return "The device's " + err, None, None
    theirs = []
    names = list(loaded)
    names.sort(key=_order)
    for name in names:
        if name != HISTORY and not (archive_number(name) or 0) > 0:
            return "%s is not a history file's name (history.json, history.N.json): nothing was loaded." % name, None, None
        err = _games(name, loaded[name], theirs)
        if err:
            return err, None, None
    at = {}              # id -> its place in games
    games = []
    added = same = differ = taken = 0
    ours = len(mine)
    ids = line_ids(mine) + line_ids(theirs)
    mine.extend(theirs)
    theirs = None
    for i in range(len(mine)):
        e = mine[i]
        gid = e["id"] = ids[i]
        k = at.get(gid)
        if k is None:
            at[gid] = len(games)
            games.append(e)
            if i >= ours:
                added += 1
            continue
        if i < ours:
            continue     # (a game the device holds twice: once)
        if entry_id(games[k]) == entry_id(e):
            same += 1
            continue
        differ += 1
        if (e.get("end") or 0) > (games[k].get("end") or 0):
            e["n"] = games[k].get("n", 0)
            games[k] = e
            taken += 1
    mine = None
    said = []
    if added:
        said.append("%d game%s added" % (added, "" if added == 1 else "s"))
    if same:
        said.append("%d in History already" % same)
    if differ:
        said.append("%d held with other contents (the later finish kept)" % differ)
    if not added and not taken:
        return "Nothing loaded: every game in it is in History already%s." % (
            " (%s)" % said[-1] if differ else ""), None, None
    _number(games)
    games.sort(key=_n)
    most = SEGMENT * (ARCHIVES + 1)
    if len(games) > most:
        said.append("the oldest %d deleted: the history keeps %d games" % (len(games) - most, most))
        games = games[len(games) - most:]
    out = {}
    k = 0
    n = len(games)
    arch = (n - 1) // SEGMENT if n else 0
    for i in range(arch + 1):
        part = games[i * SEGMENT:(i + 1) * SEGMENT if i < arch else n]
        put = []
        put.append(HEAD)
        for e in part:
            write_entry(e, put.append)
            put.append("\n")
        k += 1
        out[HISTORY if i == arch else "history.%d.json" % k] = "".join(put).encode()
    remove = [x for x in own if x not in out]
    return "History: " + "; ".join(said) + ".", out, remove


def _order(name):
    """The order a history's files are read in: its archives by K, then history.json."""
    k = archive_number(name)
    return N_MAX if name == HISTORY else (k if k else 0)


def _n(e):
    return e["n"]


def _number(games):
    """Each game keeps its number unless a game before it holds that number (or it has
    none): those are numbered after the highest, in their order."""
    used = {}
    later = []
    top = 0
    for e in games:
        n = e.get("n")
        if isinstance(n, int) and 0 < n < N_MAX and n not in used:
            used[n] = 1
            if n > top:
                top = n
        else:
            later.append(e)
    for e in later:
        top += 1
        e["n"] = top


def _games(name, data, out):
    """Add the games of a history file's bytes to out, oldest first; None, or what is
    wrong with the file, in words."""
    if data[:1] == b"[":
        from firmware.history.history_v1 import games_v1
        try:
            v = games_v1(data.decode())
        except ValueError as e:
            return "%s is not a history the device can read (%s): nothing was loaded." % (name, e)
        for i in range(len(v)):      # (version 1 kept no numbers: numbered as it is written out)
            v[i]["n"] = i + 1
        out.extend(v)
        return None
    lines = data.split(b"\n")
    try:
        d = parse(lines[0])
    except ValueError:
        d = None
    if not isinstance(d, dict) or d.get("format") != "phase10-history" or d.get("v") != 2:
        return "%s is not a history file (its first line is not a history's): nothing was loaded." % name
    for i in range(1, len(lines)):
        if not lines[i].strip():
            continue
        try:
            out.append(check_entry(parse(lines[i])))
        except (ValueError, TypeError):
            return "%s: line %d is damaged: nothing was loaded." % (name, i + 1)
    return None
