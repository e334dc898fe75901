"""Theorem discovery runs no code the user did not name (issue #10, finding 5): a ``theorems/`` folder in
the working directory, or beside an installed (non-source) package, is never imported by ``list``,
``check`` or ``replay``; user theorems come only from ``--theorems`` or $PROOFKIT_THEOREMS; an empty
theorem set is bad input (exit 2), not an empty table."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofkit import registry
from proofkit.testing import run_cli as run

ROOT = Path(__file__).resolve().parents[1]
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
from proofkit.cli import main
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


def test_installed_package_without_source_tree_has_no_builtins(tmp_path):
    """A non-editable install: the package in a site folder with a foreign ``theorems/`` beside it and
    another in the working directory. Nothing is imported; with no theorems named, exit 2."""
    site, cwd = tmp_path / "site", tmp_path / "work"
    shutil.copytree(ROOT / "proofkit", site / "proofkit", ignore=shutil.ignore_patterns("__pycache__"))
    marker = tmp_path / "IMPORTED"
    _plant(site, marker)
    _plant(cwd, marker)
    runs = [["list"], ["check", "--all"], ["replay", str(RECORD)],
            ["--theorems", str(ROOT / "docs/examples/my_theorems"), "list"]]
    results = _proofkit(cwd, runs, pythonpath=site)
    for argv, (code, _out, err) in zip(runs[:3], results):
        assert code == 2 and len(err.strip().splitlines()) == 1 and "bad input" in err, (argv, err)
    code, out, _ = results[3]
    assert code == 0 and "MY.T1" in out and "AM24" not in out
    assert not marker.exists()


def test_source_tree_check_needs_our_pyproject(tmp_path):
    (tmp_path / "theorems").mkdir()
    assert registry._source_theorems(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\n')
    registry._source_theorems.cache_clear()
    assert registry._source_theorems(tmp_path) is None
    assert registry.builtin_dir() == ROOT / "theorems"


def test_empty_theorem_set_is_bad_input(capsys, monkeypatch, tmp_path):
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
