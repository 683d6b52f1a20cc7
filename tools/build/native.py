"""The drawing's viper source (firmware/draw/fastdraw_src.py SOURCE) as a module file, for a
compiler that is told the processor: `make mpy` (this machine's), `make deploy` (each
board's), the firmware image's manifest (the port's own mpy-cross); and, for an image whose
processor needs machine code on a word, the compiled .mpy as a module of bytes
(firmware/draw/fastdraw_mpy, loaded into RAM by firmware/draw/codeload.py).

  python tools/build/native.py OUT.py                        write it to OUT.py
  python tools/build/native.py --mpy MPY_CROSS ARCH OUT.py   write firmware/draw/fastdraw_mpy for ARCH
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "firmware", "draw", "fastdraw_src.py")
NAME = "firmware/draw/fastdraw_viper.py"    # the module it becomes (its name in tracebacks)
MPY_NAME = "firmware/draw/fastdraw_mpy.py"  # the module of its .mpy's bytes
# The processors MicroPython's tools/mpy-tool.py (v1.26.1 to v1.28.0) freezes native code for
# on a word (__attribute__((aligned (4)))): there an image may carry the machine code frozen.
# For the rest (ARMv6-M, ARMv7-M, RV32IMC: aligned (2)) a native function's code may land on
# a halfword, and its entry reads a word there: a HardFault on the RP2040's Cortex-M0+.
WORD_ALIGNED = ("armv6", "xtensa", "xtensawin")


def source():
    """The viper source, read from the file without importing the app (the manifest runs
    inside MicroPython's build tools)."""
    ns = {}
    with open(SRC) as f:
        exec(compile(f.read(), SRC, "exec"), ns)
    return ns["SOURCE"]


def write(out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(source())
    return out


def mpy_module(out, mpy_cross, arch, opt="-O3"):
    """Write out (a .py file) as the module firmware/draw/fastdraw_mpy: MPY, the bytes of the
    viper source compiled by mpy_cross for arch (a .mpy, no line numbers, as `make deploy`
    compiles it). Frozen, the bytes are a constant in flash."""
    with tempfile.TemporaryDirectory(prefix="phase10-native-") as tmp:
        src = write(os.path.join(tmp, "fastdraw_viper.py"))
        mpy = os.path.join(tmp, "fastdraw_viper.mpy")
        subprocess.run([mpy_cross, opt, "-march=" + arch, "-s", NAME, "-o", mpy, src], check=True)
        with open(mpy, "rb") as f:
            data = f.read()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write("# Written by tools/build/native.py: firmware/draw/fastdraw_src.py's viper source compiled for %s\n"
                "# (%d bytes of .mpy), loaded into RAM by firmware/draw/codeload.py.\n" % (arch, len(data)))
        f.write("MPY = %r\n" % data)
    return out


# MicroPython's native architectures, in the order of their numbers in a .mpy's header
# (py/persistentcode.h; firmware/draw/gfx.py _ARCH)
ARCHS = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc")
# The decorators that make MicroPython emit machine code for a function of a .py file
NATIVE_DECORATORS = ("native", "viper", "asm_thumb", "asm_xtensa", "asm_rv32")


def native_functions(source):
    """The functions of a module's source (text) that MicroPython compiles to machine code
    (@micropython.native and the like; the same words inside a string are not code)."""
    import ast
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                if (isinstance(d, ast.Attribute) and isinstance(d.value, ast.Name)
                        and d.value.id == "micropython" and d.attr in NATIVE_DECORATORS):
                    out.append(node.name)
    return out


def mpy_arch(data):
    """The processor a .mpy's machine code is for ("" when it holds none): byte 2's top bits."""
    return ARCHS[data[2] >> 2] if len(data) > 2 and data[2] >> 2 < len(ARCHS) else "?"


def halfword_risks(frozen, arch):
    """The modules of an image for processor arch (frozen: {name in the image: source file})
    whose machine code MicroPython's tools would freeze where it can start on a halfword: a
    .py with a native decorator, a .mpy with machine code. [] where arch is word aligned."""
    if arch in WORD_ALIGNED:
        return []
    out = []
    for name, path in sorted(frozen.items()):
        with open(path, "rb") as f:
            data = f.read()
        if path.endswith(".mpy") or name.endswith(".mpy"):
            if mpy_arch(data):
                out.append(name)
        elif native_functions(data.decode("utf-8")):
            out.append(name)
    return out


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--mpy":
        mpy_module(sys.argv[4], sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2:
        write(sys.argv[1])
    else:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
