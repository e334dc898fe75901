"""Structured, data-driven starting points for the float64 fit, tried before its random restarts.

A random start of a hidden-unit family (:meth:`~proofkit.families.base.Family.unit_parts`:
``psi(x) = W2 act(W1 x + b1) + b2``, logit ``A sum_j psi(x_j) (+ a)``) lands in a spurious minimum
about half the time on AM24.T1 (the same one, max training residual 4.4e-3, from most failing starts):
its units start on top of each other or flat over the training tokens, and LM merges them. A
structured start builds the hidden layer from the training tokens and solves the layer after it
exactly:

* unit directions spread apart: the greedy max-min choice among seeded random unit vectors, angles
  counted up to sign (an odd activation makes w and -w one unit);
* each unit scaled so that the training tokens' projections between their 10% and 90% quantiles span
  two units of pre-activation (the activation's curved part), centred at their median;
* with A and the hidden layer fixed, the logits are linear in (W2, b2, a), so their best values are one
  linear least-squares solve on the training residual with the analytic Jacobian.

Measured on AM24.T1 (float64 LM from each start, 40 starts): 34 of 40 structured starts reach the
1e-6 warm-start threshold against 18 of 40 random ones. They are extra starts, not replacements: a
few parameter sets fit better from random starts (k~ = m = 1, T = 1), and the random restarts that
follow are exactly the ones tried before, so a fit that converged without them still converges.
"""

from __future__ import annotations

import numpy as np

from .backend import FLOAT64
from .problem import Problem

#: structured starts tried before the random restarts (families with hidden units, injective readout)
STRUCTURED_STARTS = 2
#: quantiles of the token projections that span SPAN units of pre-activation
QUANTILES, SPAN = (0.1, 0.9), 2.0
#: random unit vectors drawn per hidden unit, among which the directions are chosen
CANDIDATES = 16


def supports_structured(problem: Problem) -> bool:
    """Whether structured starts apply: a family with hidden units, compared in logit space (an
    injective readout; otherwise the residual is not linear in the layer after the hidden one)."""
    return hasattr(problem.learned, "unit_parts") and problem.injective


def spread_directions(rng: np.random.Generator, count: int, n: int) -> np.ndarray:
    """``count`` unit vectors in R^n, greedily spread apart up to sign (each next one has the
    smallest largest |cosine| with those chosen) among ``CANDIDATES * count`` seeded random ones."""
    cand = rng.normal(size=(CANDIDATES * count, n))
    cand /= np.linalg.norm(cand, axis=1, keepdims=True)
    pick = [0]
    for _ in range(count - 1):
        closeness = np.max(np.abs(cand @ cand[pick].T), axis=1)
        closeness[pick] = np.inf
        pick.append(int(np.argmin(closeness)))
    return cand[pick]


def block_indices(problem: Problem, names: list[str]) -> np.ndarray:
    """Indices in theta of the named ``unit_parts`` blocks, flattened in order (read off the parts of
    an index vector, so no knowledge of the family's layout is needed)."""
    fam = problem.learned
    parts = fam.unit_parts(np.arange(fam.n_params, dtype=float))
    return np.concatenate([np.ravel(parts[k]) for k in names if parts.get(k) is not None]).astype(int)


def linear_block(problem: Problem) -> np.ndarray:
    """Indices of the parameters the logits are linear in once the readout A and the hidden layer are
    fixed: out_weights, out_bias and the readout bias where there is one."""
    return block_indices(problem, ["out_weights", "out_bias", "readout_bias"])


def solve_linear_block(problem: Problem, theta: np.ndarray, block: np.ndarray) -> np.ndarray:
    """theta with the linear block set to its least-squares best for the training residual."""
    r = problem.residual(theta, FLOAT64)
    J = problem.residual_jacobian(theta, FLOAT64)[:, block]
    step = np.linalg.lstsq(J, -r, rcond=None)[0]
    out = np.array(theta, dtype=float)
    out[block] += step
    return out


def structured_start(problem: Problem, rng: np.random.Generator, init_scale: float = 0.5) -> np.ndarray:
    """One structured start (see the module docstring): A as a random start has it, the hidden layer
    from the training tokens, the layer after it by least squares."""
    fam = problem.learned
    theta = np.array(fam.init(rng, init_scale), dtype=float)
    w_idx = block_indices(problem, ["in_weights"])
    b_idx = block_indices(problem, ["in_bias"])
    width = len(b_idx)
    W1 = np.zeros((width, len(w_idx) // width))
    b1 = np.zeros(width)
    tokens = np.concatenate([X.reshape(-1, X.shape[-1]) for X in problem.train_X])
    for u, d in enumerate(spread_directions(rng, width, W1.shape[1])):
        lo, mid, hi = np.quantile(tokens @ d, [QUANTILES[0], 0.5, QUANTILES[1]])
        gain = SPAN / max(hi - lo, 1e-3)
        W1[u], b1[u] = gain * d, -gain * mid
    theta[w_idx], theta[b_idx] = W1.ravel(), b1
    return solve_linear_block(problem, theta, linear_block(problem))


def structured_starts(problem: Problem, seed: int, count: int = STRUCTURED_STARTS,
                      init_scale: float = 0.5) -> list[np.ndarray]:
    """``count`` structured starts from their own seeded stream (the random restarts' stream is left
    as it was); none where they do not apply (:func:`supports_structured`)."""
    if count <= 0 or not supports_structured(problem):
        return []
    rng = np.random.default_rng([seed, 1])
    return [structured_start(problem, rng, init_scale) for _ in range(count)]
