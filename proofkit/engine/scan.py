"""Scan one parameter: at each value, check the theorem and search for a counterexample, then report
the smallest value from which every scanned value holds.

A value *holds* when no conclusion is refuted or inconclusive and the counterexample search found
nothing; it is *refuted* when a conclusion is refuted or the search found a counterexample (certified
or not, said so); otherwise it is *inconclusive*, with the reason. Results that are not monotone (a
value that holds followed by a larger one that does not) are flagged, because a threshold read off
such a scan would be misleading.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..language import registry
from ..language.spec import Theorem
from ..language.verdict import ClaimResult, Verdict
from ..runtime import progress
from .identify import Undefined

HOLDS, REFUTED, INCONCLUSIVE = "holds", "refuted", "inconclusive"

#: what the engine raises when a theorem cannot be evaluated as written at some parameters (the
#: inverse of a non-square or singular matrix): an inconclusive value, never a refutation
ENGINE_UNDEFINED = (Undefined, ZeroDivisionError, np.linalg.LinAlgError)


@dataclass
class SearchSummary:
    """What the counterexample search reported at one value (FalsifyResult's public fields)."""

    verdict: str
    found: bool
    certified: bool
    how: str
    effort: str
    record: str | None = None


@dataclass
class ScanRow:
    value: Any
    status: str  # holds | refuted | inconclusive
    reason: str
    check_verdict: str
    conclusions: dict[str, str]
    search: SearchSummary | None
    violated_assumptions: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0


@dataclass
class ScanResult:
    theorem: str
    param: str
    rows: list[ScanRow]
    threshold: Any
    warnings: list[str]
    searched: bool
    ordered: bool
    dps: int
    seed: int
    elapsed_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.theorem, "param": self.param, "rows": [asdict(r) for r in self.rows],
                "threshold": self.threshold, "monotone": not self.warnings, "warnings": self.warnings,
                "searched": self.searched, "ordered": self.ordered, "dps": self.dps, "seed": self.seed,
                "elapsed_s": round(self.elapsed_s, 3)}


# ----------------------------------------------------------------------------- pure logic
def threshold(statuses: Sequence[tuple[Any, str]]) -> Any:
    """The smallest value from which every value at or above it holds (values in ascending order),
    or None when the largest scanned value does not hold."""
    found = None
    for value, status in reversed(statuses):
        if status != HOLDS:
            break
        found = value
    return found


def monotonicity_warnings(param: str, statuses: Sequence[tuple[Any, str]]) -> list[str]:
    """One warning per value that fails (refuted or inconclusive) after a smaller value that holds."""
    out, last_hold = [], None
    for value, status in statuses:
        if status == HOLDS:
            last_hold = value
        elif last_hold is not None:
            out.append(f"not monotone in {param}: {param}={last_hold} holds but {param}={value} is {status}")
    return out


def classify(conclusions: Sequence[ClaimResult], check_failure: str | None,
             search: SearchSummary | None) -> tuple[str, str]:
    """(status, reason) of one scanned value from its decisive claims, a check that could not run
    (its reason) and the search summary (None when no search ran)."""
    refuted = [f"{c.name} refuted ({c.how})" for c in conclusions if c.verdict == Verdict.REFUTED]
    if search is not None and search.found and search.verdict == str(Verdict.REFUTED):
        refuted.append(f"the search found a counterexample ({search.how})" if search.certified else
                       f"the search found a counterexample, NOT certified ({search.how})")
    if refuted:
        return REFUTED, "; ".join(refuted)
    undecided = [f"check could not run: {check_failure}"] if check_failure else []
    undecided += [f"{c.name} inconclusive ({c.how})" for c in conclusions
                  if c.verdict == Verdict.INCONCLUSIVE]
    if search is not None and search.verdict not in (str(Verdict.CONFIRMED), str(Verdict.CERTIFIED)):
        undecided.append(f"the counterexample search ({search.verdict}): {search.how}")
    if not conclusions and not check_failure and search is None:
        undecided.append("no conclusion or proof-step claim and no counterexample search decides it")
    if undecided:
        return INCONCLUSIVE, "; ".join(undecided)
    evidence = f"{len(conclusions)} conclusion(s) hold"
    return HOLDS, evidence + ("; the search found no counterexample" if search is not None else "")


# ----------------------------------------------------------------------------- driver
def searchable(theorem: Theorem) -> bool:
    """Whether a counterexample search exists for the theorem: a numeric setup or its own falsifier."""
    return theorem.setup is not None or theorem.falsifier is not None


def _decisive(claims: Sequence[ClaimResult]) -> list[ClaimResult]:
    """The conclusion claims (the proof steps when a theorem states no conclusion claim)."""
    conclusions = [c for c in claims if c.role == "conclusion"]
    return conclusions or [c for c in claims if c.role == "proof-step"]


def scan_value(theorem: Theorem, param: str, value: Any, base_overrides: Mapping[str, Any] | None = None,
               *, dps: int, seed: int, search: bool = True, out_dir: Path | None = None) -> ScanRow:
    """Check, and search when the theorem has a numeric setup or its own falsifier, at one value."""
    from .check import check
    from .falsify import falsify

    t0 = time.perf_counter()
    progress.stage(f"{theorem.id} {param}={value}: check")
    overrides = dict(base_overrides or {}, **{param: value})
    failure, conclusions, check_verdict = None, [], str(Verdict.INCONCLUSIVE)
    try:
        res = check(theorem, overrides, dps=dps, seed=seed)
        conclusions, check_verdict = _decisive(res.claims), str(res.verdict)
    except ENGINE_UNDEFINED as exc:
        failure = f"{type(exc).__name__}: {exc}"
    summary = None
    if search and searchable(theorem):
        progress.stage(f"{theorem.id} {param}={value}: counterexample search")
        try:
            fr = falsify(theorem, [], overrides, dps=dps, seed=seed, shrink=False, out_dir=out_dir)
            summary = SearchSummary(str(fr.verdict), fr.found, fr.certified, fr.how, fr.effort,
                                    fr.record_path)
        except ENGINE_UNDEFINED as exc:
            summary = SearchSummary(str(Verdict.INCONCLUSIVE), False, False,
                                    f"the search could not run: {type(exc).__name__}: {exc}", "none")
    status, reason = classify(conclusions, failure, summary)
    return ScanRow(value, status, reason, check_verdict,
                   {c.name: str(c.verdict) for c in conclusions}, summary,
                   theorem.violated(theorem.params.resolve(overrides)), time.perf_counter() - t0)


def scan(theorem: Theorem, param: str, values: Sequence[Any], base_overrides: Mapping[str, Any] | None = None,
         *, dps: int, seed: int, search: bool = True, out_dir: Path | None = None,
         jobs: int = 1) -> ScanResult:
    """Scan ``param`` over ``values`` (numeric values are sorted and de-duplicated), every other
    parameter from ``base_overrides`` or its default. Records of counterexamples are written only when
    ``out_dir`` is given. ``jobs`` > 1 checks the values in that many processes (registered theorems
    only; the rows are the same)."""
    t0 = time.perf_counter()
    ordered = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    values = sorted(set(values)) if ordered else list(dict.fromkeys(values))
    from ..scale import parallel

    tally = progress.Tally(len(values))

    def report(i: int, row: ScanRow) -> None:
        progress.done(f"{tally()} {theorem.id} {param}={row.value}: "
                      f"{row.status} ({row.elapsed_s:.1f} s)", total=len(values))

    if jobs > 1:
        base = dict(base_overrides or {})
        rows = parallel.run_all(scan_value_id, [
            (theorem.id, param, v, base, dps, seed, search, None if out_dir is None else str(out_dir))
            for v in values], jobs, on_done=report)
    else:
        rows = parallel.run_all(lambda v: scan_value(theorem, param, v, base_overrides, dps=dps, seed=seed,
                                                     search=search, out_dir=out_dir),
                                [(v,) for v in values], 1, on_done=report)
    statuses = [(r.value, r.status) for r in rows]
    return ScanResult(theorem.id, param, rows,
                      threshold(statuses) if ordered else None,
                      monotonicity_warnings(param, statuses) if ordered else [],
                      search and searchable(theorem), ordered, dps, seed, time.perf_counter() - t0)


def scan_value_id(tid: str, param: str, value: Any, base: dict[str, Any], dps: int, seed: int,
                  search: bool, out_dir: str | None) -> ScanRow:
    """scan_value() of a registered theorem by id (a worker's unit for ``scan -j`` and sweeps)."""
    return scan_value(registry.get(tid), param, value, base, dps=dps, seed=seed, search=search,
                      out_dir=None if out_dir is None else Path(out_dir))
