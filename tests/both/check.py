# Helpers both runtimes have: pytest.raises is not available under MicroPython.


def raises(exc_type, fn, *args, **kw):
    """Call fn and return the exception of exc_type it raised; fail if it raised none."""
    try:
        fn(*args, **kw)
    except exc_type as e:
        return e
    raise AssertionError("%s was not raised by %s" % (exc_type.__name__, getattr(fn, "__name__", fn)))


def message(exc):
    return str(exc.args[0]) if exc.args else ""


def forget_engines():
    """On MicroPython, drop every rules module but the two the device always holds, as a
    board does between games, so the next case starts from the heap a board would have.
    CPython keeps them: other test modules hold their classes."""
    import sys
    if sys.implementation.name != "micropython":
        return
    import gc
    pkg = sys.modules.get("engine_mpy")
    for k in list(sys.modules):
        if k.startswith("engine_mpy.") and k not in ("engine_mpy.game", "engine_mpy.savefile"):
            del sys.modules[k]
            try:
                delattr(pkg, k[11:])
            except (AttributeError, TypeError, KeyError):
                pass
    gc.collect()
