# The browser's flash (web/flash.mjs) on handles held in memory, under node's own test
# runner (tests/flash_test.mjs): every change kept or refused whole, a write cut short at
# any byte, the snapshot into the other image cut at any point, the browser's refusal.
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_browsers_flash_keeps_every_change_whole_or_not_at_all():
    node = shutil.which("node")
    assert node, "no node on this machine (make test needs it for the npm packages too)"
    r = subprocess.run([node, "--test", "tests/flash_test.mjs"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    tail = r.stdout[-3000:] + r.stderr[-2000:]
    assert r.returncode == 0, tail
    counts = dict(line[2:].split(" ", 1) for line in r.stdout.splitlines() if line.startswith(("# pass ", "# fail ")))
    assert counts.get("fail") == "0" and int(counts.get("pass", 0)) >= 8, tail
