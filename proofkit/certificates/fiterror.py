"""How far the fitted learner may sit from an exact zero-risk learner, and balls that carry that
uncertainty through the model.

A fit stops at a training residual r > 0, so the fitted parameters are not an exact zero-risk learner. Without
an interval existence proof (:mod:`proofkit.certificates.existence`) the distance to one is only estimated:
PARAM_SAFETY x max(|J^+ r|, sqrt(max |r|)). The first term is the Gauss-Newton step to the zero set; the
second allows for a degenerate (double) zero, where the distance scales like the square root of the residual
(an over-parametrized learner whose extra mode is coupled at r has its coupling weights at sqrt(r)). Every
verdict that rests on this estimate says it is uncertified.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flint
import mpmath as mp
import numpy as np

from ..language.tolerances import PARAM_SAFETY
from ..numerics.backend import ARB, FLOAT64, MP, mp_abs_max

if TYPE_CHECKING:  # annotations only: the engine's Problem is built above this layer
    from ..engine.problem import Problem


def param_radius(problem: Problem, theta: np.ndarray) -> mp.mpf:
    """Estimated distance (max norm) from ``theta`` to an exact zero of the training residual."""
    r = problem.residual(theta, MP)
    rmax = mp_abs_max(r)
    if rmax == 0:
        return mp.mpf(0)
    J = problem.residual_jacobian(np.array([float(v) for v in theta]), FLOAT64)
    s = np.linalg.svd(J, compute_uv=False) if J.size else np.zeros(0)
    kept = s[s > 1e-13 * s[0]] if s.size and s[0] > 0 else s[:0]
    r2 = mp.sqrt(sum(v * v for v in r))
    gauss_newton = r2 / mp.mpf(float(kept[-1])) if kept.size else mp.inf
    return PARAM_SAFETY * max(gauss_newton, mp.sqrt(rmax))


def inflate(theta: np.ndarray, radius: mp.mpf) -> np.ndarray:
    """arb balls centred at the (exact binary) parameters with the given radius on every coordinate."""
    rad = flint.arb(mp.nstr(radius, 20)) if radius > 0 else flint.arb(0)
    return np.array([ARB.convert(mp.mpf(v)) + flint.arb(0, rad.abs_upper()) for v in theta], dtype=object)
