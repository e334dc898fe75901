"""Three-valued-plus verdicts and the result objects the engine returns."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class Verdict(str, Enum):
    """What each verdict proves, per claim kind, is the contract in docs/verdicts.md. In short:
    certified: exact or ball arithmetic proves exactly the named statement over the named domain;
    confirmed: holds at the stated precision on the stated samples; inconclusive: undecided, with the
    reason; refuted: false, with the counterexample (certified or not, said in the how-text)."""

    CERTIFIED = "certified"
    CONFIRMED = "confirmed"
    INCONCLUSIVE = "inconclusive"
    REFUTED = "refuted"

    def __str__(self) -> str:
        return self.value


def combine(verdicts: list[Verdict]) -> Verdict:
    """Theorem-level verdict: refuted dominates, then inconclusive; certified only if all are."""
    if not verdicts:
        return Verdict.INCONCLUSIVE
    if Verdict.REFUTED in verdicts:
        return Verdict.REFUTED
    if Verdict.INCONCLUSIVE in verdicts:
        return Verdict.INCONCLUSIVE
    if all(v == Verdict.CERTIFIED for v in verdicts):
        return Verdict.CERTIFIED
    return Verdict.CONFIRMED


@dataclass
class Erratum:
    printed: str
    found: str
    residual: str
    note: str = ""


@dataclass
class ClaimResult:
    """One claim's result. ``scope`` is what the verdict covers, as data (:mod:`proofkit.language.evidence`:
    reading, domain, count, evidence kind, "at the fitted learner"); ``error`` is set when the claim's own
    code raised: then there is no verdict (``verdict`` is a placeholder the JSON and every renderer
    replace by ``error``), and the check fails as an internal error. ``certificate``: data the
    independent checker re-checks (docs/trust.md), or None."""

    name: str
    statement: str
    role: str
    verdict: Verdict
    residual: str | None = None
    how: str = ""
    expected: Verdict | None = None
    record: str | None = None
    #: "by definition" (no evidence), "control not biting here", ...
    note: str = ""
    scope: Any = None
    error: str = ""
    certificate: Any = None
    #: the parameters violate the theorem's assumptions: a refutation here is no erratum of the paper
    outside: bool = False

    @property
    def label(self) -> str:
        """The verdict as printed: ``error`` for a claim whose code raised."""
        return "error" if self.error else str(self.verdict)

    @property
    def erratum(self) -> bool:
        """A refuted statement as the paper prints it (not a control, not a reading of proofkit's), at
        parameters that satisfy the theorem's assumptions."""
        reading = getattr(self.scope, "reading", "as printed")
        return (not self.error and not self.outside and self.verdict == Verdict.REFUTED
                and self.role != "control" and reading == "as printed")

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.label
        d["expected"] = None if self.expected is None else str(self.expected)
        d["scope"] = None if self.scope is None else self.scope.as_dict()
        d["certificate"] = None if self.certificate is None else dict(self.certificate)
        return d


@dataclass
class TheoremResult:
    id: str
    verdict: Verdict
    claims: list[ClaimResult]
    errata: list[Erratum]
    dps: int
    seed: int
    params: dict[str, Any]
    records: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    diagnostics: dict[str, Any] = field(default_factory=dict)
    violated_assumptions: list[str] = field(default_factory=list)
    #: what a reader must know about this check: controls that do not bite, inapplicable theorem, ...
    flags: list[str] = field(default_factory=list)
    #: the parameters set away from the theorem's defaults (empty: the theorem as stated)
    overrides: dict[str, Any] = field(default_factory=dict)

    @property
    def headline(self) -> str:
        """What was checked and its verdict, as one line to quote: the theorem id, the parameters set
        away from its defaults, and where those violate assumptions, that the verdict is about a setting
        outside the theorem (``AM24.T4 at T=1: refuted, outside the theorem (violates T>=2)``)."""
        where = self.id + (" at " + ", ".join(f"{k}={v}" for k, v in self.overrides.items())
                           if self.overrides else "")
        verdict = self.label.upper() if self.errors else str(self.verdict)
        outside = (f", outside the theorem (violates {', '.join(self.violated_assumptions)})"
                   if self.violated_assumptions else "")
        return f"{where}: {verdict}{outside}"

    @property
    def errors(self) -> list[ClaimResult]:
        """Claims whose own code raised: an internal error, never a verdict."""
        return [c for c in self.claims if c.error]

    @property
    def label(self) -> str:
        """The theorem verdict as printed: ``error`` when a claim's code raised."""
        return "error" if self.errors else str(self.verdict)

    def as_expected(self) -> bool:
        return not self.errors and all(c.expected is None or c.verdict == c.expected for c in self.claims)

    def claim(self, name: str) -> ClaimResult:
        """The result of the claim named ``name`` (KeyError naming it when there is none)."""
        for c in self.claims:
            if c.name == name:
                return c
        raise KeyError(f"{self.id} has no claim {name!r}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.label,
            "as_expected": self.as_expected(),
            "claims": [c.as_dict() for c in self.claims],
            "errata": [asdict(e) for e in self.errata],
            "dps": self.dps,
            "seed": self.seed,
            "params": self.params,
            "overrides": self.overrides,
            "headline": self.headline,
            "violated_assumptions": self.violated_assumptions,
            "flags": self.flags,
            "records": self.records,
            "elapsed_s": round(self.elapsed_s, 3),
            "diagnostics": self.diagnostics,
        }
