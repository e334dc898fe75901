"""Explicit Limit Transformer (Huang et al. 2024, Sec. 2 and Defs. 2-3).

A network is stored with all of its weights: token embeddings E (one per symbol plus the SOS), a periodic
positional block p_0..p_{Delta-1} (token k at offset o reads p_{(k+o) mod Delta}), layers of attention heads
(K, Q, V and a translation-invariant local positional term phi given as ``{k - j: value}``) each followed by
an MLP (A, b, B, one activation per hidden unit, ``relu`` or ``heaviside`` with H(z) = 1 iff z >= 0), and an
unembedding U whose last row is the acceptance logit (accept iff > 0).

Matrices are sparse because every compiler gadget touches a handful of dimensions. The forward pass is
:mod:`proofkit.crasp.compilation.forward`.

Loading (:func:`network_from_json`, ``Network.from_json``) takes JSON that may come from anywhere: the
bounded loader (``proofkit.storage.safejson``) parses it, and every field is checked before a network is
built: shapes against the stream width, indices in range, weights exact rationals ('p' or 'p/q', ASCII,
capped digits, never floats), activations known; then the document is validated against its published
schema (``proofkit/schemas/limit-weights.schema.json``, version 1 = the format field; docs/formats.md).
The field checks come first because they say more (the stream width, the paired matrix). Every failure is
an InputError naming the field (``layers[0].heads[1].K.entries[3][2]``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...errors import InputError
from ...storage import formats, safejson

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
        :func:`network_from_json` checks every field (shapes against the stream width, indices in range,
        weights exact rationals of capped size); every failure is an InputError naming the field."""
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


def network_from_json(text: str | bytes) -> Network:
    """The network stored in ``text`` (JSON as written by ``Network.to_json``), fully checked."""
    obj = safejson.loads(text, "network", max_bytes=MAX_NETWORK_BYTES)
    network = _network_from_obj(obj)
    formats.validate("limit-weights", obj, "network")
    return network


def _vec_from(obj: Any, where: str, d: int) -> dict[int, Fraction]:
    """Inverse of _vec_obj, checked: keys are stream indices in [0, d), values exact rationals."""
    if not isinstance(obj, dict):
        raise InputError(where, "an object {index: 'p/q'}", type(obj).__name__)
    return {_index(i, f"{where}.{i}", d): _rational(x, f"{where}.{i}") for i, x in obj.items()}


#: byte cap of a network weights document (the library's largest is about 70 kB)
MAX_NETWORK_BYTES = 8 << 20
#: cap on any matrix dimension of a stored network
MAX_NETWORK_DIM = 1 << 20
_NETWORK_FORMAT = "proofkit-limit-transformer-1"
_NETWORK_KEYS = ("format", "alphabet", "dims", "E", "pos", "layers", "U", "base", "offset", "meta")


def _rational(value: Any, where: str) -> Fraction:
    """An exact rational weight written as 'p' or 'p/q' (ASCII, capped digits; never a float)."""
    return Fraction(safejson.check_rational(value, where))


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(where, f"an integer in [{lo}, {hi}]", value)
    return value


def _index(text: Any, where: str, d: int) -> int:
    """A stream index written as a JSON object key ('0', '17')."""
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > 9 \
            or int(text) >= d:
        raise InputError(where, f"a stream index in [0, {d})", text)
    return int(text)


def _field(obj: Any, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(obj, dict):
        raise InputError(where, "a JSON object", type(obj).__name__)
    if key not in obj:
        raise InputError(f"{where}.{key}" if where else key, "a field of the network (missing)")
    value = obj[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InputError(f"{where}.{key}" if where else key, names, type(value).__name__)
    return value


def _mat_from(obj: Any, where: str, rows: int | None, cols: int | None) -> Mat:
    """A matrix {shape, entries: [[row, col, 'p/q'], ...]}, its shape checked against the expected one."""
    shape = _field(obj, "shape", where, list)
    if len(shape) != 2:
        raise InputError(f"{where}.shape", "[rows, cols]", len(shape))
    r = _int(shape[0], f"{where}.shape[0]", 0, MAX_NETWORK_DIM)
    c = _int(shape[1], f"{where}.shape[1]", 0, MAX_NETWORK_DIM)
    for want, got, i in ((rows, r, 0), (cols, c, 1)):
        if want is not None and got != want:
            raise InputError(f"{where}.shape[{i}]", f"{want} (the stream width or the paired matrix)", got)
    m = Mat(r, c)
    for k, entry in enumerate(_field(obj, "entries", where, list)):
        at = f"{where}.entries[{k}]"
        if not isinstance(entry, list) or len(entry) != 3:
            raise InputError(at, "[row, col, 'p/q']", entry)
        m.add(_int(entry[0], f"{at}[0]", 0, r - 1), _int(entry[1], f"{at}[1]", 0, c - 1),
              _rational(entry[2], f"{at}[2]"))
    return m


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InputError(where, "a list of strings", value)
    return value


def _network_from_obj(obj: Any) -> Network:
    """Build a Network from parsed JSON, checking every field before anything is evaluated."""
    if not isinstance(obj, dict):
        raise InputError("network", "a JSON object", type(obj).__name__)
    if obj.get("format") != _NETWORK_FORMAT:
        raise InputError("format", repr(_NETWORK_FORMAT), obj.get("format"))
    for key in obj:
        if key not in _NETWORK_KEYS:
            raise InputError(safejson.key_name(key), "only the keys " + ", ".join(_NETWORK_KEYS))
    alphabet = _strings(_field(obj, "alphabet", "", list), "alphabet")
    if not alphabet or len(set(alphabet)) != len(alphabet):
        raise InputError("alphabet", "distinct symbols (at least one)", alphabet)
    d = len(_strings(_field(obj, "dims", "", list), "dims"))
    E = [_vec_from(v, f"E[{i}]", d) for i, v in enumerate(_field(obj, "E", "", list))]
    if len(E) != len(alphabet) + 1:
        raise InputError("E", f"{len(alphabet) + 1} embeddings (one per symbol, then the SOS)", len(E))
    pos = [_vec_from(v, f"pos[{i}]", d) for i, v in enumerate(_field(obj, "pos", "", list))]
    layers = [_layer_from(lay, f"layers[{i}]", d) for i, lay in enumerate(_field(obj, "layers", "", list))]
    base = _field(obj, "base", "", (int, type(None)))
    if base is not None:
        _int(base, "base", 2, MAX_NETWORK_DIM)
    offset = _int(_field(obj, "offset", "", int), "offset", -MAX_NETWORK_DIM, MAX_NETWORK_DIM)
    meta = _field(obj, "meta", "", dict)
    for key, value in meta.items():
        if not isinstance(value, str):
            raise InputError(f"meta.{safejson.key_name(key)}", "a string", type(value).__name__)
    U = _mat_from(_field(obj, "U", "", dict), "U", None, d)
    if U.rows < 1:
        raise InputError("U.shape[0]", "at least 1 row (the last is the acceptance logit)", U.rows)
    return Network(tuple(alphabet), list(obj["dims"]), E, pos, layers, U, base, offset, dict(meta))


def _layer_from(obj: Any, where: str, d: int) -> Layer:
    """One layer: heads with K, Q (same rows, d columns), V (d x d) and phi; an optional MLP."""
    heads = []
    for i, h in enumerate(_field(obj, "heads", where, list)):
        at = f"{where}.heads[{i}]"
        K = _mat_from(_field(h, "K", at, dict), f"{at}.K", None, d)
        Q = _mat_from(_field(h, "Q", at, dict), f"{at}.Q", K.rows, d)
        V = _mat_from(_field(h, "V", at, dict), f"{at}.V", d, d)
        phi_obj = _field(h, "phi", at, dict)
        phi = {}
        for c, v in phi_obj.items():
            if not isinstance(c, str) or not safejson.INTEGER.fullmatch(c) or len(c) > 9:
                raise InputError(f"{at}.phi", "offsets k - j written as integers", c)
            phi[int(c)] = _rational(v, f"{at}.phi.{c}")
        heads.append(Head(K, Q, V, phi))
    mlp_obj = _field(obj, "mlp", where, (dict, type(None)))
    if mlp_obj is None:
        return Layer(heads, None)
    at = f"{where}.mlp"
    A = _mat_from(_field(mlp_obj, "A", at, dict), f"{at}.A", None, d)
    b = [_rational(v, f"{at}.b[{i}]") for i, v in enumerate(_field(mlp_obj, "b", at, list))]
    B = _mat_from(_field(mlp_obj, "B", at, dict), f"{at}.B", d, A.rows)
    act = _strings(_field(mlp_obj, "act", at, list), f"{at}.act")
    if len(b) != A.rows or len(act) != A.rows or any(a not in ACTIVATIONS for a in act):
        raise InputError(f"{at}", f"{A.rows} biases and activations ({', '.join(ACTIVATIONS)})",
                         f"{len(b)} biases, activations {act}")
    return Layer(heads, MLP(A, b, B, act))
