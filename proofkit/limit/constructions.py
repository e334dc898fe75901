"""The constructions of Izzo, Nichani & Lee 2025, App. A.2, as explicit limit transformers with rational
parameters (:class:`proofkit.limit.model.LimitTransformer`), checked with the exact forward pass.

The appendix uses infinite logits; here the preferred keys get a finite logit gap ``c > 0``, so the
logit margin is ``c`` and the flushed softmax is a hardmax for ``N >= 2^(p/c)`` (p bits of precision).

**SimpleTask** (coordinates: token one-hots e_0, e_1, e_2, the value coordinate z, the MLP output o;
``P = 0``, Delta = 1, phi = 0). ``Q`` maps every token to 1 (the one-hot coordinates sum to 1, so no
dedicated constant/bias coordinate is needed), ``K`` gives keys 0 and 1 the score ``c`` and key 2 the
score 0; ``V E_0 = e_z = -V E_1``, ``V E_2 = 0``. Under hardmax the z coordinate of Y is exactly
``(c_0 - c_1)/(c_0 + c_1)`` (0 on the undefined all-2 strings: uniform attention over V E_2 = 0). The
MLP is the ReLU piecewise-linear interpolant of sin(omega z) at the knots ``-1 + 2i/n`` (values rounded
to rationals), written into o; the constant term is read through the token one-hots by ``U``.
Readout rows: ``out[0] = z`` (the attention average), ``out[1] = o + const`` (the approximation of
f*).

**ModPTask** (coordinates: token one-hots e_0, e_1, positional q_0..q_{p-1}, the value coordinate v;
Delta = p, no MLP). The appendix prints "p_i = q_j where i != j (mod p)"; :data:`POSITION_READINGS`
builds that and the ``=`` reading, each with the key matrix it implies, so the exact forward pass decides
which compute f*.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

from ..errors import InputError, one_of
from .model import LimitTransformer, rational_matrix

#: how position vectors p_i are assigned from orthogonal q_0..q_{p-1} (r = i mod p), and which key
#: reading K uses: ``equiv`` p_i = q_r, K reads +q_k (the intended construction); ``shift`` p_i =
#: q_{r+1} (one j != r per i, a bijection), K reads +q_{k+1}; ``complement`` p_i = sum_{j != r} q_j,
#: K reads +q_k (the = construction's K, unchanged); ``complement-adapted`` the same p_i, K reads -q_k;
#: ``first`` p_i = q_j for the smallest j != r (one j per i, not injective for p >= 3), K reads +q_k
POSITION_READINGS = ("equiv", "shift", "complement", "complement-adapted", "first")


def _onehot(i: int, d: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(int(j == i)) for j in range(d))


def sin_knots(omega: Fraction, n: int, digits: int = 30) -> list[tuple[Fraction, Fraction]]:
    """(t_i, s_i), t_i = -1 + 2i/n, s_i = sin(omega t_i) rounded to the nearest multiple of 10^-digits
    (|s_i - sin(omega t_i)| <= 10^-digits / 2)."""
    if n < 1:
        raise InputError("n", "at least one interpolation interval", n)
    mp.mp.dps = digits + 20
    out = []
    for i in range(n + 1):
        t = Fraction(-1) + Fraction(2 * i, n)
        s = mp.sin(mp.mpf(omega.numerator) / omega.denominator * mp.mpf(t.numerator) / t.denominator)
        out.append((t, Fraction(int(mp.nint(s * 10**digits)), 10**digits)))
    return out


def relu_interpolant(omega: Fraction, n: int) -> tuple[Fraction, list[Fraction], list[Fraction],
                                                           list[Fraction]]:
    """The ReLU form of the piecewise-linear interpolant g(z) = const + sum_k w_k relu(z - t_k) on [-1, 1]:
    (const, knots t_k, unit biases -t_k, output weights w_k); the first unit relu(z + 1) carries the
    first slope, the others the slope changes."""
    pts = sin_knots(omega, n)
    slopes = [(s1 - s0) / (t1 - t0) for (t0, s0), (t1, s1) in zip(pts, pts[1:])]
    knots = [t for t, _ in pts[:-1]]
    weights = [slopes[0]] + [b - a for a, b in zip(slopes, slopes[1:])]
    return pts[0][1], knots, [-t for t in knots], weights


def simple_task_model(omega: Fraction | int = 1, c: Fraction | int = 2, n: int = 16) -> LimitTransformer:
    """The SimpleTask construction with logit gap ``c`` and an ``n``-interval ReLU interpolant of
    sin(omega z)."""
    omega, c = Fraction(omega), Fraction(c)
    if c <= 0:
        raise InputError("c", "a positive logit gap", c)
    d = 5  # e_0, e_1, e_2, z, o
    E = {s: _onehot(i, d) for i, s in enumerate("012")}
    const, knots, biases, weights = relu_interpolant(omega, n)
    A = [[0, 0, 0, 1, 0] for _ in knots]
    B = [[0] * len(knots) for _ in range(d)]
    B[4] = list(weights)
    V = [[0] * d for _ in range(d)]
    V[3][0], V[3][1] = 1, -1
    return LimitTransformer(
        E=E, P=rational_matrix([[0] * d], "P"), K=rational_matrix([[c, c, 0, 0, 0]], "K"),
        Q=rational_matrix([[1, 1, 1, 0, 0]], "Q"), V=rational_matrix(V, "V"),
        A=rational_matrix(A, "A"), b=tuple(biases), B=rational_matrix(B, "B"),
        U=rational_matrix([[0, 0, 0, 1, 0], [const, const, const, 0, 1]], "U"), psi="relu",
        name=f"simple-task(omega={omega}, c={c}, n={n})")


def interpolation_error_bound(omega: Fraction, n: int, digits: int = 30) -> Fraction:
    """|g(z) - sin(omega z)| <= omega^2 h^2 / 8 + 10^-digits/2 on [-1, 1] (h = 2/n; the linear
    interpolation bound with |sin''| <= omega^2, plus the rounding of the knot values), as a rational."""
    h = Fraction(2, n)
    return Fraction(omega) ** 2 * h * h / 8 + Fraction(1, 2 * 10**digits)


def sin_gap_bound(omega: Fraction, z: Fraction, value: Fraction) -> mp.mpf:
    """An upper bound on |value - sin(omega z)| by interval arithmetic (mpmath.iv at 50 digits, which this
    sets), for checking the MLP output against the target it interpolates."""
    mp.iv.dps = 50
    s = mp.iv.sin(mp.iv.mpf(omega.numerator) * z.numerator / (mp.iv.mpf(omega.denominator) * z.denominator))
    d = mp.iv.mpf(value.numerator) / value.denominator - s
    return max(abs(mp.mpf(d.a)), abs(mp.mpf(d.b)))


def _position_vectors(p: int, reading: str) -> list[list[int]]:
    rows = []
    for r in range(p):
        if reading == "equiv":
            js = [r]
        elif reading == "shift":
            js = [(r + 1) % p]
        elif reading in ("complement", "complement-adapted"):
            js = [j for j in range(p) if j != r]
        else:  # first
            js = [min(j for j in range(p) if j != r)] if p > 1 else []
        rows.append([int(j in js) for j in range(p)])
    return rows


def modp_task_model(p: int = 5, k: int = 1, c: Fraction | int = 2,
                    reading: str = "equiv") -> LimitTransformer:
    """The ModPTask construction (Delta = p) with logit gap ``c`` and the positional ``reading``."""
    if reading not in POSITION_READINGS:
        raise one_of("reading", POSITION_READINGS, reading)
    if not isinstance(p, int) or p < 1:
        raise InputError("p", "a period >= 1", p)
    c = Fraction(c)
    d = 2 + p + 1  # e_0, e_1, q_0..q_{p-1}, v
    E = {s: _onehot(i, d) for i, s in enumerate("01")}
    P = [[0, 0] + row + [0] for row in _position_vectors(p, reading)]
    key = [0] * d
    target = (k + 1) % p if reading == "shift" else k % p
    key[2 + target] = -c if reading == "complement-adapted" else c
    V = [[0] * d for _ in range(d)]
    V[d - 1][1] = 1  # V E_1 = e_v, V E_0 = 0, V q_j = 0
    return LimitTransformer(
        E=E, P=rational_matrix(P, "P"), K=rational_matrix([key], "K"),
        Q=rational_matrix([[1, 1] + [0] * (p + 1)], "Q"), V=rational_matrix(V, "V"),
        U=rational_matrix([[0] * (d - 1) + [1]], "U"), name=f"modp-task(p={p}, k={k}, c={c}, {reading})")


__all__ = ["POSITION_READINGS", "sin_knots", "relu_interpolant", "simple_task_model",
           "interpolation_error_bound", "modp_task_model"]
