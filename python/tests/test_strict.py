"""conftest.py: under `make test` (HETERODOX_TESTS_STRICT=1) a skipped test,
or a module skipped at import, fails; outside it, a skip stays a skip."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")

SKIPPING = '''
import pytest

def test_runs():
    assert True

@pytest.mark.skipif(True, reason="the binary has no --loss")
def test_parity():
    assert True
'''

IMPORT_SKIPPING = '''
import pytest
pytest.importorskip("no_such_module_anywhere")

def test_never_collected():
    assert True
'''


def run_pytest(folder: Path, strict: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HETERODOX_TESTS_STRICT"}
    if strict:
        env["HETERODOX_TESTS_STRICT"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def make_folder(tmp_path: Path, source: str) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    shutil.copy(CONFTEST, folder / "conftest.py")
    (folder / "test_case.py").write_text(source)
    return folder


def test_a_skip_fails_under_strict_and_names_its_reason(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, SKIPPING)
    done = run_pytest(folder, strict=True)
    assert done.returncode == 1, done.stdout
    # A skipif mark is decided in the test's set-up, so pytest counts the
    # failure as an error of that phase.
    assert "1 passed, 1 error" in done.stdout
    assert "every test must run: the binary has no --loss" in done.stdout
    assert "ERROR at setup of test_parity" in done.stdout


def test_a_skip_stays_a_skip_outside_make_test(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, SKIPPING)
    done = run_pytest(folder, strict=False)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 1 skipped" in done.stdout


def test_a_module_skipped_at_import_fails_under_strict(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, IMPORT_SKIPPING)
    done = run_pytest(folder, strict=True)
    assert done.returncode != 0, done.stdout
    assert "no_such_module_anywhere" in done.stdout
    relaxed = run_pytest(folder, strict=False)
    # pytest's "no test collected": the Makefile reports it, not fails.
    assert relaxed.returncode == 5, relaxed.stdout
    assert "1 skipped" in relaxed.stdout
