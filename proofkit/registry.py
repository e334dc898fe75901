"""Find and load theorem files: the built-in ``theorems/`` folder beside the package, plus a user's own
folders (``proofkit --theorems DIR``, repeatable, and ``$PROOFKIT_THEOREMS``, os.pathsep-separated).

A folder holds ``<paper>/<file>.py`` (as the built-in one does) or ``<file>.py`` directly; each file
defines ``THEOREM``. Files named ``test_*``, ``_*`` or ``conftest*`` are skipped (tests and helpers).
Theorem files are Python written by their owner (like test files) and are imported by path; nothing
a user passes on the command line is ever evaluated. User folders add to the built-in set; two files
defining the same id are bad input, naming both.

No code is imported that the user did not name: the built-in folder is the one of proofkit's own source
tree (``theorems/`` beside the ``proofkit`` package, next to proofkit's ``pyproject.toml``), never
``./theorems`` of the working directory, so running proofkit (``replay``, ``list``, ``check``) inside a
folder that holds a ``theorems/`` folder imports nothing from it. A non-editable install has no built-in
theorems; its user names them with ``--theorems`` or ``$PROOFKIT_THEOREMS``. An empty theorem set is bad
input, not an empty table.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .errors import InputError
from .spec import Theorem

#: the environment variable naming extra theorem folders
ENV = "PROOFKIT_THEOREMS"

#: folders given with ``--theorems`` for the current command (set by :func:`using`)
_cli_folders: tuple[Path, ...] = ()


def builtin_dir() -> Path | None:
    """``theorems/`` beside the package in proofkit's own source tree, else None (never a folder found
    from the working directory)."""
    return _source_theorems(Path(__file__).resolve().parent.parent)


@cache
def _source_theorems(root: Path) -> Path | None:
    """root/theorems if root is proofkit's source tree (its pyproject.toml names the project proofkit):
    in a non-editable install the package's parent is site-packages, whose ``theorems`` (if any) is not
    proofkit's."""
    folder, project = root / "theorems", root / "pyproject.toml"
    try:
        ours = project.is_file() and re.search(r'(?m)^name\s*=\s*"proofkit"', project.read_text()) is not None
    except (OSError, UnicodeDecodeError):
        return None
    return folder if ours and folder.is_dir() else None


def _existing(folder: str | Path, where: str) -> Path:
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise InputError(where, "an existing folder with theorem files", str(folder))
    return path.resolve()


@contextmanager
def using(folders: Sequence[str | Path]) -> Iterator[None]:
    """Add ``folders`` (the command line's ``--theorems``) to the theorem set inside the block."""
    global _cli_folders
    previous = _cli_folders
    _cli_folders = tuple(_existing(f, "--theorems") for f in folders)
    try:
        yield
    finally:
        _cli_folders = previous


def cli_folders() -> tuple[Path, ...]:
    """The ``--theorems`` folders in effect (what :func:`using` set), e.g. to hand to worker processes."""
    return _cli_folders


def folders(extra: Sequence[str | Path] = ()) -> tuple[Path, ...]:
    """The folders theorems are loaded from, in order, without repeats: built-in, $PROOFKIT_THEOREMS,
    ``--theorems``, ``extra``."""
    builtin = builtin_dir()
    out = [builtin.resolve()] if builtin is not None else []
    out += [_existing(p, ENV) for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip()]
    out += list(_cli_folders)
    out += [_existing(p, "theorems folder") for p in extra]
    unique = tuple(dict.fromkeys(out))
    if not unique:
        raise InputError("theorems folder", f"theorems/ beside the package, {ENV} or --theorems DIR",
                         "none found")
    return unique


def load_all(extra: Sequence[str | Path] = ()) -> dict[str, Theorem]:
    """Every THEOREM in every folder (see :func:`folders`), keyed and sorted by id. Cached on the
    folder set and on each file's path, size and modification time, so a folder or file added,
    removed or edited is seen at once and an unchanged one is imported once. No theorem at all is bad
    input (a folder named by mistake must not pass as an empty, all-clear table)."""
    roots = folders(extra)
    files = tuple(_files(root) for root in roots)
    found = dict(_load(files))
    if not found:
        raise InputError("theorems folder", "at least one theorem file defining THEOREM",
                         "none in " + ", ".join(str(r) for r in roots))
    builtin = builtin_dir()
    for root, keys in zip(roots, files):  # a user's folder that adds nothing is a folder named by mistake
        if (builtin is None or root != builtin.resolve()) and not any(_load_file(k) for k in keys):
            raise InputError("theorems folder", "a folder with at least one theorem file defining THEOREM",
                             f"none in {root}")
    return found


#: one theorem file as the cache sees it: (path, size, modification time in ns)
FileKey = tuple[Path, int, int]


def _files(root: Path) -> tuple[FileKey, ...]:
    """The theorem files of a folder: ``*.py`` and ``*/*.py``, less tests and helpers."""
    paths = sorted(root.glob("*.py")) + sorted(root.glob("*/*.py"))
    keys = []
    for path in paths:
        if not path.name.startswith(("test_", "_", "conftest")):
            stat = path.stat()
            keys.append((path, stat.st_size, stat.st_mtime_ns))
    return tuple(keys)


@cache
def _load(roots: tuple[tuple[FileKey, ...], ...]) -> dict[str, Theorem]:
    found: dict[str, tuple[Theorem, Path]] = {}
    for files in roots:
        for key in files:
            thm = _load_file(key)
            if thm is None:
                continue
            path = key[0]
            if thm.id in found and found[thm.id][1] == path:  # overlapping folders: the same file again
                continue
            if thm.id in found:
                raise InputError(f"theorem id {thm.id}", "one file per theorem id",
                                 f"{found[thm.id][1]} and {path}")
            found[thm.id] = (thm, path)
    return {tid: found[tid][0] for tid in sorted(found)}


@cache
def _load_file(key: FileKey) -> Theorem | None:
    """One file imported (once per path, size and modification time)."""
    path = key[0]
    builtin = builtin_dir()
    return _import(path, builtin is not None and path.is_relative_to(builtin.resolve()))


def _import(path: Path, builtin: bool) -> Theorem | None:
    """Import one theorem file by path and return its THEOREM (None when it defines none). A user's
    file that fails to import is bad input naming the file and line, not a traceback."""
    if builtin:
        name = f"proofkit_theorems.{path.parent.name}.{path.stem}"
    else:  # unique per path, so a user's file never replaces a built-in module of the same name
        name = f"proofkit_user_theorems.h{hashlib.sha256(str(path).encode()).hexdigest()[:12]}.{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if builtin:
        spec.loader.exec_module(module)
    else:
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the user's own code: report where, one line
            del sys.modules[name]
            line = next((f.lineno for f in reversed(traceback.extract_tb(exc.__traceback__))
                         if f.filename == str(path)), getattr(exc, "lineno", None))
            where = f"{path}:{line}" if line else str(path)
            raise InputError(f"theorem file {where}", "a Python file that defines THEOREM",
                             f"{type(exc).__name__}: {exc}") from None
    thm = getattr(module, "THEOREM", None)
    return thm if isinstance(thm, Theorem) else None


def get(theorem_id: str) -> Theorem:
    """The theorem with this id (bad input, listing the ids, if there is none)."""
    thms = load_all()
    if theorem_id not in thms:
        raise InputError("theorem id", "one of " + ", ".join(thms), theorem_id)
    return thms[theorem_id]
