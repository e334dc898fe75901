"""The import contracts of pyproject.toml (import-linter): layers with no upward import, an independent
kernel, no cycles between siblings at any depth. Each contract must hold, and each must bite: an upward
import or a cycle planted in a copy of the package breaks it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = shutil.which("lint-imports") or pytest.skip("import-linter is not installed", allow_module_level=True)


def lint(root: Path) -> subprocess.CompletedProcess:
    # --no-cache: nothing is written into the tree; PYTHONPATH: the copy under test is the one imported
    return subprocess.run([LINT, "--no-cache", "--config", str(ROOT / "pyproject.toml")], cwd=root,
                          capture_output=True, text=True, env={"PYTHONPATH": str(root), "PATH": ""},
                          timeout=120)


def test_every_contract_is_kept():
    proc = lint(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 kept, 0 broken" in proc.stdout


@pytest.mark.parametrize("where,line,broken", [
    # an upward import is also a cycle (the engine imports numerics)
    ("numerics/exact.py", "from ..engine import check  # noqa", ("Layers", "No import cycles")),
    ("crasp/search/enumerate.py", "from . import learners  # noqa", ("No import cycles",)),
    ("crasp/language/ir.py", "from ..semantics import vector  # noqa", ("C-RASP", "No import cycles")),
    ("kernel/core.py", "from ..errors import InputError  # noqa", ("independent checker",)),
])
def test_each_contract_bites(tmp_path, where, line, broken):
    shutil.copytree(ROOT / "proofkit", tmp_path / "proofkit", ignore=shutil.ignore_patterns("__pycache__"))
    with open(tmp_path / "proofkit" / where, "a") as f:
        f.write(f"\n{line}\n")
    proc = lint(tmp_path)
    verdicts = {ln.split(" KEPT")[0].split(" BROKEN")[0]: "BROKEN" in ln for ln in proc.stdout.splitlines()
                if ln.endswith(("KEPT", "BROKEN")) or " KEPT (" in ln or " BROKEN (" in ln}
    assert proc.returncode != 0 and [n for n, bad in verdicts.items() if bad] == \
        [n for n in verdicts if any(b in n for b in broken)], proc.stdout
