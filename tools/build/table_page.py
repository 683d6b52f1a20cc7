"""Make firmware/phones/page.py, the table on phones' page as the device sends it: the HTML,
CSS and JS of tools/build/table_page/table.html gzipped into one bytes constant (frozen into an
image it stays in flash; from a .mpy it is one small block of RAM), with an ETag from its
CRC so a phone keeps it in its cache until the firmware changes it.

    python tools/build/table_page.py          write firmware/phones/page.py
    python tools/build/table_page.py --check  exit 1 when firmware/phones/page.py is out of date
"""
import gzip
import os
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "tools", "build", "table_page", "table.html")
OUT = os.path.join(ROOT, "firmware", "phones", "page.py")


def build():
    with open(SRC, "rb") as f:
        html = f.read()
    # mtime 0: the same bytes on every run (a frozen image and the check need that)
    gz = gzip.compress(html, 9, mtime=0)
    etag = '"%08x"' % zlib.crc32(gz)
    return ("# The table on phones' page (firmware/phones/server.py sends it): tools/build/table_page/table.html\n"
            "# gzipped by tools/build/table_page.py, which writes this file. Do not edit by hand.\n"
            "PAGE = %r\n"
            "ETAG = %r\n" % (gz, etag))


def main(argv):
    text = build()
    if "--check" in argv:
        with open(OUT) as f:
            if f.read() != text:
                sys.stderr.write("firmware/phones/page.py is out of date: run python tools/build/table_page.py\n")
                return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s (%d bytes gzipped)" % (OUT, len(eval(text.split("PAGE = ", 1)[1].split("\n", 1)[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
