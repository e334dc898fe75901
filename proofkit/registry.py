"""Find and load the theorem files under ``theorems/`` (one folder per paper, each file defines THEOREM).

Theorem files are the project's own Python modules (like test files), loaded by path; nothing a user
passes on the command line is ever executed.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache
from pathlib import Path

from .errors import InputError
from .spec import Theorem


def theorems_dir() -> Path:
    """``$PROOFKIT_THEOREMS``, else ``theorems/`` beside the package, else under the working dir."""
    env = os.environ.get("PROOFKIT_THEOREMS")
    if env:
        return Path(env)
    beside = Path(__file__).resolve().parent.parent / "theorems"
    return beside if beside.is_dir() else Path.cwd() / "theorems"


@cache
def load_all(root: str | None = None) -> dict[str, Theorem]:
    """Every THEOREM defined under the theorems directory, keyed and sorted by id."""
    base = Path(root) if root else theorems_dir()
    if not base.is_dir():
        raise InputError("theorems directory", "an existing folder with theorem files", str(base))
    found: dict[str, Theorem] = {}
    for path in sorted(base.glob("*/*.py")):
        if path.name.startswith(("test_", "_", "conftest")):
            continue
        name = f"proofkit_theorems.{path.parent.name}.{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        thm = getattr(module, "THEOREM", None)
        if isinstance(thm, Theorem):
            found[thm.id] = thm
    return dict(sorted(found.items()))


def get(theorem_id: str) -> Theorem:
    thms = load_all()
    if theorem_id not in thms:
        raise InputError("theorem id", "one of " + ", ".join(thms), theorem_id)
    return thms[theorem_id]
