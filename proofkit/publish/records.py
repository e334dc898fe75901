"""The stored counterexample records a report links and a bundle carries: every ``*.json`` of a records
folder, loaded and validated by :func:`proofkit.storage.record.load`, grouped by the theorem id they name.

The folder is the one given (``--records DIR``), else ``counterexamples/`` of proofkit's source tree,
else ``./counterexamples`` when the working directory has one (an installed package ships none); no
folder means no records, which is said, not an error. A record that does not load is bad input naming
its file: a report or bundle must not silently leave evidence out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..storage import record

#: the folder name proofkit writes records to (``falsify --out`` default)
FOLDER = "counterexamples"


@dataclass(frozen=True)
class Stored:
    """One record file: its path and its validated content."""

    path: Path
    data: dict[str, Any]

    @property
    def theorem(self) -> str:
        return str(self.data["theorem"])

    @property
    def claim(self) -> str:
        return str(self.data["claim"])

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(str(d) for d in self.data["dropped"])


def default_folder() -> Path | None:
    """``counterexamples/`` beside the package in proofkit's source tree, else ``./counterexamples``,
    else None."""
    source = Path(__file__).resolve().parents[2] / FOLDER
    if source.is_dir() and (source.parent / "pyproject.toml").is_file():
        return source
    local = Path(FOLDER)
    return local if local.is_dir() else None


def folder(given: str | None) -> Path | None:
    """The records folder for ``--records`` (None: :func:`default_folder`); a named folder must exist."""
    if given is None:
        return default_folder()
    path = Path(given)
    if not path.is_dir():
        raise InputError("--records", "an existing folder of counterexample records", given)
    return path


def load_folder(where: Path | None) -> list[Stored]:
    """Every record of the folder, sorted by file name (none without a folder)."""
    if where is None:
        return []
    out = []
    for path in sorted(where.glob("*.json")):
        try:
            out.append(Stored(path, record.load(path)))
        except InputError as exc:
            raise InputError(f"record {path}: {exc.field}", exc.expected, exc.got) from None
    return out


def for_theorem(stored: list[Stored], theorem_id: str) -> list[Stored]:
    """The records that name this theorem."""
    return [s for s in stored if s.theorem == theorem_id]
