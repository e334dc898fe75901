"""Pairs of one-layer limit transformers for Theorem 4.1 of Izzo, Nichani & Lee 2025 with one assumption
dropped, the exact check that they agree on every string up to a length N and the search for a longer
string that separates them, and the theorem's falsifier (search and replay of stored witnesses).

A separation counts against the declared explicit reading of the theorem: agreement within delta on every
string of length <= N implies |f(x) - g(x)| <= delta + eps_N for every x, with eps_N = sqrt(tau Delta L'^2/N)
(every hidden constant set to 1, L' = max_s ||U||_F (1 + ||A||_F ||B||_F) ||V E_s||, the Lipschitz constant
of the whole readout, residual included). One record is one member of a family (the pair is rebuilt at
every N with the same tau, Delta, L', p), so the family defeats every choice of constants; the record says so.

Agreement up to N is decided exactly: by enumeration of every (prefix counts, suffix) for Delta = 1 models
(:mod:`.counts`, lossless at Delta = 1), in interval arithmetic where a soft term N^-g is irrational; for
the non-periodic, non-local and non-translation-invariant pairs by a structural certificate (the two models
have identical parameters on every position, offset and query a string of length <= N can use) plus
enumeration of every string up to 10 tokens.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import sqrt
from typing import Any

import mpmath as mp
import numpy as np

from ..errors import InputError, one_of
from ..language.spec import WitnessOutcome
from .counts import CountString, _iv, count_string, evaluate_counts
from .model import LimitTransformer, evaluate, from_dict, rational_matrix, to_dict

VARIANTS = ("none", "non-periodic", "non-local", "non-translation-invariant", "infinite-precision",
            "heaviside", "degenerate")
CLAIM = "agreement within delta up to N implies |f - g| <= delta + eps_N everywhere"
SOFT_K = 40  # the soft pair's logit gap is 1/SOFT_K
ENUM = 10  # explicit strings enumerated for the structural certificate
R = rational_matrix


def _pair(V: list, U: list, *, K: list | None = None, Q: list | None = None, phi=(0, 0), A=(), b=(), B=(),
          psi: str = "relu", d: int = 2, **late: Any) -> LimitTransformer:
    toks = "ab"
    E = {t: tuple(Fraction(int(i == j)) for i in range(d)) for j, t in enumerate(toks)}
    K = K or [[0] * d]
    Q = Q or [[0] * d]
    return LimitTransformer(E, R([[0] * d], "P"), R(K, "K"), R(Q, "Q"), R(V, "V"),
                            tuple(Fraction(v) for v in phi), R(list(A), "A"), tuple(Fraction(v) for v in b),
                            R(list(B), "B"), R(U, "U"), psi, late.pop("name", "model"), **late)


def build_pair(variant: str, N: int) -> tuple[LimitTransformer, LimitTransformer, int | None]:
    """The pair (f, g) and the precision p for ``variant`` at agreement length N."""
    Va = [[1, 0], [0, 0]]  # value: indicator of token a, so the attention output is the share of a
    if variant == "non-periodic":
        V0 = [[0] * 3 for _ in range(3)]
        f = _pair(V0, [[0, 0, 1]], d=3, name="f")
        g = _pair(V0, [[0, 0, 1]], d=3, N0=N, P_late=R([[0, 0, 1]], "P_late"), name="g: p_j = e3 for j > N")
        return f, g, 2
    if variant == "non-local":
        f = _pair(Va, [[1, 0]], name="f")
        g = _pair(Va, [[1, 0]], phi_far=((N + 1, Fraction(1)),), name=f"g: phi = 1 at offset {N + 1}")
        return f, g, 2
    if variant == "non-translation-invariant":
        f = _pair(Va, [[1, 0]], name="f")
        g = _pair(Va, [[1, 0]], N0=N, phi_late=(Fraction(1),), name="g: phi(i, i) = 1 for queries i > N")
        return f, g, 2
    hat_t = Fraction(1, N + 1)
    if variant == "infinite-precision":
        f = _pair(Va, [[1, 0]], A=[[1, 0]], b=[0], B=[[1], [0]], name="f: uniform attention")
        g = _pair(Va, [[1, 0]], K=[[1, 0]], Q=[[Fraction(1, SOFT_K), Fraction(1, SOFT_K)]], A=[[1, 0]], b=[0],
                  B=[[1], [0]], name=f"g: key a logit 1/{SOFT_K} above b")
        return f, g, None
    if variant == "heaviside":
        f = _pair(Va, [[1, 0]], A=[[1, 0]], b=[-(hat_t + Fraction(1, 2 * N * (N + 1)))], B=[[1], [0]],
                  psi="heaviside", name="f: H(q - t), t in (1/(N+1), 1/N)")
        g = _pair(Va, [[1, 0]], A=[[1, 0]], b=[-hat_t / 2], B=[[1], [0]], psi="heaviside",
                  name="g: H(q - t'), t' in (0, 1/(N+1))")
        return f, g, 2
    eta = Fraction(1, 4 * N * (N + 1))  # the hat sits in the gap (0, 1/N) of the fractions k/n, n <= N
    hat = dict(A=[[1, 0]] * 3, b=[-(hat_t - eta), -hat_t, -(hat_t + eta)], B=[[1, -2, 1], [0, 0, 0]])
    if variant == "degenerate":
        f = _pair(Va, [[1, 0]], phi=(0,), **hat, name="f: tau = 0, uniform, ReLU hat")
        g = _pair(Va, [[1, 0]], phi=(0,), A=hat["A"], b=hat["b"], B=[[0, 0, 0], [0, 0, 0]], name="g: no hat")
        return f, g, 2
    if variant == "none":
        f = _pair(Va, [[1, 0]], **hat, name="f: tau = 1, uniform, ReLU hat")
        g = _pair(Va, [[1, 0]], A=hat["A"], b=hat["b"], B=[[0, 0, 0], [0, 0, 0]], name="g: no hat")
        return f, g, 2
    raise one_of("variant", VARIANTS, variant)


def lipschitz_full(m: LimitTransformer) -> float:
    """L' = max_s ||U||_F (1 + ||A||_F ||B||_F) ||V E_s||: the readout's Lipschitz constant, residual included
    (Part D item 8), for a 1-Lipschitz activation."""
    fro = (lambda M: sqrt(sum(float(v) ** 2 for r in M for v in r)))  # noqa: E731
    ve = max(sqrt(sum(float(sum(a * e for a, e in zip(row, E))) ** 2 for row in m.V)) for E in m.E.values())
    return fro(m.U) * (1 + fro(m.A) * fro(m.B)) * ve


def _diff(f: LimitTransformer, g: LimitTransformer, cs: CountString, p: int | None) -> tuple[Any, Any]:
    """|f - g| on a count string: (lower, upper) rational/interval bounds, exact where possible."""
    a = evaluate_counts(f, cs, p, interval=True).out[0]
    b = evaluate_counts(g, cs, p, interval=True).out[0]
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        d = abs(a - b)
        return d, d
    d = (_iv(a) if isinstance(a, Fraction) else a) - (_iv(b) if isinstance(b, Fraction) else b)
    if isinstance(d, Fraction):
        return abs(d), abs(d)
    with mp.workprec(mp.iv.prec + 10):  # endpoints carried over exactly, whatever the global precision
        lo, hi = _q(mp.mpf(d.a)), _q(mp.mpf(d.b))
    return (max(lo, -hi) if lo > 0 or hi < 0 else Fraction(0)), max(abs(lo), abs(hi))


def _q(v: Any) -> Fraction:
    """The exact rational value of an mpf (a dyadic rational)."""
    if not v:
        return Fraction(0)
    m, e = v.man_exp
    return Fraction(int(m)) * Fraction(2) ** int(e)


def count_strings(tau: int, n: int, alphabet: str = "ab") -> list[CountString]:
    """Every string of length n up to prefix order (binary alphabet): prefix counts and suffix."""
    k = min(n, tau + 1)
    out = []
    for suf in product(alphabet, repeat=k):
        rest = n - k
        for ca in range(rest + 1):
            out.append(count_string({"a": ca, "b": rest - ca}, suf))
    return out


def _explicit(f: LimitTransformer, g: LimitTransformer, x: tuple[str, ...], p: int | None) -> Fraction:
    return abs(evaluate(f, x, p).out[0] - evaluate(g, x, p).out[0])


def agreement(f: LimitTransformer, g: LimitTransformer, N: int, p: int | None) -> tuple[Any, str]:
    """delta = max |f - g| over every string of length <= N (an upper bound, exact or interval), and how."""
    if f.standard and g.standard:
        tau = max(f.tau, g.tau)
        delta: Any = Fraction(0)
        total = 0
        for n in range(1, N + 1):
            for cs in count_strings(tau, n):
                delta = max(delta, _diff(f, g, cs, p)[1])
                total += 1
        return delta, f"every string of length <= {N} ({total} prefix-count classes, lossless at Delta = 1)"
    same = (f.P == g.P and f.phi == g.phi and (g.periodic or g.N0 >= N)
            and all(k >= N for k, _ in g.phi_far) and (g.translation_invariant or g.N0 >= N))
    if not same:
        raise InputError("pair", "models identical on every position, offset and query up to N", None)
    worst = max(_explicit(f, g, x, p) for n in range(1, min(N, ENUM) + 1) for x in product("ab", repeat=n))
    return worst, (f"every string of length <= {N}: identical parameters on positions, offsets and queries "
                   f"<= {N} (structural), and every string up to {min(N, ENUM)} tokens evaluated ({worst})")


def _candidates(variant: str, N: int, seed: int) -> list[tuple[str, ...] | CountString]:
    """Longer strings: the next lengths, periodic blocks, shares near the gap of short-string averages,
    perfect powers (exact soft terms), seeded random counts."""
    rng = np.random.default_rng(seed)
    if variant in ("non-periodic", "non-local", "non-translation-invariant"):
        return [("a",) + ("b",) * (n - 1) for n in range(N + 1, N + 4)] + \
               [("a",) * (n - 1) + ("b",) for n in range(N + 1, N + 4)]
    tau = 0 if variant == "degenerate" else 1
    out: list[tuple[str, ...] | CountString] = []
    for n in list(range(N + 1, N + 17)) + [2 * N, 10**3, 10**4, 10**6] + [2 ** (3 * SOFT_K)]:
        shares = {0, 1, n // 2, n - 1} | {int(v * n) for v in rng.random(4)}
        for ca in shares:
            for suf in product("ab", repeat=tau + 1):
                rest = n - tau - 1
                if 0 <= ca <= rest:
                    out.append(count_string({"a": ca, "b": rest - ca}, suf))
    return out


def separation(f: LimitTransformer, g: LimitTransformer, N: int, p: int | None, variant: str,
               seed: int) -> tuple[Any, Any, int]:
    """The largest certified lower bound of |f - g| over the candidates beyond N: (gap, string, tried)."""
    best: tuple[Any, Any] = (Fraction(0), None)
    cands = _candidates(variant, N, seed)
    for x in cands:
        lo = _explicit(f, g, x, p) if isinstance(x, tuple) else _diff(f, g, x, p)[0]
        if lo > best[0]:
            best = (lo, x)
    return best[0], best[1], len(cands)


def _spell(x: Any) -> str:
    if isinstance(x, tuple):
        return "".join(x)
    return f"prefix {dict(x.prefix)} + suffix {''.join(x.suffix)} (length {x.length})"


def decide(variant: str, N: int, seed: int) -> WitnessOutcome:
    """Build the pair, decide agreement up to N, search beyond N, compare with delta + eps_N."""
    f, g, p = build_pair(variant, N)
    delta, how_agree = agreement(f, g, N, p)
    tau, L = max(f.tau, g.tau), max(lipschitz_full(f), lipschitz_full(g))
    eps_N = sqrt(tau * f.Delta * L**2 / N)
    gap, x, tried = separation(f, g, N, p, variant, seed)
    found = x is not None and float(gap) - float(delta) - eps_N > 1e-30
    effort = f"{tried} longer strings (seed {seed}) after {how_agree}"
    prec = "p = infinity (nothing flushed)" if p is None else f"p = {p}"
    head = (f"{variant}: {f.name} vs {g.name}, {prec}, tau = {tau}, Delta = 1, L' = {L:.4g}, N = {N}: "
            f"delta = {float(delta):.6g}, eps_N = sqrt(tau Delta L'^2/N) = {eps_N:.6g}")
    if variant == "non-translation-invariant":
        shift = _pair([[1, 0], [0, 0]], [[1, 0]], N0=N, phi_late_const=Fraction(1), name="phi = 1[i > N]")
        same = all(_explicit(f, shift, x, p) == 0 for x in _candidates(variant, N, seed))
        head += (f"; the family phi(j, i) = 1[i > N] shifts every logit of a query equally (softmax "
                 f"unchanged):"
                 f" |f - g| = 0 on every candidate: {same}")
    witness = None
    if found:
        witness = {"variant": variant, "N": str(N), "seed": str(seed), "f": _json(f), "g": _json(g),
                   "string": _spell(x),
                   "gap_lower": _num(gap), "delta_upper": _num(delta)}
        how = (f"{head}; |f - g| >= {_num(gap)} on {_spell(x)} > delta + eps_N (exact"
               f"{'; interval arithmetic for the soft terms' if p is None else ''}); one member of a family "
               f"rebuilt at every N with the same tau, Delta, L', p")
    else:
        how = f"{head}; largest separation found {float(gap):.6g} <= delta + eps_N: none found"
    data = _certificate(f, g, p, x, witness) if witness is not None else None
    return WitnessOutcome(found, effort, witness, how, found, CLAIM, data)


def _certificate(f: LimitTransformer, g: LimitTransformer, p: int | None, x: Any,
                 witness: dict[str, str]) -> dict[str, Any]:
    """The kernel's ``limit-transformer`` data (docs/trust.md): both models, the precision, the string
    (tokens, or prefix counts and suffix), the separation's lower bound, N and the stated agreement."""
    string = {"tokens": "".join(x)} if isinstance(x, tuple) else \
        {"prefix": {t: str(c) for t, c in x.prefix}, "suffix": "".join(x.suffix)}
    return {"kind": "limit-transformer", "f": to_dict(f), "g": to_dict(g),
            "p": "infinity" if p is None else p, "string": string,
            "gap_lower": witness["gap_lower"], "N": int(witness["N"]), "delta_upper": witness["delta_upper"]}


def _num(v: Any) -> str:
    return str(v) if isinstance(v, Fraction) else mp.nstr(v, 20)


def _json(m: LimitTransformer) -> str:
    import json

    return json.dumps(to_dict(m), sort_keys=True)


class BoundFalsifier:
    """The falsifier of INL25.T41: the pair of the dropped assumption (``params['variant']``)."""

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        return decide(params["variant"], params["N"], params["seed"])

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        import json

        for key in ("variant", "N", "seed", "f", "g", "string", "gap_lower", "delta_upper"):
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        if witness["variant"] not in VARIANTS:
            raise one_of("witness.variant", VARIANTS, witness["variant"])
        try:
            f, g = (from_dict(json.loads(witness[k]), f"witness.{k}") for k in ("f", "g"))
        except json.JSONDecodeError:
            raise InputError("witness.f/g", "JSON model data", None) from None
        if not (witness["N"].isdigit() and witness["seed"].isdigit()) or not 1 <= int(witness["N"]) <= 4096:
            raise InputError("witness.N/seed", "integers (1 <= N <= 4096)", (witness["N"], witness["seed"]))
        out = decide(witness["variant"], int(witness["N"]), int(witness["seed"]))
        ok = out.found and _json(f) == out.witness["f"] and _json(g) == out.witness["g"] \
            and all(witness[k] == out.witness[k] for k in ("string", "gap_lower", "delta_upper"))
        how = f"replayed: {'the pair still separates' if ok else 'NO separation'} ({out.how})"
        return WitnessOutcome(ok, "1 pair", witness, how, ok, CLAIM)


__all__ = ["VARIANTS", "CLAIM", "build_pair", "agreement", "separation", "decide", "lipschitz_full",
           "count_strings", "BoundFalsifier"]
