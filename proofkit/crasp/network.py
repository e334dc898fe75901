"""Explicit Limit Transformer (Huang et al. 2024, Sec. 2 and Defs. 2-3).

A network is stored with all of its weights: token embeddings E (one per symbol plus the SOS), a periodic
positional block p_0..p_{Delta-1} (token k at offset o reads p_{(k+o) mod Delta}), layers of attention heads
(K, Q, V and a translation-invariant local positional term phi given as ``{k - j: value}``) each followed by
an MLP (A, b, B, one activation per hidden unit, ``relu`` or ``heaviside`` with H(z) = 1 iff z >= 0), and an
unembedding U whose last row is the acceptance logit (accept iff > 0).

Matrices are sparse because every compiler gadget touches a handful of dimensions. The forward pass is
:mod:`proofkit.crasp.forward`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

MODES = ("exact", "float64")
ACTIVATIONS = ("relu", "heaviside")


def _q(x: Any) -> Fraction:
    """Exact rational from int, Fraction or a decimal/rational string (floats refused: weights are exact)."""
    if isinstance(x, float):
        raise TypeError("network weights are exact rationals; got a float")
    return Fraction(x)


def _qstr(x: Fraction) -> str:
    """Rational as a JSON-safe string: '3', '-1/3'."""
    return str(Fraction(x))


@dataclass
class Mat:
    """Sparse rows x cols matrix of exact rationals; zero entries are never stored."""

    rows: int
    cols: int
    entries: dict[tuple[int, int], Fraction] = field(default_factory=dict)

    def add(self, r: int, c: int, v: Any) -> None:
        """Accumulate v into entry (r, c) (so repeated operands such as le(x, x) cancel correctly)."""
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise IndexError(f"entry ({r}, {c}) outside a {self.rows}x{self.cols} matrix")
        val = self.entries.get((r, c), Fraction(0)) + _q(v)
        if val:
            self.entries[(r, c)] = val
        else:
            self.entries.pop((r, c), None)

    def row_items(self) -> list[tuple[int, list[tuple[int, Fraction]]]]:
        """Nonzero rows as (row, [(col, value), ...]) sorted by row then column."""
        out: dict[int, list[tuple[int, Fraction]]] = {}
        for (r, c), v in sorted(self.entries.items()):
            out.setdefault(r, []).append((c, v))
        return sorted(out.items())

    def dense(self) -> list[list[Fraction]]:
        """Dense copy (for inspection and structural checks)."""
        m = [[Fraction(0)] * self.cols for _ in range(self.rows)]
        for (r, c), v in self.entries.items():
            m[r][c] = v
        return m

    def to_obj(self) -> dict[str, Any]:
        """JSON-ready form: shape plus [row, col, 'p/q'] triples."""
        return {"shape": [self.rows, self.cols],
                "entries": [[r, c, _qstr(v)] for (r, c), v in sorted(self.entries.items())]}

    @staticmethod
    def from_obj(obj: dict[str, Any]) -> Mat:
        """Inverse of to_obj."""
        m = Mat(int(obj["shape"][0]), int(obj["shape"][1]))
        for r, c, v in obj["entries"]:
            m.add(int(r), int(c), Fraction(v))
        return m


@dataclass
class Head:
    """One attention head: logit(k, j) = (K y_j).(Q y_k) + phi[k - j]; output V-weighted softmax average."""

    K: Mat
    Q: Mat
    V: Mat
    phi: dict[int, Fraction] = field(default_factory=dict)

    @property
    def uniform(self) -> bool:
        """True when every logit is 0 (no content or positional term): the head averages its values."""
        return (not self.K.entries or not self.Q.entries) and not any(self.phi.values())

    def to_obj(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"K": self.K.to_obj(), "Q": self.Q.to_obj(), "V": self.V.to_obj(),
                "phi": {str(c): _qstr(v) for c, v in sorted(self.phi.items())}}

    @staticmethod
    def from_obj(obj: dict[str, Any]) -> Head:
        """Inverse of to_obj."""
        return Head(Mat.from_obj(obj["K"]), Mat.from_obj(obj["Q"]), Mat.from_obj(obj["V"]),
                    {int(c): Fraction(v) for c, v in obj["phi"].items()})


@dataclass
class MLP:
    """y + B act(A y + b), one activation name per hidden unit."""

    A: Mat
    b: list[Fraction]
    B: Mat
    act: list[str]

    def __post_init__(self) -> None:
        """Check shapes and activation names once, at construction."""
        h = self.A.rows
        if len(self.b) != h or len(self.act) != h or self.B.cols != h:
            raise ValueError("MLP shapes disagree")
        bad = [a for a in self.act if a not in ACTIVATIONS]
        if bad:
            raise ValueError(f"unknown activation {bad[0]!r}")

    def to_obj(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"A": self.A.to_obj(), "b": [_qstr(v) for v in self.b], "B": self.B.to_obj(),
                "act": list(self.act)}

    @staticmethod
    def from_obj(obj: dict[str, Any]) -> MLP:
        """Inverse of to_obj."""
        return MLP(Mat.from_obj(obj["A"]), [Fraction(v) for v in obj["b"]], Mat.from_obj(obj["B"]),
                   list(obj["act"]))


@dataclass
class Layer:
    """Attention heads (all reading the previous stream) then an optional MLP."""

    heads: list[Head] = field(default_factory=list)
    mlp: MLP | None = None


@dataclass
class Network:
    """A Limit Transformer with explicit weights; ``base`` None means log-N scaling (base N = n + 1)."""

    alphabet: tuple[str, ...]
    dims: list[str]
    E: list[dict[int, Fraction]]
    pos: list[dict[int, Fraction]]
    layers: list[Layer]
    U: Mat
    base: int | None = None
    offset: int = 0
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def d(self) -> int:
        """Residual-stream width."""
        return len(self.dims)

    @property
    def period(self) -> int:
        """Delta: the positional block has period len(pos) by construction."""
        return len(self.pos)

    @property
    def sos(self) -> int:
        """Token index of the start symbol (after the alphabet)."""
        return len(self.alphabet)

    def length_independent(self) -> bool:
        """True when outputs cannot depend on N: fixed base, or every head uniform (N^0 = 1)."""
        return self.base is not None or all(h.uniform for lay in self.layers for h in lay.heads)

    def is_nope(self) -> bool:
        """No positional information at all: zero positional block and no phi terms (Thm 9, NoPE case)."""
        return (all(not p for p in self.pos)
                and not any(any(h.phi.values()) for lay in self.layers for h in lay.heads))

    def encode(self, word: Sequence[str]) -> list[int]:
        """Symbol sequence -> token indices (the SOS is added by the forward pass)."""
        idx = {s: i for i, s in enumerate(self.alphabet)}
        return [idx[s] for s in word]

    def to_json(self) -> str:
        """All weights as JSON, numbers as exact decimal/rational strings."""
        obj = {"format": "proofkit-limit-transformer-1", "alphabet": list(self.alphabet), "dims": self.dims,
               "E": [_vec_obj(v) for v in self.E], "pos": [_vec_obj(v) for v in self.pos],
               "layers": [{"heads": [h.to_obj() for h in lay.heads],
                           "mlp": lay.mlp.to_obj() if lay.mlp else None} for lay in self.layers],
               "U": self.U.to_obj(), "base": self.base, "offset": self.offset, "meta": self.meta}
        return json.dumps(obj, indent=1, sort_keys=True)

    @staticmethod
    def from_json(text: str | bytes) -> Network:
        """Inverse of to_json, for any input: the bounded loader (``proofkit.storage.safejson``) parses it and
        :mod:`proofkit.crasp.weights` checks every field (shapes against the stream width, indices in range,
        weights exact rationals of capped size); every failure is an InputError naming the field."""
        from .weights import network_from_json

        return network_from_json(text)


def _vec_obj(v: dict[int, Fraction]) -> dict[str, str]:
    """Sparse vector -> {'dim': 'p/q'}."""
    return {str(i): _qstr(x) for i, x in sorted(v.items()) if x}


def to_json(net: Network) -> str:
    """Module-level alias of Network.to_json."""
    return net.to_json()


def from_json(text: str) -> Network:
    """Module-level alias of Network.from_json."""
    return Network.from_json(text)
