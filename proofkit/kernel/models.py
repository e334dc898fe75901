"""The kernel's own evaluators of the model families it supports, written from their definitions
(AM24 eq. 2 and the vanilla RNN), not from proofkit's family code:

* ``linear-recurrence``: s_0 = 0, s_t = Lam s_(t-1) + B x_t, logit_t = A s_t (+ a);
  its Markov parameters M_j = A Lam^j B give logit_t = sum_(j<t) M_j x_(t-j) (+ a).
* ``rnn``: h_0 = 0, h_t = sigma(Lam h_(t-1) + B x_t), logit_t = A h_t (+ a).

A model is given in a certificate as ``{"family", "A", "Lam", "B"[, "a"][, "sigma"]}`` (exact number
strings). Arithmetic is generic: the same code runs on Fractions (exact) and flint balls (enclosures).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from .core import Reject, ball, fields, matrix, vector

Matrix = list[list[Any]]
#: readout activations that are injective (equal outputs iff equal logits)
INJECTIVE = ("identity", "sigmoid", "tanh", "softplus")
#: hidden activations of the rnn family the kernel evaluates
SIGMAS = ("identity", "sigmoid", "tanh", "relu", "softplus")


@dataclass(frozen=True)
class Model:
    """A parsed model: family, blocks (exact), readout bias (None: no bias), hidden activation."""

    family: str
    A: Matrix
    Lam: Matrix
    B: Matrix
    a: list[Fraction] | None
    sigma: str = "identity"

    @property
    def n(self) -> int:
        return len(self.B[0])

    @property
    def m(self) -> int:
        return len(self.A)

    def flat(self) -> list[Fraction]:
        """The parameters in the order A, Lam, B, a (row-major), the order records list them."""
        out = [v for M in (self.A, self.Lam, self.B) for row in M for v in row]
        return out + list(self.a or [])

    def bias(self) -> list[Fraction]:
        return list(self.a) if self.a is not None else [Fraction(0)] * self.m


def parse_model(data: Any, where: str, families: Sequence[str] = ("linear-recurrence", "rnn")) -> Model:
    """A model description of one of ``families``, shapes checked: A m x k, Lam k x k, B k x n, a (m)."""
    d = fields(data, where, ["family", "A", "Lam", "B"], ["a", "sigma"])
    if d["family"] not in families:
        raise Reject(f"{where}.family", f"expected one of {', '.join(families)}, got {d['family']!r}")
    B = matrix(d["B"], f"{where}.B")
    k = len(B)
    Lam = matrix(d["Lam"], f"{where}.Lam", k, k)
    A = matrix(d["A"], f"{where}.A", None, k)
    a = vector(d["a"], f"{where}.a", len(A)) if "a" in d else None
    sigma = d.get("sigma", "identity")
    if d["family"] == "rnn" and sigma not in SIGMAS:
        raise Reject(f"{where}.sigma", f"expected one of {', '.join(SIGMAS)}, got {sigma!r}")
    if d["family"] != "rnn" and "sigma" in d:
        raise Reject(f"{where}.sigma", "only the rnn family has a hidden activation")
    return Model(d["family"], A, Lam, B, a, sigma)


def same_io(h: Model, f: Model, where: str) -> None:
    """Learner and truth read tokens of the same width and write the same number of logits."""
    if (h.n, h.m) != (f.n, f.m):
        raise Reject(where, f"learner has {h.n} inputs and {h.m} outputs, truth {f.n} and {f.m}")


# ------------------------------------------------------------------------------------ generic arithmetic
def matmul(X: Matrix, Y: Matrix) -> Matrix:
    return [[sum((X[i][q] * Y[q][j] for q in range(len(Y))), 0 * X[i][0]) for j in range(len(Y[0]))]
            for i in range(len(X))]


def matvec(X: Matrix, v: Sequence[Any]) -> list[Any]:
    return [sum((X[i][q] * v[q] for q in range(len(v))), 0 * X[i][0]) for i in range(len(X))]


def convert(model: Model, to: Callable[[Fraction], Any]) -> Model:
    """The model with every parameter mapped by ``to`` (Fraction -> ball, say)."""
    def m(M: Matrix) -> Matrix:
        return [[to(v) for v in row] for row in M]

    return Model(model.family, m(model.A), m(model.Lam), m(model.B),
                 None if model.a is None else [to(v) for v in model.a], model.sigma)


def markov(model: Model, count: int) -> list[Matrix]:
    """M_j = A Lam^j B for j < count (linear recurrence)."""
    out, P = [], model.B
    for _ in range(count):
        out.append(matmul(model.A, P))
        P = matmul(model.Lam, P)
    return out


def activation(name: str, z: Any) -> Any:
    """A hidden or readout activation on an exact number (identity, relu) or a flint ball (all)."""
    if name == "identity":
        return z
    if name == "relu":
        if isinstance(z, flint.arb):
            return z.nonnegative_part() if not z < 0 else 0 * z
        return max(z, 0 * z)
    if not isinstance(z, flint.arb):
        raise Reject("activation", f"{name} of an exact number is not rational: balls are needed")
    if name == "sigmoid":
        return 1 / (1 + (-z).exp())
    if name == "tanh":
        return z.tanh()
    if name == "softplus":
        return (1 + z.exp()).log()
    raise Reject("activation", f"unknown activation {name!r}")


def logits(model: Model, X: Sequence[Sequence[Any]]) -> list[Any]:
    """Logits after the last token of X (a list of tokens), parameters and tokens in one domain (exact
    numbers, or balls: :func:`convert`, :func:`balls`): by the recurrence itself, not the Markov
    parameters (an independent route to the same numbers)."""
    zero = 0 * model.B[0][0]
    s: list[Any] = [zero] * len(model.Lam)
    for x in X:
        pre = [u + w for u, w in zip(matvec(model.Lam, s), matvec(model.B, x))]
        s = pre if model.family == "linear-recurrence" else [activation(model.sigma, v) for v in pre]
    bias = model.a if model.a is not None else [zero] * model.m
    return [z + b for z, b in zip(matvec(model.A, s), bias)]


def balls(X: Sequence[Sequence[Fraction]]) -> list[list[Any]]:
    """Tokens (or any table of exact numbers) as balls."""
    return [[ball(v) for v in x] for x in X]


def refill(model: Model, flat: Sequence[Any]) -> Model:
    """``model``'s shapes filled with ``flat`` (order A, Lam, B, a)."""
    it = iter(flat)

    def take(M: Matrix) -> Matrix:
        return [[next(it) for _ in row] for row in M]

    A, Lam, B = take(model.A), take(model.Lam), take(model.B)
    a = None if model.a is None else [next(it) for _ in model.a]
    return Model(model.family, A, Lam, B, a, model.sigma)
