# make test's own set-up on a machine without Chromium and zbar (issue 41): the Makefile's
# browser-ready, tried with a PATH that hides them and a stand-in apt-get that records what
# it was asked (so nothing is installed or removed on this machine). As root it installs
# them before any test; otherwise it says in one line the one command to run, and no test
# starts. And the tests that need them fail, never skip, when they are missing.
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAKE = shutil.which("make")

# a stand-in for apt-get: records its arguments; "install" puts chromium and zbarimg on PATH.
# While the file busy holds a number, that many more calls find apt's lock held by another
# package manager, as apt 2.6 says it (and fail at once, as it does)
FAKE_APT = """#!/bin/sh
echo "$@" >> "%(log)s"
n=$(cat "%(busy)s" 2>/dev/null)
if [ -n "$n" ] && [ "$n" -gt 0 ]; then
  echo $((n - 1)) > "%(busy)s"
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
  echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
  exit 100
fi
if [ "$n" = broken ]; then
  echo "E: The repository 'http://deb.example stable Release' does not have a Release file." >&2
  exit 100
fi
if [ "$1" = install ]; then
  for t in chromium zbarimg; do
    printf '#!/bin/sh\\necho "%%s 1.0"\\n' "$t" > "%(bin)s/$t"; /bin/chmod +x "%(bin)s/$t"
  done
fi
"""


def hidden(tmp_path):
    """A PATH without this machine's Chromium and zbar: two tools the Makefile reads its
    file lists with, and what the stand-in apt adds."""
    b = tmp_path / "bin"
    b.mkdir()
    # (the Makefile lists the sources with find and sort; tools/build/apt_wait.sh sleeps; the
    # stand-in apt reads its busy file with cat)
    for tool in ("find", "sort", "sleep", "cat"):
        os.symlink(shutil.which(tool), str(b / tool))
    log = tmp_path / "apt.log"
    apt = tmp_path / "apt-get"
    apt.write_text(FAKE_APT % {"log": log, "bin": b, "busy": tmp_path / "busy"})
    apt.chmod(0o755)
    env = dict(os.environ, PATH=str(b))
    return env, apt, log


def make(env, apt, uid, *targets):
    return subprocess.run([MAKE, "-C", ROOT, "--no-print-directory", "APT=%s" % apt, "USER_ID=%d" % uid]
                          + list(targets), env=env, capture_output=True, text=True, timeout=60)


def test_make_test_not_as_root_says_the_one_command_before_any_test(tmp_path):
    env, apt, log = hidden(tmp_path)
    r = make(env, apt, 1000, "test")
    assert r.returncode != 0
    # one line, naming the one command; nothing else ran (no venv, no compile, no pytest)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[0].startswith("make test needs Chromium and zbar") and "run 'make browser'" in lines[0]
    assert all(l.startswith("make") and "Error" in l for l in lines[1:]), r.stderr
    assert not log.exists()


def test_make_test_as_root_installs_chromium_and_zbar_first(tmp_path):
    env, apt, log = hidden(tmp_path)
    r = make(env, apt, 0, "browser-ready")
    assert r.returncode == 0, r.stderr
    assert log.read_text().splitlines() == ["update -q", "install -y -q chromium zbar-tools"]
    assert "chromium 1.0" in r.stdout
    # and once they are there, nothing is asked of apt again
    r = make(env, apt, 0, "browser-ready")
    assert r.returncode == 0 and len(log.read_text().splitlines()) == 2


def test_a_busy_package_manager_is_waited_for_and_said_in_one_line(tmp_path):
    # issue 50: with another apt-get running, make test stopped after 2 s with apt's raw
    # lock error. Now it waits for the lock (saying so once) and goes on when it is free
    env, apt, log = hidden(tmp_path)
    (tmp_path / "busy").write_text("3")
    env.update(APT_WAIT_EVERY="0")
    r = make(env, apt, 0, "browser-ready")
    assert r.returncode == 0, r.stderr
    assert log.read_text().splitlines() == ["update -q"] * 4 + ["install -y -q chromium zbar-tools"]
    said = [l for l in r.stderr.splitlines() if "lock" in l]
    assert said == ["make browser: apt's lock is held by process 4242 (apt-get); waiting for it to finish "
                    "(up to 600 s)"], r.stderr
    assert "chromium 1.0" in r.stdout


def test_a_lock_never_let_go_or_another_apt_failure_stops_with_one_line(tmp_path):
    env, apt, log = hidden(tmp_path)
    (tmp_path / "busy").write_text("99")
    env.update(APT_WAIT_EVERY="1", APT_WAIT_MAX="2")
    r = make(env, apt, 0, "browser-ready")
    assert r.returncode != 0 and len(log.read_text().splitlines()) == 3      # at 0, 1 and 2 s
    last = [l for l in r.stderr.splitlines() if l.startswith("make browser:")][-1]
    assert last == ("make browser: apt's lock is still held by process 4242 (apt-get) after 2 s: let it "
                    "finish (or end it), then run make test again"), r.stderr
    # apt failing for another reason: its own error, at once, and nothing installed
    log.unlink()
    (tmp_path / "busy").write_text("broken")
    r = make(env, apt, 0, "browser-ready")
    assert r.returncode != 0 and log.read_text().splitlines() == ["update -q"]
    assert "does not have a Release file" in r.stderr and "waiting" not in r.stderr


def test_browser_ready_comes_before_the_tests_in_make_test():
    r = subprocess.run([MAKE, "-C", ROOT, "-p", "-n", "test-host"], capture_output=True, text=True, timeout=60)
    line = [l for l in r.stdout.splitlines() if l.startswith("test-host:")][0]
    assert line.split(":", 1)[1].split()[0] == "browser-ready"


def test_the_tests_that_need_chromium_and_zbar_fail_without_them(tmp_path):
    env, _, _ = hidden(tmp_path)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                        "tests/test_export.py::test_the_longest_game_prints_on_one_a4_page_in_chromium",
                        "tests/test_table_qr.py", "tests/test_table_page.py::test_no_game_running_is_said"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = r.stdout
    assert r.returncode != 0
    assert "skipped" not in out.lower().split("short test summary")[-1], out[-2000:]
    assert "no Chromium on this machine" in out and "no zbarimg on this machine" in out
    assert "passed" not in out.splitlines()[-1], out[-500:]
