"""The step checks of Theorem 3.1's proof (Richard 2024, App. 5.2) that R24.T31 runs: the JL lemma
sampled (P1), the restricted-eigenvalue step (P3), the logit-perturbation step as printed and corrected
(P4), the union bound (P5), the loss step -log(1 - x) <= 2x and its range (P6), Lemma 5.1 as the d = t case,
and the control. Each returns the Evidence of one claim; the engine decides the verdict.

Moved out of theorems/r24/t31_jl.py (which holds the statement's claims and the proof walk) so that the
theorem file stays under its line budget; the functions are unchanged.
"""

from __future__ import annotations

from fractions import Fraction

from ..language.evidence import Evidence, Method, fails, holds, undecided
from . import jl, jlsearch
from .sweep import Fail, Undecided, over

#: the largest x with -log(1 - x) <= 2x lies in [X_LO, X_HI] (certified in ``log_step``)
X_LO, X_HI = Fraction(7968, 10000), Fraction(7969, 10000)


def q(x: float) -> Fraction:
    return Fraction(repr(float(x)))


def setting(p):
    n, t, eps = p["n"], p["t"], q(p["eps"])
    v, g = q(p["v"]), q(p["gamma"])
    return n, t, eps, v, g, tuple(i % t for i in range(n))


def dist_text(dist):
    """The exact distortion range of (7), or why (7) is vacuous."""
    if dist is None:
        return "vacuous: s has one distinct token, so every pair of positions holds trivially"
    return f"||E_a - E_b||^2/2 in [{float(dist[0]):.4f}, {float(dist[1]):.4f}], exact"


def p1_jl(p) -> Evidence:
    """P1: the Gaussian E at the JL dimension satisfies (7) (the JL lemma, sampled). The lemma promises
    success with probability >= 1/n per draw, not always: the draws that satisfy (7) exactly are the
    samples, and a failed draw refutes nothing (no success at all decides nothing)."""
    n, t, eps = p["n"], p["t"], q(p["eps"])
    d = jl.jl_dimension(n, eps)
    seeds = range(p["seed"], p["seed"] + p["samples"])
    ok = jlsearch.gaussian_successes(n, t, eps, d, seeds)
    domain = (f"the Gaussian draws N(0, 1/d) at d = {d} (seeds {seeds.start}..{seeds.stop - 1}, a random "
              f"word s in [t]^n each) that satisfy (7) exactly: {ok} of {len(seeds)}")
    return holds(Method.SAMPLED, domain, count=ok, residual=f"{ok}/{len(seeds)}",
                 detail=f"(7) checked exactly on {len(seeds)} draws, {ok} satisfy it (JL guarantees success "
                        "with probability >= 1/n per draw, not always: a failed draw refutes nothing)")


def p3_eigen(p) -> Evidence:
    """P3: (7) => the restricted eigenvalues of E E^T on span{delta_{s_i}} lie in [1 - eps, 1 + eps]."""
    n, t, eps, _, _, s = setting(p)
    d, a = jl.jl_dimension(n, eps), s[-1]
    E = jl.shifted(t, d, a)
    rq = jl.gram(E)[a][a]  # x Xi x^T at x = delta_a, a unit vector of the span
    domain = (f"E = the one-hot translate by -delta_{a} (d = {d}), s = {s}: the unit vector delta_{a} of the "
              "span")
    if not jl.satisfies_7(E, s, eps):
        return undecided(f"the translated one-hot does not satisfy (7) at eps = {eps}", method=Method.EXACT,
                         domain=domain)
    if not rq < 1 - eps:  # one candidate that is no counterexample: a search effort, never a proof of P3
        return holds(Method.SEARCH, domain, count=1, residual=str(rq),
                     detail=f"x Xi x^T = {rq} >= 1 - eps at this one vector")
    big = jl.first_n_above_dimension(Fraction(99, 100))
    return fails(Method.EXACT, (
        f"(7) holds exactly ({dist_text(jl.distortion(E, s))}), yet x = delta_{a} in the span has x Xi x^T "
        f"= ||E_{a}||^2 = {rq} < 1 - eps (exact)"), domain=domain, count=1,
        residual=f"Rayleigh quotient {rq}", detail=(
            "(7) is translation invariant and says nothing of norms. Also rank: with eps = 99/100 the JL "
            f"dimension is below n at n = {big} (d = {jl.jl_dimension(big, Fraction(99, 100))}; it grows "
            f"like log n), so a word of {big} distinct tokens has E_S E_S^T of rank <= d < {big}: an "
            "eigenvalue 0 for every E"))


def p4_scale(p) -> Evidence:
    """P4: ||delta Xi - delta||_inf <= eps at the target => softmax_target >= 1 - t exp(-v gamma/n + 2 eps)
    (the first line of P4 perturbs the logits by eps). Searched at one E that meets the hypothesis
    exactly, every step, a v gamma grid."""
    n, t, eps, v, g, s = setting(p)
    d, c2 = jl.jl_dimension(n, eps), jl.square_scale(eps)
    E = jl.scaled(t, d, c2)
    eta, rows = jl.row_deviation(E, s), jl.logit_rows(E, s)
    grid = [Fraction(n * k) for k in (5, 10, 20, 40, 80, 160, 320)]
    domain = (f"E = {c2}^(1/2) x one-hot (d = {d}), s = {s}: every step r = 1..{n - 1} at v gamma in "
              f"{[int(x) for x in grid]}")
    if eta > eps:
        return undecided(f"E = {c2}^(1/2) x one-hot has max |Xi_ak - [a = k]| = {eta} > eps = {eps}: it does "
                         "not meet P4's hypothesis", method=Method.INTERVAL, domain=domain)

    def step(case):
        vg, r, q, bound = case
        if q > bound:
            return Fail(f"E = {c2}^(1/2) x one-hot (d = {d}): max |Xi_ak - [a = k]| = {eta} <= eps = {eps} "
                        f"(P3's conclusion holds exactly: E E^T = {c2} I), but the logits are (v gamma/r) "
                        f"Xi_(a,:), perturbed by (v gamma/r) {eta} = {vg * eta / r} at r = {r}, not by eps; "
                        f"at v gamma = {vg} the step-{r} failure {jl.fmt(q)} > t e^(-v gamma/n + 2 eps) = "
                        f"{jl.fmt(bound)} (arb)", f"{jl.fmt(q)} > {jl.fmt(bound)}")
        return None if q < bound else Undecided(f"step {r} at v gamma = {vg}: the balls overlap the bound")

    # a universal implication tried at one E: steps that meet the bound are a search effort, not a proof
    cases = jl.steps_against(rows, grid, lambda vg: jl.step_bound(n, t, eps, vg))  # t exp(-v gamma/n + 2 eps)
    return over(cases, step, method=Method.SEARCH, fail_method=Method.INTERVAL, domain=domain,
                detail=f"no step violates the bound at E = {c2}^(1/2) one-hot on the grid")


def p4_corrected(p) -> Evidence:
    """P4 with the perturbation (v gamma/r) eta: softmax_target >= 1 - t exp(-(v gamma/n)(1 - 2 eta)),
    decided with balls at every step of every searched E with eta < 1/2 (those E are the domain)."""
    n, t, eps = p["n"], p["t"], q(p["eps"])
    d = jl.jl_dimension(n, eps)
    seeds = range(p["seed"], p["seed"] + p["samples"])
    grid = [Fraction(n * k) for k in (1, 5, 20, 80)]
    domain = (f"every step of every searched E with eta = max |Xi_ak - [a = k]| < 1/2 (seeds {seeds.start}.."
              f"{seeds.stop - 1}, the four families of the search, d = {d}), v gamma in "
              f"{[int(x) for x in grid]}")

    def step(case):
        family, seed, s, eta, vg, r, q, b = case
        if q < b:
            return None
        where = f"{family}, seed {seed}, s = {s}, eta = {eta}, v gamma = {vg}, step {r}"
        if q > b:
            return Fail(f"{where}: {jl.fmt(q)} > t e^(-(v gamma/n)(1 - 2 eta)) = {jl.fmt(b)} (arb)",
                        f"{jl.fmt(q)} > {jl.fmt(b)}")
        return Undecided(f"{where}: the balls overlap the bound")

    return over(jlsearch.corrected_steps(n, t, eps, d, seeds, grid), step, method=Method.INTERVAL,
                domain=domain, detail=lambda k: f"{k} steps, each below the corrected bound (arb balls)")


def p5_union(p) -> Evidence:
    """P5: the union bound 1 - prod(1 - q_r) <= sum_r q_r at the (a) embedding."""
    n, t, eps, v, g, s = setting(p)
    E = jl.named_embedding(p["embedding"], t, jl.jl_dimension(n, eps), s, p["seed"])
    c = jl.completion(jl.logit_rows(E, s), v * g)
    total = jl.union_failure(c)
    domain = f"the (a) embedding ({p['embedding']}, seed {p['seed']}), s = {s}, v gamma = {v * g}"
    if len(c.steps) == 1:
        return holds(Method.EXACT, domain, count=1, residual="one step",
                     detail="n = 2: one step, the union bound is an equality")
    text = f"failure {jl.fmt(c.failure)} vs sum of step failures {jl.fmt(total)} (arb)"
    if c.failure < total:
        return holds(Method.INTERVAL, domain, count=1, residual=f"{jl.fmt(c.failure)} <= {jl.fmt(total)}",
                     detail=text)
    if c.failure > total:
        return fails(Method.INTERVAL, text, domain=domain, count=1)
    return undecided(f"{text}: the balls overlap (the second-order terms are below {jl.PREC}-bit "
                     "precision)", method=Method.INTERVAL, domain=domain,
                     residual=f"{jl.fmt(c.failure)} vs {jl.fmt(total)}")


def log_step(p) -> Evidence:
    """P6: -log(1 - x) <= 2x on [0, X_LO]; f = 2x + log(1 - x) is concave with f(0) = 0, so f >= 0 on
    [0, x*] where f(x*) = 0, and f(X_LO) > 0 > f(X_HI) brackets x* (arb)."""
    f = [jl.log_step_margin(x) for x in (X_LO, X_HI)]
    lo, hi = float(X_LO), float(X_HI)
    domain = f"every x in [0, {lo}] (concavity of f = 2x + log(1 - x), f(0) = 0, balls at {lo} and {hi})"
    text = (f"f(x) = 2x + log(1 - x): f(0) = 0, f'' = -1/(1 - x)^2 < 0 (concave), f({lo}) = {jl.fmt(f[0])}, "
            f"f({hi}) = {jl.fmt(f[1])}")
    if not (f[0] > 0 and f[1] < 0):
        return undecided(f"{text}: the bracket of x* is not decided", method=Method.INTERVAL, domain=domain)
    return holds(Method.INTERVAL, domain, residual=f"x* in [{lo}, {hi}]",
                 detail=f"{text}: -log(1 - x) <= 2x exactly on [0, x*], x* in [{lo}, {hi}]")


def log_step_range(p) -> Evidence:
    """P6 applies only when x = nt exp(-v gamma/n + 2 eps) <= x*: is that so for every v gamma > 0?
    Tried at v gamma = n."""
    n, t, eps, v, g, _ = setting(p)
    x_here, x_n = jl.failure_bound(n, t, eps, v * g), jl.failure_bound(n, t, eps, Fraction(n))
    thr = jl.log_step_threshold(n, t, eps, X_LO)
    here = "inside" if x_here < jl.ball(X_LO) else "outside" if x_here > jl.ball(X_HI) else "undecided"
    context = (f"x <= x* needs v gamma >= n (log(nt) + 2 eps - log x*) ~ {jl.fmt(thr)}; at this v gamma = "
               f"{v * g}: x = {jl.fmt(x_here)} ({here} the range)")
    domain = f"v gamma = n = {n} (n = {n}, t = {t}, eps = {eps})"
    if not x_n > jl.ball(X_HI):
        return undecided(f"at v gamma = n, x = {jl.fmt(x_n)} is not above {X_HI}; {context}",
                         method=Method.INTERVAL, domain=domain)
    return fails(Method.INTERVAL, (
        f"at v gamma = n = {n}: x = nt e^(2 eps - 1) = {jl.fmt(x_n)} > {X_HI} >= x* (log(1 - x) "
        f"{'undefined' if x_n > 1 else 'defined'})"), domain=domain, count=1,
        residual=f"x = {jl.fmt(x_n)} at v gamma = {n}", detail=context)


def lemma51(p) -> Evidence:
    """Lemma 5.1 is the d = t case: eq. (4) at E = I_t is eq. (6) and 1 - P = 1 - prod_r [1 + (t-1)
    e^(-v gamma/r)]^(-1) exactly."""
    n, t, _, v, g, s = setting(p)
    same_B, same_rows, rows = jl.onehot_identities(t, s, g, v)
    c = jl.completion(rows, v * g)
    domain = f"t = {t}, s = {s}, gamma = {g}, v = {v}: B_1..B_{n} and the logit rows r = 1..{n - 1}"
    text = (f"B of eq. (4) at E = I_t equals R of eq. (6): {same_B}; every logit difference of the model is "
            f"-v gamma/r exactly: {same_rows}")
    if not (same_B and same_rows):
        return fails(Method.EXACT, text, domain=domain, count=1, residual="differs")
    return holds(Method.EXACT, domain, count=1, detail=(
        f"{text}, so 1 - P = 1 - prod [1 + (t-1)e^(-v gamma/r)]^(-1) = {jl.fmt(c.failure)} at v gamma = "
        f"{v * g} (exact logits); its (7) distortion is 1 (any eps), and d = t meets the JL bound only if "
        f"t >= {jl.jl_dimension(n, q(p['eps']))}"))


def onehot_control(p) -> Evidence:
    """Control (false): one-hot completes s with failure <= (t - 1) e^(-v gamma) (no 1/r in the exponent)."""
    n, t, _, v, g, s = setting(p)
    c = jl.completion(jl.logit_rows(jl.onehot(t, t), s), v * g)
    b = jl.exp_bound(t, v * g)
    res, domain = f"{jl.fmt(c.failure)} vs {jl.fmt(b)}", f"one-hot, s = {s}, v gamma = {v * g}"
    if c.failure > b:
        return fails(Method.INTERVAL, f"failure {jl.fmt(c.failure)} > (t - 1) e^(-v gamma) = {jl.fmt(b)} "
                     "(arb)", domain=domain, count=1, residual=res)
    if c.failure < b:
        return holds(Method.INTERVAL, domain, count=1, residual=res, detail=f"{res} (arb)")
    return undecided(f"{res}: the balls overlap", method=Method.INTERVAL, domain=domain, residual=res)


def p3_two_norm(p) -> Evidence:
    """The step after P3: within the span of {delta_(s_i)}, ||x Xi - x||_2 <= eps for a unit x. Tried at
    the translate of one-hot by -delta_a (it satisfies (7) exactly) and x = delta_a, where x Xi = E_a E^T."""
    n, t, eps, _, _, s = setting(p)
    d, a = jl.jl_dimension(n, eps), s[-1]
    E = jl.shifted(t, d, a)
    sq = sum((x - (1 if k == a else 0)) ** 2 for k, x in enumerate(jl.gram(E)[a]))  # ||x Xi - x||_2^2
    domain = f"E = the one-hot translate by -delta_{a} (d = {d}), s = {s}: the unit vector x = delta_{a}"
    if not jl.satisfies_7(E, s, eps):
        return undecided(f"the translate does not satisfy (7) at eps = {eps}", method=Method.EXACT,
                         domain=domain)
    if not sq > eps * eps:
        return holds(Method.SEARCH, domain, count=1, residual=str(sq), detail="no violation at this x")
    return fails(Method.EXACT, f"(7) holds exactly, yet ||x Xi - x||_2^2 = {sq} > eps^2 = {eps * eps} "
                 f"(E_{a} = 0, so x Xi = 0; exact)", domain=domain, count=1, residual=f"{sq} > {eps * eps}")


def p4_line1(p) -> Evidence:
    """P4's first display line as printed: softmax_target >= e^(v gamma/r - eps)/(e^(v gamma/r - eps) +
    (t - 1) e^eps), i.e. step failure q_r <= (t - 1) e^eps/(e^(v gamma/r - eps) + (t - 1) e^eps), at the
    E of ``p4_scale`` (it meets the hypothesis ||delta Xi - delta||_inf <= eps exactly)."""
    from ..numerics.backend import arb_bits
    n, t, eps, _, _, s = setting(p)
    d, c2 = jl.jl_dimension(n, eps), jl.square_scale(eps)
    E = jl.scaled(t, d, c2)
    eta, rows = jl.row_deviation(E, s), jl.logit_rows(E, s)
    grid = [Fraction(n * k) for k in (5, 10, 20, 40)]
    domain = (f"E = {c2}^(1/2) x one-hot (d = {d}, max |Xi_ak - [a = k]| = {eta} <= eps), s = {s}: every "
              f"step r = 1..{n - 1} at v gamma in {[int(x) for x in grid]}")
    if eta > eps:
        return undecided(f"eta = {eta} > eps: the hypothesis is not met", method=Method.INTERVAL,
                         domain=domain)

    def cases():
        for vg in grid:
            for r, q in enumerate(jl.step_failures(jl.completion(rows, vg)), start=1):
                with arb_bits(jl.PREC):
                    m = (t - 1) * jl.ball(eps).exp()
                    yield vg, r, q, m / (jl.ball(vg / r - eps).exp() + m)

    def step(c):
        vg, r, q, b = c
        if q > b:
            return Fail(f"v gamma = {vg}, step {r}: failure {jl.fmt(q)} > (t - 1) e^eps/(e^(v gamma/r - "
                        f"eps) + (t - 1) e^eps) = {jl.fmt(b)} (arb): the logits move by (v gamma/r) {eta}, "
                        "not eps",
                        f"{jl.fmt(q)} > {jl.fmt(b)}")
        return None if q < b else Undecided(f"step {r} at v gamma = {vg}: the balls overlap")

    return over(cases(), step, method=Method.SEARCH, fail_method=Method.INTERVAL, domain=domain,
                detail="no step violates the printed first line at this E")


def decomposition_residuals(scale_r: bool) -> list:
    """The Multiple-sequences display of Sec. 3.2, row r: att_z (E_z + B) V = gamma v E_(s_(r+1)) +
    {att_z - att_s}(E_z + B) V + att_s {E_z - E_s} V, under Theorem 3.1's model (Q = 0: row r of att is
    1_r^T/r for every input, so att_z = att_s; V = v I; B of eq. (4) from s). Symbolic E in R^(3 x 2),
    gamma, v; every pair of words s, z in {0,1,2}^3, rows r = 1, 2. ``scale_r``: the first term read as
    (gamma v / r) E_(s_(r+1)) instead of the printed gamma v E_(s_(r+1))."""
    import itertools

    import sympy as sp

    from .model import closed_form_B
    g, v = sp.symbols("gamma v")
    E = [tuple(sp.Symbol(f"e{k}{j}") for j in range(2)) for k in range(3)]
    out = []
    for s in itertools.product(range(3), repeat=3):
        B = closed_form_B(E, s, g)
        for z in itertools.product(range(3), repeat=3):
            for r in (1, 2):
                for j in range(2):
                    lhs = v * sum(E[z[i]][j] + B[i][j] for i in range(r)) / r
                    first = g * v * E[s[r]][j] / (r if scale_r else 1)
                    third = v * sum(E[z[i]][j] - E[s[i]][j] for i in range(r)) / r  # att_s {E_z - E_s} V
                    out.append(sp.expand(lhs - first - 0 - third))
    return out


def decomposition_generic():
    """The same display for arbitrary att_z, att_s (rows in R^(1 x n)), E_z, E_s, B (n x d) and V (d x d),
    n = 3, d = 2: LHS - RHS = att_s (E_s + B) V - gamma v E_(s_(r+1)), so the display is exact iff s's row
    meets the memorization condition att_s (E_s + B) V = gamma v E_(s_(r+1))."""
    import sympy as sp
    n, d = 3, 2
    az, as_ = sp.Matrix(1, n, sp.symbols("az0:3")), sp.Matrix(1, n, sp.symbols("as0:3"))
    Ez, Es = sp.Matrix(n, d, sp.symbols("z0:6")), sp.Matrix(n, d, sp.symbols("s0:6"))
    B, V = sp.Matrix(n, d, sp.symbols("b0:6")), sp.Matrix(d, d, sp.symbols("w0:4"))
    g, v = sp.symbols("gamma v")
    Enext = sp.Matrix(1, d, sp.symbols("f0:2"))
    lhs = az * (Ez + B) * V
    rhs = g * v * Enext + (az - as_) * (Ez + B) * V + as_ * (Ez - Es) * V
    return list(sp.expand(lhs - rhs - (as_ * (Es + B) * V - g * v * Enext)))
