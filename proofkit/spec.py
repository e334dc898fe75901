"""Theorem specifications: statement, assumptions, claims and parameters, as the paper prints them.

A theorem file builds one :class:`Theorem` from these pieces; the engine (``check``, ``falsify``)
never needs theorem-specific code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from .params import ParamSpace
from .verdict import Verdict


@dataclass(frozen=True)
class PaperRef:
    paper: str
    section: str
    equation: str = ""
    bibkey: str = ""

    def __str__(self) -> str:
        eq = f", eq. {self.equation}" if self.equation else ""
        return f"{self.paper}, {self.section}{eq}"


@dataclass(frozen=True)
class Assumption:
    """One hypothesis. ``holds(params)`` says whether a parameter set satisfies it; ``drop`` is the
    parameter change that violates it (what ``falsify --drop ID`` searches under)."""

    id: str
    meaning: str
    holds: Callable[[Mapping[str, Any]], bool] = lambda p: True
    drop: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class Claim:
    """Base of every claim. ``role``: conclusion (the theorem's conclusion; enters the theorem verdict),
    identification (a relation the proof prints), proof-step (a CAS-checked step), control (a
    deliberately false statement the suite must refute)."""

    name: str
    role: str = "conclusion"
    source: str = ""

    def statement(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Relation(Claim):
    """``lhs = rhs`` between learned and true objects, as printed (sympy matrix expressions).

    ``over``: ``params`` (once), ``tokens`` (at every point of a grid on the token support),
    ``states`` (along test sequences, every position), ``powers`` (j = 0..J-1 for the symbol ``j``).
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    over: str = "params"

    def statement(self) -> str:
        return f"{sp.sstr(self.lhs)} = {sp.sstr(self.rhs)}"


@dataclass(frozen=True)
class Generalization(Claim):
    """The learned model equals the true one beyond training: ``kind`` is ``length`` (t > T, tokens
    from the per-token marginal) or ``compositional`` (t <= T, product tokens and corners)."""

    kind: str = "length"

    def statement(self) -> str:
        if self.kind == "length":
            return "h(x_{<=t}) = f(x_{<=t}) for all t > T (TS-L, up to t = 1000)"
        return "h(x_{<=t}) = f(x_{<=t}) for t <= T on the product of token marginals (TS-C)"


@dataclass(frozen=True)
class SymbolicStep(Claim):
    """An algebraic step of the proof checked by sympy: ``check()`` returns the residual expression,
    which must simplify to zero (or ``True``)."""

    text: str = ""
    check: Callable[[], Any] = lambda: sp.S.Zero

    def statement(self) -> str:
        return self.text


@dataclass(frozen=True)
class Computed(Claim):
    """A claim decided by an exact computation (exhaustive enumeration, rational arithmetic, row
    counting): ``run(params)`` returns (verdict, residual, how). For discrete theorems."""

    text: str = ""
    run: Callable[[Mapping[str, Any]], tuple[Any, str, str]] = lambda p: (None, "", "")

    def statement(self) -> str:
        return self.text


@dataclass(frozen=True)
class GroupElement:
    """The group element a relation names: defined by a formula (as the paper defines it), or solved
    by least squares from ``equations`` (linear in it) and projected onto ``group``."""

    symbol: sp.MatrixSymbol
    group: str = "GL"
    definition: sp.Basic | None = None
    equations: tuple[tuple[sp.Basic, sp.Basic, str], ...] = ()


@dataclass(frozen=True)
class Setup:
    """How parameters become a concrete learning problem (model families, true model, support)."""

    learned: Callable[[Mapping[str, Any]], Any]
    true: Callable[[Mapping[str, Any]], Any]
    true_params: Callable[[Mapping[str, Any]], Any]
    support: Callable[[Mapping[str, Any]], Any]
    learned_symbols: Mapping[str, sp.Basic] = field(default_factory=dict)
    true_symbols: Mapping[str, sp.Basic] = field(default_factory=dict)
    token_symbols: tuple[sp.Basic, sp.Basic] | None = None
    state_symbols: tuple[sp.Basic, sp.Basic] | None = None
    n_per_length: int = 60


@dataclass(frozen=True)
class Theorem:
    id: str
    title: str
    paper: PaperRef
    statement: sp.Basic
    assumptions: tuple[Assumption, ...]
    claims: tuple[Claim, ...]
    params: ParamSpace
    setup: Setup | None = None
    groups: tuple[GroupElement, ...] = ()
    expect: Mapping[str, Verdict] = field(default_factory=dict)
    falsifier: Callable[..., Any] | None = None
    #: groups of dimension parameters a counterexample is shrunk along (each group moves together)
    dims: tuple[tuple[str, ...], ...] = ()
    notes: str = ""

    def assumption(self, aid: str) -> Assumption:
        from .errors import InputError

        for a in self.assumptions:
            if a.id == aid:
                return a
        raise InputError("--drop", "an assumption of " + self.id + ": "
                         + ", ".join(a.id for a in self.assumptions), aid)

    def violated(self, params: Mapping[str, Any]) -> list[str]:
        return [a.id for a in self.assumptions if not a.holds(params)]
