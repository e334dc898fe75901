"""Readout activations, evaluated in any backend, with the one property the theorems use: injectivity."""

from __future__ import annotations

import numpy as np

from ..errors import one_of
from .backend import Ops

#: activation -> injective on the reals?
INJECTIVE = {"sigmoid": True, "tanh": True, "softplus": True, "identity": True, "relu": False}


def apply(name: str, z: np.ndarray, ops: Ops) -> np.ndarray:
    """sigma(z) elementwise."""
    if name == "identity":
        return z
    if name == "sigmoid":
        return 1 / (1 + ops.exp(-z))
    if name == "tanh":
        return ops.tanh(z)
    if name == "softplus":
        return ops.log1p_exp(z)
    if name == "relu":
        if ops.name == "float64":
            return ops.xp.maximum(z, 0.0)
        zero = ops.convert(0)
        if ops.name == "arb":  # rigorous max for balls that straddle 0
            return np.frompyfunc(lambda v: v.max(zero), 1, 1)(z)
        return np.frompyfunc(lambda v: v if v > 0 else zero, 1, 1)(z)
    raise one_of("activation", INJECTIVE, name)


def derivative(name: str, z: np.ndarray, ops: Ops) -> np.ndarray:
    """sigma'(z) elementwise (ReLU: 1 for z > 0, else 0)."""
    if name == "identity":
        return z * 0 + 1
    if name == "sigmoid":
        s = apply("sigmoid", z, ops)
        return s * (1 - s)
    if name == "tanh":
        t = ops.tanh(z)
        return 1 - t * t
    if name == "softplus":
        return 1 / (1 + ops.exp(-z))
    if name == "relu":
        if ops.name == "float64":
            return (z > 0).astype(float)
        one, zero = ops.convert(1), ops.convert(0)
        return np.frompyfunc(lambda v: one if v > 0 else zero, 1, 1)(z)
    raise one_of("activation", INJECTIVE, name)


def is_injective(name: str) -> bool:
    if name not in INJECTIVE:
        raise one_of("activation", INJECTIVE, name)
    return INJECTIVE[name]
