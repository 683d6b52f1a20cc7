"""Where the PC companion's games come from (host_sim export and stats): any number of
sources, each a folder (a board's pull, or the browser's Download unpacked), a zip file
(the browser's Download files, or a pull zipped: each folder in it that holds the device's
files is a source of its own), or one history file; export also takes a running game
(game.json). Each finished game is counted once, by its id (engine_mpy/ident.py): the same
game in two pulls of one board, or in a board's pull and a browser's download, is one game.
A line of an earlier firmware has no id: it gets the one derived from its content (its
number aside), which matches the same game wherever it was numbered. The same id with
other contents is said in one line, and the later finish is kept.

A folder caught in the middle of a finish (finish.json, the journal the device completes at
its next start) holds a finished game the history does not hold yet: it is counted from
the journal, and said.
"""
import json
import os
import zipfile

from host_sim import hostio, sheets
from host_sim.sheets import SheetError
from engine_mpy import ident
from firmware.history import entries, histbrowse

NO_GAMES = ("no finished game here (no history.json, history.K.json or finish.json): copy a board's "
            "files with python -m host_sim pull, or give the zip the browser's device makes with "
            "Download files (or the folder it holds)")
# The device's files a source may hold, by name: the history's, the finish journal, the
# running game and the pull's record (a zip's members are read by these names only)
_JOURNAL = "finish.json"
_RUNNING = "game.json"
_PULL = "pull.json"


class Source:
    """One place the device's files were found: label (how messages name it), files
    ({name: path or zip member}), read(name) -> text or None (said), date (of the pull,
    pull.json: "" when unknown), aside (files the device set aside as damaged), inputs (the
    real paths read: an output may never be one of them)."""

    def __init__(self, label, inputs):
        self.label = label
        self.files = {}
        self.aside = []
        self.date = ""
        self.inputs = inputs
        self.zip = None

    def path(self, name):
        return os.path.join(self.label, name)

    def read(self, name, limit, what, said):
        """The text of the source's file name, or None after saying why it cannot be read."""
        where = self.files[name]
        if self.zip is None:
            return hostio.read_text(where, limit, what, said)
        info = self.zip.getinfo(where)
        if info.file_size > limit:
            said.append("%s: cannot read: over %d bytes, too long for a %s" % (self.path(name), limit, what))
            return None
        try:
            data = self.zip.read(info)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as e:
            said.append("%s: cannot read: %s" % (self.path(name), e))
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            said.append("%s: cannot read: not UTF-8 text (byte %d)" % (self.path(name), e.start))
            return None


def _keep(name):
    """Whether a file of this name is one of the device's a source is read for."""
    return name in (entries.HISTORY, _JOURNAL, _RUNNING, _PULL) or bool(entries.archive_number(name))


def find(path, said):
    """The sources path holds ([Source]): a folder, a zip file, or one file (a history file
    or a running game: a source holding that file alone). SheetError (one line) when it
    cannot be read at all."""
    real = os.path.realpath(path)
    if os.path.isdir(path):
        try:
            names = sorted(os.listdir(path))
        except OSError as e:
            raise SheetError("%s: cannot read the folder: %s" % (path, e.strerror or e))
        src = Source(path, [])
        for name in names:
            p = os.path.join(path, name)
            if _keep(name) and os.path.isfile(p):
                src.files[name] = p
                src.inputs.append(os.path.realpath(p))
        src.aside = sheets.set_aside(path)
        src.date = sheets.pull_date(path)
        return [src]
    if not os.path.exists(path):
        raise SheetError("%s: no such file or folder" % path)
    if zipfile.is_zipfile(path) if os.path.isfile(path) else False:
        return _zip(path, real)
    f = hostio.open_file(path, "history file, saved game or zip file")
    if f is None:
        raise SheetError(None)
    f.close()
    src = Source(os.path.dirname(path) or ".", [real])
    src.label = path
    src.files[os.path.basename(path)] = path
    src.date = sheets.pull_date(os.path.dirname(real))
    src.path = lambda name: path
    return [src]


def _zip(path, real):
    try:
        z = zipfile.ZipFile(path)
        members = z.infolist()
    except (zipfile.BadZipFile, OSError) as e:
        raise SheetError("%s: cannot read the zip file: %s" % (path, e))
    by_folder = {}
    for info in members:
        if info.is_dir():
            continue
        folder, _, name = info.filename.rpartition("/")
        if _keep(name) or _is_aside(name):
            by_folder.setdefault(folder, []).append((name, info.filename))
    out = []
    for folder in sorted(by_folder):
        src = Source(path + ("/" + folder if folder else ""), [real])
        src.zip = z
        for name, member in sorted(by_folder[folder]):
            if _is_aside(name):
                src.aside.append(src.path(name))
            else:
                src.files[name] = member
        if _PULL in src.files:
            src.date = _pull_date(src)
        out.append(src)
    if not out:
        raise SheetError("%s: %s" % (path, NO_GAMES))
    return out


def _is_aside(name):
    stem, dot, k = name.rpartition(".bad")
    return bool(dot) and k.isdigit() and stem.startswith("history") and stem.endswith(".json")


def _pull_date(src):
    try:
        t = json.loads(src.zip.read(src.files[_PULL])[:65536]).get("time")
    except (ValueError, AttributeError, KeyError, zipfile.BadZipFile, OSError):
        return ""
    if isinstance(t, str) and len(t) >= 16 and t[4] == "-" and t[10] == "T":
        return t[:10] + " " + t[11:16]
    return ""


class Game:
    """A finished (or abandoned) game as a source holds it: its history line (e), where
    (the source and the line, for messages), its id."""

    def __init__(self, e, src, where):
        self.e = e
        self.src = src
        self.where = where
        self.id = e.get("id") if isinstance(e.get("id"), str) else ident.entry_id(e)


def history_names(src, said):
    """The source's history files, oldest first (history.K.json by K, then history.json); a
    name the device does not give is said and left alone."""
    ks = []
    for name in src.files:
        k = entries.archive_number(name)
        if k is not None and k > 0:
            ks.append(k)
        elif k is not None:
            said.append("%s: %s (export it by name to see what it holds)" % (src.path(name), histbrowse.ODD % name))
    names = ["history.%d.json" % k for k in sorted(ks)]
    if entries.HISTORY in src.files:
        names.append(entries.HISTORY)
    return names


def games_of(src, said, single=False):
    """[Game] of one source, oldest first: its history's lines, and the game its finish
    journal holds when the history does not hold it yet (said). single: the source is one
    file given by name (a history file read whatever its name)."""
    out = []
    names = list(src.files) if single else history_names(src, said)
    for name in names:
        text = src.read(name, sheets.HISTORY_LIMIT, "history file", said)
        if text is None:
            continue
        try:
            lines = sheets.history_entries(src.path(name), text, said)
        except SheetError as x:
            said.append(x.args[0])
            continue
        for line, e in lines:
            out.append(Game(e, src, "%s: line %d" % (src.path(name), line)))
    if not single:
        for path in src.aside:
            said.append("%s: a history file the device set aside as damaged: not read (export it by name "
                        "to see what it holds)" % path)
    if _JOURNAL in src.files and not single:
        g = _journal(src, said)
        if g is not None:
            if [x for x in out if x.id == g.id or x.e.get("n") == g.e.get("n")]:
                said.append("%s: the finish of game %s was cut short when these files were copied; the history "
                            "holds it already" % (src.path(_JOURNAL), g.e.get("n")))
            else:
                said.append("%s: game %s was being finished when these files were copied (the device completes it "
                            "at its next start): counted from this journal" % (src.path(_JOURNAL), g.e.get("n")))
                out.append(g)
    return out


def _journal(src, said):
    text = src.read(_JOURNAL, 4096, "finish journal", said)
    if text is None:
        return None
    from firmware.game.journal import check_journal
    try:
        j = check_journal(text)
    except hostio.DAMAGED as x:
        said.append("%s: a finish journal that is damaged (%s): not read" % (src.path(_JOURNAL), x.args[0] if x.args else type(x).__name__))
        return None
    return Game(j["entry"], src, src.path(_JOURNAL))


def league(paths, said, running=None):
    """(games, sources): every finished or abandoned game of the sources in paths, each
    once (by id), in the order the sources were given, each source's oldest first; said
    gets a line for what could not be read and for each id held with other contents.
    running: a list that gets the sources' running games (game.json given by name, or in a
    folder where no finish was under way), for export. SheetError when a source cannot be
    read at all, or holds no game."""
    found = []
    for path in paths:
        found.extend(find(path, said))
    out = []
    seen = {}
    for src in found:
        single = src.zip is None and not os.path.isdir(src.label)
        if single and _is_save(src):
            if running is None:
                raise SheetError("%s: a running game, not a history: its game is not finished" % src.label)
            running.append(src)
            continue
        got = games_of(src, said, single)
        if not got and not single and entries.HISTORY not in src.files and not history_names(src, []):
            raise SheetError("%s: %s" % (src.label, NO_GAMES))
        for g in got:
            k = seen.get(g.id)
            if k is None:
                seen[g.id] = len(out)
                out.append(g)
                continue
            was = out[k]
            if ident.entry_id(was.e) == ident.entry_id(g.e):
                continue
            keep = g if (g.e.get("end") or 0) > (was.e.get("end") or 0) else was
            said.append("game %s (%s, id %s) is held with other contents by %s and %s: the later finish (%s) is kept"
                        % (g.e.get("n", "?"), ", ".join(g.e.get("players") or []), g.id, was.where, g.where,
                           keep.where))
            out[k] = keep
        if running is not None and _RUNNING in src.files and _JOURNAL not in src.files and not single:
            running.append(src)
    return out, found


def _is_save(src):
    """Whether a file given by name is a saved game rather than a history."""
    name = next(iter(src.files))
    text = src.read(name, max(hostio.SAVE_LIMIT, sheets.HISTORY_LIMIT), "saved game or history file", [])
    if text is None:
        return False
    first = text.split("\n", 1)[0]
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        head = None
    return not text.lstrip().startswith("[") and not (isinstance(head, dict) and head.get("format") == "phase10-history")
