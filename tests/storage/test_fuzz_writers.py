"""Fuzzing the writers with Hypothesis (issue 27): ``atomic.write_file`` (with and without
``replace_link``), ``atomic.write_new``, ``record.write``, a sweep's ``store.write_point`` and its
manifest (``store.open_folder(..., force=True)``), each aimed at a destination drawn from: absent, a
regular file, a symbolic link to a file inside the folder or outside it, a dangling link, a link loop, a
FIFO, a folder; and with a failure injected at a drawn call of ``os.write`` (also short writes),
``os.fsync``, ``os.replace`` or ``os.link`` (ENOSPC, EIO, EACCES, EPERM, EXDEV).

Properties, every case: no file outside the folder changed (the link targets outside, and the files
beside the destination inside); nothing was written through a link; no temporary file is left; on
success the path returned is a regular file holding the new bytes (a replaced link is now a regular
file, its target untouched); on failure the error is a one-line WriteError (an InputError) giving the
OS's reason, and the destination is exactly as before (the old bytes, or still absent, or the same
link, FIFO or folder). Never another exception, never slower than the per-case deadline.

Case counts: the fast run is a derandomized sample of 150 cases (about 2 s); ``-m slow`` runs 4 000
random cases.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.control import current_build_context

from proofkit.errors import InputError
from proofkit.storage import atomic, record
from proofkit.sweep import store
from proofkit.sweep.spec import SweepSpec
from tests.fuzzguard import DEADLINE

KINDS = ("absent", "regular", "same", "link-inside", "link-outside", "link-outside-same", "dangling", "loop",
         "fifo", "folder")
OPS = ("write_file", "write_file_replace_link", "write_new", "record", "point", "manifest")
CALLS = ("write", "short-write", "fsync", "replace", "link")
ERRNOS = (errno.ENOSPC, errno.EIO, errno.EACCES, errno.EPERM, errno.EXDEV)
OLD, NEW, OUTSIDE, BESIDE = b'{"old": 1}\n', b'{"new": 2}\n', b"outside\n", b"beside\n"
SPEC = SweepSpec("FUZZ.W", {"n": [1, 2]}, {}, 30, (0,), True)
RECORD = {"theorem": "FUZZ.W", "kind": "fuzz", "dropped": ["A1"], "overrides": {"n": 3}, "seed": 0,
          "sha256": "0" * 64}


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ----------------------------------------------------------------------------- the scene
def snapshot(root: Path) -> dict[str, Any]:
    """Every entry under root: its kind and (files) bytes or (links) target; folders and FIFOs by kind."""
    out: dict[str, Any] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st_ = os.lstat(p)
            rel = str(p.relative_to(root))
            if stat.S_ISLNK(st_.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st_.st_mode):
                out[rel] = ("file", p.read_bytes())
            else:
                out[rel] = ("dir" if stat.S_ISDIR(st_.st_mode) else "other", None)
    return out


def make_scene(root: Path, op: str, kind: str) -> tuple[Path, Path]:
    """root/out is the named folder (root/out/points for a point), root/outside is elsewhere; the
    destination inside the folder is made of ``kind``. Returns (folder, destination)."""
    folder = root / "out"
    outside = root / "outside"
    outside.mkdir()
    (outside / "target.json").write_bytes(OUTSIDE)
    (outside / "new.json").write_bytes(NEW)
    if op == "point":
        (folder / store.POINTS).mkdir(parents=True)
        dest = store.point_path(folder, "0123456789abcdef0123")
    else:
        folder.mkdir()
        name = {"record": record.filename(RECORD), "manifest": store.MANIFEST}.get(op, "dest.json")
        dest = folder / name
    (folder / "beside.json").write_bytes(BESIDE)
    if kind in ("regular", "same"):
        dest.write_bytes(OLD if kind == "regular" else _new(op))
    elif kind == "link-inside":
        dest.symlink_to(folder / "beside.json")
    elif kind == "link-outside":
        dest.symlink_to(outside / "target.json")
    elif kind == "link-outside-same":
        (outside / "target.json").write_bytes(_new(op))
        dest.symlink_to(outside / "target.json")
    elif kind == "dangling":
        dest.symlink_to(outside / "none" / "x.json")
    elif kind == "loop":
        dest.symlink_to(dest)
    elif kind == "fifo":
        os.mkfifo(dest)
    elif kind == "folder":
        dest.mkdir()
        (dest / "inner.json").write_bytes(BESIDE)
    return folder, dest


def _new(op: str) -> bytes:
    if op == "record":
        return record.canonical(RECORD).encode()
    if op == "point":
        return store._dump({"key": "0123456789abcdef0123", "x": 1}).encode()
    if op == "manifest":
        return _manifest_bytes()
    return NEW


def _manifest_bytes() -> bytes:
    """The manifest ``open_folder`` writes for SPEC into an empty folder (computed once)."""
    if not _MANIFEST:
        with tempfile.TemporaryDirectory() as tmp:
            store.open_folder(Path(tmp) / "s", SPEC, force=False)
            _MANIFEST.append((Path(tmp) / "s" / store.MANIFEST).read_bytes())
    return _MANIFEST[0]


_MANIFEST: list[bytes] = []


def _write(op: str, folder: Path, dest: Path) -> Path:
    if op == "write_file":
        return atomic.write_file(dest, NEW, "--out")
    if op == "write_file_replace_link":
        return atomic.write_file(dest, NEW, "--out", replace_link=True)
    if op == "write_new":
        return atomic.write_new(dest, NEW, "--out")
    if op == "record":
        return record.write(dict(RECORD), folder)
    if op == "manifest":
        store.open_folder(folder, SPEC, force=True)
        return folder / store.MANIFEST
    return store.write_point(folder, {"key": "0123456789abcdef0123", "x": 1})


class Inject:
    """os.<call> raises OSError(code) at its ``at``-th call (counting from 0), or (short-write) writes
    one byte at a time; the original functions restored on exit."""

    def __init__(self, call: str | None, at: int, code: int) -> None:
        self.call, self.at, self.code, self.count, self.fired = call, at, code, 0, False
        self.saved: list[tuple[str, Any]] = []

    def __enter__(self) -> Inject:
        if self.call is None:
            return self
        name = "write" if self.call == "short-write" else self.call
        original = getattr(os, name)

        def patched(*args: Any, **kw: Any) -> Any:
            n, self.count = self.count, self.count + 1
            if self.call == "short-write":
                return original(args[0], bytes(args[1][:1]))
            if n == self.at:
                self.fired = True
                raise OSError(self.code, os.strerror(self.code))
            return original(*args, **kw)

        self.saved.append((name, original))
        setattr(os, name, patched)
        return self

    def __exit__(self, *exc: Any) -> None:
        for name, original in self.saved:
            setattr(os, name, original)


def event(text: str) -> None:
    """hypothesis.event inside a Hypothesis case; nothing in a plain test."""
    try:
        current_build_context()
    except Exception:
        return
    from hypothesis import event as record_event

    record_event(text)


def _temps(root: Path) -> list[str]:
    return [str(p) for p in root.rglob(".proofkit-*.tmp")]


# ----------------------------------------------------------------------------- the property
def _case(op: str, kind: str, call: str | None, at: int, code: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="fuzz_writers_"))
    saved_tempdir = tempfile.tempdir
    try:
        folder, dest = make_scene(root, op, kind)
        tempfile.tempdir = str(root / "rescue")  # record.write's rescue copy goes here, not to /tmp
        os.mkdir(tempfile.tempdir)
        before = snapshot(root)
        rel = str(dest.relative_to(root))
        try:
            with Inject(call, at, code) as inject:
                written = _write(op, folder, dest)
        except InputError as exc:
            assert isinstance(exc, atomic.WriteError), repr(exc)
            text = str(exc)
            assert "\n" not in text and exc.reason and exc.reason in text, text
            if inject.fired and kind in ("absent", "regular"):
                assert os.strerror(code) in text, text
            after = snapshot(root)
            changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
            changed.discard(os.path.join("out", store.POINTS))  # open_folder makes it before the manifest
            assert all(k.startswith("rescue") for k in changed), (text, changed)
            event(f"{op}: refused")
        else:
            after = snapshot(root)
            wrel = str(Path(written).relative_to(root))
            assert wrel.startswith("out" + os.sep), wrel
            if after[wrel] != ("file", _new(op)):
                # write_new keeps a link to the same bytes where they already are; nothing is written
                kept = op in ("write_new", "record") and kind == "link-outside-same" and wrel == rel
                assert kept, after[wrel]
            changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
            assert changed <= {wrel, os.path.join("out", store.POINTS)}, changed  # a sweep makes points/
            event(f"{op}: written ({'same name' if wrel == rel else 'another name'})")
        assert not _temps(root), _temps(root)
        for name in ("target.json", "new.json"):
            assert after[os.path.join("outside", name)] == before[os.path.join("outside", name)]
    finally:
        tempfile.tempdir = saved_tempdir
        shutil.rmtree(root, ignore_errors=True)


cases = st.tuples(st.sampled_from(OPS), st.sampled_from(KINDS), st.one_of(st.none(), st.sampled_from(CALLS)),
                  st.integers(0, 3), st.sampled_from(ERRNOS))


@given(cases)
@_settings(150, fast=True)
def test_fuzz_writers(case):
    _case(*case)


@pytest.mark.slow
@given(cases)
@_settings(4000, fast=False)
def test_fuzz_writers_large(case):
    _case(*case)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_destination_kind_without_failure(op, kind):
    """The whole table once, without an injected failure."""
    _case(op, kind, None, 0, errno.ENOSPC)


@pytest.mark.parametrize("call", ["write", "fsync", "replace"])
def test_full_disk_keeps_the_old_file(call):
    _case("write_file", "regular", call, 0, errno.ENOSPC)


@pytest.mark.parametrize("name", ["\ud800.json", "a\x00b.json", "\ud800/x.json"])
@pytest.mark.parametrize("op", ["write_file", "write_new", "prepare_folder", "record"])
def test_a_name_the_os_cannot_take_is_a_write_error(tmp_path, name, op):
    """Regression: a NUL byte or an unpaired surrogate in a path raised ValueError (UnicodeEncodeError)
    from the os calls, a traceback; it is a one-line WriteError, and nothing is written."""
    dest = tmp_path / name
    with pytest.raises(atomic.WriteError) as exc:
        if op == "write_file":
            atomic.write_file(dest, NEW, "--out")
        elif op == "write_new":
            atomic.write_new(dest, NEW, "--out")
        elif op == "prepare_folder":
            atomic.prepare_folder(dest, "--out", create=True)
        else:
            saved = tempfile.tempdir
            tempfile.tempdir = str(tmp_path)
            try:
                record.write(dict(RECORD), dest)
            finally:
                tempfile.tempdir = saved
    assert "\n" not in str(exc.value) and "file system accepts" in str(exc.value)
    assert [p.name for p in tmp_path.iterdir()] in ([], ["proofkit-records"])


@pytest.mark.parametrize("op", ["write_file", "write_new"])
def test_text_that_utf8_cannot_encode_is_a_write_error(tmp_path, op):
    """Regression: text with an unpaired surrogate (a non-UTF-8 command-line argument carried into an
    output) raised UnicodeEncodeError out of the writer; it is a one-line WriteError, the old file kept."""
    dest = tmp_path / "out.json"
    dest.write_bytes(OLD)
    with pytest.raises(atomic.WriteError) as exc:
        (atomic.write_file if op == "write_file" else atomic.write_new)(dest, "caf\udce9", "--out")
    assert "surrogate" in str(exc.value) and dest.read_bytes() == OLD and not _temps(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_points_folder_that_is_a_link_is_refused(tmp_path):
    """A sweep's own points/ folder must not be a link (it would send point files elsewhere)."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / store.POINTS).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(atomic.WriteError) as exc:
        atomic.prepare_folder(tmp_path / "out" / store.POINTS, "--out", create=True, own=True)
    assert "symbolic link" in str(exc.value) and not list((tmp_path / "elsewhere").iterdir())
