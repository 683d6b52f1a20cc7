# A compiled module (.mpy) held in a bytes object, loaded into RAM as a module: how a firmware
# image carries machine code for a processor that needs it on a word (docs/architecture.md,
# "Machine code in an image").
#
# Why: MicroPython's freezing tools place native code for ARMv6-M (the RP2040's Cortex-M0+)
# and RV32IMC (the ESP32-C3) on a halfword, and a native function's entry reads a word at its
# start; where the linker happens to put it on a halfword the M0+ takes a HardFault at the
# first call. A .mpy loaded at run time has its code copied into a heap block, which is always
# word aligned, whatever the image's layout. The image freezes the .mpy's bytes (a constant:
# it stays in flash) and this module serves them through a one-file filesystem mounted for
# the import, MicroPython's own .mpy loader doing the rest.
# MicroPython only (CPython does not load .mpy files); imports nothing of the app.
import io
import sys

try:
    import vfs          # MicroPython 1.23 on
except ImportError:
    import os as vfs

_MOUNT = "/_codeload"
_ENOENT = 2
_GET_BUFFER_SIZE = 11     # MP_STREAM_GET_BUFFER_SIZE: the reader's buffer, asked once
_CLOSE = 4                # MP_STREAM_CLOSE


class _File(io.IOBase):
    """The .mpy's bytes as a stream the loader reads (readinto; no buffer protocol, so the
    loader copies the code into RAM rather than run it where the bytes lie)."""

    def __init__(self, data):
        self._data = memoryview(data)
        self._at = 0

    def readinto(self, buf):
        n = min(len(buf), len(self._data) - self._at)
        buf[:n] = self._data[self._at:self._at + n]
        self._at += n
        return n

    def ioctl(self, request, arg):
        if request == _GET_BUFFER_SIZE:
            return 256      # fewer reads than the default 32 bytes; the loader caps it
        return 0 if request == _CLOSE else -1


class _OneFile:
    """A read-only filesystem holding one file, /<name>.mpy."""

    def __init__(self, name, data):
        self._path = "/" + name + ".mpy"
        self._data = data

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def stat(self, path):
        if path != self._path:
            raise OSError(_ENOENT)
        return (0x8000, 0, 0, 0, 0, 0, len(self._data), 0, 0, 0)     # a regular file

    def open(self, path, mode):
        if path != self._path:
            raise OSError(_ENOENT)
        return _File(self._data)


def load(data, name):
    """The module compiled into data (a .mpy's bytes), loaded into RAM and registered in
    sys.modules as name ("firmware.draw.fastdraw_armv6m"). Raises what the loader raises: a
    ValueError for a .mpy made for another MicroPython or processor, a MemoryError."""
    short = name.rpartition(".")[2]
    vfs.mount(_OneFile(short, data), _MOUNT)
    sys.path.insert(0, _MOUNT)
    try:
        mod = __import__(short)
    finally:
        sys.path.remove(_MOUNT)
        vfs.umount(_MOUNT)
        sys.modules.pop(short, None)
    sys.modules[name] = mod
    return mod
