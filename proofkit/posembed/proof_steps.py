"""The displayed steps of Richard 2024's proofs that no earlier claim checks (App. 5.2: Lemma 5.1 and
Theorem 3.1; App. 5.3.1: Theorem 4.1 and Claim 5.3), and two quantified sentences: the "sufficient
condition" of Sec. 3.2's "Multiple sequences" remark and Theorem 4.1's "v gamma > N^2 required".

Each function checks one printed step, as printed where it is false (the claim is then refuted) and in
the corrected form where one exists. Symbolic steps return sympy residuals (0 when the step holds);
computed steps return Evidence over a counted domain; the engine decides every verdict. The R24 theorem
files (theorems/r24) wire them into claims and proof walks.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..language.evidence import Evidence, Method, fails, holds, undecided
from ..numerics.backend import arb_bits
from . import bounds, dp, dyck, jl
from .jl_steps import setting
from .sweep import Fail, Undecided, over

G = Fraction(-1, 2)
_g = sp.Symbol("gamma")
_a, _n, _t = sp.symbols("a n t", positive=True)


# ----------------------------------------------------------------------------- Lemma 5.1 (App. 5.2)
def _delta(t: int, k: int) -> list[sp.Expr]:
    return [sp.Integer(int(i == k)) for i in range(t)]


def _R(s, i, t):
    """R_i of eq. (6) as printed (1-based i <= len(s) - 1): R_1 = -delta_s1 + gamma delta_s2, R_i =
    -(1 + gamma) delta_si + gamma delta_s(i+1)."""
    lead = -1 if i == 1 else -(1 + _g)
    return [lead * x + _g * y for x, y in zip(_delta(t, s[i - 1]), _delta(t, s[i]))]


def l51_telescoping() -> list[sp.Expr]:
    """The display of Lemma 5.1's proof: sum_{i<=r} R_i = -(1_r^T delta_{s_:r})^T + gamma delta_{s_{r+1}},
    with R of eq. (6) as printed, for every word s in {0,1,2}^5, every r = 1..4, symbolic gamma."""
    t, n, out = 3, 5, []
    for w in range(t**n):
        s = [(w // t**i) % t for i in range(n)]
        for r in range(1, n):
            total = [sum(c) for c in zip(*(_R(s, i, t) for i in range(1, r + 1)))]
            ones = zip(*(_delta(t, s[i]) for i in range(r)))
            want = [-sum(c) + _g * e for c, e in zip(ones, _delta(t, s[r]))]
            out += [sp.expand(x - y) for x, y in zip(total, want)]
    return out


def l51_third_row() -> list[sp.Expr]:
    """The display's third row as printed, -delta_s3 - gamma delta_s3 + gamma delta_s3, against R_3 of eq.
    (6), -(1 + gamma) delta_s3 + gamma delta_s4, at s = (0, 1, 2, 0) (t = 3): residual gamma (delta_s4 -
    delta_s3) (the printed row is R_3 only when s_4 = s_3)."""
    s, t = (0, 1, 2, 0), 3
    printed = [-x - _g * x + _g * x for x in _delta(t, s[2])]
    return [sp.expand(p - q) for p, q in zip(printed, _R(s, 3, t))]


def l51_softmax() -> sp.Expr:
    """softmax of the logits (v gamma/r) delta_{s_{r+1}} (t tokens) at the target: e^a/(e^a + t - 1) =
    [1 + (t - 1) e^{-a}]^{-1}, a = v gamma/r."""
    return sp.simplify(sp.exp(_a) / (sp.exp(_a) + _t - 1) - 1 / (1 + (_t - 1) * sp.exp(-_a)))


def l51_union() -> list[sp.Expr]:
    """v gamma > n log(nt) <=> nt e^{-v gamma/n} < 1: at v gamma = n log(nt) the product is exactly 1 (and
    it decreases in v gamma); nt - (n - 1)(t - 1) = n + t - 1 > 0, so (n-1)(t-1) e^{..} < nt e^{..}."""
    at = sp.simplify(_n * _t * sp.exp(-(_n * sp.log(_n * _t)) / _n) - 1)
    return [at, sp.expand(_n * _t - (_n - 1) * (_t - 1) - (_n + _t - 1))]


# ----------------------------------------------------------------------------- Theorem 3.1 (App. 5.2)
def p3_norm(p, norm: str) -> Evidence:
    """'||x Xi - x|| <= eps within the span of {delta_{s_i}}' (``norm`` '2' or 'inf'), at the one-hot
    translate by -delta_a (a = s_n), which satisfies (7) at distortion 1: x = delta_a gives x Xi = 0."""
    n, t, eps, _, _, s = setting(p)
    d, a = jl.jl_dimension(n, eps), s[-1]
    E = jl.shifted(t, d, a)
    row = [x - (1 if k == a else 0) for k, x in enumerate(jl.gram(E)[a])]  # delta_a Xi - delta_a
    size = max(abs(x) for x in row) if norm == "inf" else sum(x * x for x in row)  # squared for 2
    limit = eps if norm == "inf" else eps * eps
    domain = f"E = the one-hot translate by -delta_{a} (d = {d}), s = {s}: x = delta_{a} in the span"
    if not jl.satisfies_7(E, s, eps):
        return undecided(f"the translate does not satisfy (7) at eps = {eps}", method=Method.EXACT,
                         domain=domain)
    what = "||x Xi - x||_inf" if norm == "inf" else "||x Xi - x||_2^2"
    if size <= limit:
        return holds(Method.SEARCH, domain, count=1, residual=str(size), detail=f"{what} = {size} at this x")
    return fails(Method.EXACT, f"(7) holds exactly, yet x = delta_{a} has {what} = {size} > "
                 f"{'eps' if norm == 'inf' else 'eps^2'} = {limit} (E_{a} = 0, so x Xi = 0; exact)",
                 domain=domain, count=1, residual=str(size))


def _scaled_setting(p):
    n, t, eps, _, _, s = setting(p)
    d, c2 = jl.jl_dimension(n, eps), jl.square_scale(eps)
    return n, t, eps, s, d, c2, jl.scaled(t, d, c2)


GRID = (5, 10, 20, 40, 80, 160, 320)


def loss_fourth_line(p) -> Evidence:
    """The loss display's fourth line, L <= -sum_{r=0}^{n-1} log(1 - nt e^{-v gamma/n + 2 eps}) (n terms),
    at E = c x one-hot ((7) holds): L = sum_{r=1}^{n-1} -log P[s_{r+1} | s_:r] exactly, in balls, on a
    v gamma grid where x = nt e^{...} < 1."""
    n, t, eps, s, d, c2, E = _scaled_setting(p)
    rows = jl.logit_rows(E, s)
    grid = [Fraction(n * k) for k in GRID]
    domain = f"E = {c2}^(1/2) x one-hot (d = {d}), s = {s}, v gamma in {[int(x) for x in grid]} (x < 1 there)"

    def case(vg):
        L = jl.completion(rows, vg).loss
        with arb_bits(jl.PREC):
            x = jl.failure_bound(n, t, eps, vg)
            if not x < 1:
                return Undecided(f"v gamma = {vg}: x = {jl.fmt(x)} is not below 1")
            b = -n * (1 - x).log()
        if L > b:
            return Fail(f"v gamma = {vg}: L = {jl.fmt(L)} > -n log(1 - nt e^(-v gamma/n + 2 eps)) = "
                        f"{jl.fmt(b)} (arb)", f"{jl.fmt(L)} > {jl.fmt(b)}")
        return None if L < b else Undecided(f"v gamma = {vg}: the balls overlap")

    return over(grid, case, method=Method.SEARCH, fail_method=Method.INTERVAL, domain=domain,
                detail="the fourth line holds at this E on the grid")


def orthogonal_sufficient(p) -> Evidence:
    """'A sufficient condition for perfectly fitting m sequences is the existence of B such that the
    E_{s^(j)} + B_i form an orthogonal set', read with the set of distinct vectors: s^(1) = (0, 1), s^(2) =
    (0, 2), t = d = 3, E = I_3, B = 0 gives the orthonormal set {e_0, e_1, e_2}; both sequences share the
    context (0), so one softmax p serves both targets and the two r = 1 loss terms are -log p_1 - log p_2
    >= 2 log 2 (p_1 + p_2 <= 1), for every V: no interpolation."""
    vecs = {tuple(int(i == k) for i in range(3)) for k in (0, 1, 2)}
    ortho = all(sum(a * b for a, b in zip(u, w)) == 0 for u in vecs for w in vecs if u != w)
    domain = "s^(1) = (0, 1), s^(2) = (0, 2), t = d = 3, E = I_3, B = 0, every V (exact)"
    if not ortho:
        return undecided("the set is not orthogonal", method=Method.EXACT, domain=domain)
    return fails(Method.EXACT, (
        "{E_(s_i^(j)) + B_i} = {e_0, e_1, e_2} is orthonormal, yet the shared context (0) gets one softmax "
        "p for targets 1 and 2: loss >= -log p_1 - log p_2 >= 2 log 2 > 0 for every V (p_1 + p_2 <= 1)"),
        domain=domain, count=1, residual="2 log 2",
        detail="the reading with the nm indexed vectors pairwise orthogonal excludes shared prefixes and is "
               "not examined; an orthogonal set of K nonzero vectors also needs d >= K, not log K")


# ----------------------------------------------------------------------------- Theorem 4.1 (App. 5.3.1)
def _S(d, k, h):
    return h - d + G * dp.E_of(k, Fraction(-1))


def local_case(p, which: str) -> Evidence:
    """Over every local configuration (r, Delta_r(s) = d, s_{r+1} = k, context height h) a word of D_2N
    presents, gamma = -1/2, S = h - d + gamma E_k (= 1_r^T(E_z + B(s))): ``which`` = 'elastic' (h > d =>
    S >= 1 - E_k/2 > 0, so X = v S <= v(1 - E_k/2) < 0 for v < 0; h < d => S < 0, X > 0), 'empty' (h = 0
    => S <= -1/2) or 'full' (h = 2N - r, r >= N => d <= h; d = h => k = ')' and S = 1/2; else S >= 1/2)."""
    N_top = p["N_top"]

    def case(c):
        N, r, d, k, h = c
        S, e = _S(d, k, h), dp.E_of(k, Fraction(-1))
        nxt = "(" if k == dyck.OPEN else ")"
        where = f"N = {N}, r = {r}, Delta_r(s) = {d}, s_r+1 = {nxt}, h = {h}: S = {S}"
        if which == "elastic":
            bad = (h > d and not (S >= 1 - e / 2 > 0)) or (h < d and not S < 0)
        elif which == "empty":
            bad = h == 0 and not S <= G
        else:
            full = h == 2 * N - r and r >= N
            half = Fraction(1, 2)
            bad = full and (d > h or (d == h and (k != dyck.CLOSE or S != half)) or S < half)
        return Fail(where, str(S)) if bad else None

    keep = {"elastic": lambda c: c[4] != c[2], "empty": lambda c: c[4] == 0,
            "full": lambda c: c[4] == 2 * c[0] - c[1] and c[1] >= c[0]}[which]
    where = {"elastic": "h != Delta_r(s)", "empty": "h = 0", "full": "h = 2N - r, r >= N"}[which]
    return over(filter(keep, dyck.local_configs(N_top)), case, method=Method.ENUMERATION,
                domain=(f"every local configuration (r, Delta_r(s), s_r+1, h) of D_2N with {where}, "
                        f"N = 1..{N_top} (exact)"),
                detail=f"the {which} case holds at every configuration")


def memo_threshold_needed(p) -> Evidence:
    """'the condition v gamma > N^2 required for memorization', read as necessary: the memorization bound
    1 - 2N e^-N at v gamma = N^2 - N/4 < N^2, every N = 1..N_top (exact product in intervals, from r = 1,
    the worst prefix)."""
    rows = []
    for N in range(1, p["N_top"] + 1):
        f, b = bounds.memorization_vs_bound(N, Fraction(N * N) - Fraction(N, 4))
        if not dp.le(f, b):
            return undecided(f"N = {N}: at v gamma = N^2 - N/4 the failure {dp.text(f)} is not below 2N e^-N",
                             method=Method.INTERVAL, domain=f"N = 1..{p['N_top']}")
        rows.append(f"N={N}: {dp.text(f, 3)} < {dp.text(b, 3)}")
    N = p["N_top"]
    vg = Fraction(N * N) - Fraction(N, 4)
    return fails(Method.INTERVAL, f"N = {N}: at v gamma = N^2 - N/4 = {vg} < N^2 "
                 "every prefix of every s is completed into s with probability >= 1 - 2N e^-N (proven)",
                 domain=f"N = 1..{N}, every s, every prefix, v gamma = N^2 - N/4", count=N,
                 residual=rows[-1], detail="; ".join(rows))


# ----------------------------------------------------------------------------- Claim 5.3 (App. 5.3.1)
def c53_steps(p, part: str) -> Evidence:
    """Claim 5.3, E = [a, -1], a = 2N/(2N + 1), no B, at every prefix state (r, h): ``part`` = 'sum' (h > 0
    => sum_i E_{z_i} = a (r + h)/2 - (r - h)/2 > 1/(2N + 1)) or 'odds' (at v = -2N^2(2N + 1) the log-odds
    of the valid token, D(r, h) of dp.nope_log_odds, is >= N: P(valid next) >= 1/(1 + e^-N) >= 1 - e^-N)."""
    N_top = p["N_top"]

    def case(c):
        N, r, h = c
        a = Fraction(2 * N, 2 * N + 1)
        total = a * Fraction(r + h, 2) - Fraction(r - h, 2)
        if part == "sum":
            ok = h == 0 or total > Fraction(1, 2 * N + 1)
            return None if ok else Fail(f"N = {N}, (r, h) = ({r}, {h}): sum E = {total}", str(total))
        D = dp.nope_log_odds(a, Fraction(-2 * N * N * (2 * N + 1)))(r, h)
        valid = D if h == 0 else -D  # open at h = 0, close above
        if valid >= N:
            return None
        return Fail(f"N = {N}, (r, h) = ({r}, {h}): log-odds of the valid token {valid} < N", str(valid))

    cases = ((N, r, h) for N in range(1, N_top + 1) for r, h in dyck.prefix_states(N))
    return over(cases, case, method=Method.ENUMERATION,
                domain=f"every prefix state (r, h) of D_2N, N = 1..{N_top}" +
                       ("" if part == "sum" else ", v = -2N^2(2N+1)") + " (exact)",
                detail="holds at every state (exact rationals)")
