"""Suite-wide settings for tests/ and theorems/: ``gpu`` tests run only where CuPy and a CUDA device are
present, and the CLI's progress lines on stderr are off (``$PROOFKIT_QUIET``) so that tests asserting
what stderr holds see only errors; tests/test_progress.py turns them back on."""

from __future__ import annotations

import os

import pytest


def _gpu_reason() -> str | None:
    """Why CuPy cannot run here (None when it can)."""
    try:
        from proofkit import arrays

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
