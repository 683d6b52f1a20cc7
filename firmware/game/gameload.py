# Reading the running game at start (firmware/game/gamefile.py keeps its records on the flash;
# engine_mpy/saveload.py reads the format): only start-up needs this, so it leaves RAM after.
from engine_mpy.modules import builtin, forget

json = builtin("json")
array = builtin("array").array

from engine_mpy import savefile
from firmware.game.gamefile import GameFile


def load(store, name, notes):
    """(game or None, message or None, unread): the running game from name, its records
    left on the flash. A version 1 save (earlier firmware) is read, then copied out as
    version 2 (atomically: a cut leaves the version 1 file, read again at the next start;
    on a full flash the oldest history file makes room, as for a hand, said in notes);
    a save cut short while a hand was added loses that hand and says so."""
    from engine_mpy import saveload
    gf = GameFile(store, name)

    def read(f):
        gf.__init__(store, name)
        return saveload.load(f, gf.loaded, gf)
    from firmware.files import storeread
    game, msg, unread = storeread.recover(store, name, read)
    storeread = None
    forget("firmware.files.storeread")     # (out of RAM before a version 1 save is written out)
    if game is None:
        return None, msg, unread
    # version 1, with hands or none yet (only a version 2 read sets .size)
    if getattr(game, "size", None) is None:
        try:
            err = _convert(store, name, gf, game, notes)
        except Exception as e:      # short of memory: the version 1 file stays as it is
            err = "short of memory" if isinstance(e, MemoryError) else type(e).__name__
        if err:
            return None, "%s is a save of an earlier version and could not be converted (%s); it is kept as it is." % (name, err), True
        return game, msg, False
    gf.end = game.size
    if game.torn:
        gf.whole = True     # the cut tail goes at the next save
        return game, "The save of hand %d was cut short (the power went?): enter that hand again." % game.torn, False
    gf.whole = False
    return game, msg, False


def _convert(store, name, gf, game, notes):
    # The version 1 save again, its records (checked already) copied out a line each: no
    # second replay, so it takes no more RAM than the reading did.
    from engine_mpy import saveload_v1
    starts = array("I")
    pos = [0]

    def writer(put):
        def each(rec):
            t = json.dumps(rec, separators=(",", ":"))
            starts.append(pos[0])
            put(t)
            put("\n")
            pos[0] += len(t.encode()) + 1
        h = savefile.header(game)
        put(h)
        pos[0] = len(h.encode())
        f = store.open(name, "rb")
        try:
            saveload_v1.records_v1(f, each)
        finally:
            f.close()
    while True:
        err = store.write_atomic(name, writer)
        if not err:
            break
        # the flash full: room made as for a hand (firmware/game/session.py _save), else the
        # version 1 save stays and the game could not go on till the owner freed space
        if not store.full:
            return err
        from firmware.history.histroom import make_room
        room = make_room(store, notes)
        make_room = None
        forget("firmware.history.histroom")
        if not room:
            return err
    gf.starts = starts
    gf.end = pos[0]
    gf.n = len(starts)
    gf.whole = False
    return None
