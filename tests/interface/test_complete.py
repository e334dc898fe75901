"""``proofkit __complete``: what TAB offers (ids, --set names and values, --param names, --drop ids) from
a cached index that a changed theorem file invalidates, silently empty on any failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofkit.interface import complete
from proofkit.interface.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "my_theorems"


@pytest.fixture()
def user(tmp_path, monkeypatch):
    """A user's theorem folder (a copy of docs/examples/my_theorems) and an empty cache folder."""
    folder = tmp_path / "mine"
    shutil.copytree(EXAMPLE, folder)
    monkeypatch.setenv(complete.CACHE_ENV, str(tmp_path / "cache"))
    return folder


def test_candidates_of_every_kind(user):
    words = ["--theorems", str(user), "check", "my.t1"]
    assert complete.candidates("ids", "my.", words) == ["MY.T1"]  # case-insensitive, the id as written
    assert "T=" in complete.candidates("set", "", words)
    assert complete.candidates("set", "T=1", words) == ["T=1"] + [f"T={v}" for v in range(10, 20)]
    assert complete.candidates("param", "", words) == [n.rstrip("=") for n in complete.candidates("set", "",
                                                                                                  words)]
    assert complete.candidates("drop", "", words) == ["T>=2"]
    assert complete.candidates("drop", "", ["check"]) == []  # no theorem typed: nothing to offer


def test_the_cache_answers_until_a_theorem_file_changes(user, monkeypatch):
    words = ["--theorems", str(user)]
    assert complete.candidates("ids", "MY", words) == ["MY.T1"]
    files = list(Path(os.environ[complete.CACHE_ENV]).glob("index-*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["format"] == complete.FORMAT

    def no_build(extra):
        raise AssertionError("the cached index should have answered")

    monkeypatch.setattr(complete, "build", no_build)
    assert complete.candidates("ids", "MY", words) == ["MY.T1"]
    monkeypatch.undo()
    monkeypatch.setenv(complete.CACHE_ENV, str(files[0].parent))
    path = user / "mypaper" / "scalar_recurrence.py"
    path.write_text(path.read_text().replace('id="MY.T1"', 'id="MY.T9"'))
    assert complete.candidates("ids", "MY", words) == ["MY.T9"]  # rebuilt: the file changed


def test_an_unwritable_cache_only_makes_it_slower(user, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(complete.CACHE_ENV, str(blocker / "cache"))  # under a file: cannot be created
    assert complete.candidates("ids", "MY", ["--theorems", str(user)]) == ["MY.T1"]


def test_failures_print_nothing(user, capsys):
    (user / "mypaper" / "broken.py").write_text("raise RuntimeError('half-written')\n")
    assert main(["__complete", "ids", "", "--theorems", str(user)]) == 1
    assert main(["__complete", "nonsense", ""]) == 2
    assert capsys.readouterr() == ("", "")


def test_a_cached_tab_loads_no_theorem_file(user):
    """The point of the cache: a TAB after the first neither imports the theorem files nor sympy."""
    argv = ["__complete", "set", "T=", "--theorems", str(user), "check", "MY.T1"]
    code = ("import sys; from proofkit.interface.cli import main; main(sys.argv[1:]); "
            "print('sympy' in sys.modules, file=sys.stderr)")
    runs = [subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120,
                           env=os.environ.copy()) for _ in range(2)]
    assert [r.stdout for r in runs] == [runs[0].stdout] * 2 and "T=2\n" in runs[0].stdout
    assert [r.stderr.strip() for r in runs] == ["True", "False"]
