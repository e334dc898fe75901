"""AM24.EX1: the paper's ball example (Ahuja & Mansouri, Sec. 2, after Definitions 1 and 2): "Consider
the sphere D = {x in R^T; |x - 1/2 1| <= 1/2} ... This support D satisfies the assumptions that we make
in the subsequent sections".

Everything here is exact (sympy, rationals), for every T >= 2 (the arguments are dimension-free: they
move one or two coordinates of the centre c = (1/2, ..., 1/2) and bound the rest by squares):

* the printed set (<=) is the solid ball, not the sphere; its token marginals are [0,1]; it and every
  prefix support (a lower-dimensional ball) are regular closed: Theorem 1's hypotheses hold (n = 1);
* its pair marginals are the disc of radius 1/2 about (1/2, 1/2), not [0,1]^2: the pair-support
  hypothesis of Theorems 2 and 3 fails, and Theorem 2's conclusion fails on D: psi = phi + g with
  g(a, b) = max((a - 1/2)^2 + (b - 1/2)^2 - 1/4, 0)^2 (a - b)^2 (C^1, zero on the disc and on the
  diagonal) has zero risk on every prefix of D and a gap at the compositional point (0, 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy import Eq, Symbol

from proofkit import (
    Assumption,
    Computed,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    RegularClosed,
    Step,
    SymbolicStep,
    Theorem,
    Verdict,
    WitnessOutcome,
    fails,
    holds,
    predicate,
    supp,
    undecided,
)
from proofkit.families import closed_form

HALF, QUARTER = sp.Rational(1, 2), sp.Rational(1, 4)
c_val, k_idx = Symbol("c", real=True), Symbol("k", integer=True, positive=True)
sig = Symbol("sigma", nonnegative=True)  # 1/4 - (squared distance of a pair to the centre) on the disc
T_dim = Symbol("T", integer=True, positive=True)
D_set, unit = Symbol("D"), sp.Interval(0, 1)
SatisfiesSubsequentAssumptions = predicate(
    "SatisfiesSubsequentAssumptions", "the support D satisfies the assumptions of the subsequent "
    "sections (token marginals [0,1]^n, pair marginals [0,1]^{2n}, regular closed prefixes)")


def _sq(point: list[sp.Expr]) -> sp.Expr:
    """Squared distance of a point of R^T to the centre (1/2, ..., 1/2)."""
    return sum(((x - HALF) ** 2 for x in point), sp.Integer(0))


def _in_ball(point: list[sp.Expr]) -> bool:
    return bool(_sq(point) <= QUARTER)


# ----------------------------------------------------------------------------- claims
def solid_ball(p: Mapping[str, Any]) -> Evidence:
    """The printed D uses <=: it holds its centre (squared distance 0 < 1/4), which the sphere does not."""
    centre = [HALF] * p["T"]
    d2 = _sq(centre)
    domain = f"T = {p['T']}: the centre (1/2, ..., 1/2) of the printed D"
    if not (_in_ball(centre) and d2 != QUARTER):
        return fails(Method.EXACT, f"the centre has squared distance {d2}", domain=domain,
                     residual=sp.sstr(d2))
    return holds(Method.EXACT, domain, count=1, residual=sp.sstr(d2),
                 detail=f"T = {p['T']}: the centre (1/2, ..., 1/2) has squared distance {d2} <= 1/4, so it "
                        "is in the printed D, but not on the sphere |x - c| = 1/2: the paper says 'sphere' "
                        "and means the solid ball (the sphere has empty interior and would not be regular "
                        "closed)")


def _marginal_interval() -> sp.Set:
    """{c : (c - 1/2)^2 <= 1/4}, solved by sympy."""
    return sp.solve_univariate_inequality((c_val - HALF) ** 2 <= QUARTER, c_val, relational=False)


#: the symbolic arguments below move one or two coordinates of the centre and bound the rest by squares,
#: so they cover every dimension T at once
EVERY_T = "every T >= 1, every position i (a dimension-free symbolic argument)"


def token_marginals(p: Mapping[str, Any]) -> Evidence:
    """supp(X_i) = [0,1] for every i <= T."""
    got = _marginal_interval()
    if got != unit:
        return fails(Method.IDENTITY, f"the projection of D on a coordinate is {got}, not [0, 1]",
                     domain=EVERY_T, residual=sp.sstr(got))
    return holds(Method.IDENTITY, EVERY_T, residual=sp.sstr(got),
                 detail="for x in D, (x_i - 1/2)^2 <= |x - c|^2 <= 1/4; conversely c + (v - 1/2) e_i is in "
                        f"D iff (v - 1/2)^2 <= 1/4; sympy solves that inequality to {got}, so the projection "
                        "of D on each coordinate is exactly [0,1] (D is the support of the uniform law on "
                        "it, so supp(X_i) is that projection)")


def regular_closed(p: Mapping[str, Any]) -> Evidence:
    """x_k = c + (1 - 1/k)(x - c) is interior (squared distance <= (1 - 1/k)^2 / 4 < 1/4) and -> x."""
    gap = sp.factor((1 - 1 / k_idx) ** 2 * QUARTER - QUARTER)
    domain = "every T >= 1, every prefix length i <= T, every point x of D and integer k >= 1 (symbolic)"
    if not bool(gap.is_negative):
        return undecided(f"sympy could not show (1 - 1/k)^2/4 - 1/4 = {gap} < 0 for every integer k >= 1",
                         method=Method.IDENTITY, domain=domain, residual=sp.sstr(gap))
    return holds(Method.IDENTITY, domain, residual=sp.sstr(gap),
                 detail="for x in D, x_k = c + (1 - 1/k)(x - c) has squared distance <= (1 - 1/k)^2/4, and "
                        f"(1 - 1/k)^2/4 - 1/4 = {gap} < 0 for every integer k >= 1 (sympy), so x_k is in "
                        "the open ball (the interior) and x_k -> x: D is the closure of its interior. Each "
                        "prefix support supp(X_{<=i}) is the i-dimensional ball of radius 1/2 (project x in "
                        "D: the first i squares sum to <= 1/4; pad a point of the i-ball with 1/2), regular "
                        "closed by the same argument")


def pair_marginals(p: Mapping[str, Any]) -> Evidence:
    """The corner (0, 0) of [0,1]^2 is at squared distance 1/2 > 1/4 from (1/2, 1/2)."""
    corner = _sq([sp.Integer(0), sp.Integer(0)])
    excess = corner - QUARTER
    domain = "every T >= 2, every pair i != j: the corner (0, 0) of [0,1]^2"
    why = ("for x in D, (x_i - 1/2)^2 + (x_j - 1/2)^2 <= |x - c|^2 <= 1/4, so supp(X_i, X_j) is the disc of "
           "radius 1/2 about (1/2, 1/2) (padding with 1/2 reaches all of it)")
    if excess > 0:
        return fails(Method.EXACT, f"the corner (0, 0) has squared distance {corner} = 1/4 + {excess} from "
                     "(1/2, 1/2): not in supp(X_i, X_j), so supp(X_i, X_j) != [0,1]^2 (the hypothesis of "
                     "Theorems 2 and 3 fails)", domain=domain, residual=sp.sstr(excess), detail=why)
    return holds(Method.EXACT, domain, count=1, residual=sp.sstr(excess), detail=why)


def bump(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """g(a, b) = max((a - 1/2)^2 + (b - 1/2)^2 - 1/4, 0)^2 (a - b)^2: C^1, zero on the disc and the
    diagonal."""
    d = (a - HALF) ** 2 + (b - HALF) ** 2 - QUARTER
    return sp.Piecewise((d**2, d > 0), (0, True)) * (a - b) ** 2


def _pre(psi, xs: list[sp.Expr]) -> sp.Expr:
    """sum_{j <= i} psi(x_i, x_j) + x_i at the last position i (the residual model, Assumption 3)."""
    q = xs[-1]
    return sum((psi(q, x) for x in xs), sp.Integer(0)) + q


#: what the bump witness covers: one closed-form learner, zero risk shown symbolically on every prefix of D
BUMP_DOMAIN = ("every T >= 2: the learner psi = phi + g (phi(a, b) = a b, A = B = 1), zero risk on every "
               "prefix of D (symbolic), the gap at the length-2 point (0, 1)")


def theorem2_fails(p: Mapping[str, Any]) -> Evidence:
    """Zero risk of h = sigma(A(sum_{j<=i} (phi + g) + x_i)), A = B = 1, phi(a, b) = a b, on every prefix
    of D (g = 0 on every pair it holds), and an exact gap at (0, 1)."""
    u, v, a = sp.symbols("u v a", real=True)
    # an off-diagonal pair of a point of D: (a, b) = (1/2 + u, 1/2 + v) with u^2 + v^2 = 1/4 - sigma
    on_disc = sp.simplify(sp.expand(bump(HALF + u, HALF + v)).subs(v**2, QUARTER - sig - u**2))
    diag = sp.simplify(bump(a, a))
    if on_disc != 0 or diag != 0:
        return undecided(f"g not shown zero: g on the disc -> {on_disc}, on the diagonal -> {diag}",
                         method=Method.IDENTITY, domain=BUMP_DOMAIN, residual="g not shown zero")
    phi = lambda x, y: x * y  # noqa: E731
    psi = lambda x, y: phi(x, y) + bump(x, y)  # noqa: E731
    sigmoid = lambda z: 1 / (1 + sp.exp(-z))  # noqa: E731
    xs = [sp.Integer(0), sp.Integer(1)]
    ph, pf = _pre(psi, xs), _pre(phi, xs)
    gap = sp.simplify(sigmoid(ph) - sigmoid(pf))
    if not (bool(gap.is_positive) and not _in_ball(xs)):
        return undecided(f"no certified gap at (0, 1): h - f = {sp.sstr(gap)}", method=Method.EXACT,
                         domain=BUMP_DOMAIN, residual=sp.sstr(gap))
    return fails(Method.EXACT,
                 "phi(a, b) = a b, psi = phi + g, A = B = 1 (sigma the sigmoid); g(a, b) = max(d, 0)^2 "
                 "(a - b)^2 with d = (a - 1/2)^2 + (b - 1/2)^2 - 1/4 is C^1 and is 0 on every pair "
                 "(x_i, x_j) of a point of D: for i != j, d = -sigma <= 0 (sympy: the factor is 0), for "
                 "j = i (and every length-1 prefix) a = b (sympy: g(a, a) = 0); so the learned "
                 "pre-activation equals the true one on every prefix of D (zero risk, every length <= T). "
                 "At the length-2 sequence (0, 1) (tokens in the marginals [0,1], squared distance "
                 f"{_sq(xs)} > 1/4: outside the length-2 prefix support): pre-activations {ph} vs {pf}, h - "
                 f"f = {sp.sstr(gap)} (~{sp.N(gap, 6)}), certified positive: compositional generalization "
                 "fails on D", domain=BUMP_DOMAIN,
                 residual=sp.sstr(gap))


def theorem1_holds(p: Mapping[str, Any]) -> Evidence:
    """Theorem 1's hypotheses on D with n = 1: token marginals [0,1] and regular closed prefixes."""
    marg, reg = token_marginals(p), regular_closed(p)
    domain = "every T >= 1: Theorem 1's two support hypotheses (n = 1) on D"
    for name, ev in (("token marginals", marg), ("regular closedness", reg)):
        if ev.outcome == "fails":
            return fails(ev.method, f"{name}: {ev.witness}", domain=domain, residual=ev.residual)
        if ev.outcome != "holds":
            return undecided(f"{name}: {ev.detail}", method=ev.method, domain=domain, residual=ev.residual)
    return holds(Method.IDENTITY, domain, count=2, residual="hypotheses hold",
                 detail="Theorem 1 (deep sets sigma(A sum_j psi(x_j)), n = 1) needs supp(X_j) = [0,1] and "
                        f"regular closed prefixes; both hold (the claims above: marginal {marg.residual}, "
                        f"interior-approximation gap {reg.residual} < 0). Its conclusion then follows by its "
                        "own proof (under ALL the length-1 labels give A psi = B phi on supp(X_1) = [0,1], "
                        "so h = f on every sequence with tokens in [0,1]; argued, not computed); a "
                        "deep-sets model sees tokens one at a time, so the thin pair marginals do not "
                        "matter. The fitted check: proofkit check AM24.T1 --set support=ball --set n=1")


def control_corner(p: Mapping[str, Any]) -> Evidence:
    """Deliberately false: the corner (1, ..., 1) is in D."""
    d2 = _sq([sp.Integer(1)] * p["T"])
    domain = f"T = {p['T']}: the corner (1, ..., 1)"
    if d2 <= QUARTER:
        return holds(Method.EXACT, domain, count=1, residual=sp.sstr(d2 - QUARTER))
    return fails(Method.EXACT, f"|(1, ..., 1) - c|^2 = {d2} = 1/4 + {d2 - QUARTER}", domain=domain,
                 residual=sp.sstr(d2 - QUARTER))


def bump_certificate(T: int) -> dict[str, Any]:
    """The kernel's ``closed-form-witness`` data (docs/trust.md): sigmoid(sum_{j<=i} psi + x_i) with
    psi = a b + g vs phi = a b, zero risk on every prefix of D (tokens in [0,1], the ball constraint), the
    gap at (0, 1) in balls."""
    a, b = closed_form.A, closed_form.B
    xs = [sp.Integer(0), sp.Integer(1)]
    sigmoid = {"op": "sigmoid", "args": [{"var": "s"}]}
    gap = sum(1 / (1 + sp.exp(-_pre(psi, xs))) * sgn for psi, sgn in
              ((lambda x, y: x * y + bump(x, y), 1), (lambda x, y: x * y, -1)))
    return closed_form.data("diagonal", True, (sigmoid, a * b + bump(a, b)), (sigmoid, a * b),
                                 closed_form.support(("0", "1"), balls=[("1/2", "1/4")]),
                                 range(1, T + 1), xs, gap)


class BallFalsifier:
    """``falsify``: the Theorem 2 counterexample on D as a witness record (exact, deterministic)."""

    def search(self, params: Mapping[str, Any]) -> WitnessOutcome:
        """The bump learner at ``params`` (its verdict and gap are exact)."""
        ev = theorem2_fails(params)
        found = ev.outcome == "fails"
        witness = {"T": str(params["T"]), "phi": "a b", "psi": "phi(a, b) + g(a, b)",
                   "g": "max((a - 1/2)^2 + (b - 1/2)^2 - 1/4, 0)^2 (a - b)^2", "A": "1", "B": "1",
                   "model": "sigmoid(A (sum_{j<=i} psi(x_i, x_j) + x_i))", "tokens": "['0', '1']",
                   "gap": ev.residual} if found else None
        how = f"exact, every T >= 2: {ev.witness}" if found else ev.detail
        return WitnessOutcome(found, "one closed-form witness (the bump g off the disc)", witness, how,
                              found, T2_FAILS, bump_certificate(params["T"]) if found else None)

    def replay(self, witness: Mapping[str, str]) -> WitnessOutcome:
        """The search at the T a record names."""
        return self.search({"T": int(witness["T"])})


MARGINALS = "every single-token marginal of D is [0,1]"
REGULAR = "D and every prefix support are regular closed"
T1_HYP = "Theorem 1's hypotheses (n = 1) hold on D, so its conclusion does"
PAIR = "Theorems 2 and 3's pair support supp(X_i, X_j) = [0,1]^2 holds on D"
T2_FAILS = "Theorem 2's conclusion on D: every zero-risk learner generalizes compositionally"
SOLID = "the printed D ('sphere') is the solid ball"
CONTROL = "control: the corner (1, ..., 1) is in D"

IMPOSSIBLE = "impossibility: an unconstrained h equals f on D and up to length T, not beyond"


def unconstrained_learner():
    """Sec. 2, 'Impossibility': with no constraint on H, h = f + max(0, |x - c| - 1/2) + max(0, t - T) has
    zero risk on D at every length t <= T (|x - c| = 1/2 - s, t = T - u, s, u >= 0) and differs from f at
    the corner (1, 1) (compositional, T = 2) and at length T + 1 (length)."""
    s_, u_ = sp.symbols("s u", nonnegative=True)
    t_len = Symbol("T", integer=True, positive=True)
    return [sp.Max(0, (HALF - s_) - HALF), sp.Max(0, (t_len - u_) - t_len),
            sp.Ne(sp.Max(0, sp.sqrt(2) * HALF - HALF), 0), sp.Ne(sp.Max(0, (t_len + 1) - t_len), 0)]


THEOREM = Theorem(
    id="AM24.EX1",
    title="The ball example D = {|x - 1/2| <= 1/2}: satisfies Theorem 1's hypotheses, not the pair support "
          "of Theorems 2 and 3 (Theorem 2's conclusion fails on it)",
    paper=PaperRef("Ahuja & Mansouri 2024 (arXiv 2402.04875v1)",
                   "Sec. 2, the example after Definitions 1 and 2 (length and compositional generalization)",
                   "", "ahuja2024provable"),
    conclusion=SatisfiesSubsequentAssumptions(D_set),
    latex_names={D_set: r"\mathcal{D}"},
    params=ParamSpace((
        Param("T", int, 3, "dimension of the ball (the training length; scalar tokens)", min=2, max=8),
    )),
    assumptions=(
        Assumption("T>=2", "at least two positions, so pair marginals exist", lambda p: p["T"] >= 2,
                   drop={}, note="not droppable: at T = 1 D is [0,1] and there is no pair",
                   predicate=sp.Ge(T_dim, 2)),
    ),
    setup=None,
    falsifier=BallFalsifier(),
    claims=(
        Computed(SOLID, "identification", "Sec. 2 ('Consider the sphere D = ...')",
                 "D = {x : |x - c| <= 1/2} contains its centre: a solid ball", solid_ball,
                 predicate=Eq(D_set, Symbol("ball(c, 1/2)"), evaluate=False), reading="our reading"),
        Computed(MARGINALS, "conclusion", "Sec. 2 ('satisfies the assumptions'); Theorem 1",
                 "supp(X_i) = [0,1] for every i <= T", token_marginals,
                 predicate=Eq(supp(Symbol("X_i")), unit, evaluate=False)),
        Computed(REGULAR, "conclusion", "Sec. 2; Assumption 2", "supp(X_{<=i}) is regular closed, i <= T",
                 regular_closed, predicate=RegularClosed(D_set)),
        Computed(T1_HYP, "conclusion", "Sec. 2; Theorem 1 (n = 1)",
                 "supp(X_j) = [0,1] and regular closed prefixes => length and compositional "
                 "generalization of deep sets", theorem1_holds),
        Computed(PAIR, "conclusion", "Sec. 2; Theorems 2 and 3 (hypothesis supp(X_i, X_j) = [0,1]^{2n})",
                 "the projection of D on two coordinates is [0,1]^2", pair_marginals,
                 predicate=Eq(supp(Symbol("(X_i, X_j)")), sp.ProductSet(unit, unit), evaluate=False)),
        Computed(T2_FAILS, "identification", "Sec. 2 with Theorem 2 (derived here, not in the paper)",
                 "psi = phi + g, g = 0 on the disc and the diagonal: zero risk on D, h != f at (0, 1)",
                 theorem2_fails, reading="our reading"),
        SymbolicStep(IMPOSSIBLE, "identification", "Sec. 2, 'Impossibility of Length and Compositional "
                     "Generalization'", "h = f + max(0, |x - c| - 1/2) + max(0, t - T): zero risk on D at "
                     "lengths <= T, h != f at (1, 1) and at length T + 1", unconstrained_learner),
        Computed(CONTROL, "control", "deliberately false", "|(1, ..., 1) - c| <= 1/2", control_corner,
                 reading="proxy"),
    ),
    expect={
        SOLID: Verdict.CERTIFIED,
        MARGINALS: Verdict.CERTIFIED,
        REGULAR: Verdict.CERTIFIED,
        T1_HYP: Verdict.CERTIFIED,
        PAIR: Verdict.REFUTED,
        T2_FAILS: Verdict.REFUTED,
        IMPOSSIBLE: Verdict.CERTIFIED,
        CONTROL: Verdict.REFUTED,
    },
    sentences=(
        Step("Sec. 2", "this support D satisfies the assumptions of the subsequent sections",
             by=(T1_HYP, REGULAR, MARGINALS, PAIR)),
        Step("Sec. 2, Impossibility", "with no constraint on H neither length nor compositional "
             "generalization is achievable (some zero-risk h differs from f beyond the support)",
             by=IMPOSSIBLE),
    ),
    notes="The paper says 'sphere' but prints the solid ball (<=). D meets Theorem 1's hypotheses (n = 1) "
          "but not the pair-support hypothesis of Theorems 2 and 3: its pair marginals are discs. On D "
          "Theorem 2's conclusion fails for a C^1 (non-analytic) pair map (derived here, not in the paper).",
)
