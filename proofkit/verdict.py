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

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = str(self.verdict)
        d["expected"] = None if self.expected is None else str(self.expected)
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

    def as_expected(self) -> bool:
        return all(c.expected is None or c.verdict == c.expected for c in self.claims)

    def claim(self, name: str) -> ClaimResult:
        """The result of the claim named ``name`` (KeyError naming it when there is none)."""
        for c in self.claims:
            if c.name == name:
                return c
        raise KeyError(f"{self.id} has no claim {name!r}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": str(self.verdict),
            "as_expected": self.as_expected(),
            "claims": [c.as_dict() for c in self.claims],
            "errata": [asdict(e) for e in self.errata],
            "dps": self.dps,
            "seed": self.seed,
            "params": self.params,
            "violated_assumptions": self.violated_assumptions,
            "flags": self.flags,
            "records": self.records,
            "elapsed_s": round(self.elapsed_s, 3),
            "diagnostics": self.diagnostics,
        }
