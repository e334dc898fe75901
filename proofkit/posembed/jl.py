"""Theorem 3.1 of Richard 2024 (JL memorization), exactly: the completion probability and loss of a given
token embedding E, step by step, against the theorem's bounds, the JL dimension, the distortion condition
(7) and constructions of E (the seeded searches over embeddings that satisfy (7) are :mod:`.jlsearch`).

Everything that decides a verdict is exact or a rigorous ball:

* E has rational entries; the Gram matrix Xi = E E^T, the distortion ratios of (7) and the logits are
  exact rationals (integer arithmetic over a common denominator).
* Probabilities are arb balls (python-flint, ``PREC`` bits). At step r (context s_{:r}, target
  a = s_{r+1}) the failure mass is accumulated directly, never as 1 - P: S_r = sum_{k != a}
  exp(l_k - l_a), log P[a | s_{:r}] = -log1p(S_r), and the failure of the whole completion from the
  prefix s_{:1} is -expm1(sum_r log P) (the prefix s_{:1} is the worst prefix: every other completion
  multiplies a subset of the same factors). The loss is sum_{r=1}^{n-1} log1p(S_r): the r = 0 term of
  the paper's loss has an empty context, which the model (uniform attention over nothing) does not
  define, so it is left out (n - 1 terms).
* The JL condition d >= 4 log n / (eps^2/2 - eps^3/3) is decided with balls (log n is irrational for
  n >= 2, so the comparison is never a tie for rational eps).

Tokens are 0..t-1 (the paper's [t] shifted by one); the word s has length n; the targets are
s_2..s_n (the tokens the completion must produce).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np
from flint import arb, fmpq

from ..numerics.backend import arb_bits
from .model import Head, Vector, closed_form_B

#: working precision of the balls (bits); every decision is a certain ball comparison
PREC = 256

Embedding = tuple[Vector, ...]


def ball(x: Fraction | int) -> arb:
    """The exact rational ``x`` as a ball (exact where representable, else a tight enclosure)."""
    x = Fraction(x)
    return arb(fmpq(x.numerator, x.denominator))


# ----------------------------------------------------------------------------- the JL dimension
def jl_rhs(n: int, eps: Fraction) -> arb:
    """4 log n / (eps^2/2 - eps^3/3), as a ball."""
    with arb_bits(PREC):
        return 4 * arb(n).log() / ball(eps**2 / 2 - eps**3 / 3)


def meets_jl_bound(d: int, n: int, eps: Fraction) -> bool:
    """d >= 4 log n / (eps^2/2 - eps^3/3), decided with balls (n = 1: the right side is 0)."""
    if n == 1:
        return d >= 0
    with arb_bits(PREC):
        diff = arb(d) - jl_rhs(n, eps)
        if diff > 0:
            return True
        if diff < 0:
            return False
    raise ArithmeticError(f"JL bound undecided at d = {d}, n = {n}, eps = {eps}")


def jl_dimension(n: int, eps: Fraction) -> int:
    """The smallest d >= 1 with d >= 4 log n / (eps^2/2 - eps^3/3)."""
    if not 0 < eps < 1:
        raise ValueError(f"eps must lie in (0, 1), got {eps}")
    with arb_bits(PREC):
        d = max(1, int(jl_rhs(n, eps).mid().floor().unique_fmpz()) - 1)
    while not meets_jl_bound(d, n, eps):
        d += 1
    return d


def first_n_above_dimension(eps: Fraction, limit: int = 400) -> int:
    """The smallest n in 2..limit-1 whose JL dimension is below n (the dimension grows like log n, so
    from there on n points do not fit in general position)."""
    return next(m for m in range(2, limit) if jl_dimension(m, eps) < m)


# ----------------------------------------------------------------------------- exact linear algebra
def _integers(E: Sequence[Vector]) -> tuple[list[list[int]], int]:
    """E = M / D with an integer matrix M and the common denominator D."""
    D = lcm(*(x.denominator for row in E for x in row))
    return [[int(x * D) for x in row] for row in E], D


def gram(E: Sequence[Vector]) -> tuple[tuple[Fraction, ...], ...]:
    """Xi = E E^T, exactly."""
    M, D = _integers(E)
    D2 = D * D
    return tuple(tuple(Fraction(sum(a * b for a, b in zip(M[i], M[j])), D2) for j in range(len(M)))
                 for i in range(len(M)))


def distortion(E: Sequence[Vector], s: Sequence[int]) -> tuple[Fraction, Fraction] | None:
    """(min, max) over pairs of distinct tokens a != b of s of ||E_a - E_b||^2 / ||delta_a - delta_b||^2
    (= ||E_a - E_b||^2 / 2), exactly; None when s has one distinct token (then (7) is empty)."""
    G = gram(E)
    toks = sorted(set(s))
    ratios = [(G[a][a] + G[b][b] - 2 * G[a][b]) / 2 for i, a in enumerate(toks) for b in toks[i + 1:]]
    return (min(ratios), max(ratios)) if ratios else None


def satisfies_7(E: Sequence[Vector], s: Sequence[int], eps: Fraction) -> bool:
    """Eq. (7): (1 - eps) ||d_a - d_b||^2 <= ||E_a - E_b||^2 <= (1 + eps) ||d_a - d_b||^2 for every
    pair of positions i != j of s (pairs with s_i = s_j hold trivially), exactly."""
    r = distortion(E, s)
    return r is None or (1 - eps <= r[0] and r[1] <= 1 + eps)


def margins(E: Sequence[Vector], s: Sequence[int]) -> tuple[Fraction, ...]:
    """mu_r = Xi_{aa} - max_{k != a} Xi_{ak} at each step r = 1..n-1 (a = s_{r+1}): the logit margin of
    step r is (v gamma / r) mu_r."""
    G = gram(E)
    return tuple(G[a][a] - max(G[a][k] for k in range(len(G)) if k != a) for a in s[1:])


def row_deviation(E: Sequence[Vector], s: Sequence[int]) -> Fraction:
    """eta = max over targets a and tokens k of |Xi_{ak} - [a = k]| = max ||delta_a Xi - delta_a||_inf."""
    G = gram(E)
    return max(abs(G[a][k] - (1 if a == k else 0)) for a in set(s[1:]) for k in range(len(G)))


# ----------------------------------------------------------------------------- the completion
@dataclass(frozen=True)
class Completion:
    """The exact completion of s from its prefixes at one v gamma (balls at ``PREC`` bits)."""

    failure: arb  #: 1 - P[complete s from s_{:1}], accumulated directly
    loss: arb  #: sum_{r=1}^{n-1} -log P[s_{r+1} | s_{:r}]
    steps: tuple[arb, ...]  #: S_r = sum_{k != a} exp(l_k - l_a), r = 1..n-1


def logit_rows(E: Sequence[Vector], s: Sequence[int]) -> tuple[tuple[Fraction, ...], ...]:
    """For each step r = 1..n-1 the differences l_k - l_{s_{r+1}} of logits at v gamma = 1 (eq. (8):
    (1/r) (Xi_{ak} - Xi_{aa}))."""
    G = gram(E)
    return tuple(tuple((G[a][k] - G[a][a]) / r for k in range(len(G)) if k != a)
                 for r, a in enumerate(s[1:], start=1))


def completion(rows: Sequence[Sequence[Fraction]], vg: Fraction) -> Completion:
    """The failure mass and loss at v gamma = ``vg`` from :func:`logit_rows`."""
    with arb_bits(PREC):
        steps = tuple(sum((ball(vg * x).exp() for x in row), arb(0)) for row in rows)
        logp = sum((-(S.log1p()) for S in steps), arb(0))
        return Completion(-(logp.expm1()), -logp, steps)


def head_rows(E: Sequence[Vector], s: Sequence[int], v: Fraction, gamma: Fraction) \
        -> tuple[tuple[Fraction, ...], ...]:
    """The logit differences of the model of eq. (1) itself (B of eq. (4) from s), divided by v gamma:
    equal to :func:`logit_rows` exactly when eq. (8) holds (v gamma != 0)."""
    h = Head.closed_form(E, s, gamma, v)
    vg = v * gamma
    out = []
    for r, a in enumerate(s[1:], start=1):
        lg = h.logits(s[:r])
        out.append(tuple((lg[k] - lg[a]) / vg for k in range(len(lg)) if k != a))
    return tuple(out)


def failure_bound(n: int, t: int, eps: Fraction, vg: Fraction) -> arb:
    """n t exp(-v gamma / n + 2 eps): 1 minus the probability bound of Theorem 3.1."""
    with arb_bits(PREC):
        return n * t * ball(-vg / n + 2 * eps).exp()


def loss_bound(n: int, t: int, eps: Fraction, vg: Fraction) -> arb:
    """2 n^2 t exp(-v gamma / n + 2 eps)."""
    with arb_bits(PREC):
        return 2 * n * failure_bound(n, t, eps, vg)


def step_failures(c: Completion) -> tuple[arb, ...]:
    """q_r = S_r/(1 + S_r) = 1 - P[s_{r+1} | s_{:r}], the failure of each single step r = 1..n-1."""
    with arb_bits(PREC):
        return tuple(S / (1 + S) for S in c.steps)


def union_failure(c: Completion) -> arb:
    """sum_r q_r: the union bound on the completion's failure (:func:`step_failures`)."""
    with arb_bits(PREC):
        return sum(step_failures(c), ball(0))


def step_bound(n: int, t: int, eps: Fraction, vg: Fraction) -> arb:
    """t exp(-v gamma / n + 2 eps): the per-step failure that the proof's step P4 claims."""
    with arb_bits(PREC):
        return failure_bound(n, t, eps, vg) / n


def corrected_step_bound(n: int, t: int, eta: Fraction, vg: Fraction) -> arb:
    """t exp(-(v gamma / n)(1 - 2 eta)): the per-step failure bound when the logits are perturbed by
    (v gamma / r) eta, eta the row deviation of the Gram matrix (:func:`row_deviation`)."""
    with arb_bits(PREC):
        return t * ball(-vg / n * (1 - 2 * eta)).exp()


def steps_against(rows: Sequence[Sequence[Fraction]], grid: Sequence[Fraction],
                  bound: Callable[[Fraction], arb]) -> Iterator[tuple[Fraction, int, arb, arb]]:
    """(v gamma, r, q_r, bound(v gamma)) for every v gamma of ``grid`` and every step r = 1..n-1 of the
    completion from :func:`logit_rows` ``rows``."""
    for vg in grid:
        qs = step_failures(completion(rows, vg))
        b = bound(vg)
        yield from ((vg, r, q, b) for r, q in enumerate(qs, start=1))


def exp_bound(t: int, vg: Fraction) -> arb:
    """(t - 1) exp(-v gamma): a one-hot failure bound with no 1/r in the exponent (too strong)."""
    with arb_bits(PREC):
        return (t - 1) * ball(-vg).exp()


def onehot_failure(t: int, n: int, vg: Fraction) -> arb:
    """Lemma 5.1's closed form for one-hot E = I_t: 1 - prod_{r=1}^{n-1} [1 + (t - 1) exp(-v gamma/r)]^-1,
    as -expm1(log prod) (accurate when the failure is tiny)."""
    with arb_bits(PREC):
        prod = ball(1)
        for r in range(1, n):
            prod = prod / (1 + (t - 1) * ball(-vg / r).exp())
        return -(prod.log().expm1())


def log_step_margin(x: Fraction) -> arb:
    """f(x) = 2x + log(1 - x): -log(1 - x) <= 2x exactly where f(x) >= 0."""
    with arb_bits(PREC):
        return 2 * ball(x) + (1 - ball(x)).log()


def log_step_threshold(n: int, t: int, eps: Fraction, x: Fraction) -> arb:
    """n (log(nt) + 2 eps - log x): the v gamma above which n t exp(-v gamma/n + 2 eps) <= x."""
    with arb_bits(PREC):
        return n * (ball(n * t).log() + 2 * ball(eps) - ball(x).log())


def compare(x: arb, bound: arb) -> str:
    """'holds' (x < bound certainly), 'fails' (x > bound certainly) or 'undecided'."""
    return "holds" if x < bound else "fails" if x > bound else "undecided"


@dataclass(frozen=True)
class BoundCheck:
    """The completion of s by E at one v gamma against both bounds of Theorem 3.1, each outcome 'holds',
    'fails' or 'undecided' (:func:`compare`)."""

    completion: Completion
    failure_bound: arb  #: n t exp(-v gamma/n + 2 eps)
    loss_bound: arb  #: 2 n^2 t exp(-v gamma/n + 2 eps)
    failure: str
    loss: str


def check_bounds(E: Sequence[Vector], s: Sequence[int], eps: Fraction, vg: Fraction,
                 rows: Sequence[Sequence[Fraction]] | None = None) -> BoundCheck:
    """:class:`BoundCheck` of E on s at v gamma = ``vg`` (``rows``: the logit rows to use, by default
    :func:`logit_rows`)."""
    n, t = len(s), len(E)
    c = completion(rows or logit_rows(E, s), vg)
    fb, lb = failure_bound(n, t, eps, vg), loss_bound(n, t, eps, vg)
    return BoundCheck(c, fb, lb, compare(c.failure, fb), compare(c.loss, lb))


def fmt(x: arb) -> str:
    """A ball as a short decimal with its radius."""
    return x.str(6, radius=False)


# ----------------------------------------------------------------------------- constructions
def onehot(t: int, d: int) -> Embedding:
    """delta_k padded with zeros to dimension d >= t (Lemma 5.1's E = I_t is d = t)."""
    if d < t:
        raise ValueError(f"one-hot needs d >= t, got d = {d} < t = {t}")
    return tuple(tuple(Fraction(int(j == k)) for j in range(d)) for k in range(t))


def circle(t: int, d: int) -> Embedding:
    """t distinct rational points rho u_k on a circle in the first two coordinates (d >= 2), rho the
    smallest integer with rho^2 (1 - max_{a != k} <u_a, u_k>) >= 1: every margin is >= 1."""
    if d < 2:
        raise ValueError("the circle construction needs d >= 2")
    # u = ((1 - m^2) / (1 + m^2), 2m / (1 + m^2)): distinct points of the unit circle, m spread in [-1, 1]
    ms = [Fraction(2 * k - (t - 1), max(t - 1, 1)) for k in range(t)]
    us = [((1 - m * m) / (1 + m * m), 2 * m / (1 + m * m)) for m in ms]
    top = max(ua[0] * ub[0] + ua[1] * ub[1] for i, ua in enumerate(us) for ub in us[i + 1:]) \
        if t > 1 else Fraction(0)
    rho = 1
    while rho * rho * (1 - top) < 1:
        rho += 1
    return tuple((rho * u[0], rho * u[1]) + (Fraction(0),) * (d - 2) for u in us)


def line(t: int, s: Sequence[int]) -> Embedding | None:
    """d = 1: +1 and -1 for the (at most two) target tokens, 0 for the rest; None with more targets
    (then some target is not an extreme point and its logit is not the largest)."""
    targets = sorted(set(s[1:]))
    if len(targets) > 2:
        return None
    val = {a: Fraction(1 - 2 * i) for i, a in enumerate(targets)}
    return tuple((val.get(k, Fraction(0)),) for k in range(t))


def construct(t: int, d: int, s: Sequence[int]) -> tuple[Embedding | None, str]:
    """An E in Q^{t x d} whose margins are all >= 1, and its name: one-hot (d >= t), circle (d >= 2),
    line (d = 1, at most two targets); None when none applies."""
    if d >= t:
        return onehot(t, d), "one-hot (padded)"
    if d >= 2:
        return circle(t, d), "circle"
    return line(t, s), "line"


def onehot_positional(t: int, s: Sequence[int], gamma: Fraction) -> list[tuple[Fraction, ...]]:
    """Eq. (6)'s positional embeddings R for E = I_t, from the paper's own formula: R_1 = -delta_{s_1} +
    gamma delta_{s_2}, R_i = -(1 + gamma) delta_{s_i} + gamma delta_{s_{i+1}} (delta_{s_{n+1}} := 0)."""
    n, eye, zero = len(s), onehot(t, t), (0,) * t
    R6 = [tuple(-(1 + gamma) * x + gamma * y for x, y in zip(eye[s[i]], eye[s[i + 1]] if i + 1 < n else zero))
          for i in range(n)]
    R6[0] = tuple(-x + gamma * y for x, y in zip(eye[s[0]], eye[s[1]] if n > 1 else zero))
    return R6


def onehot_identities(t: int, s: Sequence[int], gamma: Fraction, v: Fraction
                      ) -> tuple[bool, bool, tuple[tuple[Fraction, ...], ...]]:
    """At E = I_t (Lemma 5.1): whether eq. (4)'s B equals eq. (6)'s R (:func:`onehot_positional`), whether
    every logit difference of the model at step r is -v gamma/r exactly, and the model's logit rows
    (:func:`head_rows`)."""
    eye = onehot(t, t)
    same_B = list(closed_form_B(eye, s, gamma)) == onehot_positional(t, s, gamma)
    rows = head_rows(eye, s, v, gamma)
    same_rows = all(row == tuple(Fraction(-1, r) for _ in row) for r, row in enumerate(rows, start=1))
    return same_B, same_rows, rows


def gaussian(t: int, d: int, rng: np.random.Generator, bits: int = 20) -> Embedding:
    """The proof's JL construction: N(0, 1/d) entries (Dasgupta-Gupta), rounded to multiples of 2^-bits
    (exact rationals; (7) is then checked on these exact entries)."""
    g = rng.standard_normal((t, d)) / np.sqrt(d)
    return tuple(tuple(Fraction(int(round(x * 2**bits)), 2**bits) for x in row) for row in g)


def reflect(E: Embedding, rng: np.random.Generator, count: int) -> Embedding:
    """E H_1 ... H_count with rational Householder reflections H = I - 2 w w^T / w^T w (w small random
    integers): the Gram matrix, hence (7) and every logit, is unchanged exactly."""
    rows = [list(r) for r in E]
    d = len(rows[0])
    for _ in range(count):
        w = [int(x) for x in rng.integers(-3, 4, size=d)]
        ww = sum(x * x for x in w)
        if ww == 0:
            continue
        for row in rows:
            c = 2 * sum((a * b for a, b in zip(row, w)), Fraction(0)) / ww
            row[:] = [a - c * b for a, b in zip(row, w)]
    return tuple(tuple(r) for r in rows)


def scaled(t: int, d: int, c2: Fraction) -> Embedding:
    """sqrt(c2) delta_k with c2 a rational square (exact): (7) holds iff 1 - eps <= c2 <= 1 + eps."""
    num, den = c2.numerator, c2.denominator
    rn, rd = int(round(num**0.5)), int(round(den**0.5))
    if rn * rn != num or rd * rd != den:
        raise ValueError(f"c2 must be a rational square, got {c2}")
    return tuple(tuple(Fraction(rn, rd) * x for x in row) for row in onehot(t, d))


def shifted(t: int, d: int, a: int) -> Embedding:
    """delta_k - delta_a: a translate of one-hot (every distance, so (7) at distortion 1, is kept), with
    E_a = 0, so every logit of a step with target a is 0."""
    return tuple(tuple(x - y for x, y in zip(row, onehot(t, d)[a])) for row in onehot(t, d))


def outside_copy(t: int, d: int, s: Sequence[int]) -> Embedding | None:
    """One-hot, except that a token outside s is embedded as 2 E_a for a target a (eq. (7) constrains
    the tokens of s only); None when s uses every token."""
    free = [k for k in range(t) if k not in set(s)]
    if not free or len(s) < 2:
        return None
    E = list(onehot(t, d))
    E[free[0]] = tuple(2 * x for x in E[s[1]])
    return tuple(E)


def square_scale(eps: Fraction) -> Fraction:
    """The smallest (k/16)^2, k = 1..16, that is >= 1 - eps: a rational square c2 at which :func:`scaled`
    satisfies (7) at its lower end."""
    return next(Fraction(k * k, 256) for k in range(1, 17) if Fraction(k * k, 256) >= 1 - eps)


def named_embedding(kind: str, t: int, d: int, s: Sequence[int], seed: int) -> Embedding:
    """The embedding called ``kind``: 'gaussian' (seeded, numpy default_rng(seed)), 'onehot', 'circle',
    'shifted' (the target s_n at the origin) or 'scaled' (9/16 one-hot, two seeded reflections)."""
    rng = np.random.default_rng(seed)
    makers = {"gaussian": lambda: gaussian(t, d, rng), "onehot": lambda: onehot(t, d),
              "circle": lambda: circle(t, d), "shifted": lambda: shifted(t, d, s[-1]),
              "scaled": lambda: reflect(scaled(t, d, Fraction(9, 16)), rng, 2)}
    return makers[kind]()
