# Room on a full flash. The history keeps the newest games that fit: when the flash
# refuses a save for want of room (a finish, or a hand of the running game), the oldest
# history file (history.K.json, 100 games) is deleted and the save is tried again; the
# message says which games went, so none goes without a word. Past ARCHIVES files the
# oldest goes the same way (firmware/history/histadd.py). A player who wants every game pulls the
# history to a PC first (docs/pc-companion.md); History says when the flash is nearly full.
# Loaded only when a save was refused for want of room, or an archive is deleted.
from firmware.history.entries import HEAD, archives, number
from firmware.files.store import HISTORY


def first_game(store, name):
    """The number of the first game in history file name, read off its first bytes
    (None when they do not say it: a damaged or earlier-format file)."""
    try:
        f = store.open(name, "rb")
        try:
            return number(f, len(HEAD))
        finally:
            f.close()
    except Exception:       # a flash error, short of memory: not said
        return None


def games_of(store, ks, i):
    """How a message names the games of history.K.json for K = ks[i] (ks sorted): its
    first game's number, and the next file's first less one; its name when they cannot
    be read. Two small reads: the file of old games is never read through."""
    name = "history.%d.json" % ks[i]
    a = first_game(store, name)
    b = first_game(store, "history.%d.json" % ks[i + 1] if i + 1 < len(ks) else HISTORY)
    if a is None:
        return name
    if b is None or b <= a:
        return "games from %d" % a
    return ("game %d" % a) if b == a + 1 else ("games %d-%d" % (a, b - 1))


def drop_oldest(store, why):
    """Delete the oldest history.K.json; why % games is the message that says it
    (games_of). The message, or None when there is none to delete (or the flash would
    not)."""
    ks = archives(store)
    if not ks:
        return None
    ks.sort()
    what = games_of(store, ks, 0)
    if not store.remove("history.%d.json" % ks[0]):
        return None
    return why % what


FULL = "The flash was full: the oldest games of the history (%s) were deleted to make room."


def make_room(store, notes):
    """After a save the flash refused (store.full): delete the oldest history file and say
    so in notes. True when one went (try the save again)."""
    if not store.full:
        return False
    msg = drop_oldest(store, FULL)
    if msg is None:
        return False
    notes.append(msg)
    return True
