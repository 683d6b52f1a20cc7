# The board's file store, on a fake flash that can lose power at any step of a save (open,
# each half of a write, close, rename, remove). After a cut at step k, a fresh Store (the
# next start) must read the old text or the new one, never a torn one and never nothing
# when there was something. Two flashes: littlefs-like (rename over a file replaces it)
# and FAT-like (rename onto an existing file fails).
from check import raises
from firmware.files.store import Store, GAME, SETTINGS
from firmware.files import storeread
from fakeflash import FakeFlash, PowerCut


OLD = '{"format":"phase10","v":1,"game":"classic","records":[[0,5,10]]}'
NEW = '{"format":"phase10","v":1,"game":"classic","records":[[0,5,10],[15,0,50]]}'


def store_on(fs):
    return Store("/", fs, fs.open)


def steps_of_a_save(fs_args, before, new=NEW):
    fs = FakeFlash(before, **fs_args)
    store_on(fs).write_atomic(GAME, new)
    return fs.steps


def in_pieces(put):
    # NEW handed over the way the running game is saved: a piece at a time.
    put(NEW[:20])
    put(NEW[20:41])
    put(NEW[41:])


def cut_every_step(fs_args, old, new=NEW):
    """Cut the power at every step of a save of NEW over old (None: no file yet); each
    time, start again and read. Returns the texts read, one per cut point."""
    before = {"/game.json": old.encode()} if old is not None else {}
    n = steps_of_a_save(fs_args, before, new)
    seen = []
    for k in range(n + 1):
        fs = FakeFlash(before, **fs_args)
        fs.cut_at = k
        try:
            store_on(fs).write_atomic(GAME, new)
            assert k == n, "save finished before step %d of %d" % (k, n)
        except PowerCut:
            pass
        fs.power_on()
        text, msg, unread = storeread.read(store_on(fs), GAME)
        assert text in (old, NEW), (k, fs.done, fs.files)
        assert msg is None, (k, msg)  # a power cut is not damage
        assert "/game.json.tmp" not in fs.files  # start-up cleaned the leftover away
        # and the next start reads the same again
        assert storeread.read(store_on(fs), GAME)[0] == text
        seen.append(text)
    return seen


def test_power_cut_at_every_step_littlefs_like():
    seen = cut_every_step({}, OLD)
    # open, two halves, close, rename: 5 steps, 6 cut points; only the last rename
    # publishes the new text
    assert len(seen) == 6
    assert seen == [OLD] * 5 + [NEW]


def test_power_cut_at_every_step_fat_like():
    seen = cut_every_step({"fat": True, "erased": True}, OLD)
    # open, two halves, close, refused rename, remove, rename
    assert len(seen) == 8
    # once the old file is removed, the complete .tmp is the save that is read
    assert seen == [OLD] * 6 + [NEW, NEW]


def test_power_cut_during_the_very_first_save():
    for args in ({}, {"fat": True, "erased": True}):
        seen = cut_every_step(args, None)
        assert seen[0] is None and seen[-1] == NEW


def test_power_cut_at_every_step_of_a_save_written_in_pieces():
    for args in ({}, {"fat": True, "erased": True}):
        seen = cut_every_step(args, OLD, in_pieces)
        # three writes of two halves each: more cut points, still only old or new
        assert len(seen) > 8 and seen[0] == OLD and seen[-1] == NEW
        assert set(seen) == {OLD, NEW}
    fs = FakeFlash()
    s = store_on(fs)
    assert s.write_atomic(GAME, in_pieces) is None
    assert fs.files["/game.json"] == NEW.encode() and s.bytes_written == len(NEW)


def test_saved_text_reads_back_and_counts_writes():
    fs = FakeFlash()
    s = store_on(fs)
    assert storeread.read(s, SETTINGS) == (None, None, False)  # first start: nothing, and nothing to report
    assert s.write_atomic(SETTINGS, '{"contrast":128}') is None
    assert s.writes == 1 and s.bytes_written == 16
    assert fs.files == {"/settings.json": b'{"contrast":128}'}
    assert storeread.read(store_on(fs), SETTINGS) == ('{"contrast":128}', None, False)


def test_truncated_file_at_start_is_reported_and_kept_aside():
    torn = NEW[:30].encode()
    fs = FakeFlash({"/game.json": torn})
    text, msg, unread = storeread.read(store_on(fs), GAME)
    assert text is None and not unread
    assert "game.json" in msg and "damaged" in msg and "game.json.bad1" in msg
    assert fs.files == {"/game.json.bad1": torn}  # the damaged copy, byte for byte
    # the device carries on: a new game saves normally
    s = store_on(fs)
    assert s.write_atomic(GAME, OLD) is None
    assert storeread.read(s, GAME) == (OLD, None, False)


def test_garbage_and_empty_files_are_damaged():
    for junk in (b"\xff" * 64, b"", b"   \n", b"\x00\x01{]"):
        fs = FakeFlash({"/settings.json": junk})
        text, msg, unread = storeread.read(store_on(fs), SETTINGS)
        assert text is None and "damaged" in msg and not unread
        assert fs.files == {"/settings.json.bad1": junk}


def test_damaged_file_with_a_complete_save_beside_it():
    fs = FakeFlash({"/game.json": b"{\"format\":", "/game.json.tmp": NEW.encode()})
    text, msg, unread = storeread.read(store_on(fs), GAME)
    assert text == NEW
    assert "damaged" in msg and "last save" in msg
    assert fs.files == {"/game.json": NEW.encode(), "/game.json.bad1": b"{\"format\":"}


def test_contents_check_decides_what_is_damaged():
    def settings_only(text):
        return None if "contrast" not in text else text
    fs = FakeFlash({"/settings.json": b'{"volume": 3}'})
    text, msg, unread = storeread.read(store_on(fs), SETTINGS, settings_only)
    assert text is None and "damaged" in msg
    # the heap or the flash failing says nothing about the file: it is left as it is, and
    # the caller told; the contents tripping the check any other way (a TypeError, a
    # KeyError: no file of ours does that) is damage: set aside, its bytes kept
    for exc in (MemoryError(), OSError(5)):
        def boom(text):
            raise exc
        fs = FakeFlash({"/settings.json": b'{"contrast": 3}'})
        text, msg, unread = storeread.read(store_on(fs), SETTINGS, boom)
        assert text is None and unread and "could not be read" in msg and "kept as it is" in msg
        assert fs.files == {"/settings.json": b'{"contrast": 3}'}
    for exc in (KeyError("x"), TypeError("unhashable")):
        def trip(text):
            raise exc
        fs = FakeFlash({"/settings.json": b'{"contrast": 3}'})
        text, msg, unread = storeread.read(store_on(fs), SETTINGS, trip)
        assert text is None and not unread and "damaged" in msg and type(exc).__name__ in msg, msg
        assert fs.files == {"/settings.json.bad1": b'{"contrast": 3}'}


def test_flash_full_keeps_the_old_save_and_says_so():
    class FullFlash(FakeFlash):
        def open(self, p, mode="r"):
            if "w" in mode and p.endswith(".tmp"):
                raise OSError(28)  # ENOSPC
            return FakeFlash.open(self, p, mode)
    fs = FullFlash({"/game.json": OLD.encode()})
    s = store_on(fs)
    err = s.write_atomic(GAME, NEW)
    assert "flash full" in err
    assert storeread.read(s, GAME) == (OLD, None, False)


def test_a_first_save_the_flash_refuses_leaves_no_copy_behind():
    # the first roster on a full flash left an empty roster.json.tmp (issue 42): a refused
    # save leaves the flash as it was, file or no file
    for files in ({}, {"/game.json": OLD.encode()}):
        fs = FakeFlash(files, room=len(OLD) + 4)
        s = store_on(fs)
        err = s.write_atomic(SETTINGS, NEW * 4)
        assert s.full and "flash full" in err
        assert fs.files == files, sorted(fs.files)


def test_damaged_copies_are_numbered_and_bounded_and_the_oldest_dropped_is_said():
    fs = FakeFlash()
    msgs = []
    for i in range(5):
        fs.files["/settings.json"] = b"junk %d" % i
        msgs.append(storeread.read(store_on(fs), SETTINGS)[1])
    # the three newest damaged copies, oldest first; never one dropped without a word
    assert fs.files == {"/settings.json.bad1": b"junk 2", "/settings.json.bad2": b"junk 3",
                        "/settings.json.bad3": b"junk 4"}
    assert ["bad%d" % i in msgs[i - 1] for i in (1, 2, 3)] == [True] * 3
    assert "oldest" not in msgs[2] and "oldest damaged copy was deleted" in msgs[3] and "oldest" in msgs[4]


def test_append_adds_to_the_end_and_a_cut_append_leaves_the_file_as_it_was():
    fs = FakeFlash({"/game.json": b"a\n"})
    s = store_on(fs)
    assert s.append(GAME, "b\n") is None and fs.files["/game.json"] == b"a\nb\n" and s.writes == 1
    for k in range(3):     # open, append, close: littlefs commits at the close
        fs = FakeFlash({"/game.json": b"a\n"})
        fs.cut_at = k
        raises(PowerCut, store_on(fs).append, GAME, "b\n")
        assert fs.files["/game.json"] == b"a\n"


def test_host_folder_root():
    fs = FakeFlash()
    s = Store("state/dev1", fs, fs.open)
    assert fs.dirs == {"state", "state/dev1"}
    s.write_atomic(GAME, OLD)
    assert "state/dev1/game.json" in fs.files
    assert s.path(GAME) == "state/dev1/game.json"


def test_read_never_raises():
    class Broken(FakeFlash):
        def open(self, p, mode="r"):
            raise RuntimeError("driver fault")
    fs = Broken({"/game.json": OLD.encode()})
    text, msg, unread = storeread.read(store_on(fs), GAME)
    assert text is None and unread and "could not be read" in msg
    # but a real power cut in a save is not swallowed by the store
    fs = FakeFlash()
    fs.cut_at = 0
    raises(PowerCut, store_on(fs).write_atomic, GAME, OLD)
