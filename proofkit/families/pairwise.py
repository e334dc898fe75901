"""Pairwise sums with a residual: logit at position t = ``A (sum_{j<=t} W p(x_t, x_j) + E x_t) (+ a)``.

``p`` is a fixed feature map of a pair of tokens (query ``a = x_t``, key ``b = x_j``): every monomial
``a^alpha b^beta`` of total degree <= ``degree`` in the 2n coordinates (the constant included), so the
pair map ``psi(a, b) = W p(a, b)`` is any polynomial pair map of that degree; with ``knots`` also the
key hinges ``max(b_i - kappa, 0)^2`` (C^1, one per knot and key coordinate, after the monomials), the
search family for pair maps that differ from a polynomial only past a knot. ``E`` is the residual:
the k x n identity (``E x_t = x_t`` when k = n), or absent (``residual=False``); ``a`` an optional
readout bias. The sum includes the diagonal j = t. Logits are the pre-activation readout; the readout
activation is applied by the problem.

Linear in the learned parameters: with the features fixed, the logit is linear in ``(A, G = A W)``
(``G sum_j p(x_t, x_j) + A E x_t``). Zero risk on a support whose length-t sections have interior is
then an exact linear statement: the polynomial ``h - f`` in the tokens vanishes identically, i.e. each
of its monomial coefficients (integer combinations of the entries of ``A - A_f`` and ``G - G_f``) is 0.
:func:`coefficient_rows` writes those equations in exact integers
(:mod:`proofkit.families.pairwise_columns`).

The Jacobian in ``(A, a, W)`` is exact (bilinear model), written through ``ops`` like the model.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np

from ..numerics.backend import FLOAT64, Ops
from . import gauge, pairwise_zero_risk
from .base import Family, to_namespace
from .deepsets import _hinge2, linear_readout_jacobian
from .pairwise_columns import monomial_name


def monomials(n: int, degree: int) -> list[tuple[int, ...]]:
    """Exponent tuples (alpha_1..alpha_n, beta_1..beta_n) of total degree <= ``degree``, ordered by
    degree then lexicographically (descending), the constant first."""
    out: list[tuple[int, ...]] = []
    for d in range(degree + 1):
        out += sorted((e for e in itertools.product(range(d + 1), repeat=2 * n) if sum(e) == d),
                      reverse=True)
    return out


def swap_exponent(e: tuple[int, ...]) -> tuple[int, ...]:
    """The monomial with query and key exchanged: a^alpha b^beta -> a^beta b^alpha."""
    n = len(e) // 2
    return e[n:] + e[:n]


class PairwiseSum(Family):
    """Parameters A (m x k), the readout bias a (m, only with ``readout_bias``) and W (k x F), F = the
    number of monomials of degree <= ``degree`` in 2n variables plus n per knot (key hinges).
    ``basis_degree`` (>= degree): the monomial basis in which :meth:`relation_symbols` reports ``W``
    (zero-padded), so that two families of different degrees compare entry by entry."""

    name = "pairwise_sum"

    def __init__(self, n: int = 2, k: int = 2, m: int = 2, degree: int = 2, residual: bool = True,
                 basis_degree: int | None = None, knots: tuple[Fraction, ...] = (),
                 readout_bias: bool = False) -> None:
        self.n, self.k, self.m, self.degree, self.residual = n, k, m, degree, residual
        self.basis_degree = max(degree, basis_degree or degree)
        self.exponents = monomials(n, degree)
        self.knots = tuple(Fraction(kn) for kn in knots)
        self.hinges = [(kn, i) for kn in self.knots for i in range(n)]  # (knot, key coordinate)
        self.readout_bias = readout_bias
        self.F = len(self.exponents) + len(self.hinges)
        self.layout = {"A": (m, k)} | ({"a": (m,)} if readout_bias else {}) | {"W": (k, self.F)}

    def feature_names(self) -> list[str]:
        """p's entries in column order (a = query, b = key)."""
        return ([monomial_name(e, self.n) for e in self.exponents]
                + [f"max(b{i} - {kn}, 0)^2" for kn, i in self.hinges])

    # ------------------------------------------------------------------ features
    def features(self, a: np.ndarray, b: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """p(a, b) for a batch of pairs: (..., n), (..., n) -> (..., F)."""
        xp = ops.xp
        z = xp.concat([a, b], axis=-1)
        one = ops.convert(1)
        powers: list[list[Any]] = [[None] * (self.degree + 1) for _ in range(2 * self.n)]  # [v][d]: z_v^d
        for v in range(2 * self.n):
            col = z[..., v]
            cur = None
            for d in range(1, self.degree + 1):
                cur = col if cur is None else cur * col
                powers[v][d] = cur
        cols = []
        for e in self.exponents:
            term = None
            for v, d in enumerate(e):
                if d:
                    term = powers[v][d] if term is None else term * powers[v][d]
            if term is None:
                term = (xp.ones(z.shape[:-1], dtype=xp.float64) if ops.name == "float64"
                        else np.full(z.shape[:-1], one, dtype=object))
            cols.append(term)
        cols += [_hinge2(b[..., i], kn, ops) for kn, i in self.hinges]
        return xp.stack(cols, axis=-1)

    def pooled(self, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """S = sum_{j<=t} p(x_t, x_j) at the last position: (N, t, n) -> (N, F)."""
        a = ops.xp.broadcast_to(X[:, -1:, :], X.shape)
        return ops.xp.sum(self.features(a, X, ops), axis=1)

    def _residual_input(self, X: np.ndarray, ops: Ops) -> np.ndarray:
        """E x_t: (N, k) (the first k coordinates of x_t, zero-padded when k > n)."""
        x = X[:, -1, :]
        if self.k <= self.n:
            return x[:, : self.k]
        return ops.xp.concat([x, ops.zeros((X.shape[0], self.k - self.n))], axis=1)

    # ------------------------------------------------------------------ model
    def pair_map(self, theta: np.ndarray, a: np.ndarray, b: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """psi(a, b) = W p(a, b): (G, n), (G, n) -> (G, k)."""
        return self.features(a, b, ops) @ self.unpack_in(theta, ops)["W"].T

    def inner(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """sum_j psi(x_t, x_j) + E x_t at the last position: (N, t, n) -> (N, k)."""
        p = self.unpack_in(theta, ops)
        u = self.pooled(X, ops) @ p["W"].T
        return u + self._residual_input(X, ops) if self.residual else u

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        theta = to_namespace(theta, ops)
        p = self.unpack(theta)
        z = self.inner(theta, X, ops) @ p["A"].T
        return z + p["a"] if self.readout_bias else z

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """d logit_r / d A[r', i] = [r = r'] u_i (u = W S + E x_t); d logit_r / d a[r'] = [r = r'];
        d logit_r / d W[i, s] = A[r, i] S_s."""
        p = self.unpack(theta)
        S = self.pooled(X, ops)
        u = S @ p["W"].T
        if self.residual:
            u = u + self._residual_input(X, ops)
        return linear_readout_jacobian(p["A"], u, S, self.readout_bias, ops)

    # ------------------------------------------------------------------ objects relations name
    def basis(self) -> list[tuple[int, ...]]:
        return monomials(self.n, self.basis_degree)

    def padded_W(self, W: np.ndarray, ops: Ops) -> np.ndarray:
        """W in the monomial basis of ``basis_degree`` (zero columns for the monomials it lacks), then
        the columns of its hinges with a knot below 1 (the others vanish on [0,1]^{2n})."""
        index = {e: i for i, e in enumerate(self.exponents)}
        cols = []
        for e in self.basis():
            cols.append(W[:, index[e]] if e in index else ops.zeros((W.shape[0],)))
        cols += [W[:, len(self.exponents) + h] for h, (kn, _) in enumerate(self.hinges) if kn < 1]
        return np.stack(cols, axis=1)

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, np.ndarray]:
        """``A``, ``W`` (coefficients of psi in the monomial basis of ``basis_degree``, then the hinges
        with a knot below 1: psi = phi on [0,1]^{2n} iff these are equal, the features being linearly
        independent functions there and the other hinges 0) and ``Wswap`` (the coefficients of
        psi(b, a): query and key exchanged; a key hinge swaps to a query hinge, outside the class, so
        its columns are 0)."""
        p = self.unpack(theta)
        W = self.padded_W(p["W"], ops)
        basis = self.basis()
        index = {e: i for i, e in enumerate(basis)}
        cols = [W[:, index[swap_exponent(e)]] for e in basis]
        cols += [ops.zeros((W.shape[0],)) for _ in range(W.shape[1] - len(basis))]
        return {"A": p["A"], "W": W, "Wswap": np.stack(cols, axis=1)}

    def linear_parts(self, theta: np.ndarray) -> dict[str, Any]:
        """The model in its linear coordinates: logit = G S + R x_t + a with G = A W (m x F, columns in
        the order of ``exponents`` then ``hinges``), R = A E (m x n; zero without the residual) and a the
        bias (zero without one). Arrays in theta's own backend (object arrays of balls stay balls)."""
        p = self.unpack(theta)
        A = p["A"]
        G = A @ p["W"]
        zero = A.flat[0] * 0 if A.dtype == object and A.size else 0.0
        R = np.full((self.m, self.n), zero, dtype=A.dtype)
        if self.residual:
            for i in range(min(self.k, self.n)):
                R[:, i] = A[:, i]
        a = p["a"] if self.readout_bias else np.full(self.m, zero, dtype=A.dtype)
        return {"exponents": list(self.exponents), "hinges": list(self.hinges), "G": G, "R": R, "a": a}

    def scalar_form(self, theta: np.ndarray) -> tuple[Any, Any, Any] | None:
        """(A, a, psi(a, b)) as exact sympy objects in the symbols ``a`` (query) and ``b`` (key) for scalar
        models (n = k = m = 1), the kernel's closed-form class (the logit is A (sum psi + x_t) + a); None
        otherwise. ``theta``: exact decimals or p/q strings."""
        import sympy as sp

        if (self.n, self.k, self.m) != (1, 1, 1):
            return None
        p = self.unpack(np.asarray([sp.Rational(str(v)) for v in theta], dtype=object))
        qa, kb = sp.Symbol("a"), sp.Symbol("b")
        W = p["W"][0]
        psi = sum((W[f] * qa ** e[0] * kb ** e[1] for f, e in enumerate(self.exponents)), sp.Integer(0))
        psi += sum((W[len(self.exponents) + h] * sp.Max(kb - sp.Rational(kn), 0) ** 2
                    for h, (kn, _) in enumerate(self.hinges)), sp.Integer(0))
        bias = p["a"][0] if self.readout_bias else sp.Integer(0)
        return p["A"][0, 0], bias, psi

    # ------------------------------------------------------------------ exact zero risk
    def exact_zero_risk(self, learned: list[str], true: Family, true_params: list[str], support: Any,
                        lengths: list[int], activation: str, X: np.ndarray) -> tuple[bool, str]:
        """Exact certificate that the learner (exact decimals or p/q) has zero risk on every training
        sequence and differs from f at X (:func:`proofkit.families.pairwise_zero_risk.certify`)."""
        return pairwise_zero_risk.certify(self, learned, true, true_params, support, lengths, activation, X)

    def project_zero_risk(self, learned: list[str], true: Family, true_params: list[str], support: Any,
                          lengths: list[int]) -> list[str] | None:
        """The rounded learner re-solved onto the exact zero-risk set of the training equations, or None
        (:func:`proofkit.families.pairwise_zero_risk.project`)."""
        return pairwise_zero_risk.project(self, learned, true, true_params, support, lengths)

    # ------------------------------------------------------------------ symmetry
    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        """Without the residual, (A, W) -> (A M^-1, M W) keeps the logits (dim k^2); with it, A is
        pinned by the residual term and there is no continuous symmetry."""
        if self.residual:
            return np.zeros((self.n_params, 0))
        return gauge.tangent(self, theta, ("W",))

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """Without the residual and k = m: move along (A M^-1, M W) to A = A_ref."""
        if self.residual:
            return theta
        return gauge.canonicalize(self, theta, reference, ops, ("W",))
