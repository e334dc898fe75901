"""The Lipschitz bound of App. A.1's MLP step, Lip(v -> B psi(A v + b)) <= ||B||_F ||A||_F for a 1-Lipschitz
psi (ReLU here), checked exactly: integer weights and inputs, squared norms compared as Fractions (no
square roots), so a failing pair would be an exact counterexample and holding is evidence at the sampled
pairs only."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np


@dataclass(frozen=True)
class LipschitzSample:
    """``pairs`` sampled (x, y) over ``models`` random MLPs; ``worst``: the largest ratio
    ||B psi(Ax + b) - B psi(Ay + b)||^2 / (||B||_F^2 ||A||_F^2 ||x - y||^2) (<= 1 is the bound); ``failure``:
    the first pair above 1, as text (None when none)."""

    models: int
    pairs: int
    worst: Fraction
    failure: str | None


def _relu(v: list[int]) -> list[int]:
    return [max(0, t) for t in v]


def _mat(rng: np.random.Generator, r: int, c: int) -> list[list[int]]:
    return rng.integers(-3, 4, size=(r, c)).tolist()


def _apply(M: list[list[int]], v: list[int]) -> list[int]:
    return [sum(a * b for a, b in zip(row, v)) for row in M]


def mlp_lipschitz(seed: int, models: int = 40, pairs: int = 25) -> LipschitzSample:
    """Random ReLU MLPs (d = 3 inputs, h = 5 hidden, k = 2 outputs, integer entries in [-3, 3], bias
    included) and random integer input pairs in [-5, 5]^3: the exact squared ratio of the output change to
    ||B||_F ||A||_F ||x - y||."""
    rng = np.random.default_rng(seed)
    worst, count = Fraction(0), 0
    for m in range(models):
        A, B = _mat(rng, 5, 3), _mat(rng, 2, 5)
        b = rng.integers(-3, 4, size=5).tolist()
        fa = sum(t * t for row in A for t in row)
        fb = sum(t * t for row in B for t in row)
        for _ in range(pairs):
            x, y = rng.integers(-5, 6, size=3).tolist(), rng.integers(-5, 6, size=3).tolist()
            dx = sum((s - t) ** 2 for s, t in zip(x, y))
            if not dx or not fa or not fb:
                continue
            hx = _relu([s + t for s, t in zip(_apply(A, x), b)])
            hy = _relu([s + t for s, t in zip(_apply(A, y), b)])
            dout = sum((s - t) ** 2 for s, t in zip(_apply(B, hx), _apply(B, hy)))
            ratio = Fraction(dout, fa * fb * dx)
            count += 1
            worst = max(worst, ratio)
            if ratio > 1:
                return LipschitzSample(m + 1, count, worst, f"model {m}: A = {A}, B = {B}, b = {b}, x = {x}, "
                                                             f"y = {y}: squared ratio {ratio}")
    return LipschitzSample(models, count, worst, None)


__all__ = ["LipschitzSample", "mlp_lipschitz"]
