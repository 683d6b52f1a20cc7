"""Where the PC companion's games come from (host_sim export and stats): any number of
sources, each a folder (a board's pull, or the browser's Download files unpacked), a zip
file (the browser's Download files, or pulls zipped: each folder in it that holds the
device's files is a source of its own) or one file (a history file; for export also a
running game, game.json).

Each game is counted once, by its id (engine_mpy/ident.py): the same game in two pulls of
one board, or in a board's pull and a browser's download, is one game. A line of an
earlier firmware has no id: it gets the one derived from its content (its number aside:
ident.line_ids), the same wherever that history is read. The same id with other contents
is said in one line, and the later finish kept.

A folder caught in the middle of a finish (finish.json: the journal the device completes
at its next start) holds a finished game its history does not hold yet: it is counted
from the journal, and said.
"""
import json
import os
import zipfile

from host_sim import hostio, sheets
from host_sim.sheets import SheetError
from engine_mpy import ident
from firmware.history import entries, histbrowse

NO_GAMES = ("no history here (history.json or history.K.json) and no finish under way (finish.json), so no "
            "finished game: copy a board's files with python -m host_sim pull, or give the browser's "
            "Download files (its zip, or the folder unpacked from it)")
JOURNAL = "finish.json"        # the finish under way (firmware/game/journal.py)
RUNNING = "game.json"
PULL = "pull.json"
JOURNAL_LIMIT = 4096


class Source:
    """One place the device's files were found. label: how the messages name it; files:
    {name: its path, or its member in the zip}; aside: the history files the device set
    aside as damaged (their paths, said, never read); date: when a board's files were
    copied (pull.json: "YYYY-MM-DD HH:MM", "" when unknown); inputs: the real paths of the
    files read (an output may never be one of them); single: one file given by name."""

    def __init__(self, label):
        self.label = label
        self.files = {}
        self.aside = []
        self.date = ""
        self.inputs = []
        self.zip = None
        self.single = False

    def path(self, name):
        """How a message names the source's file name."""
        return self.label if self.single else os.path.join(self.label, name)

    def read(self, name, limit, what, said):
        """The text of the file name, or None after saying why it cannot be read."""
        where = self.files[name]
        if self.zip is None:
            return hostio.read_text(where, limit, what, said)
        info = self.zip.getinfo(where)
        if info.file_size > limit:
            said.append("%s: cannot read: over %d bytes, too long for a %s" % (self.path(name), limit, what))
            return None
        try:
            data = self.zip.read(info)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as e:
            said.append("%s: cannot read: %s" % (self.path(name), e))
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            said.append("%s: cannot read: not UTF-8 text (byte %d)" % (self.path(name), e.start))
            return None


def _wanted(name):
    """Whether a file of this name is one of the device's that a source is read for: the
    history's (a name the device does not give, history.02.json, too: said, not read), the
    finish journal, the running game, the pull's record."""
    return name in (JOURNAL, RUNNING, PULL) or entries.archive_number(name) is not None or name == entries.HISTORY


def _aside(name):
    stem, dot, k = name.rpartition(".bad")
    return bool(dot) and k.isdigit() and stem.startswith("history") and stem.endswith(".json")


def find(path):
    """The sources path holds ([Source]): a folder, a zip file, or one file. SheetError
    (its one line; None when said already) when it cannot be read at all."""
    if os.path.isdir(path):
        try:
            names = sorted(os.listdir(path))
        except OSError as e:
            raise SheetError("%s: cannot read this folder: %s" % (path, e.strerror or e))
        src = Source(path)
        for name in names:
            p = os.path.join(path, name)
            if _wanted(name) and os.path.isfile(p):
                src.files[name] = p
                src.inputs.append(os.path.realpath(p))
        src.aside = sheets.set_aside(path)
        src.date = sheets.pull_date(path)
        return [src]
    f = hostio.open_file(path, "history file, saved game or zip file")
    if f is None:
        raise SheetError(None)
    with f:
        is_zip = zipfile.is_zipfile(f)
    if is_zip:
        return _zip(path)
    src = Source(path)
    src.single = True
    src.files[os.path.basename(path)] = path
    src.inputs.append(os.path.realpath(path))
    src.date = sheets.pull_date(os.path.dirname(os.path.abspath(path)))
    return [src]


def _zip(path):
    try:
        z = zipfile.ZipFile(path)
        members = z.infolist()
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise SheetError("%s: cannot read this zip file: %s" % (path, e))
    folders = {}
    for info in members:
        if info.is_dir():
            continue
        folder, _, name = info.filename.rpartition("/")
        if folder.endswith("/bad") and _aside(name):
            folders.setdefault(folder[:-4], []).append((name, info.filename))
        elif _wanted(name) or _aside(name):
            folders.setdefault(folder, []).append((name, info.filename))
    out = []
    for folder in sorted(folders):
        src = Source(path + ("/" + folder if folder else ""))
        src.zip = z
        src.inputs.append(os.path.realpath(path))
        for name, member in sorted(folders[folder]):
            if _aside(name):
                src.aside.append(os.path.join(path, member))
            else:
                src.files[name] = member
        if PULL in src.files:
            text = src.read(PULL, 65536, "pull record", [])
            src.date = sheets.pull_time(text)
        out.append(src)
    if not out:
        raise SheetError("%s: %s" % (path, NO_GAMES))
    return out


class Game:
    """A game as a source holds it: its history line (e, a dict), its id, the source and
    where in it (for messages)."""

    def __init__(self, e, gid, src, where):
        self.e = e
        self.id = gid
        self.src = src
        self.where = where


def history_names(src, said):
    """The source's history files, oldest first (history.K.json by K, then history.json);
    a name the device does not give is said and left alone (export it by name)."""
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


def is_history(text):
    """Whether a file's text is a history's (a header line, or the first format's list)."""
    if text.lstrip().startswith("["):
        return True
    try:
        head = json.loads(text.split("\n", 1)[0])
    except (ValueError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("format") == "phase10-history"


def games_of(src, said, notes, texts=None):
    """[Game] of one source, oldest first: its history's lines, then the game of its finish
    journal when the history does not hold it yet (said in notes). texts: {name: text}
    already read."""
    lines = []
    names = list(src.files) if src.single else history_names(src, said)
    for name in names:
        text = (texts or {}).get(name)
        if text is None:
            text = src.read(name, sheets.HISTORY_LIMIT, "history file", said)
        if text is None:
            continue
        try:
            found = sheets.history_entries(src.path(name), text, said)
        except SheetError as x:
            said.append(x.args[0])
            continue
        for line, e in found:
            lines.append((e, "%s: line %d" % (src.path(name), line)))
    ids = ident.line_ids([e if isinstance(e, dict) else {} for e, _ in lines])
    out = [Game(e, gid, src, where) for (e, where), gid in zip(lines, ids)]
    if JOURNAL in src.files and not src.single:
        g = _journal(src, said)
        if g is None:
            pass
        elif [x for x in out if x.id == g.id or (isinstance(x.e, dict) and x.e.get("n") == g.e.get("n"))]:
            notes.append("%s: the finish of game %s was under way when these files were copied; the history "
                         "holds it already" % (src.path(JOURNAL), g.e.get("n")))
        else:
            notes.append("%s: game %s was being finished when these files were copied (the device completes "
                         "it at its next start): counted from this journal" % (src.path(JOURNAL), g.e.get("n")))
            out.append(g)
    return out


def _journal(src, said):
    text = src.read(JOURNAL, JOURNAL_LIMIT, "finish journal", said)
    if text is None:
        return None
    from firmware.game.journal import check_journal
    try:
        j = check_journal(text)
    except hostio.DAMAGED as x:
        said.append("%s: a finish journal the device could not complete either: not read (%s)"
                    % (src.path(JOURNAL), x.args[0] if x.args else type(x).__name__))
        return None
    e = j["entry"]
    return Game(e, e.get("id") or ident.entry_id(e), src, src.path(JOURNAL))


def league(paths, said, notes, running=None):
    """(games, sources): the games of the sources in paths, each once (by id), in the order
    the sources were given, each source's oldest first. said gets a line for each file or
    line that could not be read; notes a line for each game counted from a finish journal
    and for each id held with other contents (the later finish kept). running: a list that
    gets (source, name) of each running game given (game.json by name, or in a folder where
    no finish was under way); without it, a running game given by name is refused. Raises
    SheetError (its one line) when a source cannot be read at all or holds no game."""
    found = []
    for path in paths:
        found.extend(find(path))
    out = []
    at = {}
    for src in found:
        texts = {}
        if src.single:
            name = next(iter(src.files))
            text = src.read(name, max(hostio.SAVE_LIMIT, sheets.HISTORY_LIMIT), "saved game or history file", None)
            if text is None:
                raise SheetError(None)
            if not is_history(text):
                if running is None:
                    raise SheetError("%s: not a history file (the running game is not finished: export shows it)"
                                     % src.label)
                running.append((src, name, text))
                continue
            texts[name] = text
        elif not history_names(src, []) and JOURNAL not in src.files:
            raise SheetError("%s: %s" % (src.label, NO_GAMES))
        for g in games_of(src, said, notes, texts):
            k = at.get(g.id)
            if k is None:
                at[g.id] = len(out)
                out.append(g)
                continue
            was = out[k]
            if ident.entry_id(was.e) == ident.entry_id(g.e):
                continue
            keep = g if _end(g.e) > _end(was.e) else was
            notes.append("game %s (id %s) is held with other contents by %s and by %s: the later finish is kept (%s)"
                         % (g.e.get("n", "?") if isinstance(g.e, dict) else "?", g.id, was.where, g.where, keep.where))
            out[k] = keep
        if running is not None and not src.single and RUNNING in src.files and JOURNAL not in src.files:
            running.append((src, RUNNING, None))
    return out, found


def _end(e):
    t = e.get("end") if isinstance(e, dict) else None
    return t if isinstance(t, int) and not isinstance(t, bool) else 0


def set_aside(found):
    """A line for each history file the sources' device set aside as damaged (said after
    the lines of the games that could not be read)."""
    return ["%s: a history file the device set aside as damaged: not read (export it by name "
            "to see what it holds)" % path for src in found for path in src.aside]


def over_input(found, outs):
    """Why one of the outputs outs ((path, option) pairs; path None: not asked for, "-": the
    standard output) cannot be written: it is one of the files the sources read (`export
    game.json --html game.json` put the page where the save was). None when none is."""
    read = set()
    for src in found:
        read.update(src.inputs)
    for path, opt in outs:
        if path and path != "-" and os.path.realpath(path) in read:
            return "%s %s is one of the files it reads: give another name (nothing was written)" % (opt, path)
    return None
