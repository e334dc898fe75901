"""Suite-wide settings for tests/ and theorems/: ``gpu`` tests run only where CuPy and a CUDA device are
present, the CLI's progress lines on stderr are off (``$PROOFKIT_QUIET``) so that tests asserting
what stderr holds see only errors (tests/interface/test_progress.py turns them back on), and no test may
write into
the source tree: a run that leaves a file there that git does not ignore (a result, a record, a page)
fails, naming it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_TREE: dict[str, set[str] | None] = {}


def _tree_changes() -> set[str] | None:
    """``git status --porcelain`` lines of the source tree (untracked files included, ignored ones not);
    None outside a git checkout."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        return None
    out = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=all"],
                         capture_output=True, text=True, timeout=60)
    return set(out.stdout.splitlines()) if out.returncode == 0 else None


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        _TREE["before"] = _tree_changes()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = _TREE.get("before")
    if hasattr(session.config, "workerinput") or before is None:
        return
    after = _tree_changes() or set()
    written = sorted(after - before)
    if written:
        print("\nproofkit: the test run wrote into the source tree (tests must write under tmp_path): "
              + "; ".join(written))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _gpu_reason() -> str | None:
    """Why CuPy cannot run here (None when it can)."""
    try:
        from proofkit.numerics import arrays

        arrays.namespace("cupy")
    except Exception as exc:  # InputError: not installed, no device
        return str(exc)
    return None


def pytest_configure(config: pytest.Config) -> None:
    os.environ["PROOFKIT_QUIET"] = "1"  # before any fixture, module-scoped ones included


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gpu = [item for item in items if item.get_closest_marker("gpu")]
    if not gpu:
        return
    reason = _gpu_reason()
    if reason is not None:
        for item in gpu:
            item.add_marker(pytest.mark.skip(reason=f"no GPU: {reason}"))
