"""A user's own theorem files (docs/user_theorems.md): ``--theorems DIR`` and $PROOFKIT_THEOREMS add
them to the built-in set; the worked example in docs/examples/my_theorems runs exactly as documented."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from proofkit.errors import InputError
from proofkit.interface.testing import run_cli as run
from proofkit.language import registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples" / "my_theorems"
EXAMPLE_FILE = EXAMPLES / "mypaper" / "scalar_recurrence.py"



@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv(registry.ENV, raising=False)


def test_list_shows_builtin_and_user_theorems(capsys):
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "list", "--json")
    assert code == 0 and err == ""
    ids = [t["id"] for t in json.loads(out)]
    assert "MY.T1" in ids and "AM24.T4" in ids and ids == sorted(ids)
    code, out, _ = run(capsys, "list", "--json")  # the option is per command
    assert code == 0 and "MY.T1" not in [t["id"] for t in json.loads(out)]


def test_documented_example_checks(capsys):
    """`proofkit --theorems docs/examples/my_theorems check MY.T1`, as docs/user_theorems.md shows."""
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "check", "MY.T1")
    assert code == 0 and err == ""
    assert out.startswith("MY.T1: certified")
    for line in ("[certified] length generalization (conclusion)", "[certified] lam~ = lam (identification)",
                 "[refuted] claimed: b~ = b (identification; erratum: false as printed)",
                 "[certified] sigma(u) = (1 + tanh(u/2))/2 (proof-step)",
                 "how: exact: sympy simplifies the residual, rewritten in exp, to zero"):
        assert line in out, line
    code, out, _ = run(capsys, "--theorems", str(EXAMPLES), "check", "MY.T1", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["as_expected"] is True and obj["verdict"] == "certified"


def test_documented_scan(capsys):
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "scan", "MY.T1", "--param", "T",
                         "--values", "1,2,3", "--json")
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert [r["status"] for r in obj["rows"]] == ["refuted", "holds", "holds"] and obj["threshold"] == 2


def test_environment_variable_adds_folders(capsys, monkeypatch, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "t2.py").write_text(EXAMPLE_FILE.read_text().replace('id="MY.T1"', 'id="MY.T2"'))
    monkeypatch.setenv(registry.ENV, os.pathsep.join([str(EXAMPLES), str(other)]))
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    ids = [line.split()[0] for line in out.splitlines()]
    assert {"MY.T1", "MY.T2", "AM24.T4"} <= set(ids)
    code, out, _ = run(capsys, "check", "MY.T2", "--json")  # a file directly in the folder
    assert code == 0 and json.loads(out)["id"] == "MY.T2"


def test_without_user_folder_the_id_is_unknown(capsys):
    code, _, err = run(capsys, "check", "MY.T1")
    assert code == 2 and err.startswith("proofkit: bad input: theorem id") and "AM24.T4" in err


def test_cache_follows_the_folder_set():
    assert "MY.T1" not in registry.load_all()
    assert "MY.T1" in registry.load_all([EXAMPLES])
    with registry.using([str(EXAMPLES)]):
        assert "MY.T1" in registry.load_all() and registry.get("MY.T1").id == "MY.T1"
    assert "MY.T1" not in registry.load_all()


def _one_line_bad_input(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2 and "Traceback" not in err + out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("proofkit: bad input: ")
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_duplicate_id_names_both_files(capsys, tmp_path):
    shutil.copy(EXAMPLE_FILE, tmp_path / "copy.py")
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "--theorems", str(tmp_path), "list")
    _one_line_bad_input(code, out, err, "MY.T1", str(EXAMPLE_FILE), str(tmp_path / "copy.py"))
    shutil.copy(ROOT / "theorems" / "am24" / "t4_linear_recurrence.py", tmp_path / "copy.py")
    code, out, err = run(capsys, "--theorems", str(tmp_path), "list")  # clashes with a built-in
    _one_line_bad_input(code, out, err, "AM24.T4", "t4_linear_recurrence.py", "copy.py")


def test_same_folder_twice_is_not_a_duplicate(capsys, monkeypatch):
    monkeypatch.setenv(registry.ENV, str(EXAMPLES))
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "--theorems", str(ROOT / "theorems"), "list")
    assert code == 0 and err == "" and "MY.T1" in out


def test_missing_folder_is_bad_input(capsys, monkeypatch, tmp_path):
    code, out, err = run(capsys, "--theorems", str(tmp_path / "nope"), "list")
    _one_line_bad_input(code, out, err, "--theorems", "nope")
    monkeypatch.setenv(registry.ENV, str(tmp_path / "gone"))
    code, out, err = run(capsys, "list")
    _one_line_bad_input(code, out, err, registry.ENV, "gone")


def test_broken_user_file_is_one_line_naming_file_and_line(capsys, tmp_path):
    (tmp_path / "broken.py").write_text("import sympy\n\nTHEOREM = undefined_name\n")
    code, out, err = run(capsys, "--theorems", str(tmp_path), "list")
    _one_line_bad_input(code, out, err, f"{tmp_path / 'broken.py'}:3", "NameError")
    with pytest.raises(InputError):
        registry.load_all([tmp_path])


@pytest.mark.parametrize("kind", ["fifo", "dangling", "loop", "folder"])
def test_a_theorem_file_that_is_no_regular_file_is_one_line_never_a_hang(capsys, tmp_path, kind):
    """Issue 27, item 4: a FIFO named a.py hung ``list`` with no output (the import blocks reading it); a
    dangling link or a link loop gave a traceback. Each is now one line of bad input naming the file."""
    shutil.copy(EXAMPLE_FILE, tmp_path / "good.py")
    bad = tmp_path / "a.py"
    if kind == "fifo":
        os.mkfifo(bad)
    elif kind == "dangling":
        bad.symlink_to(tmp_path / "missing.py")
    elif kind == "loop":
        bad.symlink_to(bad)
    else:
        bad.mkdir()
    code, out, err = run(capsys, "--theorems", str(tmp_path), "list")
    _one_line_bad_input(code, out, err, f"theorem file {bad}", "regular Python file")


@pytest.mark.parametrize("tid", ["../X.T", "X.T\nY", "X T", "X/T", "1X.T", "X..T", "", "X.T.", "A" * 40])
def test_a_theorem_id_outside_the_one_pattern_is_refused(capsys, tmp_path, tid):
    """Issue 27, item 4: an id with '../' or a newline was accepted and split a ``list`` line."""
    (tmp_path / "odd.py").write_text(EXAMPLE_FILE.read_text().replace('id="MY.T1"', f"id={tid!r}"))
    code, out, err = run(capsys, "--theorems", str(tmp_path), "list")
    _one_line_bad_input(code, out, err, f"theorem file {tmp_path / 'odd.py'}", "theorem id: expected letters")


def test_documented_falsify_and_replay(capsys, tmp_path):
    out_dir = tmp_path / "cex"
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "falsify", "MY.T1", "--drop", "T>=2",
                         "--out", str(out_dir), "--json")
    assert code == 1 and err == ""
    obj = json.loads(out)
    assert obj["found"] is True and obj["certified"] is True
    path = Path(obj["record"])
    assert path == out_dir / "MY.T1_drop-Tge2_T=1_dps60_seed0.json"
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "replay", str(path))
    assert code == 0 and err == "" and "reproduces (certified)" in out
    code, _, err = run(capsys, "replay", str(path))  # without the folder the theorem is unknown
    assert code == 2 and "MY.T1" in err


def test_two_ids_that_differ_only_in_case_clash(capsys, tmp_path):
    """Ids are read case-insensitively (check my.t1 is MY.T1), so two that differ in case only are one id
    twice: bad input naming both files."""
    (tmp_path / "lower.py").write_text(EXAMPLE_FILE.read_text().replace('id="MY.T1"', 'id="my.t1"'))
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "--theorems", str(tmp_path), "list")
    _one_line_bad_input(code, out, err, "ids that differ in more than case", "lower.py")
