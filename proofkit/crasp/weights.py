"""Loading a Limit Transformer's weights (``proofkit crasp compile --out`` writes them) from JSON that may
come from anywhere: the bounded loader (``proofkit.storage.safejson``) parses it, and every field is checked
before a :class:`~proofkit.crasp.network.Network` is built: shapes against the stream width, indices in
range, weights exact rationals ('p' or 'p/q', ASCII, capped digits, never floats), activations known;
then the document is validated against its published schema (``proofkit/schemas/limit-weights.schema.json``,
version 1 = the format field; docs/formats.md). The field checks come first because they say more (the
stream width, the paired matrix). Every failure is an InputError naming the field
(``layers[0].heads[1].K.entries[3][2]``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import InputError
from ..storage import formats, safejson
from .network import ACTIVATIONS, MLP, Head, Layer, Mat, Network


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
MAX_NETWORK_BYTES = 64 << 20
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
