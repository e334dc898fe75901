"""Deep sets (AM24 Assumption 1): logit = A sum_j psi(x_j) (+ a), psi a one-hidden-layer tanh network."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ..numerics.backend import FLOAT64, Ops
from . import gauge
from .base import Batches, Family


class DeepSets(Family):
    """``psi(x) = W2 tanh(W1 x + b1) + b2`` (k outputs, ``width`` hidden units);
    logit ``A sum_j psi(x_j) (+ a)``."""

    name = "deep_sets"

    def __init__(self, n: int = 2, k: int = 2, m: int = 2, width: int = 3,
                 readout_bias: bool = False) -> None:
        self.n, self.k, self.m, self.width, self.readout_bias = n, k, m, width, readout_bias
        layout: dict[str, tuple[int, ...]] = {"A": (m, k)}
        if readout_bias:
            layout["a"] = (m,)
        layout.update({"W1": (width, n), "b1": (width,), "W2": (k, width), "b2": (k,)})
        self.layout = layout

    def _hidden(self, p: dict, X: np.ndarray, ops: Ops) -> np.ndarray:
        return ops.tanh(X @ p["W1"].T + p["b1"])

    def token_map(self, theta: np.ndarray, x: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """psi at a batch of tokens: (G, n) -> (G, k)."""
        p = self.unpack_in(theta, ops)
        return self._hidden(p, x, ops) @ p["W2"].T + p["b2"]

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack_in(theta, ops)
        H = self._hidden(p, X, ops)  # (N, t, w)
        S = ops.xp.sum(H, axis=1) @ p["W2"].T + X.shape[1] * p["b2"]
        z = S @ p["A"].T
        return z + p["a"] if self.readout_bias else z

    def vjp(self, theta: np.ndarray, X: np.ndarray, R: np.ndarray) -> np.ndarray:
        """The backward pass in float64: dS = R A, then through W2, the token sum and tanh to W1, b1."""
        p = self.unpack(np.asarray(theta, dtype=float))
        t = X.shape[1]
        H = np.tanh(X @ p["W1"].T + p["b1"])  # (N, t, w)
        Hs = H.sum(axis=1)
        S = Hs @ p["W2"].T + t * p["b2"]
        dS = R @ p["A"]  # (N, k)
        dpre = (dS @ p["W2"])[:, None, :] * (1.0 - H * H)  # (N, t, w)
        parts = [(R.T @ S).ravel()] + ([R.sum(axis=0)] if self.readout_bias else [])
        parts += [np.einsum("ntw,nts->ws", dpre, X).ravel(), dpre.sum(axis=(0, 1)), (dS.T @ Hs).ravel(),
                  t * dS.sum(axis=0)]
        return np.concatenate(parts)

    def batch_logits(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """Every length at once: the hidden layer on all tokens in one product, pooled per sequence."""
        if not self.fuses(DeepSets):
            return super().batch_logits(theta, batches)
        p = self.unpack(theta)
        H = np.tanh(batches.tokens @ p["W1"].T + p["b1"])
        S = np.add.reduceat(H, batches.starts, axis=0) @ p["W2"].T + batches.lengths[:, None] * p["b2"]
        z = S @ p["A"].T
        return z + p["a"] if self.readout_bias else z

    def batch_jacobian(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """Every length at once (:meth:`_jacobian64`)."""
        if not self.fuses(DeepSets):
            return super().batch_jacobian(theta, batches)
        return self._jacobian64(theta, batches)

    def _jacobian64(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """d logits / d theta in float64, every sequence of ``batches`` at once: the hidden layer on all
        tokens, then per-sequence sums of tanh (Hs), of tanh' (Ds) and of tanh' x (G), one reduceat."""
        p = self.unpack(np.asarray(theta, dtype=float))
        A, W2 = p["A"], p["W2"]
        m, k, w, n = self.m, self.k, self.width, self.n
        X, t = batches.tokens, batches.lengths
        H = np.tanh(X @ p["W1"].T + p["b1"])
        D = 1.0 - H * H
        pooled = np.add.reduceat(np.concatenate([H, D, (D[:, :, None] * X[:, None, :]).reshape(-1, w * n)],
                                                axis=1), batches.starts, axis=0)
        N = pooled.shape[0]
        Hs, Ds, G = pooled[:, :w], pooled[:, w : 2 * w], pooled[:, 2 * w :]
        S = Hs @ W2.T + t[:, None] * p["b2"]
        AW2 = A @ W2  # (m, w)
        J = np.zeros((N, m, self.n_params))
        for r in range(m):
            J[:, r, r * k : (r + 1) * k] = S
        at = m * k
        if self.readout_bias:
            for r in range(m):
                J[:, r, at + r] = 1.0
            at += m
        # d/dW1[u, s] = AW2[:, u] G[u, s], d/db1[u] = AW2[:, u] Ds[u],
        # d/dW2[r, u] = A[:, r] Hs[u], d/db2 = t A
        J[:, :, at : at + w * n] = np.repeat(AW2, n, axis=1)[None] * G[:, None, :]
        at += w * n
        J[:, :, at : at + w] = AW2[None] * Ds[:, None]
        at += w
        J[:, :, at : at + k * w] = (A[None, :, :, None] * Hs[:, None, None, :]).reshape(N, m, k * w)
        at += k * w
        J[:, :, at:] = A[None] * t[:, None, None]
        return J

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        if ops.name == "float64":
            return self._jacobian64(theta, Batches([X]))
        p = self.unpack(theta)
        N, t, n = X.shape
        m, k, w = self.m, self.k, self.width
        H = self._hidden(p, X, ops)
        Hs = H.sum(axis=1)  # (N, w)
        S = Hs @ p["W2"].T + t * p["b2"]  # (N, k)
        D = 1 - H * H  # tanh' at each token, (N, t, w)
        AW2 = p["A"] @ p["W2"]  # (m, w)
        blocks = []
        dA = ops.zeros((N, m, m * k))
        for r in range(m):
            dA[:, r, r * k : (r + 1) * k] = S
        blocks.append(dA)
        if self.readout_bias:
            da = ops.zeros((N, m, m))
            for r in range(m):
                da[:, r, r] = ops.convert(1)
            blocks.append(da)
        # d/dW1[u, s] = AW2[:, u] * sum_j D[j, u] x_j[s]; d/db1[u] = AW2[:, u] * sum_j D[j, u]
        G = _einsum_nus(D, X)
        Ds = D.sum(axis=1)  # (N, w)
        dW1 = AW2[None, :, :, None] * G[:, None, :, :]  # (N, m, w, n)
        blocks.append(dW1.reshape(N, m, w * n))
        blocks.append(AW2[None, :, :] * Ds[:, None, :])
        # d/dW2[r, u] = A[:, r] * Hs[u]; d/db2[r] = A[:, r] * t
        dW2 = p["A"][None, :, :, None] * Hs[:, None, None, :]  # (N, m, k, w)
        blocks.append(dW2.reshape(N, m, k * w))
        blocks.append(np.broadcast_to(t * p["A"], (N, m, k)).copy())
        return np.concatenate(blocks, axis=2)

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, np.ndarray]:
        return {"A": self.unpack(theta)["A"]}

    def unit_parts(self, theta: np.ndarray) -> dict[str, Any]:
        """The hidden units and the pooled readout by role, so that support-wide certificates
        (:mod:`proofkit.certificates.certify_features`) need not know this family's parameter layout:
        ``psi(x) = out_weights activation(in_weights x + in_bias) + out_bias`` and
        ``logit = readout sum_j psi(x_j) + readout_bias`` (``readout_bias`` None without a bias).
        Arrays are views of ``theta`` in its own backend."""
        p = self.unpack(theta)
        return {"activation": "tanh", "in_weights": p["W1"], "in_bias": p["b1"], "out_weights": p["W2"],
                "out_bias": p["b2"], "readout": p["A"], "readout_bias": p.get("a")}

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """Readout gauge (A, W2, b2) -> (A M^-1, M W2, M b2) with M^-1 = A^-1 A_ref (square case)."""
        return gauge.canonicalize(self, theta, reference, ops, ("W2", "b2"))

    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        return gauge.tangent(self, theta, ("W2", "b2"))


def _einsum_nus(D: np.ndarray, X: np.ndarray) -> np.ndarray:
    """sum_t D[n,t,u] X[n,t,s] for object arrays (np.einsum does not take object dtype everywhere)."""
    return np.matmul(np.swapaxes(D, 1, 2), X)


def linear_readout_jacobian(A: np.ndarray, u: np.ndarray, S: np.ndarray, bias: bool, ops: Ops) -> np.ndarray:
    """Jacobian of ``logit = A u (+ a)`` with ``u = W S (+ terms free of W)``, in the layout (A, a, W):
    d logit_r / d A[r', i] = [r = r'] u_i, d logit_r / d a[r'] = [r = r'], d logit_r / d W[i, s] =
    A[r, i] S_s. Shared by the structured families whose features S are fixed (hinge deep sets, pair
    sums)."""
    N, (m, k), F = S.shape[0], A.shape, S.shape[1]
    dA = ops.zeros((N, m, m * k))
    for r in range(m):
        dA[:, r, r * k: (r + 1) * k] = u
    blocks = [dA]
    if bias:
        da = ops.zeros((N, m, m))
        for r in range(m):
            da[:, r, r] = ops.convert(1)
        blocks.append(da)
    dW = A[None, :, :, None] * S[:, None, None, :]  # (N, m, k, F)
    return np.concatenate(blocks + [dW.reshape(N, m, k * F)], axis=2)


def _hinge2(v: np.ndarray, knot: Any, ops: Ops) -> np.ndarray:
    """max(v - knot, 0)^2 elementwise, in the backend of ``v``."""
    kn = ops.convert(knot)
    if ops.name == "float64":
        d = ops.xp.maximum(v - float(knot), 0.0)
        return d * d
    zero = ops.convert(0)
    if ops.name == "arb":  # rigorous max for balls that straddle the knot
        d = np.frompyfunc(lambda z: (z - kn).max(zero), 1, 1)(v)
    else:
        d = np.frompyfunc(lambda z: (z - kn) if z > kn else zero, 1, 1)(v)
    return d * d


def _frac(v: Any) -> Fraction:
    return Fraction(str(v)) if not isinstance(v, float) else Fraction(v)


class HingeDeepSets(Family):
    """Structured deep sets: ``psi(x) = W p(x)`` with the fixed C^1 features
    ``p(x) = (1, x_1..x_n, max(x_i - kappa, 0)^2 for each knot kappa and coordinate i)``;
    logit ``A sum_j psi(x_j)``. Parameters A (m x k), W (k x F).

    The per-token logit is ``c p(x)`` with ``c = A W``: affine in the token plus hinge-squared bumps
    that vanish left of their knots. This is the search family for counterexamples that a smooth
    generic fit does not reach: a bump placed where the training labels cannot see it (beyond the
    training token box, or where a ReLU readout is dead), or an affine change whose pooled sum vanishes
    on a degenerate support. :meth:`exact_zero_risk` certifies zero training risk in rational
    arithmetic."""

    name = "hinge_deep_sets"

    def __init__(self, n: int = 1, k: int = 1, m: int = 1,
                 knots: tuple[Fraction, ...] = (Fraction(1),), readout_bias: bool = False) -> None:
        self.n, self.k, self.m, self.readout_bias = n, k, m, readout_bias
        self.knots = tuple(Fraction(kn) for kn in knots)
        self.F = 1 + n + n * len(self.knots)
        self.layout = {"A": (m, k)} | ({"a": (m,)} if readout_bias else {}) | {"W": (k, self.F)}

    def feature_names(self) -> list[str]:
        return (["1"] + [f"x{i + 1}" for i in range(self.n)]
                + [f"max(x{i + 1} - {kn}, 0)^2" for kn in self.knots for i in range(self.n)])

    def features(self, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """p at every token: (..., n) -> (..., F)."""
        one = X[..., :1] * 0 + ops.convert(1)
        parts = [one, X] + [_hinge2(X, kn, ops) for kn in self.knots]
        return ops.xp.concat(parts, axis=-1)

    def token_map(self, theta: np.ndarray, x: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack_in(theta, ops)
        return self.features(x, ops) @ p["W"].T

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack_in(theta, ops)
        S = ops.xp.sum(self.features(X, ops), axis=1)  # (N, F)
        z = (S @ p["W"].T) @ p["A"].T
        return z + p["a"] if self.readout_bias else z

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack(theta)
        S = self.features(X, ops).sum(axis=1)
        return linear_readout_jacobian(p["A"], S @ p["W"].T, S, self.readout_bias, ops)

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, np.ndarray]:
        return {"A": self.unpack(theta)["A"]}

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """Readout gauge (A, W) -> (A M^-1, M W) with M^-1 = A^-1 A_ref (square case)."""
        return gauge.canonicalize(self, theta, reference, ops, ("W",))

    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        return gauge.tangent(self, theta, ("W",))

    # ------------------------------------------------------------------ exact certificate
    #: why each certificate case gives zero training risk ({lengths}: the training lengths)
    WHY = {"a": "the per-token logit difference g = c_h p - c_f p is constant on the whole training token "
                "box (its hinges sit at or beyond the box's upper end) and t g + a_h - a_f = 0 at every "
                "training length {lengths}, so h = f on every training sequence",
           "b": "g is supported on hinge regions, and both logits are <= 0 on every training sequence "
                "(lengths {lengths}, box tokens) with a token there (exact vertex bounds), so both ReLU "
                "outputs are 0 there and h = f elsewhere",
           "c": "g is affine and sum_j g(x_j) = 0 at points spanning the affine hull of the training support "
                "at every training length {lengths}"}

    def pooled_bias(self, t: int, a: Fraction) -> Fraction:
        """The bias as it enters the sign of a length-t logit next to the pooled sum sum_j c p(x_j):
        the logit is a positive multiple of ``sum_j c p(x_j) + pooled_bias(t, a)``."""
        return a

    def bias(self, theta: list[str]) -> list[Fraction]:
        """The readout bias a (zeros without one), exactly."""
        if not self.readout_bias:
            return [Fraction(0)] * self.m
        return list(self.unpack(np.asarray([_frac(v) for v in theta], dtype=object))["a"])

    def coefficients(self, theta: list[str]) -> list[list[Fraction]]:
        """The per-token logit coefficients c = A W (m x F), exactly, from decimal / p/q strings."""
        p = self.unpack(np.asarray([_frac(v) for v in theta], dtype=object))
        return [[sum((p["A"][r, q] * p["W"][q, f] for q in range(self.k)), Fraction(0))
                 for f in range(self.F)] for r in range(self.m)]

    def exact_logits(self, c: list[list[Fraction]], X: np.ndarray,
                     bias: list[Fraction] | None = None) -> list[Fraction]:
        """Logits of one sequence X (t x n, floats read exactly) under coefficients c, exactly."""
        S = [Fraction(0)] * self.F
        for x in X:
            xs = [_frac(v) for v in x]
            feats = [Fraction(1)] + xs + [max(v - kn, Fraction(0)) ** 2 for kn in self.knots for v in xs]
            S = [a + b for a, b in zip(S, feats)]
        bias = bias or [Fraction(0)] * len(c)
        return [sum((cr[f] * S[f] for f in range(self.F)), b) for cr, b in zip(c, bias)]

    def _token_upper(self, c: list[Fraction], lo: np.ndarray, hi: np.ndarray) -> Fraction:
        """An exact upper bound of the per-token logit c p(x) over the box [lo, hi]: the affine part plus
        the positive hinge terms is convex (maximum at a vertex); the negative hinge terms are <= 0."""
        n, best = self.n, None
        for bits in range(2 ** n):
            v = [hi[i] if bits >> i & 1 else lo[i] for i in range(n)]
            val = c[0] + sum(c[1 + i] * v[i] for i in range(n))
            for q, kn in enumerate(self.knots):
                for i in range(n):
                    w = c[1 + n + q * n + i]
                    if w > 0:
                        val += w * max(v[i] - kn, Fraction(0)) ** 2
            best = val if best is None else max(best, val)
        return best

    def exact_zero_risk(self, learned: list[str], true: Family, true_params: list[str], support: Any,
                        lengths: list[int], activation: str, X: np.ndarray) -> tuple[bool, str]:
        """Prove in rational arithmetic that the learner h has zero risk on every training sequence of
        the support (lengths ``lengths``) and differs from f at the sequence X. With g = c_h - c_f the
        per-token logit difference (only hinges whose knot lies below the token box's upper end count:
        the others vanish on the box), one of:
        (a) g = 0 on the token box, up to a constant that the bias difference cancels at every training
            length: h = f on every training sequence, any readout;
        (b) ReLU readout, g without affine part, and both logits <= 0 on every training-length box
            sequence with a token in the region of a hinge where h and f differ: there both outputs are 0,
            elsewhere g = 0 (bound per token: the affine part plus the positive hinge terms is convex, so
            its maximum over a box is at a vertex; negative hinge terms are <= 0);
        (c) g affine and sum_j g(x_j) + (a_h - a_f) = 0 at points whose affine hull contains the
            length-t support (``support.spanning_points(t)``) for every training length t.
        The bias enters each condition as :meth:`pooled_bias` (a pooling that rescales the sum moves it
        there). The truth must be of the same class (same pooling, knots, n). Then the gap at X is an
        exact non-zero rational."""
        if type(true) is not type(self) or true.knots != self.knots or true.n != self.n:
            return False, ""
        ch, cf = self.coefficients(learned), true.coefficients(true_params)
        ah, af = self.bias(learned), true.bias(true_params)
        lo, hi = (np.asarray([_frac(v) for v in b], dtype=object) for b in support.token_box())
        n, nk = self.n, len(self.knots)

        def hinge_index(q: int, i: int) -> int:
            return 1 + n + q * n + i

        active = [(q, i) for q in range(nk) for i in range(n) if self.knots[q] < hi[i]]
        cases = []
        for r in range(self.m):
            g = [a - b for a, b in zip(ch[r], cf[r])]
            aff, da = g[: 1 + n], ah[r] - af[r]
            # the constant part of sum_j g(x_j) plus the bias difference vanishes at every training length
            lin = any(aff[1:]) or any(t * aff[0] + self.pooled_bias(t, da) for t in lengths)
            hin = {(q, i): g[hinge_index(q, i)] for q, i in active}
            hot = [qi for qi, v in hin.items() if v != 0]
            if not lin and not hot:
                cases.append("a")
                continue
            if not lin and activation == "relu":
                ok = True
                for t in lengths:
                    for q, i in hot:
                        lo_q = lo.copy()
                        lo_q[i] = self.knots[q]
                        for c, a in ((ch[r], ah[r]), (cf[r], af[r])):
                            top = self._token_upper(c, lo, hi)
                            ok = ok and (self._token_upper(c, lo_q, hi) + (t - 1) * top
                                         + self.pooled_bias(t, a) <= 0)
                if ok:
                    cases.append("b")
                    continue
                return False, ""
            if not hot:
                for t in lengths:
                    pts = support.spanning_points(t)
                    if pts is None:
                        return False, ""
                    for P in pts:
                        s = sum((aff[0] + sum(aff[1 + i] * _frac(x[i]) for i in range(n)) for x in P),
                                self.pooled_bias(t, da))
                        if s != 0:
                            return False, ""
                cases.append("c")
                continue
            return False, ""
        zh, zf = self.exact_logits(ch, X, ah), true.exact_logits(cf, X, af)
        if activation == "relu":
            zh, zf = [max(v, Fraction(0)) for v in zh], [max(v, Fraction(0)) for v in zf]
        gap = max(abs(a - b) for a, b in zip(zh, zf))
        if gap == 0:
            return False, ""
        shown = str(gap) if len(str(gap)) <= 40 else f"{float(gap):.6g} (an exact non-zero rational)"
        kinds = "; ".join(self.WHY[c].format(lengths=lengths) for c in sorted(set(cases)))
        return True, (f"certified exactly (rational arithmetic, coefficients c = A W): {kinds}; "
                      f"{'output' if activation == 'relu' else 'logit'} gap at the witness = {shown}")
