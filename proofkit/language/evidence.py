"""Evidence and scope: what a claim's computation found, over what, read how — as data.

A theorem file's :class:`~proofkit.language.spec.Computed` claim returns :class:`Evidence` (made with
:func:`holds`, :func:`fails`, :func:`undecided` or :func:`forall`) and never a verdict: the engine
(:func:`decide`) turns evidence into a verdict by one rule for every claim, so that what a verdict covers
is known to the engine, not asserted in a how-text. Every claim result carries a :class:`Scope` (the
reading of the paper it examines, the domain actually covered with its size, the kind of evidence, and
"at the fitted learner of this true model" where that is all it is), rendered by :func:`render` the same
way in ``check``, ``report``, bundles and the pytest summary. docs/verdicts.md is the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, TypeVar

from .verdict import Verdict


class Reading(str, Enum):
    """Which statement a claim examines. Only a refuted ``as printed`` statement is an erratum of the
    paper; a refuted reading of any other kind is reported as that reading refuted."""

    #: the statement exactly as the paper prints it (a refutation is an erratum)
    AS_PRINTED = "as printed"
    #: proofkit's corrected form of a printed statement that is false as printed
    CORRECTED = "corrected"
    #: proofkit's reading of an informal or ambiguous sentence (≃, "about", prose); the paper does not
    #: print this statement, so its refutation is no erratum
    OURS = "our reading"
    #: a computable stand-in for a statement that cannot be checked directly (a bounded domain, a
    #: surrogate quantity); says nothing of the statement beyond the proxy
    PROXY = "proxy"
    #: a reproduction of an experiment or a reported figure, at a setting proofkit states
    EXPERIMENT = "experiment"

    def __str__(self) -> str:
        return self.value


class Method(str, Enum):
    """The kind of evidence. The first six are proofs of what they cover (rigorous); ``sampled`` and
    ``floating point`` hold only at the stated points and precision; ``search`` is an effort."""

    EXACT = "exact arithmetic"
    IDENTITY = "exact identity (CAS)"
    INTERVAL = "interval (ball) arithmetic"
    ENUMERATION = "exhaustive enumeration"
    KRAWCZYK = "Krawczyk box"
    RATIONAL_LEARNER = "exact rational learner"
    SAMPLED = "sampled at high precision"
    FLOAT = "floating point"
    SEARCH = "search"
    #: nothing was computed (an undecided claim: the statement is not given, or not computable here)
    NONE = "none (nothing computed)"

    def __str__(self) -> str:
        return self.value

    @property
    def rigorous(self) -> bool:
        """Whether evidence of this kind proves what it covers (certified), not only samples it."""
        return self not in (Method.SAMPLED, Method.FLOAT, Method.SEARCH, Method.NONE)


@dataclass(frozen=True)
class Domain:
    """What a computation covered: ``text`` names it as the paper would (``N = 2..7``, ``every string of
    length <= 12 over {a, b}``); ``count`` is the number of cases (None: a continuum, e.g. a box, which
    ``text`` must then name). A domain of count 0 is empty and certifies or confirms nothing."""

    text: str
    count: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError("Domain.text: expected a non-empty description of what was covered")
        if self.count is not None and (not isinstance(self.count, int) or isinstance(self.count, bool)
                                       or self.count < 0):
            raise ValueError(f"Domain.count: expected a non-negative integer or None, got {self.count!r}")

    @property
    def empty(self) -> bool:
        return self.count == 0

    def __str__(self) -> str:
        if self.count is None:
            return self.text
        return f"{self.text} ({self.count:,} case{'' if self.count == 1 else 's'})"


@dataclass(frozen=True)
class Evidence:
    """What a computation found. ``outcome``: ``holds`` (no case failed), ``fails`` (``witness`` fails,
    established by ``method``), ``undecided`` (``detail`` says why). ``residual``: the figure that
    decided it; ``detail``: the how-text (figures, not adjectives); ``certificate``: data an independent
    checker can re-check (see docs/trust.md), or None."""

    outcome: str
    method: Method
    domain: Domain
    residual: str = ""
    detail: str = ""
    witness: str = ""
    certificate: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.outcome not in ("holds", "fails", "undecided"):
            raise ValueError(f"Evidence.outcome: expected holds, fails or undecided, got {self.outcome!r}")
        if not isinstance(self.method, Method):
            raise ValueError(f"Evidence.method: expected a proofkit.Method, got {self.method!r}")
        if not isinstance(self.domain, Domain):
            raise ValueError(f"Evidence.domain: expected a proofkit.Domain, got {self.domain!r}")
        if self.outcome == "fails" and not self.witness:
            raise ValueError("Evidence.witness: a failure needs the witness that fails")
        if self.outcome != "undecided" and self.method == Method.NONE:
            raise ValueError("Evidence.method: evidence that holds or fails names how it was computed")


def _domain(domain: Domain | str, count: int | None) -> Domain:
    return domain if isinstance(domain, Domain) else Domain(domain, count)


def holds(method: Method, domain: Domain | str, *, count: int | None = None, residual: str = "0",
          detail: str = "", certificate: Mapping[str, Any] | None = None) -> Evidence:
    """Every case of ``domain`` (``count`` cases, None for a continuum) holds by ``method``."""
    return Evidence("holds", method, _domain(domain, count), str(residual), detail, "", certificate)


def fails(method: Method, witness: str, *, domain: Domain | str, count: int | None = None,
          residual: str = "", detail: str = "", certificate: Mapping[str, Any] | None = None) -> Evidence:
    """``witness`` (a case of ``domain``) fails, established by ``method``."""
    return Evidence("fails", method, _domain(domain, count), str(residual), detail, witness, certificate)


def undecided(reason: str, *, method: Method = Method.NONE, domain: Domain | str = "nothing decided",
              count: int | None = None, residual: str = "") -> Evidence:
    """The computation could not decide (``reason``: undefined as printed, not converged, not given by
    the paper, ...); ``method`` names what was tried, if anything."""
    return Evidence("undecided", method, _domain(domain, count), str(residual), reason)


C = TypeVar("C")


def forall(cases: Iterable[C], test: Callable[[C], str | None], *, method: Method, domain: str,
           detail: str | Callable[[int], str] = "", residual: str = "0") -> Evidence:
    """Run ``test`` on every case and count them: ``test`` returns None where the case holds and a
    witness description where it fails (the first failure ends the run). The count is the engine's, so an
    empty ``cases`` is an empty domain whatever the text says. ``detail`` may be a function of the count."""
    n = 0
    for case in cases:
        n += 1
        bad = test(case)
        if bad is not None:
            return fails(method, str(bad), domain=domain, count=None, residual=str(bad),
                         detail=detail(n) if callable(detail) else detail)
    return holds(method, domain, count=n, residual=residual, detail=detail(n) if callable(detail) else detail)


# ------------------------------------------------------------------------------------------------- scope
#: ``Scope.at`` for claims decided on one fitted learner of one true model (relations, generalization)
AT_FIT = "at the fitted learner of this true model"


@dataclass(frozen=True)
class Scope:
    """What a verdict covers, as data: ``reading`` (a :class:`Reading` value), ``domain`` (the text of
    what was covered), ``count`` (cases; None for a continuum or where the claim has none),
    ``evidence`` (a :class:`Method` value or the engine's name for it) and ``at`` ("" or
    :data:`AT_FIT`)."""

    reading: str = Reading.AS_PRINTED.value
    domain: str = ""
    count: int | None = None
    evidence: str = ""
    at: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def render(scope: Scope) -> str:
    """The one way a scope is printed (check, report, bundles, pytest summary, paper_refs.md)."""
    parts = [f"reading: {scope.reading}"]
    if scope.domain:
        dom = scope.domain
        if scope.count is not None:
            dom += f" ({scope.count:,} case{'' if scope.count == 1 else 's'})"
        parts.append(f"over {dom}")
    if scope.evidence:
        parts.append(f"evidence: {scope.evidence}")
    if scope.at:
        parts.append(scope.at)
    return "; ".join(parts)


@dataclass(frozen=True)
class Decision:
    """The engine's decision on one piece of evidence."""

    verdict: Verdict
    residual: str | None
    how: str
    scope: Scope
    certificate: Mapping[str, Any] | None = field(default=None)


def decide(ev: Evidence, reading: str) -> Decision:
    """The verdict evidence supports, by one rule: a failure refutes (the how-text says whether the
    failure is proven: an uncertified failure for sampled or floating-point evidence); an empty domain
    decides nothing; what holds is certified when the method is rigorous, confirmed when sampled (at
    least one case) or a search that tried at least one candidate and found nothing (never a proof), and
    confirmed at the stated precision for floating point."""
    scope = Scope(reading=reading, domain=ev.domain.text, count=ev.domain.count, evidence=str(ev.method))
    res = ev.residual or None
    if ev.outcome == "undecided":
        return Decision(Verdict.INCONCLUSIVE, res, f"inconclusive: {ev.detail}", scope, ev.certificate)
    if ev.outcome == "fails":
        proof = "certified counterexample" if ev.method.rigorous else \
            f"uncertified counterexample ({ev.method})"
        how = f"{proof}: {ev.witness}" + (f"; {ev.detail}" if ev.detail else "")
        return Decision(Verdict.REFUTED, res, how, scope, ev.certificate)
    if ev.domain.empty:
        return Decision(Verdict.INCONCLUSIVE, res,
                        f"inconclusive: empty domain ({ev.domain.text}): nothing was checked", scope)
    if ev.method.rigorous:
        return Decision(Verdict.CERTIFIED, res, ev.detail or f"{ev.method} over {ev.domain}", scope,
                        ev.certificate)
    if ev.method == Method.SAMPLED:
        if ev.domain.count is None:
            return Decision(Verdict.INCONCLUSIVE, res, "inconclusive: a sampled check must say how many "
                            f"samples it took ({ev.domain.text})", scope)
        return Decision(Verdict.CONFIRMED, res, ev.detail or f"sampled over {ev.domain}", scope)
    if ev.method == Method.FLOAT:
        return Decision(Verdict.CONFIRMED, res, (ev.detail or "holds") + " (floating point, not proven)",
                        scope)
    # a search that found nothing: evidence at what it tried, like samples, never a proof
    if ev.domain.count is None:
        return Decision(Verdict.INCONCLUSIVE, res, "inconclusive: a search must say how many candidates "
                        f"it tried ({ev.domain.text})", scope)
    return Decision(Verdict.CONFIRMED, res, f"no counterexample found in {ev.domain}"
                    + (f"; {ev.detail}" if ev.detail else ""), scope)
