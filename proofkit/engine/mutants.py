"""Mutation testing of encoded relations: does the check that certifies a printed relation refute each
small change of it?

Why: a check that certifies a relation is only evidence if it could have failed. Each mutant is the
relation with one syntactic change a transcription error could make (a product's order swapped, one
factor transposed, a group element inverted or dropped, an additive term dropped, a power shifted by
one); the same ``check`` runs on all of them at once (one fit). A mutant that is not refuted is either
equivalent to the original at these parameters (a finding about the claim) or a hole in the check;
:func:`kill_report` lists each survivor with its verdict and reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.matrices.expressions import Identity, Inverse, MatAdd, MatMul, MatPow, MatrixSymbol, Transpose

from ..language.spec import Relation, Theorem
from ..language.verdict import Verdict
from .check import check


@dataclass(frozen=True)
class Mutant:
    """One mutated relation: ``origin`` is the encoded relation's name, ``operator`` the change made."""

    origin: str
    operator: str
    relation: Relation


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    verdict: Verdict
    how: str

    @property
    def killed(self) -> bool:
        return self.verdict == Verdict.REFUTED


def _rebuild(expr: sp.Basic, args: list[sp.Basic]) -> sp.Basic:
    """expr with new arguments, simplified structurally (I^-1 -> I, I X -> X) but not algebraically."""
    return expr.func(*args).doit()


def mutations(expr: sp.Basic, groups: frozenset[str]) -> Iterator[tuple[str, sp.Basic]]:
    """Every single-site mutation of a matrix expression: (operator, mutated expression)."""
    if isinstance(expr, MatrixSymbol):
        if expr.shape[0] == expr.shape[1]:
            yield f"transpose {expr.name}", Transpose(expr)
        if expr.name in groups:
            yield f"invert group element {expr.name}", Inverse(expr)
            yield f"drop group element {expr.name}", Identity(expr.shape[0])
        return
    if isinstance(expr, Inverse) and isinstance(expr.arg, MatrixSymbol) and expr.arg.name in groups:
        yield f"un-invert group element {expr.arg.name}", expr.arg
    if isinstance(expr, MatMul):
        factors = [a for a in expr.args if not a.is_number]
        if len(factors) >= 2:
            yield "reverse product order", MatMul(*reversed(factors))
            for i in range(len(factors) - 1):
                swapped = factors[:i] + [factors[i + 1], factors[i]] + factors[i + 2:]
                if len(factors) > 2:
                    yield f"swap factors {i + 1}, {i + 2}", MatMul(*swapped)
    if isinstance(expr, MatAdd):
        for i in range(len(expr.args)):
            rest = expr.args[:i] + expr.args[i + 1:]
            yield f"drop term {i + 1}", rest[0] if len(rest) == 1 else MatAdd(*rest)
    if isinstance(expr, MatPow) and isinstance(expr.exp, sp.Symbol):
        yield f"shift power {expr.exp} by one", MatPow(expr.base, expr.exp + 1)
    for i, arg in enumerate(expr.args):
        if not isinstance(arg, sp.MatrixExpr):
            continue
        for op, new in mutations(arg, groups):
            args = list(expr.args)
            args[i] = new
            try:
                yield op, _rebuild(expr, args)
            except (sp.ShapeError, TypeError, ValueError):
                continue


def mutants(theorem: Theorem) -> list[Mutant]:
    """Every mutant of every identification relation of ``theorem`` that is expected to hold (controls
    and printed errata are false on purpose: a mutant of a false relation may be the corrected one),
    shapes preserved, duplicates and no-ops removed."""
    groups = frozenset(g.symbol.name for g in theorem.groups)
    out: list[Mutant] = []
    for claim in theorem.claims:
        if not isinstance(claim, Relation) or claim.role != "identification" \
                or theorem.expect.get(claim.name) == Verdict.REFUTED:
            continue
        seen = {(sp.srepr(claim.lhs), sp.srepr(claim.rhs))}
        for side in ("lhs", "rhs"):
            expr = getattr(claim, side)
            for op, new in mutations(expr, groups):
                if getattr(new, "shape", None) != expr.shape:
                    continue
                lhs, rhs = (new, claim.rhs) if side == "lhs" else (claim.lhs, new)
                key = (sp.srepr(lhs), sp.srepr(rhs))
                if key in seen:
                    continue
                seen.add(key)
                name = f"mutant {len(out) + 1} of '{claim.name}': {op} ({side})"
                out.append(Mutant(claim.name, f"{op} ({side})",
                                  dataclasses.replace(claim, name=name, lhs=lhs, rhs=rhs)))
    return out


def run(theorem: Theorem, overrides: Mapping[str, Any] | None = None, *, dps: int = 60,
        seed: int = 0) -> list[Outcome]:
    """Check every mutant of ``theorem`` at these parameters in one ``check`` call."""
    ms = mutants(theorem)
    if not ms:
        return []
    variant = theorem.with_claims(m.relation for m in ms)
    result = check(variant, overrides, dps=dps, seed=seed)
    by_name = {c.name: c for c in result.claims}
    return [Outcome(m, by_name[m.relation.name].verdict, by_name[m.relation.name].how) for m in ms]


def kill_report(outcomes: list[Outcome]) -> str:
    """Kill rate and one line per survivor (its verdict and why)."""
    killed = sum(o.killed for o in outcomes)
    lines = [f"{killed}/{len(outcomes)} mutants refuted"
             + (f" ({100 * killed / len(outcomes):.1f} %)" if outcomes else "")]
    lines += [f"  survived: {o.mutant.relation.name}: {o.verdict} ({o.how[:160]})"
              for o in outcomes if not o.killed]
    return "\n".join(lines)
