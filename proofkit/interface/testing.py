"""Helpers for theorem regression tests: cached checks and falsifications, one run per variant per
session, shared by every test that asks (the pytest plugin prints their verdict summary)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..engine.check import check
from ..engine.falsify import FalsifyResult, falsify
from ..language import registry
from ..language.verdict import TheoremResult, Verdict

_CHECKS: dict[str, TheoremResult] = {}
_FALSIFY: dict[str, FalsifyResult] = {}
#: per cached check, the parameters set away from the theorem's defaults (read when the check ran: the
#: summary must not look the theorem up again, the registry may have changed since)
_SETS: dict[str, str] = {}


def _key(*parts: Any) -> str:
    return json.dumps(parts, sort_keys=True, default=str)


def checked(theorem_id: str, overrides: dict[str, Any] | None = None, *, dps: int = 60,
            seed: int = 0) -> TheoremResult:
    key = _key(theorem_id, overrides or {}, dps, seed)
    if key not in _CHECKS:
        theorem = registry.get(theorem_id)
        _CHECKS[key] = r = check(theorem, overrides, dps=dps, seed=seed)
        _SETS[key] = ",".join(f"{k}={v}" for k, v in r.params.items()
                              if v != theorem.params.get(k).default) or "defaults"
    return _CHECKS[key]


def falsified(theorem_id: str, drops: Sequence[str] = (), overrides: dict[str, Any] | None = None,
              *, dps: int = 60, seed: int = 0) -> FalsifyResult:
    key = _key(theorem_id, sorted(drops), overrides or {}, dps, seed)
    if key not in _FALSIFY:
        _FALSIFY[key] = falsify(registry.get(theorem_id), drops, overrides, dps=dps, seed=seed)
    return _FALSIFY[key]


def summary_lines() -> list[str]:
    """One line per cached check and falsification of the session (the pytest plugin prints them)."""
    lines = []
    for key, r in _CHECKS.items():
        sets = _SETS[key]
        findings = sum(c.erratum for c in r.claims)
        readings = sum(c.verdict == Verdict.REFUTED and c.role != "control" and not c.erratum
                       and not c.outside and not c.error for c in r.claims)
        lines.append(f"check   {r.id:8s} [{sets}] {r.label} (dps {r.dps}, seed {r.seed}, {findings} "
                     f"refuted as printed, {readings} readings refuted, {len(r.errata)} relation errata)")
    for f in _FALSIFY.values():
        lines.append(f"falsify {f.theorem:8s} drop [{', '.join(f.dropped) or 'none'}] {f.verdict}"
                     f"{' certified' if f.certified else ''} "
                     f"(seed {f.seed}, dps {f.dps}, {f.elapsed_s:.1f}s)")
    return lines


def run_cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr) captured by pytest's ``capsys``.
    argparse usage errors leave ``main()`` as SystemExit(2)."""
    from .cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err
