"""Structured certificate data for records: what the independent kernel (:mod:`proofkit.kernel`,
docs/trust.md) re-checks, written by the code that certifies.

A record's ``certificate`` is ``{"certified", "how"}`` plus, where the certification has a kind the kernel
knows, ``"data": {"kind": ..., ...}``. Every number is an exact string: parameters as the record stores
them (decimals or "p/q"), witness tokens as the exact rational value of their float64 ("p/q"), bounds
rounded outward to decimals (a lower bound down, an upper bound up), never a float. Models are described
by family and named blocks (:func:`model`), independent of proofkit's flat parameter layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath as mp
import numpy as np

from ..numerics.exact import as_fraction, exact, rounded


def witness(X: np.ndarray) -> list[list[str]]:
    """A witness sequence (t x n floats) as exact rationals."""
    return [[exact(float(v)) for v in row] for row in np.asarray(X, dtype=float)]


def model(family: Any, params: Sequence[Any]) -> dict[str, Any] | None:
    """The kernel's description of a model: family name and blocks A, Lam, B (and the readout bias a,
    and the RNN's hidden activation sigma), values as the given strings. None for a family the kernel
    does not evaluate."""
    from ..families.biased import BiasedReadout
    from ..families.linrec import LinearRecurrence
    from ..families.rnn import VanillaRNN

    base, flat = family, [str(v) for v in params]
    if isinstance(family, BiasedReadout):
        base = family.base
    if type(base) is LinearRecurrence:
        out: dict[str, Any] = {"family": "linear-recurrence"}
    elif type(base) is VanillaRNN:
        out = {"family": "rnn", "sigma": base.sigma}
    else:
        return None
    blocks = family.unpack(np.asarray(flat, dtype=object))
    for name in ("A", "Lam", "B"):
        out[name] = [[str(v) for v in row] for row in blocks[name]]
    if isinstance(family, BiasedReadout):
        out["a"] = [str(v) for v in blocks["a"]]
    return out


def pair(problem: Any, learned: Sequence[Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(learner, truth) descriptions for the problem's families, or None when either is unsupported."""
    h = model(problem.learned, learned)
    f = model(problem.true, [str(v) for v in problem.theta_true])
    return None if h is None or f is None else (h, f)


def rational_learner(problem: Any, learned: Sequence[str], X: np.ndarray, gap: Any) -> dict[str, Any] | None:
    """Data of an exact rational learner with equal Markov parameters j < T and an exact logit gap."""
    models = pair(problem, learned)
    if models is None:
        return None
    return {"kind": "rational-learner", "learner": models[0], "truth": models[1],
            "readout": problem.activation, "equal_below": problem.T, "witness": witness(X), "gap": exact(gap)}


def ball_bound(problem: Any, learned: Sequence[str], X: np.ndarray, upper_h: Any, upper_f: Any,
               gap_lower: Any) -> dict[str, Any] | None:
    """Data of a dead ReLU readout on the training box (both models' logits <= 0 there) and a gap."""
    models = pair(problem, learned)
    if models is None:
        return None
    lo, hi = problem.support.token_box()
    return {"kind": "ball-bound", "learner": models[0], "truth": models[1], "readout": problem.activation,
            "dead_below": problem.T, "token_box": {"lo": [exact(float(v)) for v in lo],
                                                   "hi": [exact(float(v)) for v in hi]},
            "logit_upper": {"learner": rounded(upper_h, True), "truth": rounded(upper_f, True)},
            "witness": witness(X), "gap_lower": rounded(gap_lower, False)}


def krawczyk(problem: Any, learned_family: Any, proof: Any, center_params: Sequence[Any],
             theta: Sequence[Any], X: np.ndarray, columns: Sequence[int], dps: int,
             gap_lower: Any) -> dict[str, Any] | None:
    """Data of a Krawczyk existence proof: the learner at the box centre (fixed coordinates their exact
    decimals, free ones the centre of the proven enclosure, ``center_params``), the free coordinates, the
    radius of the box Y the test was run on, and the fit's distance to that box (rounded up)."""
    h = model(learned_family, center_params)
    f = model(problem.true, [str(v) for v in problem.theta_true])
    if h is None or f is None:
        return None
    radius = as_fraction(proof.unique_radius)
    far = max(abs(as_fraction(mp.mpf(u)) - Fraction(str(c))) + (radius if i in proof.free else 0)
              for i, (u, c) in enumerate(zip(theta, center_params)))
    return {"kind": "krawczyk", "learner": h, "truth": f, "readout": problem.activation,
            "equal_below": problem.T, "columns": sorted(int(c) for c in columns),
            "free": [int(i) for i in proof.free], "radius": rounded(radius, True), "digits": int(dps),
            "witness": witness(X), "gap_lower": rounded(gap_lower, False), "within": rounded(far, True, 3)}


def identity(problem: Any, learned: Sequence[str], X: np.ndarray, dps: int,
             gap: tuple[str, str]) -> dict[str, Any] | None:
    """Data of a symbolic zero-risk identity (h_t - f_t = 0 in the tokens at every supervised length)
    with the ball of h - f at the witness."""
    models = pair(problem, learned)
    if models is None:
        return None
    return {"kind": "identity", "learner": models[0], "truth": models[1], "readout": problem.activation,
            "lengths": list(problem.lengths), "digits": int(dps), "witness": witness(X),
            "gap_ball": [str(gap[0]), str(gap[1])]}



def pooled_model(family: Any, params: Sequence[Any]) -> dict[str, Any] | None:
    """The kernel's description of a hinge deep sets (sum or mean pooling) or pairwise-sum model: family,
    token width, knots, blocks A, W (and a), pooling or degree and residual. None for other families."""
    from ..families.deepsets import HingeDeepSets
    from ..families.meanpool import MeanPoolHingeDeepSets
    from ..families.pairwise import PairwiseSum

    blocks = family.unpack(np.asarray([str(v) for v in params], dtype=object))
    if type(family) in (HingeDeepSets, MeanPoolHingeDeepSets):
        out: dict[str, Any] = {"family": "hinge-deep-sets",
                               "pooling": "mean" if type(family) is MeanPoolHingeDeepSets else "sum"}
    elif type(family) is PairwiseSum:
        out = {"family": "pairwise-sum", "degree": int(family.degree), "residual": bool(family.residual)}
    else:
        return None
    out |= {"n": int(family.n), "knots": [exact(k) for k in family.knots]}
    out |= {name: [[str(v) for v in row] for row in blocks[name]] for name in ("A", "W")}
    if "a" in blocks:
        out["a"] = [str(v) for v in blocks["a"]]
    return out


def pooled(problem: Any, learned: Sequence[str], X: np.ndarray) -> dict[str, Any] | None:
    """Data of an exact zero-risk certificate of a pooled family (hinge deep sets, pairwise sums): the
    models, the training lengths, the support as the kernel reads it (the token box, and for the
    ``antidiag`` support the per-coordinate sum T/2 at length T; other supports are boxes or inside
    them) and the exact gap at the witness. None for families or supports the kernel does not read."""
    from ..numerics import activation as act
    from ..numerics.backend import SYM

    h = pooled_model(problem.learned, learned)
    f = pooled_model(problem.true, [str(v) for v in problem.theta_true])
    kind = problem.support.kind
    if h is None or f is None or kind not in ("iid", "cut", "subspace", "antidiag"):
        return None
    lo, hi = problem.support.token_box()
    support: dict[str, Any] = {"lo": [exact(float(v)) for v in lo], "hi": [exact(float(v)) for v in hi]}
    if kind == "antidiag":
        support["sums"] = {str(problem.T): [exact(Fraction(problem.T, 2))] * int(problem.learned.n)}
    Xs = SYM.asarray(np.asarray(X, dtype=float)[None])
    truth = [str(v) for v in problem.theta_true]
    zh = problem.learned.logits(SYM.asarray(np.asarray(list(learned), dtype=object)), Xs, SYM)
    zf = problem.true.logits(SYM.asarray(np.asarray(truth, dtype=object)), Xs, SYM)
    if not problem.injective:
        zh, zf = act.apply(problem.activation, zh, SYM), act.apply(problem.activation, zf, SYM)
    gap = max(abs(a - b) for a, b in zip(np.ravel(zh), np.ravel(zf)))
    return {"kind": "pooled-exact", "learner": h, "truth": f, "readout": problem.activation,
            "lengths": list(problem.lengths), "support": support, "witness": witness(X), "gap": exact(gap)}
