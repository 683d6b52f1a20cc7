"""tools/checks/mpy_test.py, which runs tests/both/ on the micropython binary: a module that ran no
test is a failure, not a pass (a mistyped name or tests not named test_... proved nothing;
issue 42). Run against stand-in runners on the real binary: no build needed."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import mpy_test  # noqa: E402


def runner(tmp_path, said):
    """A build folder whose run.py says said (its closing line) and ends well."""
    (tmp_path / "run.py").write_text("print(%r)\n" % said)
    return str(tmp_path)


def test_a_module_that_ran_no_test_fails(tmp_path, capsys):
    assert mpy_test.main([runner(tmp_path, "micropython: 0 passed, 0 failed"), "64K", "test_x"]) == 1
    assert "test_x                         0 passed, 1 failed" in capsys.readouterr().out


def test_a_module_without_its_closing_line_fails(tmp_path, capsys):
    assert mpy_test.main([runner(tmp_path, "nothing"), "64K", "test_x"]) == 1
    capsys.readouterr()


def test_a_module_whose_tests_passed_passes(tmp_path, capsys):
    assert mpy_test.main([runner(tmp_path, "micropython: 3 passed, 0 failed"), "64K", "test_x"]) == 0
    assert capsys.readouterr().out.endswith("micropython: 3 passed, 0 failed\n")
