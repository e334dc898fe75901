"""AM24.L1: C1 f = g a.e. on a regular closed X gives f = g and grad f = grad g on X (Lemma 1)."""

from functools import cache

import sympy as sp
from sympy import Eq, Function, Symbol

from proofkit import (
    C1,
    Assumption,
    In,
    NonEmpty,
    PaperRef,
    Param,
    ParamSpace,
    Proof,
    Step,
    SymbolicStep,
    Theorem,
    Verdict,
)
from proofkit.geometry import FALSIFIER, NAMED, named

x, y = sp.symbols("x y", real=True)
tau = Symbol("tau", real=True)
sigma = Symbol("sigma", nonnegative=True)
rho = Symbol("rho", positive=True)
f, g, leb = Function("f"), Function("g"), Function("Leb")
# the statement's own symbols: the closed set X, its closure / interior, a point of X
X_set = Symbol("X")
closure, interior = Function("closure"), Function("interior")
pt = sp.Matrix([x, y])

# rational parametrization of the unit circle: every point except (-1, 0), which is checked apart
CIRCLE = {x: (1 - tau**2) / (1 + tau**2), y: 2 * tau / (1 + tau**2)}
AXES = ((1, 0), (0, 1), (-1, 0), (0, -1))


def hinge(a: tuple[int, int], u: tuple[int, int], p: int) -> sp.Expr:
    """The falsifier's family member (c = 1): (nu.(x - a)) max(u.(x - a), 0)^p, nu = (-u_y, u_x)."""
    s = u[0] * (x - a[0]) + u[1] * (y - a[1])
    return (-u[1] * (x - a[0]) + u[0] * (y - a[1])) * sp.Piecewise((s**p, s > 0), (0, True))


# = y max(x - 1, 0)^2: vanishes on disc_with_segment but d d/dy does not, so Lemma 1 fails without
# regular closedness (a counterexample constructed here, not in the paper)
D_SEGMENT = hinge((1, 0), (1, 0), 2)


@cache
def _factored(rel: sp.Rel) -> sp.Basic:
    """lhs - rhs factored, so sympy reads its sign (e.g. -2 tau^2/(tau^2 + 1) > 0 is False)."""
    return rel.func(sp.factor(rel.lhs - rel.rhs), 0)


def _signed(expr: sp.Expr) -> sp.Expr:
    return expr.replace(lambda e: e.is_Relational, _factored)


def disc_boundary_flat() -> list[sp.Expr]:
    """Hinges at the unit disc's axis points (u outward, p = 2, 3) vanish on the disc; d and
    grad d are 0 on the whole boundary circle: the gradient transfers to the boundary."""
    out = []
    for a in AXES:
        for p in (2, 3):
            d = hinge(a, a, p)
            for e in (d, sp.diff(d, x), sp.diff(d, y)):
                out += [_signed(e.xreplace(CIRCLE)), e.xreplace({x: -1, y: 0})]
    return out


def values_transfer_disc_with_segment() -> list[sp.Expr]:
    """d = y max(x - 1, 0)^2 is 0 on the half-plane x <= 1 (x = 1 - sigma, which holds the unit
    disc) and on the line y = 0 (which holds the segment): g = f + d equals f on X."""
    return [D_SEGMENT.xreplace({x: 1 - sigma}), D_SEGMENT.xreplace({y: 0})]


def segment_gradient() -> list[sp.Expr]:
    """On the segment d d/dy = (x - 1)^2: rho^2 at x = 1 + rho (rho > 0), and 0 at x = 1."""
    dy = sp.diff(D_SEGMENT, y)
    return [dy.xreplace({x: 1 + rho, y: 0}) - rho**2, dy.xreplace({x: 1, y: 0})]


def control_gradient_transfers() -> sp.Expr:
    """Deliberately false: d d/dy at (3/2, 0) on the segment is 0 (it is 1/4)."""
    return sp.diff(D_SEGMENT, y).xreplace({x: sp.Rational(3, 2), y: 0})


THEOREM = Theorem(
    id="AM24.L1",
    title="Equality and gradient transfer: C1 f = g a.e. on regular closed X => f = g, grad f = "
          "grad g on X",
    paper=PaperRef("Ahuja & Mansouri 2024 (arXiv 2402.04875v1)", "App. A.2, Lemma 1", "(4)-(9)",
                   "ahuja2024provable"),
    # Lemma 1's conclusion at every point (x, y) of X: values and Jacobians agree
    conclusion=sp.Implies(In(sp.Tuple(x, y), X_set),
                          sp.And(Eq(f(x, y), g(x, y)),
                                 Eq(sp.Derivative(f(x, y), x), sp.Derivative(g(x, y), x)),
                                 Eq(sp.Derivative(f(x, y), y), sp.Derivative(g(x, y), y)))),
    params=ParamSpace((
        Param("region", str, "unit_disc", "the closed set X in R^2 (proofkit.geometry.regions)",
              choices=tuple(NAMED)),
    )),
    assumptions=(
        Assumption("regular-closed", "X equals the closure of its interior",
                   lambda p: named(p["region"]).is_regular_closed()[0],
                   {"region": "disc_with_segment"},
                   predicate=Eq(X_set, closure(interior(X_set)), evaluate=False)),
        Assumption("C1", "f, g are continuously differentiable on an open set containing X",
                   drop={}, note="not droppable by this search: the search family is C1 by "
                                 "construction",
                   predicate=C1(f(x, y), g(x, y), X_set)),
        Assumption("a.e.-equal", "f = g Lebesgue-almost everywhere on X", drop={},
                   note="the search family satisfies the stronger d = f - g = 0 on all of X",
                   # Leb{(x, y) in X : f != g} = 0
                   predicate=Eq(leb(sp.And(In(sp.Tuple(x, y), X_set), sp.Ne(f(x, y), g(x, y)))), 0)),
        Assumption("non-empty", "X is non-empty", drop={},
                   note="every Region has at least one piece", predicate=NonEmpty(X_set)),
    ),
    claims=(
        SymbolicStep("S1 gradient transfers to the boundary of the unit disc", "proof-step",
                     "(8)-(9)", "hinges d vanishing on the unit disc have d = 0 and grad d = 0 on "
                     "the boundary circle", disc_boundary_flat, reading="proxy"),
        SymbolicStep("S2 values transfer on disc_with_segment", "identification",
                     "Lemma 1 (App. A.2), values part, X not regular closed: a counterexample "
                     "constructed here, not in the paper",
                     "d = y max(x - 1, 0)^2 is 0 on the unit disc and on [1, 2] x {0}",
                     values_transfer_disc_with_segment, reading="our reading"),
        SymbolicStep("S3 d d/dy = (x - 1)^2 on the segment", "identification",
                     "Lemma 1 (App. A.2), gradient part, X not regular closed: a counterexample "
                     "constructed here, not in the paper",
                     "d d/dy (x, 0) = (x - 1)^2 for x >= 1",
                     segment_gradient, reading="our reading"),
        SymbolicStep("control: gradient transfers on disc_with_segment", "control",
                     "deliberately false", "d d/dy (3/2, 0) = 0", control_gradient_transfers,
                     reading="proxy"),
    ),
    setup=None,
    expect={
        "S1 gradient transfers to the boundary of the unit disc": Verdict.CERTIFIED,
        "S2 values transfer on disc_with_segment": Verdict.CERTIFIED,
        "S3 d d/dy = (x - 1)^2 on the segment": Verdict.CERTIFIED,
        "control: gradient transfers on disc_with_segment": Verdict.REFUTED,
    },
    falsifier=FALSIFIER,
    proofs=(Proof("Lemma 1", "App. A.2", (
        Step("(4)", "f(x_k) = g(x_k) on a sequence x_k -> x of interior points where f = g",
             why_not="an existence argument (a.e. equality leaves a point of equality in every ball): "
                     "measure theory, no finite computation; the lemma's conclusion is checked on the "
                     "falsifier's instances"),
        Step("(5)", "lim f(x_k) = f(x), lim g(x_k) = g(x) by continuity",
             why_not="continuity of arbitrary f, g: a property of the class, not a computation"),
        Step("(6)", "f(x_k) = g(x_k) for interior x_k -> x in X (X = closure of its interior)",
             why_not="the same sequence argument on the closure: analysis of arbitrary f, g, no finite "
                     "computation"),
        Step("(7)", "lim f(x_k) = f(x), lim g(x_k) = g(x): values transfer to all of X",
             why_not="continuity of arbitrary f, g, no computation; it needs X = closure of its interior: "
                     "under Lebesgue measure f = 0 and g = max(x - 1, 0)^2 agree a.e. on disc_with_segment "
                     "but not at (3/2, 0)"),
        Step("(8)", "grad f(x_k) = grad g(x_k) for interior x_k -> x",
             why_not="f = g on an open set has equal derivatives there: differentiation of arbitrary f, g"),
        Step("(9)", "lim grad f(x_k) = grad f(x): gradients transfer to X (needs X regular closed)",
             by=("S1 gradient transfers to the boundary of the unit disc",
                 "S3 d d/dy = (x - 1)^2 on the segment")),
    )),),
    notes="Lemma 1 holds as printed. A sharper reading (derived here, not in the paper, no correction): "
          "values transfer for any measure whose support is X (continuity alone; not for "
          "Lebesgue measure on a set with a null part); gradients need X regular closed. Counterexample "
          "without it: disc_with_segment.",
)
