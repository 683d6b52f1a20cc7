# Debian's Chromium for the tests that open a page in a browser (the score sheet printed to
# PDF, the table on phones' page, the device in the browser). make test brings it (make
# browser, as root): missing, these tests fail, never skip.
import shutil

# How long a test waits for Chromium to start, load a page or show what it waits for: a
# deadline for a machine whose cores are busy with other work (the page, the device and the
# test share them, and other runs too), never a budget (make bench-web measures how long).
# Playwright's own default, 30 s, was passed once on a loaded machine.
LOADED_MS = 120000


def path():
    c = shutil.which("chromium") or shutil.which("chromium-browser")
    assert c, "no Chromium on this machine: make browser installs Debian's (make test runs it as root)"
    return c


def profile_args(folder):
    """The command line's options that give a Chromium run its own profile in folder: two
    runs sharing the default one (~/.config/chromium) meet, and the second hands its page
    to the first and ends."""
    return ["--user-data-dir=%s" % folder]


class _Browser:
    """A Playwright browser whose contexts and pages wait LOADED_MS by default."""

    def __init__(self, b):
        self._b = b

    def new_context(self, **kw):
        ctx = self._b.new_context(**kw)
        ctx.set_default_timeout(LOADED_MS)
        return ctx

    def new_page(self, **kw):
        page = self._b.new_page(**kw)
        page.set_default_timeout(LOADED_MS)
        return page

    def __getattr__(self, name):
        return getattr(self._b, name)


def launch(playwright):
    """Headless Chromium through Playwright (the sandbox needs user namespaces CI lacks),
    with a profile of its own (Playwright makes a fresh one each launch)."""
    return _Browser(playwright.chromium.launch(executable_path=path(), args=["--no-sandbox"], timeout=LOADED_MS))


def browser():
    """A module's Chromium, closed after its tests: the body of a test module's fixture
    (browser = pytest.fixture(scope="module")(chromium.browser))."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
