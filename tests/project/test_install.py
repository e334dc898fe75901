"""Installed, not editable (issue 15): ``pip install .`` ships the built-in theorems with their data files
(C-RASP programs, BibTeX) and no test module, and ``proofkit list`` run from another folder shows them
all; the example theorem package in docs/examples/theorem_package installs beside proofkit and is
listed, checked and tested by the pytest plugin. Both install with ``pip install --no-deps --target``
and run with that folder on PYTHONPATH (the rest of the environment is this one's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

from proofkit.language import registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "theorem_package"
SCRIPT = Path(sys.executable).with_name("proofkit")
SKIPPED = ("__pycache__", "*.pyc", "test_*.py", "conftest.py")

pytestmark = pytest.mark.slow


def builds_here(setuptools: tuple[int, ...]) -> bool:
    """Whether this environment's setuptools (at least ``setuptools``, which builds wheels itself from
    70.1 on) can build without build isolation, i.e. offline."""
    try:
        found = tuple(int(p) for p in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return found >= max(setuptools, (70, 1))


def pip_install(source: Path, target: Path, setuptools: tuple[int, ...]) -> float:
    """``pip install --no-deps --target`` of ``source`` (a copy: a build writes into its source folder);
    seconds taken. Built with this environment's setuptools where it is recent enough, else in pip's
    build isolation (which fetches one from the package index)."""
    argv = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target)]
    if builds_here(setuptools):
        argv.append("--no-build-isolation")
    start = time.perf_counter()
    proc = subprocess.run([*argv, str(source)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return time.perf_counter() - start


def run_installed(target: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command with the installed folder first on the import path, from ``cwd``."""
    env = {k: v for k, v in os.environ.items() if k != registry.ENV}
    env["PYTHONPATH"] = str(target)
    return subprocess.run(list(argv), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def shipped(folder: Path) -> set[str]:
    """Files under ``folder`` a build must ship (relative paths): all but tests and byte code."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and not any(p.match(pat) or pat in p.parts for pat in SKIPPED)}


def test_non_editable_install_ships_the_builtin_theorems(tmp_path):
    """pyproject's ``license = "MIT"`` needs setuptools 77 to build."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("proofkit", "theorems"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "site"
    seconds = pip_install(source, target, (77,))
    assert shipped(target / "proofkit") == shipped(source / "proofkit")
    assert shipped(target / registry.BUILTIN_PACKAGE) == shipped(source / "theorems")
    assert not list((target / registry.BUILTIN_PACKAGE).rglob("test_*.py"))

    start = time.perf_counter()
    proc = run_installed(target, tmp_path, str(target / "bin" / "proofkit"), "list", "--json")
    listed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    ids = [t["id"] for t in json.loads(proc.stdout)]
    assert len(ids) >= 28 and ids == sorted(registry.load_all())
    probe = ("import json, proofkit; from proofkit.language import registry; "
             "from proofkit.interface import cli; "
             "print(json.dumps([proofkit.__file__, [(s.kind, str(s.folder), s.origin) "
             "for s in registry.sources()]])); raise SystemExit(cli.main(['check', 'HYB24.T12', '--json']))")
    proc = run_installed(target, tmp_path, sys.executable, "-c", probe)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    module, sources = json.loads(proc.stdout.splitlines()[0])
    assert Path(module).is_relative_to(target)
    assert sources == [["builtin", str((target / registry.BUILTIN_PACKAGE).resolve()),
                        "entry point builtin = proofkit_theorems (proofkit.theorems of proofkit 0.1.0)"]]
    assert json.loads(proc.stdout.splitlines()[1])["as_expected"]  # it reads C-RASP programs shipped with it
    print(f"pip install {seconds:.1f} s; proofkit list from {tmp_path} {listed:.1f} s")


def test_example_theorem_package_is_discovered_checked_and_tested(tmp_path):
    source = tmp_path / "example"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns(*SKIPPED, "build", "*.egg-info"))
    target = tmp_path / "site"
    seconds = pip_install(source, target, (61,))
    assert (target / "proofkit_example_theorems" / "toy25" / "toy25.bib").is_file()

    proc = run_installed(target, tmp_path, str(SCRIPT), "list")
    assert proc.returncode == 0, proc.stderr
    ids = [line.split()[0] for line in proc.stdout.splitlines()]
    assert {"TOY25.T1", "TOY25.L2", "AM24.T4"} <= set(ids)
    proc = run_installed(target, tmp_path, str(SCRIPT), "check", "TOY25.T1")
    assert proc.returncode == 0 and proc.stdout.startswith("TOY25.T1: certified"), proc.stdout + proc.stderr
    proc = run_installed(target, tmp_path, str(SCRIPT), "check", "TOY25.L2", "--set", "N=40")
    assert proc.returncode == 1 and "divisible by 41" in proc.stdout, proc.stdout + proc.stderr

    start = time.perf_counter()
    proc = run_installed(target, tmp_path, sys.executable, "-m", "pytest", "--proofkit-theorems", "-m",
                         "toy25", "-p", "no:cacheprovider", "-q", "--strict-markers")
    tested = time.perf_counter() - start
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout
    print(f"pip install {seconds:.1f} s; pytest --proofkit-theorems -m toy25 {tested:.1f} s")
