"""Runnable reproduce lines: the exact command that recomputes a verdict, printed beside every verdict
and failure (the CLI, the pytest plugin), the way Hypothesis prints its reproduce decorator."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..language import registry
from ..language.tolerances import MIN_DPS
from ..numerics import arrays


def _value(v: Any) -> str:
    """A parameter value as ``--set`` parses it (booleans and numbers as written, text as is)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def line(command: str, theorem_id: str | None = None, *, sets: Mapping[str, Any] | None = None,
         seed: int | None = None, dps: int | None = None, drops: Iterable[str] = (),
         extra: Iterable[str] = ()) -> str:
    """``proofkit [--theorems DIR] [--backend B] COMMAND ID --set k=v ... --drop A --seed S --dps D``,
    shell-quoted. The user's theorem folders and a non-default backend are included, so the line runs
    as printed from any directory; ``sets`` are the overrides (defaults left out)."""
    argv = ["proofkit"]
    for folder in registry.cli_folders():
        argv += ["--theorems", str(Path(folder).resolve())]
    if arrays.current() in arrays.CLI_BACKENDS and arrays.current() != "numpy":
        argv += ["--backend", arrays.current()]
    argv.append(command)
    if theorem_id is not None:
        argv.append(theorem_id)
    for key, value in (sets or {}).items():
        argv += ["--set", f"{key}={_value(value)}"]
    for aid in drops:
        argv += ["--drop", aid]
    if seed is not None:
        argv += ["--seed", str(seed)]
    if dps is not None:
        argv += ["--dps", str(max(dps, MIN_DPS))]
    argv += list(extra)
    return " ".join(shlex.quote(a) for a in argv)
