"""Find and load theorem files. Theorems come from four kinds of source, in this order:

- the built-in set: ``theorems/`` of proofkit's own source tree when proofkit runs from one (a checkout,
  an editable install), else the installed package ``proofkit_theorems`` that a ``pip install`` ships;
- theorem packages: every entry point of the group ``proofkit.theorems`` (the way pytest finds its
  plugins). An entry point names a module or package, whose folder holds the theorem files, or a folder
  path (``pkg:ATTRIBUTE`` with a ``str``/``Path`` value). proofkit registers its built-in set the same way
  (``builtin = "proofkit_theorems"`` in pyproject.toml);
- folders in ``$PROOFKIT_THEOREMS`` (os.pathsep-separated);
- folders given with ``proofkit --theorems DIR`` (repeatable), and those a caller passes to
  :func:`load_all`.

A folder holds ``<paper>/<file>.py`` (as the built-in one does) or ``<file>.py`` directly; each file
defines ``THEOREM``. Files named ``test_*``, ``_*`` or ``conftest*`` are skipped (tests, helpers,
``__init__.py``). Theorem files are Python written by their owner (like test files) and are imported by
path; nothing a user passes on the command line is ever evaluated. Two files defining the same id are
bad input naming both files and both sources; so is a source that adds no theorem (a folder named by
mistake), a theorem package that fails to import or names no folder, and a user's or a package's file
that fails to import: one line each, exit 2, never a traceback.

No code is imported that the user did not name or install: a ``theorems/`` folder of the working
directory, or beside an installed package, is never looked at, so running proofkit (``replay``,
``list``, ``check``) inside a folder someone else prepared imports nothing from it. An empty theorem set
is bad input, not an empty table.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import stat
import sys
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..errors import InputError, did_you_mean

if TYPE_CHECKING:  # the theorem language (sympy) loads with the first theorem file, not with the registry
    from .spec import Theorem

#: the environment variable naming extra theorem folders
ENV = "PROOFKIT_THEOREMS"
#: the entry-point group theorem packages register under
GROUP = "proofkit.theorems"
#: the package that holds proofkit's built-in theorems once installed (mapped from ``theorems/``)
BUILTIN_PACKAGE = "proofkit_theorems"

#: folders given with ``--theorems`` for the current command (set by :func:`using`)
_cli_folders: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Source:
    """One place theorem files come from. ``origin`` says how it was named, for messages; ``kind`` is
    ``builtin`` (proofkit's own: a file that fails to import is proofkit's bug and shows its traceback),
    ``package`` (an installed theorem package) or ``folder`` (a folder the user named); ``package`` is
    the import name of the folder's package, under which its files are imported (None: a private name
    per file); ``entry_point`` the name of the entry point that registered it, if any."""

    folder: Path
    origin: str
    kind: str
    package: str | None = None
    entry_point: str = ""


def builtin_dir() -> Path | None:
    """``theorems/`` beside the package in proofkit's own source tree, else None (never a folder found
    from the working directory). An installed proofkit's built-in set comes through its entry point."""
    return _source_theorems(Path(__file__).resolve().parents[2])


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


def _short(path: Path, source: Source) -> str:
    """A theorem file as an error names it: a folder the user named, in full; a package's file from the
    package folder (``pkg/sub/file.py``), which identifies it beside the entry point and stays short
    enough for a one-line error whatever the install prefix."""
    if source.kind == "folder":
        return str(path)
    try:
        return str(Path(path).resolve().relative_to(source.folder.parent))
    except ValueError:
        return str(path)


def _origin(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    owner = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value} ({GROUP}{owner})"


def _plugin_source(ep: EntryPoint) -> Source:
    """The folder an entry point names: the folder of the package it loads, or the folder path its
    attribute holds (never a plain module's folder, which may be site-packages itself). A plugin that
    cannot be loaded is bad input naming the entry point."""
    origin, field = _origin(ep), f"theorem package {ep.name}"
    try:
        obj = ep.load()
    except Exception as exc:  # an installed package's code: one line naming the entry point
        raise InputError(field, f"an importable package or folder path ({origin})",
                         f"{type(exc).__name__}: {exc}") from None
    package = None
    if isinstance(obj, ModuleType) and hasattr(obj, "__path__"):
        portions = list(obj.__path__)
        if len(portions) != 1:
            raise InputError(field, f"a package in one folder ({origin})", f"{len(portions)} folders")
        folder, package = Path(portions[0]), obj.__name__
    elif isinstance(obj, (str, os.PathLike)):
        folder = Path(obj)
    else:
        what = "a module that is no package" if isinstance(obj, ModuleType) else f"a {type(obj).__name__}"
        raise InputError(field, f"a package or a folder path ({origin})", what)
    if not folder.is_dir():
        raise InputError(field, f"an existing folder with theorem files ({origin})", str(folder))
    return Source(folder.resolve(), origin, "builtin" if ep.value == BUILTIN_PACKAGE else "package", package,
                  ep.name)


@cache
def _plugins(with_builtin: bool) -> tuple[Source, ...]:
    """Every theorem package registered in the entry-point group (proofkit's own built-in set among
    them unless ``with_builtin`` is false), in entry-point name order; looked up once per process, as
    pytest does."""
    eps = sorted(entry_points(group=GROUP), key=lambda ep: (ep.name, ep.value))
    return tuple(_plugin_source(ep) for ep in eps if with_builtin or ep.value != BUILTIN_PACKAGE)


def sources(extra: Sequence[str | Path] = ()) -> tuple[Source, ...]:
    """Where theorems are loaded from, in order, each folder once (as first named): the built-in set,
    theorem packages, $PROOFKIT_THEOREMS, ``--theorems``, ``extra``. Running from proofkit's source
    tree, its ``theorems/`` is the built-in set (the installed ``proofkit_theorems`` entry point, if
    any, is that same set, not loaded)."""
    builtin = builtin_dir()
    out = [Source(builtin.resolve(), "the built-in theorems/ of proofkit's source tree", "builtin",
                  BUILTIN_PACKAGE)] if builtin is not None else []
    out += _plugins(builtin is None)
    out += [Source(_existing(p, ENV), f"${ENV}", "folder")
            for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip()]
    out += [Source(p, "--theorems", "folder") for p in _cli_folders]
    out += [Source(_existing(p, "theorems folder"), "theorems folder", "folder") for p in extra]
    unique: dict[Path, Source] = {}
    for s in out:
        unique.setdefault(s.folder, s)
    if not unique:
        raise InputError("theorems folder", f"theorems/ beside the package, a {GROUP} entry point, {ENV} "
                         "or --theorems DIR", "none found")
    return tuple(unique.values())


def folders(extra: Sequence[str | Path] = ()) -> tuple[Path, ...]:
    """The folders of :func:`sources`, in order."""
    return tuple(s.folder for s in sources(extra))


def fingerprint(extra: Sequence[str | Path] = ()) -> str:
    """A digest of what :func:`load_all` would load, without loading it: every source (folder, kind,
    entry point) and each of its theorem files' path, size and modification time -- the key
    :func:`load_all` caches on. Equal fingerprints mean the same files (a stale cache of the catalogue,
    e.g. for shell completion, is told by a changed fingerprint)."""
    digest = hashlib.sha256()
    for source in sources(extra):
        digest.update(repr((str(source.folder), source.kind, source.package)).encode())
        for path, size, mtime in _files(source.folder):
            digest.update(os.fsencode(path) + repr((size, mtime)).encode())
    return digest.hexdigest()


def load_all(extra: Sequence[str | Path] = ()) -> dict[str, Theorem]:
    """Every THEOREM of every source (see :func:`sources`), keyed and sorted by id. Cached on the
    sources and on each file's path, size and modification time, so a folder or file added, removed or
    edited is seen at once and an unchanged one is imported once. No theorem at all is bad input (a
    folder named by mistake must not pass as an empty, all-clear table)."""
    return {tid: thm for tid, (thm, _, _) in _loaded(extra).items()}


def where(theorem_id: str) -> tuple[Path, Source]:
    """The file that defines the theorem and the source it came from (bad input if there is none)."""
    get(theorem_id)
    _, path, source = _loaded(())[theorem_id]
    return path, source


def _loaded(extra: Sequence[str | Path]) -> dict[str, tuple[Theorem, Path, Source]]:
    found_in = sources(extra)
    files = tuple((s, _files(s.folder)) for s in found_in)
    found = _load(files)
    if not found:
        raise InputError("theorems folder", "at least one theorem file defining THEOREM",
                         "none in " + ", ".join(str(s.folder) for s in found_in))
    for source, keys in files:  # a source that adds nothing is a folder named by mistake
        if source.kind == "folder" and not any(_load_file(k, source) for k in keys):
            raise InputError("theorems folder", "a folder with at least one theorem file defining THEOREM",
                             f"none in {source.folder}")
        if source.kind == "package" and not any(_load_file(k, source) for k in keys):
            raise InputError(f"theorem package {source.entry_point}", "a folder with at least one theorem "
                             f"file defining THEOREM ({source.origin})", f"none in {source.folder}")
    return found


#: one theorem file as the cache sees it: (path, size, modification time in ns)
FileKey = tuple[Path, int, int]


def _files(root: Path) -> tuple[FileKey, ...]:
    """The theorem files of a folder: ``*.py`` and ``*/*.py``, less tests and helpers."""
    paths = sorted(root.glob("*.py")) + sorted(root.glob("*/*.py"))
    keys = []
    for path in paths:
        if not path.name.startswith(("test_", "_", "conftest")):
            st = _regular_file(path)
            keys.append((path, st.st_size, st.st_mtime_ns))
    return tuple(keys)


def _regular_file(path: Path) -> os.stat_result:
    """The stat of a theorem file, which must be a regular file (or a link to one): a FIFO would block
    the import forever, a dangling link or a link loop would raise; each is one line of bad input."""
    expected = "a regular Python file (or a link to one)"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"theorem file {path}", expected, "a dangling symbolic link") from None
    except OSError as exc:
        raise InputError(f"theorem file {path}", expected, exc.strerror or type(exc).__name__) from None
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "a device")
        raise InputError(f"theorem file {path}", expected, kind)
    return st


@cache
def _load(roots: tuple[tuple[Source, tuple[FileKey, ...]], ...]) -> dict[str, tuple[Theorem, Path, Source]]:
    found: dict[str, tuple[Theorem, Path, Source]] = {}
    for source, files in roots:
        for key in files:
            thm = _load_file(key, source)
            if thm is None:
                continue
            path = key[0]
            if thm.id in found and found[thm.id][1] == path:  # overlapping folders: the same file again
                continue
            same = next((t for t in found if t.casefold() == thm.id.casefold() and t != thm.id), None)
            if same is not None:  # ids are read case-insensitively: two that differ in case only clash
                raise InputError(f"theorem id {thm.id}", f"ids that differ in more than case ({same} is "
                                 "registered too)", f"{_short(found[same][1], found[same][2])} and "
                                 f"{_short(path, source)}")
            if thm.id in found:
                first = found[thm.id][2].origin
                both = f"twice in {first}" if first == source.origin else f"in {first} and in {source.origin}"
                raise InputError(f"theorem id {thm.id}", f"one file per theorem id (found {both})",
                                 f"{_short(found[thm.id][1], found[thm.id][2])} and {_short(path, source)}")
            found[thm.id] = (thm, path, source)
    return {tid: found[tid] for tid in sorted(found)}


@cache
def _load_file(key: FileKey, source: Source) -> Theorem | None:
    """One file imported (once per path, size, modification time and source)."""
    return _import(key[0], source)


def _module_name(path: Path, source: Source) -> str:
    """A package's file under its own dotted name (``proofkit_theorems.am24.t4_linear_recurrence``: the
    name a plain import gives it, so its relative imports work); a user's file under a name unique per
    path, so it never replaces a module of the same name."""
    if source.package is not None:
        return ".".join((source.package, *path.relative_to(source.folder).with_suffix("").parts))
    digest = hashlib.sha256(os.fsencode(path)).hexdigest()[:12]  # fsencode: a name of any bytes hashes
    return f"proofkit_user_theorems.h{digest}.{path.stem}"


def _import(path: Path, source: Source) -> Theorem | None:
    """Import one theorem file by path and return its THEOREM (None when it defines none). A user's or a
    theorem package's file that fails to import is bad input naming the file and line, not a
    traceback."""
    name = _module_name(path, source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if source.kind == "builtin":
        spec.loader.exec_module(module)
    else:
        try:
            spec.loader.exec_module(module)
        # the user's own code: report where, one line; a file that calls sys.exit() is bad input too (it
        # must not end proofkit with its own status: `check --all` would exit 0 with nothing checked)
        except (Exception, SystemExit) as exc:
            del sys.modules[name]
            line = next((f.lineno for f in reversed(traceback.extract_tb(exc.__traceback__))
                         if f.filename == str(path)), getattr(exc, "lineno", None))
            at = f"{path}:{line}" if line else str(path)
            owner = f" ({source.origin})" if source.kind == "package" else ""
            raise InputError(f"theorem file {at}", f"a Python file that defines THEOREM{owner}",
                             f"{type(exc).__name__}: {exc}") from None
    from .spec import Theorem

    thm = getattr(module, "THEOREM", None)
    return thm if isinstance(thm, Theorem) else None


def get(theorem_id: str) -> Theorem:
    """The theorem with this id (bad input, listing the ids, if there is none)."""
    thms = load_all()
    if theorem_id in thms:
        return thms[theorem_id]
    folded = [tid for tid in thms if isinstance(theorem_id, str) and tid.casefold() == theorem_id.casefold()]
    if len(folded) == 1:  # ids are unique up to case (checked when loading): am24.t4 is AM24.T4
        return thms[folded[0]]
    raise InputError("theorem id", "a theorem id" + did_you_mean(theorem_id, thms) + "; one of "
                     + ", ".join(thms), theorem_id)
