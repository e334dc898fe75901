"""Evidence over a counted set of cases with three outcomes per case, for the Richard 2024 theorem files.

:func:`proofkit.language.evidence.forall` has two outcomes per case (holds, or a witness that fails). The
interval and ball comparisons of this package have a third: a ball that overlaps its bound decides
nothing, and must never be read as a failure (nor as a success). :func:`over` runs a test on every case,
counts the cases itself (an empty range is an empty domain, whatever the text says), stops at the first
case that fails (:class:`Fail`) or is undecided (:class:`Undecided`), and returns the evidence; the engine
decides the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..language.evidence import Evidence, Method, fails, holds, undecided
from .dp import gt, le


@dataclass(frozen=True)
class Fail:
    """A case that fails: ``witness`` says which and by how much; ``residual`` is the deciding figure."""

    witness: str
    residual: str = ""


@dataclass(frozen=True)
class Undecided:
    """A case the computation could not decide (a ball overlapping its bound, an unmet precondition)."""

    reason: str


def at_most(value: Any, bound: Any, fail: str, residual: str = "") -> Fail | Undecided | None:
    """A case of :func:`over` from two intervals: None if value <= bound is proven, :class:`Fail` (with
    ``fail`` as witness) if value > bound is proven, else :class:`Undecided`: overlapping intervals decide
    nothing either way."""
    if le(value, bound):
        return None
    if gt(value, bound):
        return Fail(fail, residual)
    return Undecided(f"{fail}: the intervals overlap, neither side proven")


def worst_outcome(outcomes: Iterable[str], witness: str, residual: str, overlap: str
                  ) -> Fail | Undecided | None:
    """A case of :func:`over` from several comparisons, each 'holds', 'fails' or 'undecided': :class:`Fail`
    (``witness``, ``residual``) if any certainly fails, else :class:`Undecided` (``overlap``) unless all
    hold, else None."""
    outcomes = tuple(outcomes)
    if "fails" in outcomes:
        return Fail(witness, residual)
    if any(o != "holds" for o in outcomes):
        return Undecided(overlap)
    return None


C = TypeVar("C")
Detail = str | Callable[[int], str]


def over(cases: Iterable[C], test: Callable[[C], Fail | Undecided | None], *, method: Method,
         domain: str, detail: Detail = "", residual: str = "0", context: str = "",
         fail_method: Method | None = None) -> Evidence:
    """Run ``test`` on every case of ``cases``: None where it holds, :class:`Fail` or :class:`Undecided`
    otherwise (the first such case ends the run). ``detail`` (the how-text when every case holds) may be
    a function of the count; ``context`` is added to a failure's witness. ``fail_method`` (default
    ``method``) is the method that established a failing case: a sampled domain whose failing sample is
    decided with balls is a certified counterexample."""
    n = 0
    for case in cases:
        n += 1
        out = test(case)
        if out is None:
            continue
        if isinstance(out, Undecided):
            return undecided(out.reason, method=method, domain=domain)
        return fails(fail_method or method, out.witness, domain=domain, residual=out.residual or out.witness,
                     detail=context)
    return holds(method, domain, count=n, residual=residual, detail=detail(n) if callable(detail) else detail)
