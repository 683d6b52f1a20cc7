# make releases: the Releases page of the repository this clone came from, read from its
# own origin remote (hardware/README.md sends makers there for the images).
import io
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]

import releases  # noqa: E402


def test_every_form_of_a_github_address_gives_owner_and_name():
    for url in ("https://github.com/alice/phase10.git", "https://github.com/alice/phase10",
                "https://github.com/alice/phase10/", "git@github.com:alice/phase10.git",
                "ssh://git@github.com/alice/phase10.git", "https://token@github.com/alice/phase10.git"):
        assert releases.github_repo(url) == "alice/phase10", url
    assert releases.github_repo("https://gitlab.com/alice/phase10.git") is None
    assert releases.github_repo("/home/alice/phase10") is None


def _run(stdout, code=0):
    return lambda argv, **kw: subprocess.CompletedProcess(argv, code, stdout=stdout, stderr="")


def test_the_page_comes_from_the_clones_origin():
    out, err = io.StringIO(), io.StringIO()
    assert releases.main(_run("git@github.com:Bob/p10-device.git\n"), out, err) == 0
    # GitHub Pages serves an owner's sites under the owner's name in lower case
    assert out.getvalue().splitlines() == ["release images:  https://github.com/Bob/p10-device/releases",
                                           "mpremote mip install github:Bob/p10-device",
                                           "in the browser:  https://bob.github.io/p10-device/"]


def test_no_origin_or_another_host_is_one_line_and_status_2():
    for run in (_run("", code=2), _run("https://gitlab.com/bob/p10.git\n")):
        out, err = io.StringIO(), io.StringIO()
        assert releases.main(run, out, err) == 2
        assert out.getvalue() == "" and len(err.getvalue().splitlines()) == 1
