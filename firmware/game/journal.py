# Finishing a game (firmware/game/session.py, "Finishing a game changes three files"): the
# journal finish.json written first, the one commit point (write), then applied: the
# roster, the history's new line and the save removed (apply, after the frame); and at
# start a finish a power cut left half done, completed from its journal
# (complete_at_start). Loaded for a finish (or when finish.json is there at start), then
# dropped. docs/architecture.md, "A finish, from OK to the history", walks it.
import gc
import json

from engine_mpy.lines import parse
from engine_mpy.modules import forget
from firmware.files.store import GAME as GAME_FILE, ROSTER, FINISH as FINISH_FILE
from firmware.memory.policy import HISTORY_WRITERS


def write(s, e, roster_rows, later=False):
    """Session.write_journal() for session s (its game saved and out of RAM:
    Session.drop_game): e is its history line, numbered here. If the journal cannot be
    saved, the game is read again from its save and nothing else has changed (but for the
    oldest history files deleted to make room on a full flash, which the message says).
    later: the journal is the commit, so the game is over once it is saved; what the
    journal holds goes to the roster and the history after the frame that shows the
    result (s.finishing, done by apply(); what it will say is said now). Else they are
    written now."""
    store = s.store
    gid = e.get("id")
    if gid:
        # a game the history holds already (a copy of its save loaded back after it was
        # finished) is never counted twice: its finish is refused, its abandoning only
        # removes the save
        from firmware.history import histfind
        got, err, unread = histfind.find(store, gid)
        if got is not None:
            err = histfind.already(got) if e["done"] else None
        histfind = None
        forget("firmware.history.histfind")      # (out of RAM before the history's writers)
        if got is not None and not e["done"]:
            store.remove(GAME_FILE)
            _drop_history()
            return None
        if err:
            return _back(s, err)
        got = None
        gc.collect()
    from firmware.history import histadd
    notes = []
    kept = []        # history.json's index, read once for the number and the new line
    n, err, unread = histadd.last_n(store, notes, kept)
    if unread:
        histadd = kept = None     # (out of RAM before the game is read again)
        return _back(s, err)
    e["n"] = n + 1

    def text(put):
        put('{"n":%d,"roster":' % e["n"])
        put(json.dumps(roster_rows, separators=(",", ":")))
        put(',"entry":')
        from firmware.history.entries import write_entry
        write_entry(e, put)
        put("}")
    while True:
        err = store.write_atomic(FINISH_FILE, text)
        if not err:
            break
        # the flash full: the oldest games make room (said), never a finish refused for them
        if not _room(store, notes):
            notes.append(err)
            histadd = kept = None
            return _back(s, " ".join(notes))
    # Committed: the game is over even if the flash refuses what follows (the next
    # start or the next new game completes it from the journal).
    if later:
        if kept:
            try:
                notes.extend(histadd.foresee(store, kept[0]))
            except Exception:     # a flash error, short of memory: said when it happens
                pass
        s.finishing = (roster_rows, e, kept, notes[:])
        return " ".join(notes) if notes else None
    err = _write_roster_history_remove_save(s, roster_rows, e, notes, kept)
    e = kept = None
    _drop_history()
    gc.collect()
    if err:
        notes.append(err)
    return " ".join(notes) if notes else None


def apply(s):
    """The journal a write() with later=True left in s.finishing, applied: the roster, the
    history's new line, the save and the journal removed. None, or what it says beyond
    what write() said."""
    roster_rows, e, kept, told = s.finishing
    s.finishing = None
    notes = []
    err = _write_roster_history_remove_save(s, roster_rows, e, notes, kept)
    e = kept = roster_rows = None
    _drop_history()
    gc.collect()
    notes = [m for m in notes if m not in told]
    if err:
        notes.append(err)
    return " ".join(notes) if notes else None


def _back(s, err):
    """The finish did not happen: the game again, as its save holds it."""
    _drop_history()
    gc.collect()
    s.load()
    s.messages = []
    return err


def _drop_history():
    for m in HISTORY_WRITERS:
        forget(m)


def _room(store, notes):
    """A save was refused: whether it was for want of room and the oldest history file
    went to make some (then try again)."""
    if not store.full:
        return False
    from firmware.history.histroom import make_room
    return make_room(store, notes)


def _write_roster_history_remove_save(s, roster_rows, e, notes, kept=None):
    """What a journal says, done: the roster saved as roster_rows (None: left alone), game
    e added to the history (not twice), then game.json and finish.json removed, in that
    order, each step harmless to do again. None, or why the flash refused a step (the
    journal stays: the next start does it again); notes gets what was done to make room."""
    store = s.store
    if roster_rows is not None:
        text = json.dumps(roster_rows, separators=(",", ":"))
        while True:
            err = store.write_atomic(ROSTER, text)
            if not err:
                break
            if not _room(store, notes):
                return err
        text = None
    from firmware.history import histadd
    while True:
        err = histadd.add(store, e, notes, kept)
        if not err:
            break
        if not _room(store, notes):      # (not for a history that could not be read)
            return err
    store.remove(GAME_FILE)
    store.remove(FINISH_FILE)
    return None


# The longest finish.json: the roster as it will be (roster.TEXT_LIMIT) and the history's
# line (history.LINE_MAX), with their keys. Longer is damaged before it is read into RAM.
JOURNAL_LIMIT = 4096


def complete_at_start(s):
    """A finish cut short by a power cut, found at start (Session.load, or a new game):
    complete it from its journal. Returns None, or the message when it could not be
    completed (also in s.messages)."""
    from firmware.files import storeread
    j, msg, unread = storeread.read(s.store, FINISH_FILE, check_journal, JOURNAL_LIMIT)
    storeread = None
    if j is not None:
        j = parse(j)
    if msg:
        s.messages.append(msg)
    if unread:
        return msg
    if j is None:
        return None
    notes = []
    err = _write_roster_history_remove_save(s, j["roster"], j["entry"], notes)
    s.messages.extend(notes)
    if err:
        s.messages.append(err)
    return err


def check_journal(text):
    """finish.json's contents as fully checked as the files it writes: the roster's rows
    as roster.json takes them (or null: a game abandoned leaves the roster alone), the
    history's line as history.json takes it. Every key the finish reads must be there."""
    j = parse(text)
    if not isinstance(j, dict):
        raise ValueError("not an object")
    if "roster" not in j:
        raise ValueError("no roster")
    n = j.get("n")
    e = j.get("entry")
    if not isinstance(n, int) or n is True or n is False or n < 1:
        raise ValueError("no game number")
    from firmware.files import roster
    from firmware.history.entries import check_entry, plain
    check_entry(e)
    # written again as it is (history.write_entry): keys and sheet must need no escaping
    for k in e:
        if not isinstance(k, str) or not plain(k):
            raise ValueError("a key is not plain text")
    s = e.get("sheet", "")
    if isinstance(s, str) and not plain(s):
        raise ValueError("the sheet is not plain text")
    if e.get("n") != n or not isinstance(e.get("game"), str) or not e.get("players"):
        raise ValueError("the game does not match its number")
    if j.get("roster") is not None:
        roster.check_rows(j["roster"])
    return j
