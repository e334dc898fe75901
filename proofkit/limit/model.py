"""One-layer, one-head limit transformers at finite precision, evaluated exactly.

The forward pass of Izzo, Nichani & Lee 2025, Sec. 3.1, at the last position N = |x| (the output their
Theorem 4.1 compares)::

    y_j = E[x_j] + P[j mod Delta]                         positions j = 1..N
    a_j = y_j^T K^T Q y_N + phi(N - j)          phi at offsets 0..tau (tau-local, translation-invariant)
    s_j = N^(a_j - a*)  (a* = max_j a_j), flushed to 0 where s_j <= 2^-p
    Y   = y_N + sum_j s_j V y_j / sum_j s_j
    out = U (Y + B psi(A Y + b))

Parameters are rationals, so logits and gaps are exact; a surviving term ``N^-g`` is rational when g is an
integer (or N a perfect power) and is otherwise evaluated with mpmath at a stated precision, while the
flush itself is always decided by the integer comparison of :mod:`proofkit.limit.flush`. Every
:class:`Evaluation` says which arithmetic produced it. ``scope='all'`` also flushes every intermediate
scalar of absolute value <= 2^-p (normalized weights, weighted values, pre-activations, outputs): the
literal "during each intermediate computation" of the paper, next to the default that flushes the
softmax terms only.

Departures from the paper's assumptions are explicit, serializable fields (never callables), so a model
that breaks one assumption can be stored in a record and rebuilt: ``P_late`` (positional vectors used at
positions j > ``N0``: not periodic), ``phi_far`` (bias at offsets beyond tau: not local), ``phi_late`` and
``phi_late_const`` (bias added for queries i > ``N0`` only: not translation-invariant).
:func:`to_dict` / :func:`from_dict` write and read a model as JSON-ready strings (fractions ``p/q``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath as mp
import numpy as np

from ..errors import InputError, one_of
from ..numerics import arrays
from ..numerics.exact import exact_row
from . import flush

ACTIVATIONS = ("relu", "heaviside", "identity")
SCOPES = ("terms", "all")
Matrix = tuple[tuple[Fraction, ...], ...]


def rational_matrix(rows: Sequence[Sequence[Any]], name: str) -> Matrix:
    """A matrix of exact rationals from ints, Fractions or decimal strings (never floats: their binary
    value is rarely the number meant)."""
    out = [exact_row(r, name) for r in rows]
    if len({len(r) for r in out}) > 1:
        raise InputError(name, "rows of equal length", [len(r) for r in out])
    return tuple(out)


def _fro(M: Matrix) -> float:
    return float(np.sqrt(sum(float(v) ** 2 for r in M for v in r)))


def _mv(M: Matrix, v: Sequence[Any]) -> list[Any]:
    return [sum((a * b for a, b in zip(row, v)), Fraction(0)) for row in M]


def _dot(u: Sequence[Any], v: Sequence[Any]) -> Any:
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


@dataclass(frozen=True)
class LimitTransformer:
    """A one-layer, one-head limit transformer with rational parameters.

    ``E``: token -> d-vector; ``P``: Delta positional vectors (``P[r]`` is p_j for j = r mod Delta);
    ``phi``: the bias at offsets 0..tau (offset k = N - j; 0 beyond tau); ``K``, ``Q`` (d_k x d), ``V``
    (d x d), MLP ``A`` (h x d), ``b`` (h), ``B`` (d x h) with activation ``psi``, readout ``U`` (m x d).
    """

    E: dict[str, tuple[Fraction, ...]]
    P: Matrix
    K: Matrix
    Q: Matrix
    V: Matrix
    phi: tuple[Fraction, ...] = (Fraction(0),)
    A: Matrix = ()
    b: tuple[Fraction, ...] = ()
    B: Matrix = ()
    U: Matrix = ()
    psi: str = "relu"
    name: str = field(default="model", compare=False)
    N0: int = 0
    P_late: Matrix = ()
    phi_far: tuple[tuple[int, Fraction], ...] = ()
    phi_late: tuple[Fraction, ...] = ()
    phi_late_const: Fraction = Fraction(0)
    _memo: dict[tuple[str, tuple[Any, ...]], tuple[Any, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def apply(self, name: str, v: Sequence[Any]) -> tuple[Any, ...]:
        """The matrix ``name`` (K, Q or V) times the exact vector v, memoized per model: the forward pass,
        the count evaluation and the margin sets apply them to the same few token vectors many thousands
        of times, and a rational matrix-vector product costs about 100x a dictionary look-up."""
        key = (name, tuple(v))
        out = self._memo.get(key)
        if out is None:
            out = self._memo[key] = tuple(_mv(getattr(self, name), v))
        return out

    def __post_init__(self) -> None:
        if self.psi not in ACTIVATIONS:
            raise one_of("psi", ACTIVATIONS, self.psi)
        d = self.d
        if not self.E or any(len(v) != d for v in self.E.values()):
            raise InputError("E", f"a non-empty map token -> vector of length {d}", None)
        if not self.P or any(len(v) != d for v in self.P):
            raise InputError("P", f"Delta >= 1 positional vectors of length {d}", len(self.P))
        for nm, M, cols in (("K", self.K, d), ("Q", self.Q, d), ("V", self.V, d), ("A", self.A, d),
                            ("U", self.U, d)):
            if any(len(r) != cols for r in M):
                raise InputError(nm, f"rows of length d = {d}", [len(r) for r in M])
        if len(self.K) != len(self.Q):
            raise InputError("K, Q", "the same number of rows", (len(self.K), len(self.Q)))
        if len(self.V) != d or len(self.b) != len(self.A) or any(len(r) != len(self.A) for r in self.B) \
                or (self.A and len(self.B) != d):
            raise InputError("V, A, b, B", "V d x d, A h x d, b of length h, B d x h", None)
        if not self.U:
            raise InputError("U", "a readout with at least one row", None)
        if not self.phi:
            raise InputError("phi", "values at offsets 0..tau (tau >= 0)", self.phi)
        if not isinstance(self.N0, int) or self.N0 < 0:
            raise InputError("N0", "a non-negative integer (switch-over length)", self.N0)
        if any(len(v) != d for v in self.P_late):
            raise InputError("P_late", f"positional vectors of length {d}", None)
        if any(not isinstance(k, int) or k <= self.tau for k, _ in self.phi_far):
            raise InputError("phi_far", f"(offset > tau = {self.tau}, value) pairs", self.phi_far)

    @property
    def periodic(self) -> bool:
        """p_j = p_{j + Delta} for every j (no late positional vectors)."""
        return not self.P_late or self.N0 == 0

    @property
    def local(self) -> bool:
        """phi vanishes at every offset beyond tau."""
        return all(v == 0 for _, v in self.phi_far)

    @property
    def translation_invariant(self) -> bool:
        """phi depends on the offset only (no query-position switch)."""
        return self.N0 == 0 or (all(v == 0 for v in self.phi_late) and self.phi_late_const == 0)

    @property
    def standard(self) -> bool:
        """Periodic, local and translation-invariant: the paper's setting."""
        return self.periodic and self.local and self.translation_invariant

    @property
    def d(self) -> int:
        return len(next(iter(self.E.values()))) if self.E else 0

    @property
    def alphabet(self) -> tuple[str, ...]:
        return tuple(self.E)

    @property
    def Delta(self) -> int:
        return len(self.P)

    @property
    def tau(self) -> int:
        return len(self.phi) - 1

    def y(self, token: str, j: int) -> list[Fraction]:
        """The input vector E[token] + p_j at position j (1-based)."""
        if token not in self.E:
            raise InputError("x", "tokens of the alphabet " + ",".join(self.alphabet), token)
        late = self.P_late and self.N0 and j > self.N0
        pos = self.P_late[j % len(self.P_late)] if late else self.P[j % self.Delta]
        return [e + q for e, q in zip(self.E[token], pos)]

    def bias(self, offset: int, query: int | None = None) -> Fraction:
        """phi at key offset k = query - key (tau-local: 0 beyond tau, unless ``phi_far`` says otherwise);
        for a query position i > N0 (``query`` given) the late bias is added."""
        out = self.phi[offset] if offset <= self.tau else Fraction(0)
        out += sum((v for k, v in self.phi_far if k == offset), Fraction(0))
        if query is not None and self.N0 and query > self.N0:
            out += (self.phi_late[offset] if offset < len(self.phi_late) else 0) + self.phi_late_const
        return out

    def logit(self, query: str, i: int, key: str, j: int) -> Fraction:
        """a_{i,j} = y_j^T K^T Q y_i + phi(j, i), exact."""
        return _dot(self.apply("K", self.y(key, j)), self.apply("Q", self.y(query, i))) + self.bias(i - j, i)

    def logits(self, x: Sequence[str]) -> list[Fraction]:
        """The last query's logits over keys j = 1..N."""
        N = len(x)
        return [self.logit(x[-1], N, x[j - 1], j) for j in range(1, N + 1)]

    def lipschitz_L(self) -> float:
        """The paper's L for this model: max_s ||A||_F ||B||_F ||V E_s|| (Theorem 4.1), in float64."""
        return max(_fro(self.A) * _fro(self.B) * float(np.linalg.norm([float(v) for v in _mv(self.V, e)]))
                   for e in self.E.values())


@dataclass(frozen=True)
class Evaluation:
    """The output at the last position and how it was computed.

    ``arithmetic``: ``exact`` (rationals throughout) or ``mpmath`` (some surviving term N^-g irrational;
    ``dps`` digits); the flushes are integer decisions either way. ``survivors``: positions (1-based)
    whose softmax term survived; ``argmax``: positions with the largest logit; ``hardmax``: the surviving
    terms are exactly the argmax set (the softmax is the uniform average over it)."""

    out: tuple[Any, ...]
    weights: tuple[Any, ...]
    survivors: tuple[int, ...]
    argmax: tuple[int, ...]
    arithmetic: str
    dps: int | None = None

    @property
    def hardmax(self) -> bool:
        return self.survivors == self.argmax


def _act(psi: str, z: Any) -> Any:
    if psi == "relu":
        return z if z > 0 else z * 0
    if psi == "heaviside":
        return (z * 0 + 1) if z > 0 else z * 0
    return z


def evaluate(model: LimitTransformer, x: Sequence[str], p: int | None, *, rule: str = "inclusive",
             scope: str = "terms", dps: int = 60) -> Evaluation:
    """The model's output at the last position of ``x`` at ``p`` bits (None: infinite precision)."""
    if scope not in SCOPES:
        raise one_of("scope", SCOPES, scope)
    N = len(x)
    if N < 1:
        raise InputError("x", "a non-empty string", "")
    a = model.logits(x)
    top = max(a)
    gaps = [top - v for v in a]
    argmax = tuple(j + 1 for j, g in enumerate(gaps) if g == 0)
    kept = [j for j, g in enumerate(gaps) if p is None or not flush.term_flushed(N, g, p, rule)]
    exact_terms = {j: flush.term_value(N, gaps[j]) for j in kept}
    if all(v is not None for v in exact_terms.values()):
        terms, arithmetic, used_dps = exact_terms, "exact", None
    else:
        mp.mp.dps = dps
        terms = {j: mp.power(N, -mp.mpf(gaps[j].numerator) / gaps[j].denominator) for j in kept}
        arithmetic, used_dps = "mpmath", dps
    eps = Fraction(1, 2**p) if p is not None and scope == "all" else None

    def cut(v: Any) -> Any:
        return v * 0 if eps is not None and abs(v) <= eps else v

    total = sum(terms.values())
    weights = [cut(terms[j] / total) if j in terms else Fraction(0) for j in range(N)]
    yN = model.y(x[-1], N)
    Y = list(yN)
    for j in kept:
        vj = model.apply("V", model.y(x[j], j + 1))
        Y = [cut(Yc + cut(weights[j] * vc)) for Yc, vc in zip(Y, vj)]
    out = readout(model, Y, cut)
    return Evaluation(out, tuple(weights), tuple(j + 1 for j in kept), argmax, arithmetic, used_dps)


def readout(model: LimitTransformer, Y: Sequence[Any], cut: Any = None) -> tuple[Any, ...]:
    """U (Y + B psi(A Y + b)) for the attention output Y (``cut``: the flush of every intermediate)."""
    cut = cut or (lambda v: v)
    Y = list(Y)
    if model.A:
        hidden = [cut(_act(model.psi, cut(z + bb))) for z, bb in zip(_mv(model.A, Y), model.b)]
        Y = [cut(Yc + r) for Yc, r in zip(Y, _mv(model.B, hidden))]
    return tuple(cut(v) for v in _mv(model.U, Y))


def _f64(rows: Sequence[Sequence[Any]], cols: int, xp: Any) -> Any:
    """Rational rows as a float64 (len(rows), cols) array of ``xp`` (built on the host, moved once)."""
    host = np.array([[float(v) for v in r] for r in rows], dtype=np.float64).reshape(len(rows), cols)
    return arrays.asarray(host, xp)


def _positions(model: LimitTransformer, N: int) -> list[Sequence[Fraction]]:
    """p_j for j = 1..N as :meth:`LimitTransformer.y` adds them (late vectors past N0 when not periodic)."""
    late = not model.periodic
    return [model.P_late[j % len(model.P_late)] if late and j > model.N0 else model.P[j % model.Delta]
            for j in range(1, N + 1)]


def screen_float64(model: LimitTransformer, X: Any, p: int | None, xp: Any = None) -> tuple[Any, Any]:
    """The float64 screen over a batch of equal-length strings (token indices, shape (S, N)): outputs
    (S, m) and a boolean mask of rows where some softmax term sits within 1e-9 (relative, in the exponent)
    of the flush boundary, i.e. where float64 cannot decide the flush. A screen, never a verdict.

    ``xp``: the array namespace (:mod:`proofkit.numerics.arrays`) to compute in; None computes in the
    ``--backend``'s and returns host numpy arrays, an explicit namespace returns arrays of it."""
    ns = arrays.namespace() if xp is None else xp
    X = ns.asarray(arrays.to_numpy(X)) if arrays.is_numpy(ns) else ns.asarray(X)
    k_tokens, d = len(model.alphabet), model.d
    if X.ndim != 2 or X.shape[1] < 1 or not ns.isdtype(X.dtype, "integral"):
        raise InputError("X", "an integer array (S, N) of token indices, N >= 1",
                         (str(X.dtype), tuple(X.shape)))
    S, N = X.shape
    if S and (int(ns.min(X)) < 0 or int(ns.max(X)) >= k_tokens):
        raise InputError("X", f"token indices in [0, {k_tokens})", (int(ns.min(X)), int(ns.max(X))))
    E = _f64([model.E[t] for t in model.alphabet], d, ns)
    K, Q, V, U = (_f64(M, d, ns) for M in (model.K, model.Q, model.V, model.U))
    Yin = ns.reshape(ns.take(E, ns.reshape(X, (-1,)), axis=0), (S, N, d)) + _f64(_positions(model, N), d, ns)
    q = Yin[:, -1, :] @ ns.matrix_transpose(Q)  # (S, dk)
    a = ns.vecdot(Yin @ ns.matrix_transpose(K), q[:, None, :], axis=-1)  # (S, N)
    a = a + arrays.asarray([float(model.bias(N - j, N)) for j in range(1, N + 1)], ns, ns.float64)
    expo = -(ns.max(a, axis=1, keepdims=True) - a) * float(np.log(N))
    s = ns.exp(expo)
    boundary = ns.zeros(S, dtype=ns.bool)
    if p is not None:
        thresh = -p * float(np.log(2.0))
        boundary = ns.any(ns.abs(expo - thresh) <= 1e-9 * max(1.0, abs(thresh)), axis=1)
        s = ns.where(expo <= thresh, ns.zeros_like(s), s)
    w = s / ns.sum(s, axis=1, keepdims=True)
    Y = Yin[:, -1, :] + ns.vecdot(w[:, :, None], Yin @ ns.matrix_transpose(V), axis=-2)
    if model.A:
        z = Y @ ns.matrix_transpose(_f64(model.A, d, ns)) + _f64([model.b], len(model.b), ns)
        h = {"relu": lambda: ns.maximum(z, ns.zeros_like(z)), "identity": lambda: z,
             "heaviside": lambda: ns.astype(z > 0, ns.float64)}[model.psi]()
        Y = Y + h @ ns.matrix_transpose(_f64(model.B, len(model.A), ns))
    out = Y @ ns.matrix_transpose(U)
    return (arrays.to_numpy(out), arrays.to_numpy(boundary)) if xp is None else (out, boundary)


def _fr(v: Fraction) -> str:
    return str(Fraction(v))


def to_dict(model: LimitTransformer) -> dict[str, Any]:
    """The model as JSON-ready data: every rational as a string ``p/q`` (read back by :func:`from_dict`)."""
    mat = (lambda M: [[_fr(v) for v in r] for r in M])  # noqa: E731
    return {"name": model.name, "psi": model.psi, "E": {t: [_fr(v) for v in e] for t, e in model.E.items()},
            "P": mat(model.P), "K": mat(model.K), "Q": mat(model.Q), "V": mat(model.V),
            "phi": [_fr(v) for v in model.phi], "A": mat(model.A), "b": [_fr(v) for v in model.b],
            "B": mat(model.B), "U": mat(model.U), "N0": model.N0, "P_late": mat(model.P_late),
            "phi_far": [[k, _fr(v)] for k, v in model.phi_far], "phi_late": [_fr(v) for v in model.phi_late],
            "phi_late_const": _fr(model.phi_late_const)}


def from_dict(data: Any, where: str = "model") -> LimitTransformer:
    """A model from :func:`to_dict`'s data; every field validated (rationals parsed by ``Fraction``, never
    evaluated). InputError names the field."""
    if not isinstance(data, dict):
        raise InputError(where, "an object with the model's fields", type(data).__name__)
    keys = ("name", "psi", "E", "P", "K", "Q", "V", "phi", "A", "b", "B", "U", "N0", "P_late", "phi_far",
            "phi_late", "phi_late_const")
    if sorted(data) != sorted(keys):
        raise InputError(where, "the fields " + ", ".join(keys), sorted(data))

    def mat(key: str) -> Matrix:
        rows = data[key]
        if not isinstance(rows, list) or any(not isinstance(r, list) for r in rows):
            raise InputError(f"{where}.{key}", "a list of rows", rows)
        if any(not isinstance(v, str) for r in rows for v in r):
            raise InputError(f"{where}.{key}", "rationals written as strings", rows)
        return rational_matrix(rows, f"{where}.{key}")

    def vec(key: str, value: Any = None) -> tuple[Fraction, ...]:
        v = data[key] if value is None else value
        if not isinstance(v, list):
            raise InputError(f"{where}.{key}", "a list of rationals written as strings", v)
        return mat_row(key, v)

    def mat_row(key: str, v: list[Any]) -> tuple[Fraction, ...]:
        if any(not isinstance(x, str) for x in v):
            raise InputError(f"{where}.{key}", "rationals written as strings", v)
        return rational_matrix([v], f"{where}.{key}")[0] if v else ()

    if not isinstance(data["E"], dict) or not isinstance(data["N0"], int) or isinstance(data["N0"], bool):
        raise InputError(f"{where}.E/N0", "a token map and an integer", None)
    far = data["phi_far"]
    if not isinstance(far, list) or any(not isinstance(e, list) or len(e) != 2 or not isinstance(e[0], int)
                                        for e in far):
        raise InputError(f"{where}.phi_far", "a list of [offset, value] pairs", far)
    const = data["phi_late_const"]
    if not isinstance(const, str) or not isinstance(data["name"], str):
        raise InputError(f"{where}.phi_late_const/name", "strings", const)
    return LimitTransformer(
        {str(t): vec("E", e) for t, e in data["E"].items()}, mat("P"), mat("K"), mat("Q"), mat("V"),
        vec("phi"), mat("A"), vec("b"), mat("B"), mat("U"), data["psi"], data["name"], data["N0"],
        mat("P_late"), tuple((k, mat_row("phi_far", [v])[0]) for k, v in far), vec("phi_late"),
        rational_matrix([[const]], f"{where}.phi_late_const")[0][0])
