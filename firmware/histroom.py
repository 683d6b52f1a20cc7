# Room on a full flash. The history keeps the newest games that fit: when the flash
# refuses a save for want of room (a finish, or a hand of the running game), the oldest
# history file (history.K.json, 100 games) is deleted and the save is tried again; the
# message says which games went, so none goes without a word. Past ARCHIVES files the
# oldest goes the same way (firmware/histadd.py). A player who wants every game pulls the
# history to a PC first (docs/pc-companion.md); History says when the flash is nearly full.
# Loaded only when a save was refused for want of room, or an archive is deleted.
from firmware.history import HEAD, archives, number
from firmware.store import HISTORY


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


def drop_oldest(store, why):
    """Delete the oldest history.K.json; why % games is the message that says it (the
    games' numbers: its first, and the next file's first less one; its name when they
    cannot be read). The message, or None when there is none to delete (or the flash
    would not). Two small reads: the file of old games is never read through."""
    ks = archives(store)
    if not ks:
        return None
    ks.sort()
    name = "history.%d.json" % ks[0]
    a = first_game(store, name)
    b = first_game(store, "history.%d.json" % ks[1] if len(ks) > 1 else HISTORY)
    if a is None:
        what = name
    elif b is None or b <= a:
        what = "games from %d" % a
    else:
        what = ("game %d" % a) if b == a + 1 else ("games %d-%d" % (a, b - 1))
    if not store.remove(name):
        return None
    return why % what


FULL = "The flash was full: the oldest games of the history (%s) were deleted to make room."


def make_room(store, said):
    """After a save the flash refused (store.full): delete the oldest history file and say
    so in said. True when one went (try the save again)."""
    if not store.full:
        return False
    msg = drop_oldest(store, FULL)
    if msg is None:
        return False
    said.append(msg)
    return True
