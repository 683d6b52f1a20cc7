# The rules of the Phase 10 games. Pure Python that runs unchanged on MicroPython and
# CPython; it knows nothing of pins, screens or files. A game is its settings plus a list
# of records (hands or turns); every figure a screen shows is derived from them.
