"""Shared by the mutmut-kill tests: symbols and an mpmath matrix helper."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import sympy as sp
from sympy import Identity, MatrixSymbol

n, m = sp.symbols("n m")
i, j = sp.symbols("i j", integer=True, nonnegative=True)
X, Y, Z = (MatrixSymbol(s, n, n) for s in "XYZ")
EYE = Identity(n)
v = MatrixSymbol("v", n, 1)
V, W54 = MatrixSymbol("V", m, n), MatrixSymbol("W", 5, 4)
c, d = sp.symbols("c d")


def _mp(rows) -> np.ndarray:
    return np.array([[mp.mpf(v) for v in r] for r in rows], dtype=object)
