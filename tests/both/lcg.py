# A seeded generator of our own for the shared tests: the same numbers on both runtimes
# (MicroPython's random differs from CPython's, and the board's is seeded by hardware).


class Lcg:
    def __init__(self, seed):
        self.s = seed

    def below(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n

    def between(self, a, b):
        return a + self.below(b - a + 1)
