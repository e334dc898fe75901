"""Proof walks: every numbered equation and displayed step of a printed proof, and the claims that check it.

A theorem lists the proofs the paper prints for it (``Theorem(..., proofs=(Proof(...),))``). Each
:class:`Step` is one equation or displayed step in the paper's order: either checked by claims of the
same theorem (``by``: their names; their verdicts are the step's), or left unchecked with the reason
(``why_not``). A definition has no truth value; it counts apart and names where it is encoded. The
coverage of a proof is data (:meth:`Proof.coverage`) that ``proofkit report --coverage`` writes into
paper_refs.md, so the tables cannot drift from the theorem files.

The same :class:`Step` records a quantified sentence of a statement or remark (``Theorem(sentences=...)``):
each "necessary", "sufficient", "for all", "if and only if", "only if" the paper prints about the result,
with the claims that examine it (their verdicts are the sentence's) or the reason none does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: what a step is: a checkable statement of the proof, or a definition (no truth value)
KINDS = ("step", "definition")


@dataclass(frozen=True)
class Step:
    """One equation or displayed step of a proof.

    ``label``: the paper's number, e.g. ``(17)``, or where an unnumbered display sits, e.g. ``display
    after (17)``; ``says``: the step in a line, in proofkit's words; ``by``: the names of this theorem's
    claims that check it (one name or several); ``why_not``: the reason there is no check (exactly one of
    ``by`` and ``why_not`` is given); ``kind``: ``step`` or ``definition``.
    """

    label: str
    says: str
    by: tuple[str, ...] | str = ()
    why_not: str = ""
    kind: str = "step"

    def __post_init__(self) -> None:
        if isinstance(self.by, str):
            object.__setattr__(self, "by", (self.by,))
        if not self.label.strip() or not self.says.strip():
            raise ValueError(f"proof step {self.label!r}: expected a label and what the step says")
        if self.kind not in KINDS:
            raise ValueError(f"proof step {self.label!r} kind: expected one of {', '.join(KINDS)}, "
                             f"got {self.kind!r}")
        if bool(self.by) == bool(self.why_not.strip()):
            raise ValueError(f"proof step {self.label!r}: expected exactly one of by= (the claims that "
                             "check it) and why_not= (the reason there is none)")

    @property
    def checked(self) -> bool:
        return bool(self.by)


@dataclass(frozen=True)
class Coverage:
    """How much of a proof is checked: ``checked`` steps of ``checkable`` (every step that is no
    unchecked definition); ``definitions``: unchecked definitions (no truth value); ``gaps``: the
    unchecked steps' (label, reason)."""

    total: int
    checked: int
    definitions: int
    gaps: tuple[tuple[str, str], ...]

    @property
    def checkable(self) -> int:
        return self.total - self.definitions

    @property
    def percent(self) -> float:
        """checked / checkable in percent (100 for a proof with nothing checkable)."""
        return 100.0 * self.checked / self.checkable if self.checkable else 100.0


@dataclass(frozen=True)
class Proof:
    """A proof as the paper prints it: ``of`` (the result, e.g. ``Theorem 1``), ``where`` (section or
    appendix) and its steps in the paper's order."""

    of: str
    where: str
    steps: tuple[Step, ...]

    def __post_init__(self) -> None:
        if not self.steps:
            raise ValueError(f"proof of {self.of!r}: expected at least one step")
        seen: set[str] = set()
        for s in self.steps:
            if s.label in seen:
                raise ValueError(f"proof of {self.of!r}: step label {s.label!r} appears twice")
            seen.add(s.label)

    def coverage(self) -> Coverage:
        definitions = sum(s.kind == "definition" and not s.checked for s in self.steps)
        gaps = tuple((s.label, s.why_not) for s in self.steps if not s.checked and s.kind == "step")
        return Coverage(len(self.steps), sum(s.checked for s in self.steps), definitions, gaps)

    def claim_names(self) -> set[str]:
        return {name for s in self.steps for name in s.by}


def validate(proofs: Iterable[Proof], sentences: Iterable[Step], claims: Iterable[str], theorem: str) -> None:
    """ValueError naming the step (or sentence) whose ``by`` names no claim of the theorem."""
    names = set(claims)
    walked = [(f"proof of {p.of}, step", s) for p in proofs for s in p.steps]
    for where, s in walked + [("quantified sentence at", s) for s in sentences]:
        for name in s.by:
            if name not in names:
                raise ValueError(f"{theorem}: {where} {s.label}: by={name!r} is no claim of this theorem")
