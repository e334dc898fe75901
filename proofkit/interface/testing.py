"""Helpers for theorem regression tests: cached checks and falsifications, one run per variant per
session, shared by every test that asks (the pytest plugin prints their verdict summary)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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


def _check_line(key: str) -> str:
    r = _CHECKS[key]
    findings = sum(c.erratum for c in r.claims)
    readings = sum(c.verdict == Verdict.REFUTED and c.role != "control" and not c.erratum
                   and not c.outside and not c.error for c in r.claims)
    return (f"check   {r.id:8s} [{_SETS[key]}] {r.label} (dps {r.dps}, seed {r.seed}, {findings} errata "
            f"(false as printed), {readings} readings refuted, {len(r.errata)} with a nearby form that "
            "holds)")


def _falsify_line(key: str) -> str:
    f = _FALSIFY[key]
    return (f"falsify {f.theorem:8s} drop [{', '.join(f.dropped) or 'none'}] {f.verdict}"
            f"{' certified' if f.certified else ''} (seed {f.seed}, dps {f.dps}, {f.elapsed_s:.1f}s)")


def _entries(skip: Mapping[str, object] | None = None) -> list[tuple[str, str]]:
    """(key, summary line) per cached check, then per cached falsification, of this process (but those
    whose result ``skip`` holds under their key)."""
    skip = skip or {}
    out = [(f"check {k}", _check_line(k)) for k, r in _CHECKS.items() if skip.get(f"check {k}") is not r]
    return out + [(f"falsify {k}", _falsify_line(k)) for k, f in _FALSIFY.items()
                  if skip.get(f"falsify {k}") is not f]


def summary_lines() -> list[str]:
    """One line per cached check and falsification of the session (the pytest plugin prints them)."""
    return [line for _, line in _entries()]


#: the results :func:`fresh_summary` handed out already, by key (per process; a cache replaced by a test
#: hands its results out again)
_HANDED: dict[str, object] = {}


def fresh_summary() -> list[list[str]]:
    """[key, line] of each cached check and falsification not handed out before: the pytest plugin puts
    them on each test's report, so that under xdist they reach the controller (plain lists: serializable)."""
    out = [[key, line] for key, line in _entries(_HANDED)]
    for key, _ in out:
        kind, _, k = key.partition(" ")
        _HANDED[key] = (_CHECKS if kind == "check" else _FALSIFY)[k]
    return out


def order(entries: dict[str, str]) -> list[str]:
    """The summary lines of ``entries`` (key -> line, from any process): checks, then falsifications,
    each sorted, so the summary reads the same whatever order the tests ran in (xdist or not)."""
    return sorted(entries.values(), key=lambda line: (not line.startswith("check"), line))


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
