"""Structured, data-driven starting points for the float64 fit, tried before its random restarts.

A random start of a hidden-unit family (:meth:`~proofkit.families.base.Family.unit_parts`: ``psi(x) = W2
act(W1 x + b1) + b2``, logit ``A sum_j psi(x_j) (+ a)``) lands in a spurious minimum about half the time on
AM24.T1 (the same one, max training residual 4.4e-3, from most failing starts): its units start on top of each
other or flat over the training tokens, and LM merges them. A structured start builds the hidden layer from
the training tokens and solves the layer after it exactly:

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

The linear recurrence (AM24 Theorem 4: logit ``A s_t``, ``s_t = Lam s_(t-1) + B x_t``) gets one
structured start from its Markov parameters: the logit at length t is ``sum_j M_j x_(t-j) (+ a)`` with
``M_j = A Lam^j B``, linear in them, so one linear least-squares solve on the training targets estimates
M_0..M_(T-1) (and a readout bias). A realization of the learned dimension k~ follows from the first two
(Ho-Kalman with one block row and column): ``M_0 = U S V^T``, ``A = U_k S_k^(1/2)``,
``B = S_k^(1/2) V_k^T``, ``Lam = A^+ M_1 B^+``. It applies only where M_0 has rank exactly k~: then every
order-k~ model with these M_0, M_1 is similar to it (``A~ B~ = A B`` of rank k~ gives ``A~ = A C^-1``,
``B~ = C B``, and ``A~ Lam~ B~ = A Lam B`` then forces ``Lam~ = C Lam C^-1``), so the start is the one the
data determine and a counterexample search loses no exact fit by trying it first. Where M_0 has another
rank (an over-parametrized learner, a singular true A or B), the training inputs do not identify the
Markov parameters (a subspace support), T = 1 (no M_1) or the readout is not injective, there is none.
Measured on 60 seeded AM24.T4 problems (the default at seeds 0-19; n = 3, T = 3, a readout bias, four
structured transitions and length-2 labels only, each at seeds 0-4): the realization start reaches the
1e-6 warm-start threshold in all 60, after at most one LM iteration (median 0.30 ms with building it),
against 403 of 480 random restarts (the first restart in 45 of 60; median 1.4 ms until one does).
"""

from __future__ import annotations

import numpy as np

from ..families import Family, LinearRecurrence
from ..families.biased import BiasedReadout
from ..numerics.backend import FLOAT64
from .problem import Problem

#: structured starts tried before the random restarts (families with hidden units, injective readout)
STRUCTURED_STARTS = 2
#: quantiles of the token projections that span SPAN units of pre-activation
QUANTILES, SPAN = (0.1, 0.9), 2.0
#: random unit vectors drawn per hidden unit, among which the directions are chosen
CANDIDATES = 16
#: a singular value of the least-squares M_0 at most this fraction of the largest counts as zero: the
#: estimate of an exactly realizable M_0 errs at float64 rounding (about 1e-15 relative), a genuinely
#: rank-k~ one has no singular value anywhere near 1e-8 of its largest on the instances proofkit checks
RANK_RTOL = 1e-8


def supports_structured(problem: Problem) -> bool:
    """Whether structured starts may apply: a family with hidden units or a linear recurrence, compared
    in logit space (an injective readout; otherwise the residual is not linear in the layer after the
    hidden one, nor in the Markov parameters)."""
    return problem.injective and (hasattr(problem.learned, "unit_parts")
                                  or linear_recurrence(problem.learned)[0] is not None)


def linear_recurrence(family: Family) -> tuple[LinearRecurrence | None, bool]:
    """(the LinearRecurrence that ``family`` is or wraps with a readout bias, or None; whether it has
    the bias)."""
    if isinstance(family, LinearRecurrence):
        return family, False
    if isinstance(family, BiasedReadout) and isinstance(family.base, LinearRecurrence):
        return family.base, True
    return None, False


def markov_least_squares(problem: Problem, biased: bool) -> tuple[list[np.ndarray], np.ndarray] | None:
    """(M_0..M_(T-1), readout bias) fitting the float64 training targets by linear least squares: the
    logit of a length-t sequence is sum_j M_j x_(t-j) (+ a). None when the training inputs do not
    determine them (the design matrix is rank-deficient, e.g. tokens on a subspace)."""
    fam = problem.learned
    T, n = max(problem.lengths), fam.n
    rows, targets = [], []
    for X, y in zip(problem.train_X, problem.train_targets(FLOAT64)):
        N, t, _ = X.shape
        design = np.zeros((N, T * n + int(biased)))
        design[:, : t * n] = X[:, ::-1, :].reshape(N, t * n)  # x_t, x_(t-1), ..., x_1 meet M_0, M_1, ...
        if biased:
            design[:, -1] = 1.0
        rows.append(design)
        targets.append(y)
    design, Y = np.concatenate(rows), np.concatenate(targets)
    coef, _, rank, _ = np.linalg.lstsq(design, Y, rcond=None)
    if rank < design.shape[1]:
        return None
    markov = [coef[j * n : (j + 1) * n].T for j in range(T)]
    return markov, coef[-1] if biased else np.zeros(0)


def realization_start(problem: Problem) -> np.ndarray | None:
    """The linear recurrence's structured start (module docstring): Markov parameters by least squares,
    then the order-k~ realization of M_0, M_1; None where it does not apply."""
    base, biased = linear_recurrence(problem.learned)
    if base is None or max(problem.lengths) < 2:
        return None
    est = markov_least_squares(problem, biased)
    if est is None:
        return None
    (M0, M1, *_), bias = est
    U, s, Vt = np.linalg.svd(M0)
    k = base.k
    if len(s) < k or s[k - 1] <= RANK_RTOL * s[0] or (len(s) > k and s[k] > RANK_RTOL * s[0]):
        return None  # M_0 does not have rank exactly k~: the data do not pin an order-k~ model
    root = np.sqrt(s[:k])
    A, B = U[:, :k] * root, root[:, None] * Vt[:k]
    Lam = (U[:, :k].T @ M1 @ Vt[:k].T) / np.outer(root, root)  # A^+ M_1 B^+
    blocks = {"A": A, "Lam": Lam, "B": B} | ({"a": bias} if biased else {})
    return problem.learned.pack(blocks)


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
    """Up to ``count`` structured starts, none where they do not apply (:func:`supports_structured`):
    for hidden-unit families ``count`` of them from their own seeded stream (the random restarts'
    stream is left as it was); for the linear recurrence its one realization start, which the data
    determine (the same for every seed)."""
    if count <= 0 or not supports_structured(problem):
        return []
    if linear_recurrence(problem.learned)[0] is not None:
        start = realization_start(problem)
        return [] if start is None else [start]
    rng = np.random.default_rng([seed, 1])
    return [structured_start(problem, rng, init_scale) for _ in range(count)]
