"""Certificate data of kind ``closed-form-witness`` (re-checked by :mod:`proofkit.kernel.closed_form`,
docs/trust.md): closed-form pair-sum learners and true models as expression trees, converted from the
sympy expressions the witness code builds (never text), with the training support and the gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from ..numerics.exact import rounded

S, A, B = sp.Symbol("s"), sp.Symbol("a"), sp.Symbol("b")
_FUNCS = {sp.exp: "exp", sp.log: "log", sp.sinh: "sinh", sp.asinh: "asinh"}


def tree(e: Any) -> Any:
    """A sympy expression as the kernel's tree: fraction strings, {"var"}, {"op", "args"[, "exponent"]}.
    ValueError for anything the kernel does not evaluate. Strict: sympy objects and numbers only, never
    text (a string would be parsed)."""
    e = sp.sympify(e, strict=True)
    if e.is_Rational:
        return str(Fraction(int(e.p), int(e.q)))
    if e.is_Symbol:
        return {"var": e.name}
    if e.is_Add or e.is_Mul:
        return {"op": "add" if e.is_Add else "mul", "args": [tree(x) for x in e.args]}
    if e.is_Pow:
        base, k = e.args
        if not (k.is_Integer and abs(int(k)) <= 12):
            raise ValueError(f"a non-integer power {e}")
        out = tree(base) if abs(k) == 1 else {"op": "pow", "args": [tree(base)], "exponent": abs(int(k))}
        return out if k >= 0 else {"op": "div", "args": ["1", out]}
    if e.func in _FUNCS:
        return {"op": _FUNCS[e.func], "args": [tree(e.args[0])]}
    if isinstance(e, (sp.Min, sp.Max)):
        out = tree(e.args[0])
        for x in e.args[1:]:
            out = {"op": "min" if isinstance(e, sp.Min) else "max", "args": [out, tree(x)]}
        return out
    if isinstance(e, sp.Piecewise) and len(e.args) == 2 and e.args[1] == (0, True):
        (val, cond), = e.args[:1]
        if isinstance(cond, (sp.StrictGreaterThan, sp.StrictLessThan)):
            u = cond.lhs - cond.rhs if isinstance(cond, sp.StrictGreaterThan) else cond.rhs - cond.lhs
            base, k = val.as_base_exp()
            if k.is_Integer and 0 < k <= 12 and sp.expand(base - u) == 0:  # max(u, 0)^k
                return {"op": "pow", "args": [{"op": "max", "args": [tree(u), "0"]}], "exponent": int(k)}
    raise ValueError(f"no tree for {e}")


def gap_fields(gap: sp.Expr) -> dict[str, Any]:
    """``gap`` (exact rational) or ``gap_ball`` (rounded outward from 40 digits)."""
    if gap.is_Rational:
        return {"gap": str(Fraction(int(gap.p), int(gap.q)))}
    v = sp.N(gap, 40)
    return {"gap_ball": [rounded(str(v), up=False), rounded(str(v), up=True)]}


def support(tokens: tuple[str, str], sorted_: bool = False, sums: Sequence[tuple[Sequence[int], str]] = (),
            balls: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The training support: tokens in [lo, hi], non-decreasing (``sorted_``), position sums at most a
    bound, balls sum (x - centre)^2 <= radius2."""
    out: dict[str, Any] = {"tokens": list(tokens)}
    if sorted_:
        out["sorted"] = True
    if sums:
        out["sums"] = [{"positions": list(p), "at_most": c} for p, c in sums]
    if balls:
        out["balls"] = [{"centre": c, "radius2": r} for c, r in balls]
    return out


def data(keys: str, residual: bool, learner: tuple[Any, Any], truth: tuple[Any, Any], sup: dict[str, Any],
         lengths: Sequence[int], witness: Sequence[Any], gap: sp.Expr, key_order: int | None = None
         ) -> dict[str, Any]:
    """The certificate: models as (omega(s), psi(a, b)) sympy expressions or trees (a dict)."""
    def model(m: tuple[Any, Any]) -> dict[str, Any]:
        return {"omega": m[0] if isinstance(m[0], dict) else tree(m[0]),
                "psi": m[1] if isinstance(m[1], dict) else tree(m[1])}
    out = {"kind": "closed-form-witness", "keys": keys, "residual": residual, "learner": model(learner),
           "truth": model(truth), "support": sup, "lengths": list(lengths),
           "witness": [str(Fraction(str(x))) for x in witness], **gap_fields(sp.sympify(gap, strict=True))}
    if key_order is not None:
        out["truth"]["key_order"] = key_order
    return out


def pair_model(omega: Callable[[sp.Expr], sp.Expr], psi: Callable[[sp.Expr, sp.Expr], sp.Expr]
               ) -> tuple[sp.Expr, sp.Expr]:
    """(omega(s), psi(a, b)) as sympy expressions in the symbols s, a, b."""
    return omega(S), psi(A, B)
