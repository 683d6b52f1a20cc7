# Reading the running game at start (firmware/game/gamefile.py keeps its records on the flash;
# engine_mpy/saveload.py reads the format): only start-up needs this, so it leaves RAM after.
from engine_mpy.modules import builtin, forget

json = builtin("json")
array = builtin("array").array

from engine_mpy import savefile
from firmware.game.gamefile import GameFile


def load(store, name, notes):
    """(game or None, message or None, unread): the running game from name, its records
    left on the flash. A save of an earlier version (1 or 2: no id) is read, then written
    out as this version with the id of its bytes (atomically: a cut leaves the earlier
    file, read again at the next start;
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
    torn = game.torn
    if game.earlier:
        # an earlier version (no id in its header): written out as this one, with the id
        # of its bytes (engine_mpy/ident.py save_id: a copy of the same save converted
        # on another device gets the same)
        try:
            err = _convert(store, name, gf, game, notes)
        except Exception as e:      # short of memory: the earlier file stays as it is
            err = "short of memory" if isinstance(e, MemoryError) else type(e).__name__
        if err:
            game.id = None
            return None, "%s is a save of an earlier version and could not be converted (%s); it is kept as it is." % (name, err), True
    else:
        gf.end = game.size
        gf.whole = bool(torn)     # the cut tail goes at the next save
    if torn:
        return game, "The save of hand %d was cut short (the power went?): enter that hand again." % torn, False
    return game, msg, False


def _convert(store, name, gf, game, notes):
    # The earlier save again, with an id: version 2's lines copied as they are (GameFile
    # writes the file whole), version 1's records (checked already) copied out a line
    # each; no second replay, so it takes no more RAM than the reading did.
    from engine_mpy import ident
    f = store.open(name, "rb")
    try:
        game.id = ident.save_id(game, f)
    finally:
        f.close()
    ident = None
    forget("engine_mpy.ident")
    v1 = getattr(game, "size", None) is None
    if not v1:
        gf.end = game.size
        gf.whole = True
    starts = array("I")
    pos = [0]

    def writer(put):
        def each(rec):
            t = json.dumps(rec, separators=(",", ":"))
            starts.append(pos[0])
            put(t)
            put("\n")
            pos[0] += len(t.encode()) + 1
        from engine_mpy import saveload_v1
        h = savefile.header(game)
        put(h)
        pos[0] = len(h.encode())
        f = store.open(name, "rb")
        try:
            saveload_v1.records_v1(f, each)
        finally:
            f.close()
    while True:
        err = store.write_atomic(name, writer) if v1 else gf.save(game)
        if not err:
            break
        # the flash full: room made as for a hand (firmware/game/session.py _save), else the
        # earlier save stays and the game could not go on till the owner freed space
        if not store.full:
            return err
        from firmware.history.histroom import make_room
        room = make_room(store, notes)
        make_room = None
        forget("firmware.history.histroom")
        if not room:
            return err
    if v1:
        gf.starts = starts
        gf.end = pos[0]
        gf.n = len(starts)
        gf.whole = False
    return None
