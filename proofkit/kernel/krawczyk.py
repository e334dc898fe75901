"""Krawczyk certificates, re-run on the stored box with flint balls (Krawczyk 1969; Moore 1977).

A ``krawczyk`` certificate says: the square system F(y) = 0, "the learner's Markov parameters equal the
truth's for j < T on the token columns the support spans", with the learner's other coordinates held at
the exact stored values, has exactly one zero in the box Y = centre +- radius (free coordinates), and the
logit gap at the witness is at least ``gap_lower`` for EVERY parameter in the box, so at that exact
zero-risk learner too. The kernel re-runs the test itself: F and its Jacobian by forward-mode dual
numbers over balls (its own, not proofkit's analytic Jacobian), R = the inverse of the midpoint Jacobian
at the centre (any R is valid; a good one makes the test pass), K(Y) = c - R F(c) + (I - R J(Y))(Y - c),
and K(Y) must lie in the interior of Y in every coordinate.

Data: learner (the box centre: fixed coordinates exact, free ones the centre), truth, readout
(injective), equal_below (T), columns, free (flat indices in the order A, Lam, B, a), radius, digits,
witness, gap_lower, within (the fit's distance to the box, checked against a record).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from .core import (
    Reject,
    ball,
    claimed_gap,
    fields,
    figure,
    integer,
    lower_bound,
    matrix,
    number,
    precision,
    upper_bound,
)
from .models import INJECTIVE, Model, balls, convert, logits, markov, parse_model, refill, same_io


class Dual:
    """A ball with its gradient with respect to the free coordinates (forward-mode differentiation)."""

    __slots__ = ("v", "g")

    def __init__(self, v: Any, g: list[Any]) -> None:
        self.v, self.g = v, g

    def _lift(self, other: Any) -> Dual:
        return other if isinstance(other, Dual) else Dual(other, [0 * x for x in self.g])

    def __add__(self, other: Any) -> Dual:
        o = self._lift(other)
        return Dual(self.v + o.v, [a + b for a, b in zip(self.g, o.g)])

    __radd__ = __add__

    def __neg__(self) -> Dual:
        return Dual(-self.v, [-a for a in self.g])

    def __sub__(self, other: Any) -> Dual:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> Dual:
        return self._lift(other) - self

    def __mul__(self, other: Any) -> Dual:
        o = self._lift(other)
        return Dual(self.v * o.v, [self.v * b + o.v * a for a, b in zip(self.g, o.g)])

    __rmul__ = __mul__


def _residual(h: Model, f_markov: list[Any], T: int, columns: list[int]) -> list[Any]:
    """F: the learner's Markov entries minus the truth's, j < T, every output, the given columns."""
    return [Mh[r][c] - Mf[r][c] for Mh, Mf in zip(markov(h, T), f_markov)
            for r in range(len(Mh)) for c in columns]


def _parameters(center: list[Fraction], free: list[int], values: Sequence[Any]) -> list[Any]:
    """Flat parameters as duals: free coordinate k carries ``values[k]`` and unit gradient e_k."""
    p = len(free)
    out = [Dual(ball(v), [flint.arb(0)] * p) for v in center]
    for k, i in enumerate(free):
        out[i] = Dual(values[k], [flint.arb(int(k == q)) for q in range(p)])
    return out


def check_krawczyk(data: Any) -> tuple[str, list[Fraction], list[int], Fraction]:
    """Re-run the Krawczyk test and the gap bound; (figures, centre, free, radius), or Reject."""
    d = fields(data, "data", ["kind", "learner", "truth", "readout", "equal_below", "columns", "free",
                              "radius", "digits", "witness", "gap_lower", "within"])
    h = parse_model(d["learner"], "learner", ("linear-recurrence",))
    f = parse_model(d["truth"], "truth", ("linear-recurrence",))
    same_io(h, f, "learner")
    if d["readout"] not in INJECTIVE:
        raise Reject("data.readout", f"{d['readout']!r} is not an injective readout")
    T = integer(d["equal_below"], "data.equal_below", 1, 64)
    digits = integer(d["digits"], "data.digits", 15, 600)
    center = h.flat()
    if not isinstance(d["columns"], list) or not d["columns"]:
        raise Reject("data.columns", "expected a non-empty list of token coordinates")
    columns = sorted({integer(c, "data.columns[]", 0, h.n - 1) for c in d["columns"]})
    if not isinstance(d["free"], list):
        raise Reject("data.free", "expected a list of parameter indices")
    free = [integer(i, f"data.free[{k}]", 0, len(center) - 1) for k, i in enumerate(d["free"])]
    equations = T * h.m * len(columns)
    if len(set(free)) != len(free) or len(free) != equations:
        raise Reject("data.free", f"{len(free)} distinct free coordinates expected to equal the "
                                  f"{equations} Markov equations (a square system)")
    n_core = len(center) - len(h.a or [])
    if any(i >= n_core for i in free):
        raise Reject("data.free", "a readout bias coordinate is free: the Markov equations do not pin it")
    for r, (u, v) in enumerate(zip(h.bias(), f.bias())):
        if u != v:
            raise Reject("data.learner.a", f"readout bias a[{r}] = {str(u)}, the truth's is {str(v)}")
    radius = number(d["radius"], "data.radius")
    if radius <= 0:
        raise Reject("data.radius", f"{str(radius)} is not a positive radius")
    with precision(digits):
        c = [ball(center[i]) for i in free]
        Y = [ci + flint.arb(0, ball(radius)) for ci in c]
        fm = markov(convert(f, ball), T)
        Fc = _residual(refill(h, _parameters(center, free, c)), fm, T, columns)
        FY = _residual(refill(h, _parameters(center, free, Y)), fm, T, columns)
        p = len(free)
        mid = flint.arb_mat([[Fc[i].g[k].mid() for k in range(p)] for i in range(p)])
        try:
            Rm = mid.inv()
        except ZeroDivisionError:
            raise Reject("data.learner", "the Jacobian at the box centre is singular") from None
        R = [[Rm[i, k].mid() for k in range(p)] for i in range(p)]
        dY = [y - ci for y, ci in zip(Y, c)]
        K = []
        for i in range(p):
            newton = sum((R[i][k] * Fc[k].v for k in range(p)), flint.arb(0))
            RJ = [sum((R[i][q] * FY[q].g[k] for q in range(p)), flint.arb(0)) for k in range(p)]
            K.append(c[i] - newton + sum(((int(i == k) - RJ[k]) * dY[k] for k in range(p)), flint.arb(0)))
        for i, (k_i, y_i) in enumerate(zip(K, Y)):
            if not (k_i.is_finite() and y_i.contains_interior(k_i)):
                raise Reject("data.radius", f"Krawczyk's test fails in free coordinate {free[i]}: K(Y) = "
                                            f"{figure(k_i)} is not inside Y = {figure(y_i)}")
        widest = max(upper_bound(k_i.rad()) for k_i in K)
        box = [ball(v) for v in center]
        for k, i in enumerate(free):
            box[i] = Y[k]
        X = matrix(d["witness"], "data.witness", None, h.n)
        zh, zf = logits(refill(h, box), balls(X)), logits(convert(f, ball), balls(X))
        gap = max(lower_bound((u - v).abs_lower()) for u, v in zip(zh, zf))
    claimed = claimed_gap(d, gap, "the logit gap's lower bound on the box")
    return (f"Krawczyk re-run on the stored box ({equations} Markov equations j < {T}, {p} free "
            f"coordinates, radius {figure(radius, 3)}; K(Y) inside Y, radius <= {figure(widest, 3)}): "
            f"exactly one exact zero-risk learner in the box; logit gap at the length-{len(X)} witness "
            f">= {figure(gap)} on the whole box (>= {figure(claimed)} claimed)"), center, free, radius
