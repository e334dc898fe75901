"""The verdict table of encoded results: one row per claim of each checked theorem, as real columns.

Columns: theorem id; the paper and its section (``Theorem.paper``: section and equations); the claim's name
and role; its verdict; what a refutation is (``finding``: ``erratum`` for a statement false as the paper
prints it, ``<reading> refuted`` for a reading of proofkit's, empty otherwise); what the verdict covers
(``scope``: reading, domain, evidence, "at the fitted learner", rendered by
:func:`proofkit.language.evidence.render`); the arithmetic of the evidence (``precision``); whether that
evidence is a proof (``certified``); the errata the relation search found for it; its note (tautology, control
not biting); and links to the stored counterexample records of the theorem.

``precision`` is read from the claim's scope (its evidence kind): ``ball`` for interval bounds and
Krawczyk boxes, ``exact`` for exact arithmetic, identities, enumerations and rational learners,
``float64`` for floating point, else the working precision ``dps N``; a claim whose verdict is the theorem
file's own (a legacy tuple) falls back to the words of its how-text. A claim is certified when its
verdict is ``certified``, or when it is ``refuted`` by ball or exact evidence that does not call itself
uncertified (a proven counterexample).

A record names the claim it refutes (under dropped assumptions); it is linked on that claim's row, or on
the theorem's first conclusion row (its first row if it has none) when no claim checked at the defaults
has that name.

Beyond the columns, a row carries the paper's BibTeX key and the seed and working precision its theorem
was checked at, and the report a :class:`Provenance`: proofkit's version and git commit (see
:mod:`proofkit.publish.env`), which every format writes once (Markdown, LaTeX) or on every row (CSV,
JSON, whose layout has no other place for it: :data:`EXTRA`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..language.evidence import Method
from ..language.evidence import render as render_scope
from ..language.spec import Theorem
from ..language.tolerances import MIN_DPS
from ..language.verdict import ClaimResult, TheoremResult, Verdict
from . import env
from .records import Stored

#: (field, header) of every column, in order
COLUMNS = (("theorem", "theorem"), ("paper", "paper"), ("section", "section"), ("claim", "claim"),
           ("role", "role"), ("verdict", "verdict"), ("finding", "finding"), ("scope", "scope"),
           ("precision", "precision"), ("certified", "certified"), ("errata", "errata"), ("note", "note"),
           ("records", "records"))

#: fields written after the columns on every CSV and JSON row: the paper's BibTeX key, the check's seed and
#: working digits, proofkit's version, its git commit and whether the checkout had uncommitted changes
EXTRA = ("bibkey", "seed", "dps", "proofkit", "commit", "dirty")

_BALL = ("ball bound", "interval", "krawczyk")
_EXACT = ("exact", "rational", "sympy")
_UNCERTIFIED = ("uncertified", "not certified")


@dataclass(frozen=True)
class RecordLink:
    """A stored record: its path (relative, POSIX separators) and the assumptions it drops."""

    path: str
    dropped: tuple[str, ...]

    def label(self) -> str:
        return "drop " + "+".join(self.dropped) if self.dropped else "record"


@dataclass(frozen=True)
class Row:
    """One claim of one theorem, every cell as text (``certified`` as yes/no; ``records`` links)."""

    theorem: str
    paper: str
    section: str
    claim: str
    role: str
    verdict: str
    finding: str
    scope: str
    precision: str
    certified: bool
    errata: str
    note: str
    records: tuple[RecordLink, ...]
    bibkey: str = ""
    seed: int = 0
    dps: int = MIN_DPS

    def cell(self, name: str) -> str:
        """A column as plain text (records: their paths, ``; ``-separated)."""
        if name == "certified":
            return "yes" if self.certified else "no"
        if name == "records":
            return "; ".join(r.path for r in self.records)
        return str(getattr(self, name))

    def as_dict(self, prov: Provenance | None = None) -> dict[str, Any]:
        """The row as a JSON object: every column, ``certified`` a boolean, ``records`` a list of
        ``{"path", "dropped"}``; with ``prov``, then the :data:`EXTRA` fields."""
        out: dict[str, Any] = {name: self.cell(name) for name, _ in COLUMNS}
        out["certified"] = self.certified
        out["records"] = [{"path": r.path, "dropped": list(r.dropped)} for r in self.records]
        if prov is not None:
            out.update(bibkey=self.bibkey, seed=self.seed, dps=self.dps, proofkit=prov.version,
                       commit=prov.commit, dirty=prov.dirty)
        return out


@dataclass(frozen=True)
class Provenance:
    """The software that wrote a report: proofkit's version, its git commit (``env.UNKNOWN_COMMIT``
    outside a git checkout) and whether tracked files differed from it (None when unknown)."""

    version: str
    commit: str
    dirty: bool | None

    @property
    def known(self) -> bool:
        return self.commit != env.UNKNOWN_COMMIT

    def commit_text(self, short: bool = False) -> str:
        """``commit <sha>`` (12 digits when ``short``), ``, with uncommitted changes`` when dirty, or
        ``commit unknown (installed package)``."""
        if not self.known:
            return "commit unknown (installed package)"
        sha = self.commit[:12] if short else self.commit
        return f"commit {sha}" + (", with uncommitted changes" if self.dirty else "")


def provenance() -> Provenance:
    """This process's proofkit version and git commit (:func:`proofkit.publish.env.git`)."""
    git = env.git()
    return Provenance(__version__, git["commit"], git["dirty"])


_KIND = {Method.INTERVAL.value: "ball", Method.KRAWCZYK.value: "ball", Method.EXACT.value: "exact",
         Method.IDENTITY.value: "exact", Method.ENUMERATION.value: "exact",
         Method.RATIONAL_LEARNER.value: "exact", Method.FLOAT.value: "float64"}


def finding(claim: ClaimResult) -> str:
    """``erratum`` (false as printed), ``<reading> refuted`` (a reading of proofkit's), or ''."""
    if claim.error or claim.verdict != Verdict.REFUTED or claim.role == "control":
        return ""
    reading = getattr(claim.scope, "reading", "as printed")
    if claim.outside:
        return f"{reading} refuted outside the assumptions"
    return "erratum" if claim.erratum else f"{reading} refuted"


def precision(claim: ClaimResult, dps: int) -> str:
    """The arithmetic the claim's evidence names (module docstring)."""
    kind = getattr(claim.scope, "evidence", "")
    if kind in _KIND:
        return _KIND[kind]
    if kind in (Method.SAMPLED.value, Method.SEARCH.value):
        return f"dps {dps}"
    how = claim.how.lower()
    if any(word in how for word in _BALL):
        return "ball"
    if any(word in how for word in _EXACT):
        return "exact"
    if "float64" in how:
        return "float64"
    return f"dps {dps}"


def certified(claim: ClaimResult, arithmetic: str) -> bool:
    """The verdict rests on a proof (module docstring)."""
    if claim.verdict == Verdict.CERTIFIED:
        return True
    how = claim.how.lower()
    return (claim.verdict == Verdict.REFUTED and arithmetic in ("ball", "exact")
            and not any(word in how for word in _UNCERTIFIED))


def link(stored: Stored, base: Path) -> RecordLink:
    """A record's link, its path relative to ``base`` (the folder the table is written to, or the current
    folder for standard output), so that it opens from there; an absolute path where no relative one
    exists (another drive)."""
    target = stored.path.resolve()
    try:
        return RecordLink(Path(os.path.relpath(target, base.resolve())).as_posix(), stored.dropped)
    except ValueError:
        return RecordLink(target.as_posix(), stored.dropped)


def rows(thm: Theorem, res: TheoremResult, stored: Sequence[Stored], base: Path) -> list[Row]:
    """The rows of one checked theorem; ``stored``: its records, linked relative to ``base``."""
    errata: dict[str, list[str]] = {}
    statement_to_claim = {c.statement(): c.name for c in thm.claims}
    first = res.claims[0].name if res.claims else ""
    for e in res.errata:
        note = f", {e.note}" if e.note else ""
        text = f"printed {e.printed}, holds {e.found} (residual {e.residual}{note})"
        errata.setdefault(statement_to_claim.get(e.printed, first), []).append(text)
    names = {c.name for c in res.claims}
    conclusion = next((c.name for c in res.claims if c.role == "conclusion"), first)
    links: dict[str, list[RecordLink]] = {}
    for s in stored:
        links.setdefault(s.claim if s.claim in names else conclusion, []).append(link(s, base))
    section = thm.paper.section + (f", {thm.paper.equation}" if thm.paper.equation else "")
    out = []
    for c in res.claims:
        arithmetic = precision(c, res.dps)
        scope = "" if c.scope is None else render_scope(c.scope)
        out.append(Row(thm.id, thm.paper.paper, section, c.name, c.role, c.label, finding(c), scope,
                       arithmetic, certified(c, arithmetic), "; ".join(errata.get(c.name, [])), c.note,
                       tuple(links.get(c.name, [])), thm.paper.bibkey, res.seed, res.dps))
    return out
