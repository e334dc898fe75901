"""What a shell's TAB offers for proofkit's data-dependent words, fast: theorem ids, ``--set`` parameter
names and values, ``--param`` names, ``--drop`` assumption ids.

The completion scripts (:mod:`proofkit.interface.completion`) call the hidden command
``proofkit __complete KIND CUR [WORD...]``: KIND is ``id`` (a command's one theorem id: nothing once one
is typed), ``ids``, ``set``, ``param`` or ``drop``, CUR the
word being completed, WORDs the words typed before it (the theorem id and any ``--theorems DIR`` are
read from them). It prints one candidate per line that starts with CUR (case-insensitively), full words
(``T=3``), and nothing at all on any failure: a completion must never write an error into the user's
command line.

Answering from the theorem files themselves would import every one of them (sympy and all, over a
second) at each TAB. So the index -- ids, parameter names and their values, assumption ids -- is
cached in ``$PROOFKIT_CACHE_DIR`` (default ``$XDG_CACHE_HOME/proofkit``, else ``~/.cache/proofkit``),
one JSON file per set of theorem sources, stamped with :func:`proofkit.language.registry.fingerprint`
(every theorem file's path, size and modification time). A TAB reads the file and re-stats the files
(milliseconds); a changed, added or removed theorem file changes the fingerprint and the index is
rebuilt once. Hand-written because the data-dependent part is proofkit's own; the per-shell glue stays in
:mod:`proofkit.interface.completion`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..language import registry
from ..storage import atomic

CACHE_ENV = "PROOFKIT_CACHE_DIR"
KINDS = ("id", "ids", "set", "param", "drop")
#: the index file's format (an index of another format is rebuilt, never misread)
FORMAT = "proofkit-completion-index/1"
#: at most this many values are offered for one integer parameter (the rest are typed)
MAX_VALUES = 20


def cache_dir() -> Path:
    """Where indexes are kept (see the module docstring)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "proofkit")


def values(param: Any) -> list[str]:
    """The values TAB offers for a parameter, as ``--set`` reads them: its choices, true/false, the
    first MAX_VALUES integers of its range from its minimum (and its default); else its default."""
    if param.choices is not None:
        return [_text(c) for c in param.choices]
    if param.type is bool:
        return ["true", "false"]
    if param.type is int and param.min is not None:
        top = int(param.min) + MAX_VALUES - 1 if param.max is None else min(int(param.max),
                                                                              int(param.min) + MAX_VALUES - 1)
        return list(dict.fromkeys([str(param.default), *(str(v) for v in range(int(param.min), top + 1))]))
    return [_text(param.default)]


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def build(extra: Sequence[str | Path] = ()) -> dict[str, Any]:
    """The index of every registered theorem (this imports every theorem file)."""
    theorems = {}
    for tid, thm in registry.load_all(extra).items():
        theorems[tid] = {"params": {p.name: values(p) for p in thm.params.params},
                         "assumptions": [a.id for a in thm.assumptions]}
    return {"format": FORMAT, "theorems": theorems}


def index(extra: Sequence[str | Path] = ()) -> dict[str, Any]:
    """The index for these theorem sources: the cached one while its fingerprint holds, else built
    and cached (a cache that cannot be written is only slower)."""
    # this module's own modification time too: an index is rebuilt when the way it is built changes
    fingerprint = f"{registry.fingerprint(extra)}-{Path(__file__).stat().st_mtime_ns}"
    folders = "\0".join(str(f) for f in registry.folders(extra))
    path = cache_dir() / f"index-{hashlib.sha256(folders.encode()).hexdigest()[:16]}.json"
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))
        if cached.get("format") == FORMAT and cached.get("fingerprint") == fingerprint:
            return cached
    except (OSError, ValueError, AttributeError):
        pass
    fresh = build(extra) | {"fingerprint": fingerprint}
    try:
        atomic.prepare_folder(path.parent, "cache", create=True)
        atomic.write_file(path, json.dumps(fresh, sort_keys=True), "cache")
    except (OSError, InputError):  # an unwritable cache folder (WriteError is an InputError)
        pass
    return fresh


def candidates(kind: str, cur: str, words: Sequence[str]) -> list[str]:
    """What TAB offers for ``cur`` (see the module docstring)."""
    folders = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--theorems"]
    theorems = index(folders)["theorems"]
    by_fold = {t.casefold(): t for t in theorems}
    if kind == "id" and any(w.casefold() in by_fold for w in words):
        return []  # the command's one theorem id is typed already
    if kind in ("id", "ids"):
        offered = list(theorems)
    else:
        tid = next((by_fold[w.casefold()] for w in words if w.casefold() in by_fold), None)
        if tid is None:
            return []
        entry = theorems[tid]
        if kind == "drop":
            offered = entry["assumptions"]
        elif kind == "param":
            offered = list(entry["params"])
        elif "=" in cur:  # --set NAME=VALUE: the values of NAME
            name = cur.split("=", 1)[0]
            offered = [f"{name}={v}" for v in entry["params"].get(name, [])]
        else:
            offered = [f"{name}=" for name in entry["params"]]
    return [c for c in offered if c.casefold().startswith(cur.casefold())]


def main(argv: Sequence[str]) -> int:
    """``proofkit __complete KIND CUR [WORD...]``: candidates on stdout, one a line; silent on failure."""
    if not argv or argv[0] not in KINDS:
        return 2
    try:
        found = candidates(argv[0], argv[1] if len(argv) > 1 else "", list(argv[2:]))
    except Exception:  # a broken theorem file, an unreadable folder: TAB offers nothing, says nothing
        return 1
    sys.stdout.write("".join(f"{c}\n" for c in found))
    return 0
