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
