"""Fuzzing theorem folders with Hypothesis (issue 27): a folder (``--theorems DIR``) of generated entries
is loaded with ``registry.load_all([folder])`` and, for some cases, ``proofkit --theorems DIR list``.

Entries drawn: theorem files (a copy of the toy theorem SWEEP.TOY, tests/sweep/sweep_theorems) with a
generated id (ordinary, duplicated, a built-in one, ``../``, newlines, NUL, unicode, empty, 300
characters), under generated file names (unicode, spaces, dots, a newline, bytes that are not UTF-8);
FIFOs named ``*.py``; dangling links; link loops (a file linked to itself, a subfolder linked to the
folder); subfolders holding a theorem file; a folder named ``*.py``; unreadable files (where permission
is enforced: not as root); empty files; binary files; files that raise (ValueError with a newline,
ZeroDivisionError, SyntaxError, ImportError, RecursionError, an InputError, ``sys.exit``) or define a
THEOREM that is not one; helper and test files (``_x.py``, ``test_x.py``), skipped even when they raise.

Properties: the theorems come back (each id defined once in the folder, each file a regular file that
imports) or InputError: one line naming the theorem file, id or folder; the command line exits 0 with
the ids listed, or 2 with exactly one stderr line; never a traceback, never a hang (every case runs
under a SIGALRM timeout on top of the per-case deadline).

Case counts: the fast run is a derandomized sample of 110 cases (API 80, command line 30; about
4 s); ``-m slow`` runs 3 000 random cases.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from proofkit.errors import InputError
from proofkit.interface.testing import run_cli
from proofkit.language import registry
from tests.fuzzguard import DEADLINE

TOY_FILE = Path(__file__).resolve().parents[1] / "sweep" / "sweep_theorems" / "toy_sweep.py"
TOY = TOY_FILE.read_text()
#: a case slower than this is a hang (SIGALRM raises inside it)
TIMEOUT_S = 5
MAX_LINE = 1200
GOOD_IDS = st.sampled_from(["FUZZ.A", "FUZZ.B", "FUZZ.C", "FUZZ.D", "FUZZ_\u00c9.1", "fuzz-e"])
IDS = st.one_of(GOOD_IDS, GOOD_IDS, GOOD_IDS,
                st.sampled_from(["FUZZ.A", "../x", "a/../../b", "a\nb", "a\x00b", "\u0398.1", "", " ",
                                 "x" * 300, "FUZZ.A ", "SWEEP.TOY", "AM24.T4", "\u202eFUZZ",
                                 "id'); import os; ('"]),
                st.text(max_size=12))
NAMES = st.one_of(st.sampled_from(["t", "t2", "\u00e9t\u00e9", "a b", "a.b", "-", "x\ny", "t" * 120,
                                   "_helper", "test_x", "conftest", ".hidden", "\udcff", "a\udce9b"]),
                  st.text(alphabet="abcXYZ019_.- \u00e9", min_size=1, max_size=10))
RAISING = ['raise ValueError("boom\\nsecond line")\n', "1 / 0\n", "def f(:\n",
           "import proofkit_no_such_module\n",
           "def f():\n    return f()\nf()\n", "import sys\nsys.exit(0)\n", "import sys\nsys.exit('bye')\n",
           "raise SystemExit(3)\n",
           "from proofkit.errors import InputError\nraise InputError('x\\ny', 'z')\n", "THEOREM = 5\n",
           "THEOREM = None\n", "\ufeff# a BOM\n", "# -*- coding: latin-1 -*-\nx = '\xe9'\n"]
KINDS = ("theorem",) * 12 + ("fifo", "dangling", "loop", "subfolder", "subfolder-loop", "folder-py",
         "unreadable", "empty", "binary", "raises", "raises-helper")


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])


@contextmanager
def timeout(seconds: int):
    def fire(*_: Any) -> None:
        raise TimeoutError(f"a theorem folder took more than {seconds} s to load (a hang)")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def theorem_text(tid: str) -> str:
    return TOY.replace('id="SWEEP.TOY"', f"id={tid!r}")


def make_entry(folder: Path, kind: str, name: str, tid: str, raising: str) -> None:
    path = folder / f"{name}.py"
    if os.path.lexists(path):
        return
    if kind == "theorem":
        path.write_text(theorem_text(tid))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling":
        path.symlink_to(folder / "no_such_file.py")
    elif kind == "loop":
        path.symlink_to(path)
    elif kind == "subfolder":
        (folder / name).mkdir(exist_ok=True)
        if (folder / name).is_dir() and not os.path.lexists(folder / name / "t.py"):
            (folder / name / "t.py").write_text(theorem_text(tid))
    elif kind == "subfolder-loop" and not os.path.lexists(folder / name):
        (folder / name).symlink_to(folder)
    elif kind == "folder-py":
        path.mkdir()
    elif kind == "unreadable":
        path.write_text(theorem_text(tid))
        path.chmod(0)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "binary":
        path.write_bytes(bytes(range(256)))
    elif kind == "raises":
        path.write_text(raising, encoding="latin-1" if "latin-1" in raising else "utf-8")
    elif kind == "raises-helper":
        (folder / f"_{name}.py").write_text(raising, encoding="latin-1" if "latin-1" in raising else "utf-8")


#: mixed folders, and folders of good theorem files (under odd names) with at most one odd entry
entries = st.one_of(
    st.lists(st.tuples(st.sampled_from(KINDS), NAMES, IDS, st.sampled_from(RAISING)), min_size=1, max_size=5),
    st.tuples(st.lists(st.tuples(st.just("theorem"), NAMES, GOOD_IDS, st.just("")), min_size=1, max_size=3),
              st.lists(st.tuples(st.sampled_from(KINDS), NAMES, IDS, st.sampled_from(RAISING)), max_size=1))
    .map(lambda t: t[0] + t[1]))


def _case(listing: list[tuple[str, str, str, str]], capsys: Any = None) -> None:
    root = Path(tempfile.mkdtemp(prefix="fuzz_theorems_"))
    folder = root / "th"
    folder.mkdir()
    try:
        for kind, name, tid, raising in listing:
            try:
                make_entry(folder, kind, name, tid, raising)
            except (OSError, ValueError):  # a name the file system refuses: not an entry
                continue
        with timeout(TIMEOUT_S):
            if capsys is None:
                _api(folder)
            else:
                _cli(folder, capsys)
    finally:
        for p in root.rglob("*"):
            if not p.is_symlink() and p.exists():
                p.chmod(0o700)
        shutil.rmtree(root, ignore_errors=True)


def _api(folder: Path) -> None:
    try:
        theorems = registry.load_all([folder])
    except InputError as exc:
        msg = str(exc)
        assert "\n" not in msg and len(msg) < MAX_LINE, msg
        assert exc.field.startswith(("theorem file", "theorem id", "theorems folder")), msg
        event(f"refused: {exc.field.split(' ')[0]} {exc.field.split(' ')[1]}")
        return
    ours = set(theorems) - set(registry.load_all())
    assert ours, "a folder that adds no theorem must be refused"
    event(f"loaded {len(ours)} theorem(s)")


def _cli(folder: Path, capsys: Any) -> None:
    code, out, err = run_cli(capsys, "--theorems", str(folder), "list")
    lines = [line for line in err.splitlines() if not re.fullmatch(r"proofkit: list: loading theorems", line)]
    assert "Traceback" not in err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("proofkit: ") and len(lines[0]) < MAX_LINE, err
    else:
        assert not lines and out.strip(), (out, err)
    event(f"exit {code}")


@given(entries)
@_settings(80, fast=True)
def test_fuzz_theorem_folders(listing):
    _case(listing)


@given(entries)
@_settings(30, fast=True)
def test_fuzz_theorem_folders_cli(capsys, listing):
    _case(listing, capsys)


@pytest.mark.parametrize("body", [b for b in RAISING
                                  if "THEOREM" not in b and "BOM" not in b and "latin" not in b])
def test_a_file_that_raises_is_one_line(body):
    """Every raising body, each beside a good theorem file: bad input naming the file, one line; a file
    that calls sys.exit() included (it must not end proofkit with its own status)."""
    root = Path(tempfile.mkdtemp(prefix="fuzz_theorems_"))
    try:
        (root / "good.py").write_text(theorem_text("FUZZ.GOOD"))
        (root / "bad.py").write_text(body)
        with pytest.raises(InputError) as exc:
            registry.load_all([root])
        assert exc.value.field.startswith(f"theorem file {root / 'bad.py'}") and "\n" not in str(exc.value)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_sys_exit_in_a_theorem_file_is_exit_2(capsys, tmp_path):
    """Regression: a theorem file calling sys.exit(0) made ``check --all`` exit 0 with nothing checked."""
    (tmp_path / "good.py").write_text(theorem_text("FUZZ.GOOD"))
    (tmp_path / "quit.py").write_text("import sys\nsys.exit(0)\n")
    code, _out, err = run_cli(capsys, "--theorems", str(tmp_path), "check", "--all")
    assert code == 2 and "quit.py" in err and "SystemExit" in err


def test_a_file_name_that_is_not_utf8(tmp_path):
    """Regression: a theorem file whose name is not UTF-8 (\\xff.py) made the module name's hash raise
    UnicodeEncodeError, a traceback out of every command; it now loads, or fails as one line."""
    bad = os.fsdecode(b"\xff")
    (tmp_path / f"{bad}.py").write_text(theorem_text("FUZZ.BYTES"))
    assert "FUZZ.BYTES" in registry.load_all([tmp_path])
    (tmp_path / f"{bad}.py").write_text("raise ValueError(1)\n")
    with pytest.raises(InputError) as exc:
        registry.load_all([tmp_path])
    assert "\n" not in str(exc.value)


@pytest.mark.slow
@given(entries)
@_settings(2500, fast=False)
def test_fuzz_theorem_folders_large(listing):
    _case(listing)


@pytest.mark.slow
@given(entries)
@_settings(500, fast=False)
def test_fuzz_theorem_folders_cli_large(capsys, listing):
    _case(listing, capsys)
