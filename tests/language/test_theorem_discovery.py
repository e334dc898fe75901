"""Theorem discovery runs no code the user did not name or install (issue #10, finding 5): a ``theorems/``
folder in the working directory, or beside an installed (non-source) package, is never imported by
``list``, ``check`` or ``replay``; an installed proofkit's built-in theorems come from its entry point,
user theorems from ``--theorems`` or $PROOFKIT_THEOREMS; an empty theorem set is bad input (exit 2),
not an empty table."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofkit.interface.testing import run_cli as run
from proofkit.language import registry

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "counterexamples" / "AM24.T4_drop-Tge2_T=1_learned_dim=1_n=1_dps60_seed0.json"
EVIL = """
from pathlib import Path
Path({marker!r}).write_text("imported")
raise SystemExit(99)
"""


def _plant(folder: Path, marker: Path) -> None:
    """A crafted theorems/ folder: importing any of its files leaves ``marker`` behind."""
    for rel in ("theorems/x/evil.py", "theorems/evil.py"):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(EVIL.format(marker=str(marker)))


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv(registry.ENV, raising=False)


_RUNNER = """
import json, sys
sys.path.remove("")
from proofkit.interface.cli import main
codes = []
for argv in json.loads(sys.argv[1]):
    codes.append(main(argv))
    print("\\n@@", flush=True)
    print("\\n@@", file=sys.stderr, flush=True)
print(json.dumps(codes))
"""


def _proofkit(cwd: Path, runs: list[list[str]], pythonpath: Path | None = None) -> list[tuple[int, str, str]]:
    """Several command lines in one fresh process run from ``cwd`` (the working directory taken off
    the import path, as for the ``proofkit`` console script): (exit code, stdout, stderr) of each."""
    env = {k: v for k, v in os.environ.items() if k != registry.ENV}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    proc = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(runs)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    *outs, codes = proc.stdout.split("\n@@\n")
    return list(zip(json.loads(codes), outs, proc.stderr.split("\n@@\n")))


def test_working_directory_theorems_are_never_imported(tmp_path):
    marker = tmp_path / "IMPORTED"
    _plant(tmp_path, marker)
    runs = [["list"], ["replay", str(RECORD)], ["check", "AM24.L1"]]
    for argv, (code, out, err) in zip(runs, _proofkit(tmp_path, runs)):
        assert code in (0, 1, 3), (argv, err)
        assert "evil" not in out + err and "AM24" in out
    assert not marker.exists(), "proofkit imported ./theorems"


def _install(site: Path) -> None:
    """What a non-editable install lays out in a site folder: the package, its built-in theorems as
    ``proofkit_theorems`` (here one file) and the distribution's metadata, whose entry point registers
    them (found before any other proofkit distribution: PYTHONPATH comes first)."""
    shutil.copytree(ROOT / "proofkit", site / "proofkit", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "proofkit_theorems" / "am24").mkdir(parents=True)
    shutil.copy(ROOT / "theorems" / "__init__.py", site / "proofkit_theorems")
    shutil.copy(ROOT / "theorems" / "am24" / "t4_linear_recurrence.py", site / "proofkit_theorems" / "am24")
    info = site / "proofkit-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: proofkit\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\nbuiltin = {registry.BUILTIN_PACKAGE}\n")


def test_installed_package_loads_only_its_registered_theorems(tmp_path):
    """A non-editable install: the package in a site folder with a foreign ``theorems/`` beside it and
    another in the working directory. Only what the entry point registers is imported."""
    site, cwd = tmp_path / "site", tmp_path / "work"
    _install(site)
    marker = tmp_path / "IMPORTED"
    _plant(site, marker)
    _plant(cwd, marker)
    mine = str(ROOT / "docs" / "examples" / "my_theorems")
    runs = [["list"], ["replay", str(RECORD)], ["--theorems", mine, "list"]]
    (code, out, err), (replayed, text, _), (both, listed, _) = _proofkit(cwd, runs, pythonpath=site)
    assert code == 0 and err == "" and [line.split()[0] for line in out.splitlines()] == ["AM24.T4"]
    assert replayed == 0 and "reproduces" in text
    assert both == 0 and [line.split()[0] for line in listed.splitlines()] == ["AM24.T4", "MY.T1"]
    assert not marker.exists()


def test_source_tree_check_needs_our_pyproject(tmp_path):
    (tmp_path / "theorems").mkdir()
    assert registry._source_theorems(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\n')
    registry._source_theorems.cache_clear()
    assert registry._source_theorems(tmp_path) is None
    assert registry.builtin_dir() == ROOT / "theorems"


@pytest.fixture
def no_packages(monkeypatch):
    """No theorem package installed (not even proofkit's own entry point)."""
    monkeypatch.setattr(registry, "entry_points", lambda group: [])
    registry._plugins.cache_clear()
    yield
    registry._plugins.cache_clear()


def test_empty_theorem_set_is_bad_input(capsys, monkeypatch, tmp_path, no_packages):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setattr(registry, "builtin_dir", lambda: None)
    monkeypatch.setenv(registry.ENV, str(empty))
    for argv in (["check", "--all"], ["list"], ["report"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", argv
        assert err.startswith("proofkit: bad input: theorems folder") and "at least one theorem" in err
    monkeypatch.delenv(registry.ENV)
    code, _, err = run(capsys, "list")
    assert code == 2 and "none found" in err


@pytest.mark.parametrize("how", ["env", "cli"])
def test_a_named_folder_without_theorems_is_bad_input_beside_the_builtins(capsys, monkeypatch, tmp_path, how):
    """A folder the user names that adds no theorem (empty, or only helpers) is a folder named by mistake:
    exit 2 naming it, even though the built-in theorems alone would make a full table."""
    empty = tmp_path / "mine"
    empty.mkdir()
    (empty / "helper.py").write_text("X = 1\n")
    argv = ["check", "--all"]
    if how == "env":
        monkeypatch.setenv(registry.ENV, str(empty))
    else:
        argv = ["--theorems", str(empty)] + argv
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and str(empty.resolve()) in err
    assert err.startswith("proofkit: bad input: theorems folder: expected a folder with at least one theorem")
