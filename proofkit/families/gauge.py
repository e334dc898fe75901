"""The readout gauge of families whose logit is ``A u`` with ``u`` linear in some parameter blocks:
``(A, blocks) -> (A M^-1, M blocks)`` for any invertible k x k M leaves every logit unchanged (deep
sets: blocks W2, b2; hinge deep sets and pair sums: W). One implementation of its tangent space and of
the move to a reference readout, for every such family."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..numerics.backend import Ops
from .base import Family


def tangent(family: Family, theta: np.ndarray, blocks: Sequence[str]) -> np.ndarray:
    """Columns spanning the gauge orbit's tangent at theta (P x k^2): d A = -A Xi, d B = Xi B for each
    elementary Xi, every other block 0."""
    p = family.unpack(np.asarray(theta, dtype=float))
    k = p["A"].shape[1]
    cols = []
    for a in range(k):
        for b in range(k):
            Xi = np.zeros((k, k))
            Xi[a, b] = 1.0
            d = {key: np.zeros(shape) for key, shape in family.layout.items()}
            d["A"] = -p["A"] @ Xi
            for key in blocks:
                d[key] = Xi @ p[key]
            cols.append(family.pack(d))
    return np.array(cols).T


def canonicalize(family: Family, theta: np.ndarray, reference: np.ndarray, ops: Ops,
                 blocks: Sequence[str]) -> np.ndarray:
    """Move theta along the gauge to A = A_ref: M^-1 = A^-1 A_ref (square A only; theta unchanged when
    A is not square, the shapes differ or A is singular)."""
    from .linrec import _inv

    p, q = dict(family.unpack(theta)), family.unpack(reference)
    if p["A"].shape[0] != p["A"].shape[1] or q["A"].shape != p["A"].shape:
        return theta
    try:
        Mi = _inv(p["A"], ops) @ q["A"]
        M = _inv(Mi, ops)
    except (ZeroDivisionError, np.linalg.LinAlgError, ValueError):
        return theta
    p["A"] = p["A"] @ Mi
    for key in blocks:
        p[key] = M @ p[key]
    return family.pack(p, ops)
