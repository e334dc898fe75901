"""The paper's norm L = ||A||_F ||B||_F ||V E|| of one-hidden-layer MLPs that approximate sin(omega z) on
[-1, 1], as a function of omega (Izzo, Nichani & Lee 2025, Sec. 5 and App. A.2: "L = Theta(omega)", with
Barron 1993 cited for the weight norms).

Normalizations (both change L and are stated in every report): the MLP reads the scalar z along the unit
direction V E_0 / ||V E_0|| (||V E|| = 1) and writes its output to a coordinate read by a unit readout row.
L ignores the readout U, so without the second normalization L can be made arbitrarily small (B -> B/lam,
U -> lam U leaves the output unchanged). L ignores the hidden biases b too.

Per-neuron rescaling (a_k -> lam a_k, b_k -> lam b_k, B_k -> B_k/lam for a positively homogeneous psi
such as ReLU; for other psi the same rescaling of the dictionary) minimizes ||A||_F ||B||_F at the path
norm sum_k |a_k| |w_k| (Cauchy-Schwarz), which is what is reported as the rebalanced L.

Lower bound used (derived here): on [-1, 1], g' = sum_k w_k a_k psi'(a_k z + b_k), so TV(g') <= sum_k |w_k
a_k| TV(psi') and L >= TV(g') / TV(psi') with TV(psi') = 1 (ReLU), 2 (tanh), 1/2 (sigmoid). If |g - sin(omega
.)| <= eta on [-1, 1], g changes by >= 2 - 2 eta between consecutive extrema of sin(omega z) (distance
pi/omega), so g' takes values >= (2 - 2 eta) omega/pi in alternating signs there and TV(g') >= (M - 2) 2 (2 -
2 eta) omega / pi, M the number of extrema in [-1, 1]: L = Omega(omega^2) for every psi with psi' of bounded
variation. psi = sin reaches L = omega with one neuron.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from array_api_compat import array_namespace
from scipy.optimize import linprog

from ..errors import InputError
from ..numerics import arrays
from .constructions import interpolation_error_bound, relu_interpolant

#: total variation of psi' over the real line
TV_DPSI = {"relu": 1.0, "tanh": 2.0, "sigmoid": 0.5}
#: activations on arrays of any array-API namespace (numpy for the LP, :mod:`proofkit.numerics.arrays` for
# the sweep)
PSI = {"tanh": lambda u: array_namespace(u).tanh(u),
       "sigmoid": lambda u: 0.5 * (1.0 + array_namespace(u).tanh(0.5 * u)),
       "relu": lambda u: array_namespace(u).maximum(u, 0.0)}
DENSE_BLOCK = 20_000  # points per block of the dense error sweep (bounded memory)
DPSI_MAX = {"tanh": 1.0, "sigmoid": 0.25, "relu": 1.0}


@dataclass(frozen=True)
class NormReport:
    """One MLP for sin(omega z): ``L`` (rebalanced, unit readout, ||V E|| = 1), ``L_raw`` (||A||_F ||B||_F
    before rebalancing, where it differs), the sup error ``eta`` it meets (``where``: how that was
    established), the width, and ``lower`` the bound (M - 2) 4 (1 - eta) omega / (pi TV(psi'))."""

    psi: str
    omega: float
    L: float
    L_raw: float
    eta: float
    where: str
    width: int
    lower: float


def extrema_count(omega: float) -> int:
    """The number M of extrema (pi/2 + m pi)/omega of sin(omega z) in [-1, 1]."""
    return sum(1 for m in range(-int(omega) - 2, int(omega) + 2) if abs(math.pi / 2 + m * math.pi) <= omega)


def lower_bound(omega: float, eta: float, psi: str) -> float:
    """(M - 2) 4 (1 - eta) omega / (pi TV(psi')): a lower bound on L for every eta-approximant (0 if
    M <= 2; none for psi = sin, whose psi' has unbounded variation)."""
    M = extrema_count(omega)
    return max(M - 2, 0) * 4 * (1 - eta) * omega / (math.pi * TV_DPSI[psi])


def relu_interpolant_norm(omega: int | Fraction, eta: Fraction) -> NormReport:
    """The ReLU interpolant with the fewest uniform knots whose exact error bound omega^2 h^2/8 (+ knot
    rounding) is <= eta: the exact model of :func:`proofkit.limit.constructions.simple_task_model`."""
    omega, eta = Fraction(omega), Fraction(eta)
    n = max(1, math.ceil(float(omega) / math.sqrt(2 * float(eta))) - 1)
    while interpolation_error_bound(omega, n) > eta:
        n += 1
    _, _, _, w = relu_interpolant(omega, n)
    path = float(sum(abs(v) for v in w))
    raw = math.sqrt(n) * math.sqrt(float(sum(v * v for v in w)))
    return NormReport("relu", float(omega), path, raw, float(interpolation_error_bound(omega, n)),
                      "exact bound omega^2 h^2/8 + rounding", n,
                      lower_bound(float(omega), float(eta), "relu"))


def dense_error(a: np.ndarray, t: np.ndarray, w: np.ndarray, c: float, omega: float, psi: str, dense: int,
                xp: Any = None) -> tuple[float, float]:
    """max |g(z) - sin(omega z)| over ``dense`` equispaced points z of [-1, 1], for the network
    g(z) = sum_k w_k psi(a_k (z - t_k)) + c, and the spacing of the points: a float64 sweep in the array
    namespace ``xp`` (None: the ``--backend``'s, :mod:`proofkit.numerics.arrays`), in blocks of DENSE_BLOCK
    points."""
    xp = arrays.namespace() if xp is None else xp
    a, t, w = (arrays.asarray(v, xp, xp.float64) for v in (a, t, w))
    zd = xp.linspace(-1.0, 1.0, dense, dtype=xp.float64)
    err = 0.0
    for i in range(0, dense, DENSE_BLOCK):
        z = zd[i:min(dense, i + DENSE_BLOCK)]
        g = PSI[psi](a[None, :] * (z[:, None] - t[None, :])) @ w + float(c)
        err = max(err, float(xp.max(xp.abs(g - xp.sin(float(omega) * z)))))
    return err, float(zd[1] - zd[0])


def lp_fit_norm(omega: float, eta: float, psi: str, per_unit: float = 4.0,
                slopes: tuple[float, ...] = (1.0, 2.0), dense: int = 400_000, xp: Any = None) -> NormReport:
    """The smallest path norm sum |a_k||w_k| over a fixed dictionary psi(a (z - t)) (centres t on a grid of
    ``per_unit`` omega points per unit length over [-1.2, 1.2], slopes a = s omega, s in ``slopes``) with
    |g - sin(omega z)| <= eta/2 at 20 omega + 101 constraint points (a linear program, HiGHS). The error
    reported is its maximum over ``dense`` equispaced points plus the Lipschitz allowance
    (L max|psi'| + omega) delta/2 between them (delta their spacing): a bound on all of [-1, 1].
    (For psi = sigmoid use :func:`sigmoid_from_tanh`: the same functions at exactly 4x the path norm.)
    The LP runs on the host (SciPy); the dense sweep in ``xp`` (:func:`dense_error`)."""
    if psi not in ("tanh", "relu"):
        raise InputError("psi", "tanh or relu (sigmoid: sigmoid_from_tanh)", psi)
    centres = np.linspace(-1.2, 1.2, max(8, int(per_unit * omega * 2.4)))
    A_, T_ = np.meshgrid(np.array([s * omega for s in slopes]), centres, indexing="ij")
    a_k, t_k = A_.ravel(), T_.ravel()
    zs = np.linspace(-1.0, 1.0, int(20 * omega) + 101)
    Phi = PSI[psi](a_k[None, :] * (zs[:, None] - t_k[None, :]))
    m, target = len(a_k), np.sin(omega * zs)
    # variables w+ (m), w- (m), c+, c- >= 0; minimize sum_k a_k (w+ + w-)
    G = np.hstack([Phi, -Phi, np.ones((len(zs), 1)), -np.ones((len(zs), 1))])
    res = linprog(np.concatenate([a_k, a_k, [0.0, 0.0]]), A_ub=np.vstack([G, -G]),
                  b_ub=np.concatenate([target + eta / 2, eta / 2 - target]), bounds=(0, None),
                  method="highs")
    if res.status != 0:
        raise RuntimeError(f"LP for {psi}, omega = {omega}: {res.message}")
    w, c = res.x[:m] - res.x[m:2 * m], res.x[2 * m] - res.x[2 * m + 1]
    used = np.abs(w) > 1e-12
    path = float(np.sum(a_k * np.abs(w)))
    raw = float(np.linalg.norm(a_k[used]) * np.linalg.norm(w[used]))
    err, spacing = dense_error(a_k[used], t_k[used], w[used], c, omega, psi, dense, xp)
    eta_all = err + (path * DPSI_MAX[psi] + omega) * spacing / 2
    return NormReport(psi, omega, path, raw, eta_all,
                      f"LP at {len(zs)} points; max error at {dense} points + Lipschitz allowance",
                      int(used.sum()), lower_bound(omega, eta_all, psi))


def sigmoid_from_tanh(r: NormReport) -> NormReport:
    """sigmoid(u) = (1 + tanh(u/2))/2, so w tanh(a(z - t)) = 2w sigmoid(2a(z - t)) - w: the same function
    (the constant absorbed in the bias-free readout constant) with path norm 2a |2w| = 4 a |w|. The
    dictionary's minimum over sigmoid units is therefore exactly 4x the tanh one."""
    return NormReport("sigmoid", r.omega, 4 * r.L, 4 * r.L_raw, r.eta, r.where + " (tanh net rewritten)",
                      r.width, lower_bound(r.omega, r.eta, "sigmoid"))


def sin_norm(omega: float) -> NormReport:
    """psi = sin: g(z) = 1 * sin(omega z), one neuron, exact: L = omega."""
    return NormReport("sin", omega, omega, omega, 0.0, "exact (g = sin(omega z))", 1, omega)


__all__ = ["TV_DPSI", "NormReport", "extrema_count", "lower_bound", "relu_interpolant_norm", "lp_fit_norm",
           "sigmoid_from_tanh", "sin_norm"]
