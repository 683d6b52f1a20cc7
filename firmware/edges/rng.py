# The device's random source: xorshift32, the same numbers for the same seed under
# MicroPython and CPython (their own `random` modules differ), so a simulator script and
# its micropython twin roll the same dice. On the board it is seeded from the hardware.
# The engines take any object with getrandbits(n) and randrange(n).


class Rng:
    def __init__(self, seed=None):
        if seed is None:
            seed = _hardware_seed()
        self.state = (seed & 0xFFFFFFFF) or 0x9E3779B9   # xorshift must not start at 0

    def _next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def getrandbits(self, n):
        """n (1-32) random bits: the top bits of the next state, the best-mixed ones."""
        return self._next() >> (32 - n)

    def draw(self, n):
        """n random bytes: a new game's id where there is no os.urandom to draw it from, or
        in the simulator (firmware/main.py build)."""
        return bytes(self.getrandbits(8) for _ in range(n))

    def randrange(self, n):
        """A whole number 0..n-1, without the bias of a plain modulo."""
        if n <= 0:
            raise ValueError("empty range")
        bits = 1
        while (1 << bits) < n:
            bits += 1
        while True:
            v = self.getrandbits(bits)
            if v < n:
                return v


def _hardware_seed():
    try:
        import os
        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
    except (ImportError, AttributeError, OSError, NotImplementedError):
        import time
        return time.ticks_us() if hasattr(time, "ticks_us") else int(time.time() * 1000)
