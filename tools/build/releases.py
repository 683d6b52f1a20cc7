"""Where this clone's release images are: the Releases page of the GitHub repository it was
cloned from (its `origin` remote), the matching `mpremote mip install` line, and the device
in the browser (the release workflow publishes `make web`'s site on GitHub Pages).

  python tools/build/releases.py        (make releases)

Prints the three lines, or one line saying why it cannot (no origin, not on GitHub) and
exits 2.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# https://github.com/o/r(.git), git@github.com:o/r(.git), ssh://git@github.com/o/r(.git)
_GITHUB = re.compile(r"^(?:https?://(?:[^@/]+@)?|ssh://git@|git@)github\.com[:/]([^/]+)/([^/]+?)(?:\.git)?/?$")


def github_repo(url):
    """'owner/name' of a GitHub remote address, or None."""
    m = _GITHUB.match(url.strip())
    return "%s/%s" % m.groups() if m else None


def origin(run=subprocess.run):
    r = run(["git", "remote", "get-url", "origin"], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def main(run=subprocess.run, out=sys.stdout, err=sys.stderr):
    url = origin(run)
    if not url:
        err.write("this clone has no `origin` remote: the release images are on the Releases page "
                  "of the GitHub repository it was cloned from\n")
        return 2
    repo = github_repo(url)
    if not repo:
        err.write("origin is %s, not a GitHub repository: its release images are wherever that host "
                  "keeps them\n" % url)
        return 2
    out.write("release images:  https://github.com/%s/releases\n" % repo)
    out.write("mpremote mip install github:%s\n" % repo)
    owner, name = repo.split("/")
    out.write("in the browser:  https://%s.github.io/%s/\n" % (owner.lower(), name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
