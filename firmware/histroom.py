# Room on a full flash. The history keeps the newest games that fit: when the flash
# refuses a save for want of room (a finish, or a hand of the running game), the oldest
# history file (history.K.json, 100 games) is deleted and the save is tried again; the
# message says which games went, so none goes without a word. Past ARCHIVES files the
# oldest goes the same way (firmware/histadd.py). A player who wants every game pulls the
# history to a PC first (docs/pc-companion.md); History says when the flash is nearly full.
# Loaded only when a save was refused for want of room, or an archive is deleted.
from firmware.history import archives, index, number


def games(store, name):
    """'games A-B' for the history file name (its first and last game's numbers), or its
    name when those cannot be read (a damaged file: deleted all the same)."""
    try:
        f = store.open(name, "rb")
        try:
            ix = index(f)
            if len(ix) and not ix.v1:
                a = number(f, ix.starts[0])
                b = number(f, ix.starts[len(ix) - 1])
                if a is not None and b is not None:
                    return ("game %d" % a) if a == b else ("games %d-%d" % (a, b))
        finally:
            f.close()
    except Exception:       # a damaged file, a flash error, short of memory: its name
        pass
    return name


def drop_oldest(store, why):
    """Delete the oldest history.K.json; why(games) is the message that says it. The
    message, or None when there is none to delete (or the flash would not)."""
    ks = archives(store)
    if not ks:
        return None
    name = "history.%d.json" % min(ks)
    what = games(store, name)
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
