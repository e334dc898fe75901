"""The one atomic writer for every record and output file proofkit writes.

Why: a file written in place (truncate, then write) is empty or half-written while it is written, so a
kill, a full device or a crash at that moment destroys the earlier good file of the same name. Here the
content goes to a temporary file in the target's own folder (``.proofkit-*.tmp``, hidden, never matched
by ``*.json``), is flushed and fsync'ed, and only then renamed over the target (``os.replace``, atomic
on POSIX and Windows) or linked to a new name; the folder is fsync'ed after. An interruption at any
point leaves either the old file or the new one, never a mix (at worst a stray hidden temp file).

Records are never silently replaced: :func:`write_new` keeps an existing file of the same name; when its
content differs the new content goes to the next free versioned name (``NAME_v2.json``, ``_v3``...).

Every failure (a folder that cannot be created, a target that is a folder or a device, a full device, no
permission) is a :class:`WriteError` (an ``InputError``: exit 2, one line) naming the path and the
reason; the temporary file is removed.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from ..errors import InputError

#: versioned names tried after the plain one before giving up (NAME_v2 ... NAME_v{MAX_VERSIONS})
MAX_VERSIONS = 1000
_PREFIX, _SUFFIX = ".proofkit-", ".tmp"


class WriteError(InputError):
    """A file could not be written; ``path`` is where, ``reason`` why (the OS's words). The message
    is one line: field, the path (echo-capped like any input), the reason and what was expected, plus
    ``note`` (e.g. where a record was saved instead)."""

    def __init__(self, field: str, path: str | Path, reason: str, expected: str = "a writable location",
                 note: str = "") -> None:
        super().__init__(field, expected, str(path))
        self.path, self.reason = str(path), reason
        self.args = (f"{self.args[0]} ({reason}){note}",)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")


def _os_name(path: str | Path, field: str) -> Path:
    """``path`` as a Path if the OS can take it as a name: a NUL byte or a character the file system's
    encoding cannot represent (a lone surrogate) would raise ValueError from every os call, not OSError."""
    try:
        if b"\0" in os.fsencode(path):
            raise ValueError("embedded null byte")
    except ValueError as exc:  # UnicodeEncodeError is one
        raise WriteError(field, path, f"not a name the file system accepts ({type(exc).__name__})",
                         "a path without NUL bytes or unpaired surrogates") from None
    return Path(path)


def prepare_folder(folder: str | Path, field: str, *, create: bool, own: bool = False) -> Path:
    """The folder, created with its parents when ``create``; WriteError if it is not a usable folder.
    ``own``: a folder proofkit makes inside an output folder (a sweep's ``points/``), which must not be a
    symbolic link (a link there would send proofkit's writes to another folder); a folder the user names
    may be one."""
    path = _os_name(folder, field)
    try:
        if create:
            path.mkdir(parents=True, exist_ok=True)
        if own and stat.S_ISLNK(os.lstat(path).st_mode):
            raise WriteError(field, path, "is a symbolic link; proofkit writes only into its own folder",
                             "a folder (remove the link)")
        st = os.stat(path)
    except FileNotFoundError:
        raise WriteError(field, path, "no such folder", "a path in an existing folder") from None
    except FileExistsError:  # mkdir: a file of that name is in the way
        raise WriteError(field, path, "exists and is not a folder", "a folder") from None
    except NotADirectoryError:
        raise WriteError(field, path, "a parent is not a folder", "a folder") from None
    except OSError as exc:
        raise WriteError(field, path, _reason(exc), "a folder that can be created") from None
    if not stat.S_ISDIR(st.st_mode):
        raise WriteError(field, path, f"exists and is {_kind(st.st_mode)}", "a folder")
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temp(folder: Path, data: bytes) -> str:
    """A fully written, fsync'ed temporary file in ``folder`` holding ``data``; its path."""
    fd, tmp = tempfile.mkstemp(prefix=_PREFIX, suffix=_SUFFIX, dir=folder)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if hasattr(os, "fchmod"):  # mkstemp makes 0600; a record is an ordinary file (0666 & ~umask)
            os.fchmod(fd, 0o666 & ~_umask())
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _unlink(tmp)
        raise
    os.close(fd)
    return tmp


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """fsync the folder so the rename itself is durable (best effort: not every platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _bytes(data: bytes | str, field: str, path: str | Path) -> bytes:
    """The bytes to write: text as UTF-8; text that has none (an unpaired surrogate, e.g. from a
    command-line argument that was not UTF-8) is a WriteError, not a UnicodeEncodeError."""
    if not isinstance(data, str):
        return data
    try:
        return data.encode("utf-8")
    except UnicodeEncodeError:
        raise WriteError(field, path, "the content has an unpaired surrogate, which UTF-8 cannot encode",
                         "text that is valid Unicode") from None


def write_file(path: str | Path, data: bytes | str, field: str, *, replace_link: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically, replacing an existing regular file (an output the user
    named). A write never goes through a symbolic link at ``path``: by default the link is refused (it may
    name a file outside the output folder, which a rename through it would replace); with
    ``replace_link`` (files proofkit owns, such as a sweep's point files) the link itself is replaced by
    the new regular file and its target is left untouched. A folder, device or FIFO at ``path`` is refused
    (as root, replacing /dev/null would otherwise succeed). The folder must exist."""
    target = _os_name(path, field)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteError(field, path, _reason(exc)) from None
    if st is not None and stat.S_ISLNK(st.st_mode) and not replace_link:
        raise WriteError(field, path, "is a symbolic link; proofkit does not write through links",
                         "a path to a regular file (remove the link, or name the file it points to)")
    if st is not None and not stat.S_ISLNK(st.st_mode) and not stat.S_ISREG(st.st_mode):
        raise WriteError(field, path, f"exists and is {_kind(st.st_mode)}", "a path to a regular file")
    folder = prepare_folder(target.parent, field, create=False)
    try:
        tmp = _temp(folder, _bytes(data, field, path))
    except OSError as exc:
        raise WriteError(field, path, _reason(exc)) from None
    try:
        os.replace(tmp, target)  # rename(2) replaces a link at the destination, never its target
    except BaseException as exc:
        _unlink(tmp)
        if isinstance(exc, OSError):
            raise WriteError(field, path, _reason(exc)) from None
        raise
    _sync_folder(folder)
    return target


def _same_content(path: Path, data: bytes) -> bool:
    """The regular file at ``path`` holds exactly ``data`` (read at most len(data) + 1 bytes)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
            return False
        with open(path, "rb") as fh:
            return fh.read(len(data) + 1) == data
    except OSError:
        return False


def versioned(path: Path, version: int) -> Path:
    """``path`` itself for version 1, else NAME_v{version}.EXT beside it."""
    return path if version == 1 else path.with_name(f"{path.stem}_v{version}{path.suffix}")


def write_new(path: str | Path, data: bytes | str, field: str, *, create_folder: bool = True) -> Path:
    """Write ``data`` under ``path`` without ever replacing different content: if ``path`` already holds
    the same bytes it is kept as is; if it holds other content the data goes to the first free name of
    NAME_v2.EXT, NAME_v3.EXT, ... The name is claimed with a hard link of the finished temporary file
    (atomic and exclusive: two writers never take the same name); where the file system has no hard
    links, the temporary file is renamed onto a name found free. Returns the path written (or kept)."""
    want = _os_name(path, field)
    folder = prepare_folder(want.parent, field, create=create_folder)
    blob = _bytes(data, field, path)
    try:
        tmp = _temp(folder, blob)
    except OSError as exc:
        raise WriteError(field, folder, _reason(exc), "a writable folder") from None
    try:
        for version in range(1, MAX_VERSIONS + 1):
            candidate = versioned(want, version)
            if _same_content(candidate, blob):
                return candidate
            if os.path.lexists(candidate):
                continue
            if _claim(tmp, candidate):
                _sync_folder(folder)
                return candidate
        raise WriteError(field, want, f"{MAX_VERSIONS} versions of this name exist already",
                         "a name with a free version")
    except OSError as exc:
        raise WriteError(field, want, _reason(exc)) from None
    finally:
        _unlink(tmp)


def _claim(tmp: str, candidate: Path) -> bool:
    """Give the finished temporary file the name ``candidate`` if that name is free; False if taken."""
    try:
        os.link(tmp, candidate)
        return True
    except FileExistsError:
        return False
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS,
                             errno.EACCES):
            raise
    if os.path.lexists(candidate):  # no hard links here: rename onto a name just found free
        return False
    os.replace(tmp, candidate)
    return True
