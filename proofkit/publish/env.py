"""The software a result was computed with: proofkit's version and git commit, Python and the numeric
libraries whose versions can change a verdict's digits (numpy, scipy, sympy, mpmath, python-flint).

The commit is known only in proofkit's own git checkout (the package's parent folder holds proofkit's
pyproject.toml and a ``.git``); an installed package says "unknown commit (installed package)". Bundles
and citations carry these fields so a reader can tell which code produced them; a different environment
is reported when a bundle is verified, never counted as a failure.
"""

from __future__ import annotations

import platform
import re
import subprocess
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from .. import __version__

PACKAGES = ("numpy", "scipy", "sympy", "mpmath", "python-flint")
#: what the commit field says outside a git checkout
UNKNOWN_COMMIT = "unknown commit (installed package)"


def _checkout() -> Path | None:
    """proofkit's source checkout (the package's parent, with proofkit's pyproject.toml and .git), or
    None (an installed package, or a tree without git)."""
    root = Path(__file__).resolve().parents[2]
    try:
        project = (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    ours = re.search(r'(?m)^name\s*=\s*"proofkit"', project) is not None
    return root if ours and (root / ".git").exists() else None


def _git(root: Path, *argv: str) -> str | None:
    try:
        return subprocess.run(["git", "-C", str(root), *argv], capture_output=True, text=True, timeout=30,
                              check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None


@cache
def git() -> dict[str, Any]:
    """``{"commit": sha or UNKNOWN_COMMIT, "dirty": bool or None}``; dirty: tracked files differ from
    the commit (the result may not be reproducible from the commit alone). Once per process."""
    root = _checkout()
    commit = None if root is None else _git(root, "rev-parse", "HEAD")
    if root is None or not commit:
        return {"commit": UNKNOWN_COMMIT, "dirty": None}
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit.strip(), "dirty": None if status is None else bool(status.strip())}


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


@cache
def environment() -> dict[str, Any]:
    """proofkit's version, commit and dirty flag, the Python version and each of PACKAGES' versions
    (JSON-ready; the same object for the whole process)."""
    return {"proofkit": __version__, "git_commit": git()["commit"], "git_dirty": git()["dirty"],
            "python": platform.python_version(), **{name: _version(name) for name in PACKAGES}}


def differences(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """``name: stored -> current`` for every field that differs (sorted; a field only one side has
    counts as differing)."""
    return [f"{k}: {stored.get(k, 'absent')} -> {current.get(k, 'absent')}"
            for k in sorted(set(stored) | set(current)) if stored.get(k) != current.get(k)]
