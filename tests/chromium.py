# Debian's Chromium for the tests that open a page in a browser (the score sheet printed to
# PDF, the table on phones' page, the device in the browser). make test brings it (make
# browser, as root): missing, these tests fail, never skip.
import shutil


def path():
    c = shutil.which("chromium") or shutil.which("chromium-browser")
    assert c, "no Chromium on this machine: make browser installs Debian's (make test runs it as root)"
    return c


def launch(playwright):
    """Headless Chromium through Playwright (the sandbox needs user namespaces CI lacks)."""
    return playwright.chromium.launch(executable_path=path(), args=["--no-sandbox"])


def browser():
    """A module's Chromium, closed after its tests: the body of a test module's fixture
    (browser = pytest.fixture(scope="module")(chromium.browser))."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
