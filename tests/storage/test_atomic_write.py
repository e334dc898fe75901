"""The atomic writer (proofkit.storage.atomic) and record files (issue #10, finding 4): a write interrupted at
any point leaves the earlier file intact; a record is never silently replaced (same content kept,
other content versioned NAME_v2.json); names carry dps and stay under the file-system limit; a write
that fails is one line, exit 2, and a finished search's record is saved elsewhere and named."""

from __future__ import annotations

import copy
import errno
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from proofkit.errors import InputError
from proofkit.interface.testing import run_cli as run
from proofkit.storage import atomic, record

ROOT = Path(__file__).resolve().parents[2]
STORED = ROOT / "counterexamples" / "AM24.T4_drop-Tge2_T=1_learned_dim=1_n=1_dps60_seed0.json"
MAJORITY = ROOT / "theorems" / "hyb24" / "programs" / "majority.crasp"


@pytest.fixture()
def rec() -> dict:
    return record.load(STORED)


def _other(rec: dict) -> dict:
    """The same record name, different content (a search that came out differently)."""
    changed = copy.deepcopy(rec)
    changed["search"] += " (again)"
    return record.finalize({k: v for k, v in changed.items() if k != "sha256"})


def _temps(folder: Path) -> list[Path]:
    return sorted(folder.glob(".proofkit-*.tmp"))


# ----------------------------------------------------------------------------- write_file (outputs)
def test_write_file_replaces_atomically(tmp_path):
    path = tmp_path / "w.json"
    atomic.write_file(path, "one", "--out")
    atomic.write_file(path, "two", "--out")
    assert path.read_text() == "two" and not _temps(tmp_path)
    assert oct(path.stat().st_mode & 0o777) != oct(0o600)  # an ordinary file, not mkstemp's 0600


@pytest.mark.parametrize("failure", [OSError(errno.EIO, "I/O error"), KeyboardInterrupt()])
def test_interrupted_replace_leaves_the_old_file(tmp_path, monkeypatch, failure):
    """Injected interruption between the finished temporary file and the rename."""
    path = tmp_path / "w.json"
    atomic.write_file(path, "good old content", "--out")

    def die(*_args):
        raise failure

    monkeypatch.setattr(atomic.os, "replace", die)
    with pytest.raises((atomic.WriteError, KeyboardInterrupt)):
        atomic.write_file(path, "new content", "--out")
    assert path.read_text() == "good old content" and not _temps(tmp_path)


def test_full_device_is_one_line_and_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "w.json"
    atomic.write_file(path, "old", "--out")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "write", full)
    with pytest.raises(atomic.WriteError) as info:
        atomic.write_file(path, "new", "--out")
    assert "No space left on device" in str(info.value) and "\n" not in str(info.value)
    assert path.read_text() == "old" and not _temps(tmp_path)


@pytest.mark.parametrize("target,why", [("/dev/null", "a device"), ("DIR", "a folder"),
                                        ("missing/x.json", "no such folder")])
def test_write_file_refuses(tmp_path, target, why):
    path = tmp_path if target == "DIR" else tmp_path / target if not target.startswith("/") else Path(target)
    if not path.exists() and target.startswith("/"):
        pytest.skip(f"no {target}")
    with pytest.raises(atomic.WriteError) as info:
        atomic.write_file(path, "x", "--out")
    assert why in str(info.value) and info.value.field == "--out"


def test_permission_denied_is_write_error(tmp_path, monkeypatch):
    def denied(*_args, **_kw):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(atomic.tempfile, "mkstemp", denied)
    with pytest.raises(atomic.WriteError) as info:
        atomic.write_file(tmp_path / "w.json", "x", "--out")
    assert "Permission denied" in str(info.value)


@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_at_the_destination_is_refused_and_its_target_untouched(tmp_path, dangling):
    real, link = tmp_path / "outside" / "real.json", tmp_path / "link.json"
    real.parent.mkdir()
    if not dangling:
        real.write_text("old")
    link.symlink_to(real)
    with pytest.raises(atomic.WriteError, match="symbolic link"):
        atomic.write_file(link, "new", "--out")
    assert link.is_symlink() and (real.read_text() == "old" if not dangling else not real.exists())


def test_an_owned_file_replaces_the_link_itself_never_its_target(tmp_path):
    real, link, loop = tmp_path / "real.json", tmp_path / "link.json", tmp_path / "loop.json"
    real.write_text("old")
    link.symlink_to(real)
    loop.symlink_to(loop)
    atomic.write_file(link, "new", "--out", replace_link=True)
    atomic.write_file(loop, "new", "--out", replace_link=True)
    assert real.read_text() == "old"
    assert not link.is_symlink() and link.read_text() == "new" and loop.read_text() == "new"


def test_an_owned_folder_that_is_a_link_is_refused(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "points").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(atomic.WriteError, match="symbolic link"):
        atomic.prepare_folder(tmp_path / "points", "--out", create=True, own=True)
    assert atomic.prepare_folder(tmp_path / "points", "--out", create=True) == tmp_path / "points"


# ----------------------------------------------------------------------------- records
def test_same_record_is_kept_different_record_is_versioned(tmp_path, rec):
    first = record.write(rec, tmp_path)
    assert first.name == record.filename(rec) and "_dps60_" in first.name
    before = first.stat().st_mtime_ns
    time.sleep(0.01)
    assert record.write(rec, tmp_path) == first and first.stat().st_mtime_ns == before
    other = _other(rec)
    second = record.write(other, tmp_path)
    assert second.name == first.name.replace(".json", "_v2.json")
    assert record.load(first) == rec and record.load(second) == other
    third = record.write(dict(_other(other)), tmp_path)
    assert third.name.endswith("_v3.json")
    assert record.write(other, tmp_path) == second  # finds its own earlier version


def test_dps_is_part_of_a_model_record_name(rec):
    assert record.filename(dict(rec, dps=30)) != record.filename(rec)
    assert "dps" not in record.filename(dict(rec, kind="witness"))


def test_long_names_are_hashed_under_the_limit(rec):
    long = dict(rec, overrides={f"p{i}": "v" * 40 for i in range(8)})
    name = record.filename(long)
    assert len(name.encode()) <= record.MAX_NAME_BYTES and name.endswith(".json")
    assert name != record.filename(dict(long, seed=1)) != record.filename(dict(long, dps=61))
    assert name.startswith("AM24.T4_drop-")


def test_267_byte_generated_name_writes(tmp_path, rec):
    long = record.finalize({k: v for k, v in dict(rec, overrides={"x": "y" * 250}).items()
                            if k != "sha256"})
    path = record.write(long, tmp_path)
    assert path.exists() and record.load(path)["overrides"] == {"x": "y" * 250}


def test_missing_folder_is_created(tmp_path, rec):
    assert record.write(rec, tmp_path / "a" / "b").parent == tmp_path / "a" / "b"


def test_failed_record_write_is_saved_elsewhere_and_said(tmp_path, rec, monkeypatch):
    rescue = tmp_path / "rescue"
    monkeypatch.setattr(record.tempfile, "gettempdir", lambda: str(rescue))
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(record.RecordWriteError) as info:
        record.write(rec, blocker)
    exc = info.value
    assert isinstance(exc, InputError) and exc.field == "--out"
    assert exc.saved is not None and record.load(exc.saved) == rec
    assert str(exc.saved) in str(exc) and str(blocker) in str(exc) and "\n" not in str(exc)


# ----------------------------------------------------------------------------- killed while writing
_KILL = """
import os, signal, sys
from pathlib import Path
from proofkit.storage import atomic, record
rec = record.load(sys.argv[1])
rec = record.finalize({k: v for k, v in dict(rec, search=rec["search"] + " (rerun)").items()
                       if k != "sha256"})
where = sys.argv[3]
def kill(*args, **kw):
    os.kill(os.getpid(), signal.SIGKILL)
if where == "fsync":
    atomic.os.fsync = kill          # during the temporary file's write
else:
    atomic.os.link = kill           # the file is finished, the name not yet claimed
    atomic.os.replace = kill
if sys.argv[4] == "replace":
    atomic.write_file(Path(sys.argv[2]) / "out.json", record.canonical(rec), "--out")
else:
    record.write(rec, Path(sys.argv[2]))
"""


@pytest.mark.parametrize("where", ["fsync", "link"])
@pytest.mark.parametrize("how", ["record", "replace"])
def test_sigkill_while_writing_leaves_the_earlier_file_intact(tmp_path, rec, where, how):
    """A real SIGKILL injected at the moment of writing (not left to luck): the earlier file of that
    name is byte-identical afterwards and still loads; rerunning completes the write."""
    earlier = record.write(rec, tmp_path) if how == "record" else tmp_path / "out.json"
    if how == "replace":
        earlier.write_text(record.canonical(rec))
    before = earlier.read_bytes()
    proc = subprocess.run([sys.executable, "-c", _KILL, str(STORED), str(tmp_path), where, how],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    assert earlier.read_bytes() == before and record.load(earlier) == rec
    assert sorted(p.name for p in tmp_path.glob("*.json")) == [earlier.name]  # no partial file
    # resume: the same write without the kill completes (a record goes to _v2, an output is replaced)
    if how == "record":
        again = record.write(_rerun(rec), tmp_path)
        assert again.name.endswith("_v2.json") and record.load(again)["search"].endswith("(rerun)")
        assert record.load(earlier) == rec
    else:
        atomic.write_file(earlier, record.canonical(_rerun(rec)), "--out")
        assert record.load(earlier)["search"].endswith("(rerun)")


def _rerun(rec: dict) -> dict:
    return record.finalize({k: v for k, v in dict(rec, search=rec["search"] + " (rerun)").items()
                            if k != "sha256"})


# ----------------------------------------------------------------------------- command line
def test_falsify_out_dev_null_fails_before_the_search(capsys):
    t0 = time.perf_counter()
    code, out, err = run(capsys, "falsify", "AM24.T4", "--drop", "T>=2", "--out", "/dev/null")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--out" in err and "/dev/null" in err and time.perf_counter() - t0 < 2


def test_falsify_write_failure_after_search_prints_the_record(capsys, monkeypatch, tmp_path):
    """Nowhere to save it (rescue fails too): the record goes to stdout, the reason to stderr."""
    def fail(path, data, field, **_kw):
        raise atomic.WriteError(field, path, "No space left on device")

    monkeypatch.setattr(record.atomic, "write_new", fail)
    code, out, err = run(capsys, "falsify", "AM24.T4", "--drop", "T>=2", "--no-shrink", "--out",
                         str(tmp_path))
    assert code == 2 and "No space left on device" in err and "could not be saved anywhere" in err
    assert len(err.strip().splitlines()) == 1
    saved = json.loads(out)
    assert saved["theorem"] == "AM24.T4" and saved["sha256"] == record.digest(saved)


def test_falsify_says_when_it_versions(capsys, tmp_path, rec):
    code, out, _ = run(capsys, "falsify", "AM24.T4", "--drop", "T>=2", "--no-shrink", "--out",
                       str(tmp_path), "--json")
    path = Path(json.loads(out)["record"])
    path.write_text(record.canonical(_other(record.load(path))))
    code, out, err = run(capsys, "falsify", "AM24.T4", "--drop", "T>=2", "--no-shrink", "--out",
                         str(tmp_path), "--json")
    assert code == 1 and json.loads(out)["record"].endswith("_v2.json")
    assert "holds a different record; kept it" in err


@pytest.mark.parametrize("out", ["/dev/null", "DIR", "missing/w.json"])
def test_crasp_compile_out_errors_are_one_line(capsys, tmp_path, out):
    target = str(tmp_path) if out == "DIR" else out if out.startswith("/") else str(tmp_path / out)
    code, stdout, err = run(capsys, "crasp", "compile", str(MAJORITY), "--check-len", "2", "--out", target)
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("proofkit: bad input: --out")


def test_crasp_compile_out_writes(capsys, tmp_path):
    from proofkit.crasp.compilation.network import Network

    target = tmp_path / "w.json"
    code, _, err = run(capsys, "crasp", "compile", str(MAJORITY), "--check-len", "2", "--out", str(target))
    assert code == 0 and err == "" and not _temps(tmp_path)
    assert Network.from_json(target.read_text()).to_json() == target.read_text()
