"""Limit-transformer certificates: two one-layer limit transformers f, g separated on a stated string.

The output at the last position N = |x| (Izzo, Nichani & Lee 2025, Sec. 3.1-3.2; proofkit/limit/model.py):
y_j = E[x_j] + P[j mod Delta] (P_late[j mod |P_late|] for j > N0 > 0); a_j = (K y_j).(Q y_N) + phi(N - j)
(phi at offsets 0..tau, 0 beyond; plus phi_far at its offsets; plus phi_late[N - j] + phi_late_const when
N > N0 > 0); s_j = N^-(max a - a_j), flushed to 0 where s_j <= 2^-p (exactly: N^u >= 2^(p v) for the gap
u/v; p "infinity": none flushed); Y = y_N + sum_j s_j V y_j / sum_j s_j; out = U (Y + B psi(A Y + b)),
psi relu, heaviside or identity. A kept term is an exact rational where N is a perfect v-th power, else
an Arb ball exp(-(u/v) log N). A string is its tokens or, for Delta = 1 periodic, local, translation-
invariant models (whose output depends on nothing else), its prefix token counts and a suffix of
>= tau + 1 tokens: lengths like 10^36 are evaluated by key class.

The certificate: |f(x) - g(x)| >= ``gap_lower`` > 0; with ``N`` and ``delta_upper`` also |x| > N and
gap_lower > delta + eps_N, eps_N = sqrt(tau Delta L'^2/N) (the models' larger tau and Delta; L' = the
larger ||U||_F (1 + ||A||_F ||B||_F) max_s ||V E_s||), delta = max |f - g| over strings of length <= N,
re-derived (0 when both models show such strings the same parameters; for Delta = 1 standard pairs the
maximum over every key class) and not above ``delta_upper``; where it cannot be, ``delta_upper`` is a
premise and the result says so. Data: kind, f, g (E, P, K, Q, V, phi, A, b, B, U, psi, N0, P_late,
phi_far, phi_late, phi_late_const, optional name), p, string ({"tokens"} or {"prefix", "suffix"}),
gap_lower, optionally N and delta_upper.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from typing import Any

import flint

from .core import (
    NotRechecked,
    Reject,
    ball,
    fields,
    figure,
    integer,
    lower_bound,
    matrix,
    number,
    precision,
    upper_bound,
    vector,
)

PSI = ("relu", "heaviside", "identity")
MODEL_FIELDS = ("E", "P", "K", "Q", "V", "phi", "A", "b", "B", "U", "psi", "N0", "P_late", "phi_far",
                "phi_late", "phi_late_const")
#: caps: explicit tokens, digits of a prefix count, bits of an exact term N^(u/v) before it becomes a ball
MAX_TOKENS, MAX_COUNT_DIGITS, MAX_EXACT_BITS, MAX_P = 100_000, 60, 1 << 14, 1 << 16
#: most key classes enumerated to re-derive the agreement up to N
MAX_CLASSES = 1 << 15
_COUNT = re.compile(rf"\d{{1,{MAX_COUNT_DIGITS}}}", re.ASCII)


def parse_model(d: Any, where: str) -> dict[str, Any]:
    """A limit transformer from its data, shapes checked (Reject naming the field)."""
    d, at = fields(d, where, MODEL_FIELDS, ["name"]), (lambda key: f"{where}.{key}")  # noqa: E731
    rows = (lambda key, cols: [] if d[key] == [] else matrix(d[key], at(key), cols=cols))  # noqa: E731
    E = d["E"]
    if not isinstance(E, dict) or not E or not all(isinstance(t, str) and len(t) == 1 for t in E):
        raise Reject(at("E"), "expected a non-empty map from one-character tokens to vectors")
    E = {t: vector(v, at(f"E.{t}")) for t, v in E.items()}
    dim = len(next(iter(E.values())))
    if dim == 0 or any(len(v) != dim for v in E.values()):
        raise Reject(at("E"), "expected token vectors of one common length d >= 1")
    m: dict[str, Any] = {"E": E, "d": dim, "psi": d["psi"], "N0": integer(d["N0"], at("N0"), 0, 10**9),
                         "const": number(d["phi_late_const"], at("phi_late_const"))}
    m.update({key: rows(key, dim) for key in ("P", "K", "Q", "V", "A", "U", "P_late")})
    m.update({key: vector(d[key], at(key)) for key in ("phi", "b", "phi_late")}, B=rows("B", len(m["A"])))
    far = d["phi_far"]
    if not isinstance(far, list) or any(not isinstance(e, list) or len(e) != 2 for e in far):
        raise Reject(at("phi_far"), "expected a list of [offset, value] pairs")
    m["far"] = [(integer(k, at(f"phi_far[{i}]"), len(m["phi"]), 10**9), number(v, at(f"phi_far[{i}]")))
                for i, (k, v) in enumerate(far)]
    if m["psi"] not in PSI or not m["P"] or not m["phi"] or len(m["U"]) != 1 or len(m["V"]) != dim \
            or len(m["K"]) != len(m["Q"]) or len(m["b"]) != len(m["A"]) or (m["A"] and len(m["B"]) != dim):
        raise Reject(where, "expected psi in relu/heaviside/identity, Delta >= 1 positional vectors, phi at "
                            "offsets 0..tau, V d x d, K and Q of equal rows, A h x d, b of h, B d x h and a "
                            "scalar readout U (one row)")
    return m


def standard(m: dict[str, Any]) -> bool:
    """Periodic, local and translation-invariant (the departures vanish or are never switched on)."""
    late_off = m["N0"] == 0
    return (late_off or not m["P_late"]) and all(v == 0 for _, v in m["far"]) and \
        (late_off or (all(v == 0 for v in m["phi_late"]) and m["const"] == 0))


def _y(m: dict[str, Any], t: str, j: int) -> list[Fraction]:
    """The input vector of token t at position j."""
    if t not in m["E"]:
        raise Reject("data.string", f"the token {t!r} is not in the models' alphabet")
    late = m["P_late"] and m["N0"] and j > m["N0"]
    pos = m["P_late"][j % len(m["P_late"])] if late else m["P"][j % len(m["P"])]
    return [e + q for e, q in zip(m["E"][t], pos)]


def _bias(m: dict[str, Any], k: int, query: int) -> Fraction:
    """The bias at key offset k for the query at position ``query``."""
    out = m["phi"][k] if k < len(m["phi"]) else Fraction(0)
    out += sum((v for o, v in m["far"] if o == k), Fraction(0))
    if m["N0"] and query > m["N0"]:
        out += (m["phi_late"][k] if k < len(m["phi_late"]) else 0) + m["const"]
    return out


def _dot(u: list[Any], v: list[Any]) -> Any:
    """Fractions or balls alike (the integer 0 starts either sum)."""
    return sum((a * b for a, b in zip(u, v)), 0)


def _mv(M: list[list[Any]], v: list[Any]) -> list[Any]:
    return [_dot(row, v) for row in M]


def flushed(n: int, gap: Fraction, p: int, strict: bool = False) -> bool:
    """N^-gap <= 2^-p (``strict``: < 2^-p), exactly: N^u >= 2^(p v) (> for strict) for gap = u/v,
    decided by bit lengths where they suffice."""
    u, v = gap.numerator, gap.denominator
    low = (n.bit_length() - 1) * u  # 2^low <= N^u < 2^(low + u)
    if low > p * v or (low == p * v and not strict):
        return True
    if low + u <= p * v:
        return False
    if p * v > MAX_EXACT_BITS << 6:
        raise NotRechecked(f"a flush decision of {p * v} bits, over the kernel's work cap")
    return n**u > 2 ** (p * v) if strict else n**u >= 2 ** (p * v)


def _term(n: int, gap: Fraction) -> Fraction | None:
    """N^-gap as an exact rational where it is one (and not too long), else None."""
    u, v = gap.numerator, gap.denominator
    if v > n.bit_length():
        return None  # a v-th root of N > 1 with v beyond its bits is not an integer
    r = int(flint.fmpz(n).root(v))  # floor of the v-th root (exact integer arithmetic)
    if r**v != n or u * r.bit_length() > MAX_EXACT_BITS:
        return None
    return Fraction(1, r**u)


def _psi(psi: str, z: Any) -> Any:
    """relu, heaviside (1 where z > 0) or identity, of a Fraction or a ball."""
    if psi == "identity" or (psi == "relu" and isinstance(z, Fraction)):
        return z if psi == "identity" or z > 0 else Fraction(0)
    if psi == "relu":
        return z.max(flint.arb(0))
    if isinstance(z, Fraction) or lower_bound(z) > 0 or lower_bound(-z) >= 0:
        return type(z)(1) if z > 0 else type(z)(0)
    raise NotRechecked("a heaviside pre-activation whose ball contains 0 (its sign is not decided)")


def scores(m: dict[str, Any], keys: list[tuple[str, int, int, int]], n: int, query: tuple[str, int]
           ) -> list[Fraction]:
    """The attention logit of each key class (token, count, position, offset) at the query (token, n)."""
    qv = _mv(m["Q"], _y(m, query[0], query[1]))
    return [_dot(_mv(m["K"], _y(m, t, j)), qv) + _bias(m, k, n) for t, _, j, k in keys]


def evaluate(m: dict[str, Any], keys: list[tuple[str, int, int, int]], n: int, query: tuple[str, int],
             p: int | None, strict: bool = False) -> Any:
    """The output at the query (token, position n) over key classes (token, count, position, offset):
    an exact Fraction, or a ball where a surviving term is irrational (``strict``: the strict flush)."""
    a = scores(m, keys, n, query)
    top = max(a)
    kept = [(c, top - ai) for c, ai in zip(keys, a) if p is None or not flushed(n, top - ai, p, strict)]
    terms = [_term(n, g) for _, g in kept]
    exact = all(s is not None for s in terms)
    conv = (lambda v: v) if exact else ball
    if not exact:
        log_n = ball(n).log()
        terms = [ball(s) if s is not None else (-ball(g) * log_n).exp() for s, (_, g) in zip(terms, kept)]
    total = sum((s * c[1] for s, (c, _) in zip(terms, kept)), 0)
    Y = [conv(v) for v in _y(m, query[0], query[1])]
    for s, ((t, cnt, j, _), _) in zip(terms, kept):
        w = s * cnt / total
        Y = [Yc + w * conv(v) for Yc, v in zip(Y, _mv(m["V"], _y(m, t, j)))]
    A, B, U = ([[conv(v) for v in r] for r in m[key]] for key in ("A", "B", "U"))
    if A:
        hidden = [_psi(m["psi"], z + conv(bb)) for z, bb in zip(_mv(A, Y), m["b"])]
        Y = [Yc + _dot(row, hidden) for Yc, row in zip(Y, B)]
    return _dot(U[0], Y)


def classes(prefix: dict[str, int], suffix: str) -> tuple[list[Any], int, tuple[str, int]]:
    """Key classes (token, count, position, offset) of a string by prefix counts (offsets beyond the
    suffix; Delta = 1, so position 0 stands for every position) and suffix, its length and its query."""
    L = len(suffix)
    keys = [(t, c, 0, L) for t, c in prefix.items() if c] + [(t, 1, 0, L - 1 - i)
                                                             for i, t in enumerate(suffix)]
    return keys, sum(prefix.values()) + L, (suffix[-1], 0)


def parse_string(s: Any, models: list[dict[str, Any]]) -> tuple[list[Any], int, tuple[str, int], str]:
    """Key classes, the length, the query and the string as the witness spells it."""
    if isinstance(s, dict) and set(s) == {"tokens"}:
        x = s["tokens"]
        if not isinstance(x, str) or not 1 <= len(x) <= MAX_TOKENS:
            raise Reject("data.string.tokens", f"expected a string of 1..{MAX_TOKENS} tokens")
        n = len(x)
        return [(t, 1, j, n - j) for j, t in enumerate(x, 1)], n, (x[-1], n), x
    s = fields(s, "data.string", ["prefix", "suffix"])
    suffix, prefix = s["suffix"], s["prefix"]
    if not isinstance(prefix, dict) or list(prefix) != sorted(prefix) or any(
            not isinstance(c, str) or not _COUNT.fullmatch(c) or c[0] == "0" for c in prefix.values()):
        raise Reject("data.string.prefix", "expected positive decimal counts by token, in token order")
    tau = max(len(m["phi"]) - 1 for m in models)
    if not isinstance(suffix, str) or not 1 <= len(suffix) <= MAX_TOKENS or (prefix and len(suffix) <= tau):
        raise Reject("data.string.suffix", f"expected at least tau + 1 = {tau + 1} tokens (fewer: no prefix)")
    if any(len(m["P"]) != 1 or not standard(m) for m in models):
        raise Reject("data.string", "a string by counts needs Delta = 1 periodic, local, translation-"
                                    "invariant models")
    keys, n, query = classes({t: int(c) for t, c in prefix.items()}, suffix)
    spelled = "prefix {" + ", ".join(f"{t!r}: {c}" for t, c in prefix.items()) + f"}} + suffix {suffix} " \
              f"(length {n})"
    return keys, n, query, spelled


def _view(m: dict[str, Any], N: int) -> tuple[Any, ...]:
    """What strings of length <= N see of a model: late positions, late queries (N0 >= N) and far
    offsets >= N never enter their forward pass."""
    late = m["N0"] and m["N0"] < N
    return (m["E"], m["P"], m["K"], m["Q"], m["V"], m["A"], m["b"], m["B"], m["U"], m["psi"], m["phi"],
            sorted((k, v) for k, v in m["far"] if k < N and v), m["P_late"] if late else [],
            (m["N0"], m["phi_late"], m["const"]) if late else ())


def agreement(f: dict[str, Any], g: dict[str, Any], N: int, p: int | None) -> tuple[Any, Any, str] | None:
    """Lower and upper bounds of max |f - g| over every string of length <= N, and how: 0 where both
    models show strings of length <= N the same parameters; for Delta = 1 periodic, local, translation-
    invariant pairs the maximum over every (prefix counts, suffix) class (lossless there), within
    MAX_CLASSES; None otherwise (the stated delta_upper is then a premise)."""
    if _view(f, N) == _view(g, N):
        return Fraction(0), Fraction(0), "the same parameters at every position, offset and query <= N"
    if N > MAX_CLASSES or any(len(m["P"]) != 1 or not standard(m) for m in (f, g)):
        return None
    alphabet, tau = sorted(f["E"]), max(len(m["phi"]) - 1 for m in (f, g))
    S = len(alphabet)
    shapes = [(n, min(n, tau + 1)) for n in range(1, N + 1)]
    total = sum(S**k * math.comb(n - k + S - 1, S - 1) for n, k in shapes)
    if total > MAX_CLASSES:
        return None
    lo = hi = Fraction(0)
    for n, k in shapes:
        for suffix in itertools.product(alphabet, repeat=k):
            for bars in itertools.combinations(range(n - k + S - 1), S - 1):
                cuts = (-1, *bars, n - k + S - 1)
                keys, _, query = classes({t: cuts[i + 1] - cuts[i] - 1 for i, t in enumerate(alphabet)},
                                         "".join(suffix))
                low, high = distance(evaluate(f, keys, n, query, p), evaluate(g, keys, n, query, p))
                lo, hi = max(lo, low), max(hi, high)
    return lo, hi, f"every string of length <= N by key classes ({total} classes)"


def distance(a: Any, b: Any) -> tuple[Fraction, Fraction]:
    """Exact lower and upper ends of |a - b| (a, b Fractions or balls; exact when both are Fractions)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return abs(a - b), abs(a - b)
    d = (a if isinstance(a, flint.arb) else ball(a)) - (b if isinstance(b, flint.arb) else ball(b))
    return max(lower_bound(d), lower_bound(-d), Fraction(0)), max(upper_bound(d), upper_bound(-d))


def _fro(M: list[list[Fraction]]) -> Any:
    return ball(sum((v * v for r in M for v in r), Fraction(0))).sqrt()


def lipschitz(m: dict[str, Any]) -> Any:
    """L' = ||U||_F (1 + ||A||_F ||B||_F) max_s ||V E_s|| as a ball."""
    ve = max(sum((v * v for v in _mv(m["V"], e)), Fraction(0)) for e in m["E"].values())  # exact squares
    return _fro(m["U"]) * (1 + _fro(m["A"]) * _fro(m["B"])) * ball(ve).sqrt()


def check_limit(data: Any) -> str:
    """Re-derive f and g on the string, |f - g| >= gap_lower and (when stated) > delta_upper + eps_N."""
    d = fields(data, "data", ["kind", "f", "g", "p", "string", "gap_lower"], ["N", "delta_upper"])
    f, g = parse_model(d["f"], "data.f"), parse_model(d["g"], "data.g")
    if f["E"].keys() != g["E"].keys() or f["d"] != g["d"]:
        raise Reject("data.g.E", "expected the alphabet and width of f")
    p = None if d["p"] == "infinity" else integer(d["p"], "data.p", 0, MAX_P)
    keys, n, query, _ = parse_string(d["string"], [f, g])
    claimed = number(d["gap_lower"], "data.gap_lower")
    if claimed <= 0:
        raise Reject("data.gap_lower", f"{figure(claimed)} is not positive")
    with precision(60):
        out_f, out_g = evaluate(f, keys, n, query, p), evaluate(g, keys, n, query, p)
        got = distance(out_f, out_g)[0]
        if got < claimed:
            raise Reject("data.gap_lower", f"|f - g| >= {figure(got)} only on the string, below the "
                                           f"certificate's {figure(claimed)}")
        text = (f"f = {figure(out_f)}, g = {figure(out_g)} at the last position of a length-{n} string "
                f"(p = {'infinity' if p is None else p}): |f - g| >= {figure(claimed)}")
        if "N" not in d and "delta_upper" not in d:
            return text
        N, delta = integer(d.get("N"), "data.N", 1, 10**9), number(d.get("delta_upper"), "data.delta_upper")
        if n <= N or delta < 0:
            raise Reject("data.N", f"the string has length {n}, not beyond N = {N} (or delta_upper < 0)")
        tau, L = max(len(m["phi"]) - 1 for m in (f, g)), lipschitz(f).max(lipschitz(g))
        eps = (ball(Fraction(tau * max(len(f["P"]), len(g["P"])), N)) * L * L).sqrt()
        own = agreement(f, g, N, p)
        if own is not None and own[0] > delta:
            raise Reject("data.delta_upper", f"{figure(delta)}, but |f - g| >= {figure(own[0])} on a string "
                                             f"of length <= N = {N}")
        bound, how = (delta, "as stated (a premise)") if own is None else (own[1], f"re-derived: {own[2]}")
        if lower_bound(ball(claimed - bound) - eps) <= 0:
            raise Reject("data.gap_lower", f"{figure(claimed)} does not exceed delta + eps_N = "
                                           f"{figure(bound)} + {figure(eps)}")
    return f"{text} > delta + eps_N = {figure(bound)} + {figure(eps)} (N = {N}, tau = {tau}; delta {how})"


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """A limit-transformer certificate is about its witness record: the models are the witness's f and g,
    the string its string, and gap_lower, N and delta_upper the witness's own."""
    w = rec.get("witness", {})
    if rec.get("kind") != "witness":
        raise Reject("certificate.data", "a limit-transformer certificate belongs to a witness record")
    for key in ("f", "g"):
        if json.loads(w.get(key, "null")) != data[key]:
            raise Reject(f"certificate.data.{key}", f"the model differs from the witness's {key}")
    models = [parse_model(data[k], f"data.{k}") for k in ("f", "g")]
    if parse_string(data["string"], models)[3] != w.get("string"):
        raise Reject("certificate.data.string", "the string differs from the witness's string")
    for key in ("gap_lower", "N", "delta_upper"):
        if key in data and str(data[key]) != w.get(key):
            raise Reject(f"certificate.data.{key}", f"{data[key]}, the witness says {w.get(key)}")
