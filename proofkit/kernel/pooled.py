"""Exact zero-risk certificates of pooled families, re-checked on formal polynomials with Fractions.

Families (the kernel's own definitions; features in the order given):

* ``hinge-deep-sets``: per-token features p(x) = (1, x_1..x_n, then for each knot k and coordinate i
  max(x_i - k, 0)^2); logit = A sum_j W p(x_j) + a (``pooling`` "sum") or A (1/t) sum_j W p(x_j) + a
  ("mean").
* ``pairwise-sum``: pair features of the query a = x_t and each key b = x_j, j <= t (the diagonal
  included): every monomial a^alpha b^beta of total degree <= ``degree`` (by degree, then the exponent
  tuples (alpha, beta) in descending order, the constant first), then for each knot k and key
  coordinate i max(b_i - k, 0)^2; logit = A (sum_j W p(x_t, x_j) + E x_t) + a, E x_t = the first k
  coordinates of x_t (``residual``; zero-padded).

The certificate: at every training length t, t times the logit (the "scaled logit"; the logit itself for
sum pooling and pairwise sums) of h minus that of f, a formal polynomial over the token coordinates and
hinge atoms, vanishes on the training support: identically on the token box (hinges whose knot is at or
above the box's top vanish there; pinned coordinates are substituted), or on the support's coordinate-sum
slice (an affine difference whose coefficients agree across positions), or, for a ReLU readout, on every
cell of the box cut at the knots where it does not vanish, both scaled logits are <= 0 (exact interval
bounds on the cell), so both outputs are 0 there. The gap at the witness is an exact non-zero rational.
Any of these rewrites is an identity or a bound of real functions; failing to show one is a failure.

Data: learner, truth, readout, lengths, support {lo, hi[, sums {length: [per-coordinate sum]}]},
witness, gap.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from .core import NotRechecked, Reject, fields, figure, integer, matrix, number, vector
from .models import INJECTIVE

Mono = tuple[tuple[Any, int], ...]
Poly = dict[Mono, Fraction]
#: most cells (products of knot intervals over positions and coordinates) examined per length
MAX_CELLS = 1 << 14
FAMILIES = ("hinge-deep-sets", "pairwise-sum")


# ------------------------------------------------------------------------------------------------ models
def parse(data: Any, where: str) -> dict[str, Any]:
    """A pooled model: family, n, knots, blocks A (m x k), W (k x F), a (m) or none, and the family's
    own fields; F checked against the features the family defines."""
    opt = ["a", "pooling"] if isinstance(data, dict) and data.get("family") == "hinge-deep-sets" else \
        ["a", "degree", "residual"]
    d = fields(data, where, ["family", "n", "knots", "A", "W"], opt)
    if d["family"] not in FAMILIES:
        raise Reject(f"{where}.family", f"expected one of {', '.join(FAMILIES)}")
    n = integer(d["n"], f"{where}.n", 1, 8)
    knots = vector(d["knots"], f"{where}.knots")
    W = matrix(d["W"], f"{where}.W")
    A = matrix(d["A"], f"{where}.A", None, len(W))
    m = {"family": d["family"], "n": n, "knots": knots, "A": A, "W": W,
         "a": vector(d["a"], f"{where}.a", len(A)) if "a" in d else None}
    if d["family"] == "hinge-deep-sets":
        if d.get("pooling", "sum") not in ("sum", "mean"):
            raise Reject(f"{where}.pooling", "expected 'sum' or 'mean'")
        m["pooling"] = d.get("pooling", "sum")
        width = 1 + n + n * len(knots)
    else:
        m["degree"] = integer(d.get("degree", 2), f"{where}.degree", 0, 6)
        if not isinstance(d.get("residual", True), bool):
            raise Reject(f"{where}.residual", "expected true or false")
        m["residual"] = d.get("residual", True)
        m["exponents"] = [e for deg in range(m["degree"] + 1)
                          for e in sorted((e for e in itertools.product(range(deg + 1), repeat=2 * n)
                                           if sum(e) == deg), reverse=True)]
        width = len(m["exponents"]) + n * len(knots)
    if len(W[0]) != width:
        raise Reject(f"{where}.W", f"{len(W[0])} columns, the family has {width} features")
    return m


def flat(m: dict[str, Any]) -> list[Fraction]:
    """Parameters in the order A, a, W (row-major): the order records list them."""
    return [v for row in m["A"] for v in row] + list(m["a"] or []) + [v for row in m["W"] for v in row]


def refill(m: dict[str, Any], values: list[Fraction]) -> dict[str, Any]:
    """``m`` with its parameters replaced by ``values`` (order of :func:`flat`)."""
    it = iter(values)
    A = [[next(it) for _ in row] for row in m["A"]]
    a = None if m["a"] is None else [next(it) for _ in m["a"]]
    W = [[next(it) for _ in row] for row in m["W"]]
    return m | {"A": A, "a": a, "W": W}


# ------------------------------------------------------------------------------------ formal polynomials
def _mono(*factors: tuple[Any, int]) -> Mono:
    out: dict[Any, int] = {}
    for atom, e in factors:
        if e:
            out[atom] = out.get(atom, 0) + e
    return tuple(sorted(out.items()))


def _add(p: Poly, mono: Mono, c: Fraction) -> None:
    if c:
        v = p.get(mono, Fraction(0)) + c
        if v:
            p[mono] = v
        else:
            p.pop(mono, None)


def _token_features(m: dict[str, Any], j: int) -> list[Mono]:
    n = m["n"]
    return [_mono()] + [_mono((("x", j, i), 1)) for i in range(n)] + \
        [_mono((("h", j, i, k), 1)) for k in m["knots"] for i in range(n)]


def _pair_features(m: dict[str, Any], q: int, j: int) -> list[Mono]:
    n = m["n"]
    monos = [_mono(*[(("x", q, i), e[i]) for i in range(n)], *[(("x", j, i), e[n + i]) for i in range(n)])
             for e in m["exponents"]]
    return monos + [_mono((("h", j, i, k), 1)) for k in m["knots"] for i in range(n)]


def scaled_logits(m: dict[str, Any], t: int) -> list[Poly]:
    """t x logit (mean pooling) or the logit (otherwise) after t symbolic tokens, per output."""
    A, W, out, deep = m["A"], m["W"], [], m["family"] == "hinge-deep-sets"
    inner: list[list[tuple[Mono, Fraction]]] = [[] for _ in W]
    for j in range(t):
        feats = _token_features(m, j) if deep else _pair_features(m, t - 1, j)
        for s, row in enumerate(W):
            inner[s] += list(zip(feats, row))
    for s in range(min(len(W), m["n"]) if not deep and m["residual"] else 0):
        inner[s].append((_mono((("x", t - 1, s), 1)), Fraction(1)))
    scale = t if deep and m["pooling"] == "mean" else 1
    for r, arow in enumerate(A):
        p: Poly = {}
        for s, coef in enumerate(arow):
            for mono, c in inner[s]:
                _add(p, mono, coef * c)
        _add(p, _mono(), scale * (m["a"][r] if m["a"] else Fraction(0)))
        out.append(p)
    return out


def value(p: Poly, X: list[list[Fraction]]) -> Fraction:
    """p at the tokens X, exactly."""
    total = Fraction(0)
    for mono, c in p.items():
        term = c
        for atom, e in mono:
            x = X[atom[1]][atom[2]]
            term *= (x if atom[0] == "x" else max(x - atom[3], Fraction(0)) ** 2) ** e
        total += term
    return total


def substitute(p: Poly, rule: Any) -> Poly:
    """p with atoms replaced: ``rule(atom)`` gives a constant or None (keep the atom)."""
    out: Poly = {}
    for mono, c in p.items():
        keep, coef = [], c
        for atom, e in mono:
            v = rule(atom)
            if v is None:
                keep.append((atom, e))
            else:
                coef *= v ** e
        _add(out, _mono(*keep), coef)
    return out


def _range(atom: Any, cell: dict[tuple[int, int], tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
    u, v = cell[(atom[1], atom[2])]
    if atom[0] == "x":
        return u, v
    # hinge on an interval at or above its knot (the cell makes it so): (x - k)^2, increasing there
    return (u - atom[3]) ** 2, (v - atom[3]) ** 2


def _term_bounds(mono: Mono, c: Fraction, cell: dict[tuple[int, int], tuple[Fraction, Fraction]]) -> Fraction:
    """An upper bound of one term c * mono on the cell (interval arithmetic)."""
    lo = hi = Fraction(1)
    for atom, e in mono:
        u, v = _range(atom, cell)
        ends = [u ** e, v ** e] + ([Fraction(0)] if e % 2 == 0 and u < 0 < v else [])
        prods = [a * b for a in (lo, hi) for b in (min(ends), max(ends))]
        lo, hi = min(prods), max(prods)
    return max(c * lo, c * hi)


def _univariate(terms: list[tuple[Mono, Fraction]], u: Fraction, v: Fraction) -> list[Fraction] | None:
    """Coefficients (constant first) of a sum of terms in one variable x on [u, v] (a hinge atom is
    (x - k)^2 there), or None above degree 2."""
    coef = [Fraction(0)] * 3
    for mono, c in terms:
        poly = [c]
        for atom, e in mono:
            base = [Fraction(0), Fraction(1)] if atom[0] == "x" else [atom[3] ** 2, -2 * atom[3], Fraction(1)]
            for _ in range(e):
                poly = [sum((poly[i] * base[k - i] for i in range(len(poly)) if 0 <= k - i < len(base)),
                            Fraction(0)) for k in range(len(poly) + len(base) - 1)]
        if len(poly) > 3 and any(poly[3:]):
            return None
        for k, a in enumerate(poly[:3]):
            coef[k] += a
    return coef


def upper(p: Poly, cell: dict[tuple[int, int], tuple[Fraction, Fraction]]) -> Fraction:
    """An exact upper bound of p on the cell: the terms in one variable are summed into a polynomial of
    degree <= 2 whose maximum on its interval is exact (ends and vertex); other terms by intervals."""
    groups: dict[Any, list[tuple[Mono, Fraction]]] = {}
    for mono, c in p.items():
        variables = {(atom[1], atom[2]) for atom, _ in mono}
        groups.setdefault(next(iter(variables)) if len(variables) == 1 else (mono,), []).append((mono, c))
    total = Fraction(0)
    for key, terms in groups.items():
        quad = _univariate(terms, *cell[key]) if key in cell else None
        if quad is None:
            total += sum((_term_bounds(mono, c, cell) for mono, c in terms), Fraction(0))
            continue
        u, v = cell[key]
        top = -quad[1] / (2 * quad[2]) if quad[2] < 0 else u  # the vertex of a concave parabola
        points = [u, v] + ([top] if u < top < v else [])
        total += max(quad[0] + quad[1] * x + quad[2] * x * x for x in points)
    return total


# ----------------------------------------------------------------------------------------------- checking
def _on_box(p: Poly, lo: list[Fraction], hi: list[Fraction]) -> Poly:
    """p on the token box: hinges at or above the top vanish, pinned coordinates take their value."""
    def rule(atom: Any) -> Fraction | None:
        i = atom[2]
        if atom[0] == "h" and atom[3] >= hi[i]:
            return Fraction(0)
        if lo[i] == hi[i]:
            return lo[i] if atom[0] == "x" else max(lo[i] - atom[3], Fraction(0)) ** 2
        return None
    return substitute(p, rule)


def _slice_zero(D: Poly, sums: list[Fraction], t: int, n: int) -> bool:
    """D is 0 wherever sum_j x_j = sums: D is affine in the token coordinates with, for each coordinate,
    one coefficient at every position (then D = const + sum_i d_i sums_i there)."""
    const, coef = Fraction(0), {}
    for mono, c in D.items():
        if not mono:
            const = c
        elif len(mono) == 1 and mono[0][0][0] == "x" and mono[0][1] == 1:
            coef[(mono[0][0][1], mono[0][0][2])] = c
        else:
            return False
    d = []
    for i in range(n):
        per = {coef.get((j, i), Fraction(0)) for j in range(t)}
        if len(per) != 1:
            return False
        d.append(per.pop())
    return const + sum((di * si for di, si in zip(d, sums)), Fraction(0)) == 0


def _cells(t: int, n: int, lo: list[Fraction], hi: list[Fraction], knots: list[Fraction]):
    """Every cell of box^t cut at the knots inside (lo_i, hi_i): dicts (position, coordinate) ->
    interval; NotRechecked over MAX_CELLS."""
    per = []
    for i in range(n):
        cuts = [lo[i]] + sorted({k for k in knots if lo[i] < k < hi[i]}) + [hi[i]]
        per.append(list(zip(cuts, cuts[1:])) if lo[i] < hi[i] else [(lo[i], hi[i])])
    count = 1
    for ivs in per:
        count *= len(ivs) ** t
    if count > MAX_CELLS:
        raise NotRechecked(f"{count} knot cells at length {t}, over the kernel's cap of {MAX_CELLS}")
    keys = [(j, i) for j in range(t) for i in range(n)]
    for choice in itertools.product(*[per[i] for _, i in keys]):
        yield dict(zip(keys, choice))


def _in_cell(p: Poly, cell: dict[tuple[int, int], tuple[Fraction, Fraction]]) -> Poly:
    """p on a cell: a hinge whose interval lies at or below its knot is 0 there."""
    return substitute(p, lambda atom: Fraction(0) if atom[0] == "h" and cell[(atom[1], atom[2])][1] <= atom[3]
                      else None)


def check_pooled(data: Any) -> str:
    """Re-check a ``pooled-exact`` certificate; the figures re-derived, or Reject."""
    d = fields(data, "data", ["kind", "learner", "truth", "readout", "lengths", "support", "witness", "gap"])
    h, f = parse(d["learner"], "learner"), parse(d["truth"], "truth")
    if h["n"] != f["n"] or len(h["A"]) != len(f["A"]):
        raise Reject("data.learner", "learner and truth differ in token width or outputs")
    n, readout = h["n"], d["readout"]
    if not isinstance(d["lengths"], list) or not d["lengths"]:
        raise Reject("data.lengths", "expected a non-empty list of lengths")
    lengths = [integer(t, f"data.lengths[{i}]", 1, 16) for i, t in enumerate(d["lengths"])]
    sup = fields(d["support"], "data.support", ["lo", "hi"], ["sums"])
    lo, hi = vector(sup["lo"], "data.support.lo", n), vector(sup["hi"], "data.support.hi", n)
    if any(a > b for a, b in zip(lo, hi)):
        raise Reject("data.support", "an empty token box")
    sums = sup.get("sums") or {}
    if not isinstance(sums, dict):
        raise Reject("data.support.sums", "expected an object length -> sums")
    how: Counter[str] = Counter()
    knots = h["knots"] + f["knots"]
    for t in lengths:
        for r, (ph, pf) in enumerate(zip(scaled_logits(h, t), scaled_logits(f, t))):
            D = dict(ph)
            for mono, c in pf.items():
                _add(D, mono, -c)
            D = _on_box(D, lo, hi)
            if not D:
                how["identically 0 on the box"] += 1
                continue
            if str(t) in sums:
                if not _slice_zero(D, vector(sums[str(t)], f"data.support.sums.{t}", n), t, n):
                    raise Reject("data.learner", f"h - f at length {t}, output {r} is not shown to vanish on "
                                                 "the support's sum slice")
                how["0 on the sum slice"] += 1
                continue
            for cell in _cells(t, n, lo, hi, knots):
                if not _in_cell(D, cell):
                    continue
                tops = [upper(_in_cell(_on_box(p, lo, hi), cell), cell) for p in (ph, pf)]
                if readout != "relu" or max(tops) > 0:
                    where = ", ".join(f"x[{j}][{i}] in [{figure(u)}, {figure(v)}]"
                                      for (j, i), (u, v) in cell.items())
                    raise Reject("data.learner", f"h - f at length {t}, output {r} is not 0 where {where}, "
                                                 "and the logits there are not both <= 0 under a relu "
                                                 f"readout (upper bounds {figure(tops[0])}, "
                                                 f"{figure(tops[1])})")
            how["0, or both relu outputs 0 on the cells where not"] += 1
    X = matrix(d["witness"], "data.witness", None, n)
    t = len(X)
    zh, zf = (logits(m, X) for m in (h, f))
    if readout not in INJECTIVE:
        if readout != "relu":
            raise Reject("data.readout", f"{readout!r}: the kernel compares outputs only for relu")
        zh, zf = [max(z, Fraction(0)) for z in zh], [max(z, Fraction(0)) for z in zf]
    gap = max(abs(u - v) for u, v in zip(zh, zf))
    stored = number(d["gap"], "data.gap")
    if gap != stored or gap == 0:
        raise Reject("data.gap", f"the {'logit' if readout in INJECTIVE else 'output'} gap at the witness is "
                                 f"{str(gap)}, the certificate says {str(stored)} (it must be non-zero)")
    said = "; ".join(f"{k} ({v} output-length pairs)" for k, v in how.items())
    return (f"{h['family']}: h - f at the training lengths {lengths}: {said}; "
            f"{'logit' if readout in INJECTIVE else 'output'} gap at the length-{t} witness = {figure(gap)} "
            "(exact, non-zero)")


def logits(m: dict[str, Any], X: list[list[Fraction]]) -> list[Fraction]:
    """The model's logits at X, exactly (the scaled logit divided back for mean pooling)."""
    t = len(X)
    div = t if m["family"] == "hinge-deep-sets" and m["pooling"] == "mean" else 1
    return [value(p, X) / div for p in scaled_logits(m, t)]
