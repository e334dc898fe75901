"""Closed-form witness certificates: a learner and a true model given as small expression trees, zero
risk on the whole training support re-derived by exact canonical forms and sign proofs, and the gap at
the witness tokens re-evaluated (exactly, or in balls where exp/log/sinh/asinh/sigmoid remain).

Models (the kernel's own definition of the pair-sum family, AM24 Theorems 2 and 3): at length t,
value = omega(sum_{j in J(t)} psi(x_t, x_j) (+ x_t if ``residual``)) (+ e_r(x_1, ..., x_(t-1)) when the
model has ``key_order`` r), J(t) = j < t (``causal``) or j <= t (``diagonal``); omega is a tree in the
variable ``s``, psi in ``a`` (the query) and ``b`` (the key). A tree is a fraction string, ``{"var": name}``
or ``{"op": ..., "args": [...]}`` with op add, mul, div, max, min, exp, log, sigmoid, sinh, asinh or pow
(one argument and an integer ``exponent`` in [0, 12]); nothing is parsed from text.

Zero risk: at every stored length t the kernel builds h_t - f_t in symbolic tokens as a canonical
polynomial (exact Fraction coefficients) over the token symbols and atoms (an op applied to canonical
arguments; rewrites used: f(0) for exp, log(1), sinh, asinh, sigmoid and sinh(asinh(z)) = z). A
max(u, v) or min(u, v) is resolved only where the sign of u - v is proven on the length-t support: a
constant, an exact interval bound on the token box (univariate quadratics maximized exactly, bisection
up to MAX_BOXES boxes), the exact maximum of an affine function over the box cut by the linear
constraints (vertex enumeration), or the bound u - v <= g on the box for one stored constraint g <= 0.
h_t - f_t must then be the zero polynomial. The support (a premise, read from the data): tokens in
[lo, hi], optionally ``sorted`` (non-decreasing), ``sums`` (sum of the listed positions <= at_most; used
at lengths holding every listed position), ``balls`` (sum over positions of (x - centre)^2 <= radius2).
Data: keys, residual, learner and truth {omega, psi[, key_order]}, support, lengths, witness, and the
gap h - f at the witness: ``gap`` (exact, when the canonical form at the tokens is a constant) or
``gap_ball`` [lo, hi] excluding 0.
"""

from __future__ import annotations

import functools
import itertools
import operator
from fractions import Fraction
from typing import Any

from .core import Reject, ball, fields, figure, integer, lower_bound, number, precision, upper_bound, vector

Mono = tuple[tuple[str, int], ...]
Poly = dict[Mono, Fraction]
#: boxes examined per sign proof, vertex systems per linear program, nodes per tree
MAX_BOXES, MAX_SYSTEMS, MAX_NODES = 4096, 20000, 4000
_FUNCS = ("exp", "log", "sigmoid", "sinh", "asinh")
_AT_ZERO = {"exp": Fraction(1), "sigmoid": Fraction(1, 2), "sinh": Fraction(0), "asinh": Fraction(0)}


def _key(p: Poly) -> str:
    return repr(sorted((m, str(c)) for m, c in p.items()))


def _padd(*ps: Poly, scale: Fraction = Fraction(1)) -> Poly:
    out: Poly = {}
    for i, p in enumerate(ps):
        for m, c in p.items():
            out[m] = out.get(m, Fraction(0)) + (scale if i else 1) * c
    return {m: c for m, c in out.items() if c}


def _pmul(p: Poly, q: Poly) -> Poly:
    out: Poly = {}
    for (m1, c1), (m2, c2) in itertools.product(p.items(), q.items()):
        e = dict(m1)
        for a, k in m2:
            e[a] = e.get(a, 0) + k
        m = tuple(sorted(e.items()))
        out[m] = out.get(m, Fraction(0)) + c1 * c2
    return {m: c for m, c in out.items() if c}


def _const(p: Poly) -> Fraction | None:
    return p.get((), Fraction(0)) if set(p) <= {()} else None


class Canon:
    """The canonical-form algebra at one length, with the support its max/min resolutions may use."""

    def __init__(self, box: tuple[Fraction, Fraction], n: int, linear: list[Poly], other: list[Poly]) -> None:
        self.box, self.n, self.linear, self.other = box, n, linear, other
        self.atoms: dict[str, tuple[str, list[Poly]]] = {}

    def const(self, q: Fraction) -> Poly:
        return {(): q} if q else {}

    def add(self, *ps: Poly) -> Poly:
        return _padd(*ps)

    def mul(self, *ps: Poly) -> Poly:
        out: Poly = {(): Fraction(1)}
        for p in ps:
            out = _pmul(out, p)
        return out

    def atom(self, op: str, *args: Poly) -> Poly:
        k = f"{op}({';'.join(_key(a) for a in args)})"
        self.atoms[k] = (op, list(args))
        return {((k, 1),): Fraction(1)}

    def div(self, p: Poly, q: Poly) -> Poly:
        c = _const(q)
        return self.atom("div", p, q) if c is None else {m: v / c for m, v in p.items()}

    def max(self, u: Poly, v: Poly) -> Poly:
        s = self.sign(_padd(u, v, scale=Fraction(-1)))
        return self.atom("max", u, v) if s is None else u if s >= 0 else v

    def min(self, u: Poly, v: Poly) -> Poly:
        s = self.sign(_padd(u, v, scale=Fraction(-1)))
        return self.atom("min", u, v) if s is None else v if s >= 0 else u

    def func(self, op: str, p: Poly) -> Poly:
        c = _const(p)
        if c == 0 and op in _AT_ZERO:
            return self.const(_AT_ZERO[op])
        if c == 1 and op == "log":
            return {}
        (m, k), = p.items() if len(p) == 1 else [((), 0)]
        if op == "sinh" and k == 1 and len(m) == 1 and m[0][1] == 1 and \
                self.atoms.get(m[0][0], ("",))[0] == "asinh":
            return self.atoms[m[0][0]][1][0]
        return self.atom(op, p)

    def sign(self, w: Poly) -> int | None:
        """+1 if w >= 0, -1 if w <= 0 is proven on the support (0 for w = 0), None if not shown."""
        c = _const(w)
        if c is not None:
            return (c > 0) - (c < 0)
        if any(not a.startswith("x") for m in w for a, _ in m):
            return None
        neg = {m: -v for m, v in w.items()}
        return -1 if self.at_most_zero(w) else 1 if self.at_most_zero(neg) else None

    def at_most_zero(self, w: Poly) -> bool:
        """w <= 0 on the support: w or w - g (g <= 0 a stored constraint) <= 0 on the box (one bound,
        then bisection), or an affine w's maximum over the linearly cut box."""
        box, tries = [self.box] * self.n, [w] + [_padd(w, g, scale=Fraction(-1)) for g in self.other]
        if any(_upper(p, box) <= 0 for p in tries):
            return True
        if self.linear and all(sum(k for _, k in m) <= 1 for m in w) and \
                _lp_max(w, self.n, self.box, self.linear) <= 0:
            return True
        return any(_bisect(p, box) for p in tries)


def _var(i: int) -> str:
    return f"x{i:03d}"


def _upper(p: Poly, box: list[tuple[Fraction, Fraction]]) -> Fraction:
    """An exact upper bound of p on the box: univariate parts of degree <= 2 maximized exactly (ends and
    vertex), every other monomial by interval products."""
    uni: dict[int, dict[int, Fraction]] = {}
    total = Fraction(0)
    for m, c in p.items():
        if len(m) == 1 and m[0][1] <= 2:
            i = int(m[0][0][1:])
            uni.setdefault(i, {})[m[0][1]] = c
            continue
        lo, hi = Fraction(c), Fraction(c)
        for a, k in m:
            u, v = box[int(a[1:])]
            ends = [u**k, v**k] + ([Fraction(0)] if u < 0 < v else [])
            lo, hi = min(x * y for x in (lo, hi) for y in ends), max(x * y for x in (lo, hi) for y in ends)
        total += hi
    for i, cs in uni.items():
        (u, v), c1, c2 = box[i], cs.get(1, Fraction(0)), cs.get(2, Fraction(0))
        pts = [u, v] + ([-c1 / (2 * c2)] if c2 and u < -c1 / (2 * c2) < v else [])
        total += max(c1 * x + c2 * x * x for x in pts)
    return total


def _bisect(p: Poly, box: list[tuple[Fraction, Fraction]]) -> bool:
    """p <= 0 on the box, by exact upper bounds on boxes halved along the widest side (MAX_BOXES)."""
    todo, seen = [box], 0
    while todo:
        b = todo.pop()
        seen += 1
        if seen > MAX_BOXES:
            return False
        if _upper(p, b) <= 0:
            continue
        i = max(range(len(b)), key=lambda k: b[k][1] - b[k][0]) if b else 0
        if not b or b[i][1] - b[i][0] < Fraction(1, 2**20):
            return False
        mid = (b[i][0] + b[i][1]) / 2
        todo += [b[:i] + [(b[i][0], mid)] + b[i + 1:], b[:i] + [(mid, b[i][1])] + b[i + 1:]]
    return True


def _lp_max(w: Poly, n: int, box: tuple[Fraction, Fraction], linear: list[Poly]) -> Fraction:
    """The exact maximum of an affine w over the box cut by affine constraints g <= 0: the best vertex (a
    bounded polytope's maximum is at a vertex, each vertex solves n independent active constraints)."""
    rows = [({i: Fraction(1)}, -box[1]) for i in range(n)] + [({i: Fraction(-1)}, box[0]) for i in range(n)]
    rows += [({int(m[0][0][1:]): c for m, c in g.items() if m}, g.get((), Fraction(0))) for g in linear]
    best, count = None, 0
    for combo in itertools.combinations(rows, n):
        count += 1
        if count > MAX_SYSTEMS:
            raise Reject("data.support", f"more than {MAX_SYSTEMS} vertex systems")
        x = _solve([[r[0].get(i, Fraction(0)) for i in range(n)] + [-r[1]] for r in combo], n)
        if x is None or any(sum(c * x[i] for i, c in r[0].items()) + r[1] > 0 for r in rows):
            continue
        val = sum(c * x[int(m[0][0][1:])] if m else c for m, c in w.items())
        best = val if best is None or val > best else best
    if best is None:
        raise Reject("data.support", "the support is empty")
    return best


def _solve(a: list[list[Fraction]], n: int) -> list[Fraction] | None:
    """Gauss-Jordan with Fractions; None when singular."""
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col]), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


class Balls:
    """The arb algebra (the gap where atoms remain)."""

    const, add = staticmethod(ball), staticmethod(lambda *xs: sum(xs[1:], xs[0]))
    mul, div = staticmethod(lambda *xs: functools.reduce(operator.mul, xs)), staticmethod(operator.truediv)

    def max(self, x: Any, y: Any) -> Any:
        if x >= y or y >= x:
            return x if x >= y else y
        raise Reject("data", "a max whose branch the balls do not decide")

    def min(self, x: Any, y: Any) -> Any:
        return -self.max(-x, -y)

    def func(self, op: str, x: Any) -> Any:
        return 1 / (1 + (-x).exp()) if op == "sigmoid" else getattr(x, op)()


def _eval(t: Any, env: dict[str, Any], alg: Any, where: str, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise Reject(where, f"a tree of more than {MAX_NODES} nodes")
    if isinstance(t, str):
        return alg.const(number(t, where))
    if isinstance(t, dict) and set(t) == {"var"}:
        if t["var"] not in env:
            raise Reject(where, f"unknown variable {t['var']!r}")
        return env[t["var"]]
    t = fields(t, where, ("op", "args"), ("exponent",))
    op, args = t["op"], t["args"]
    n = {"add": None, "mul": None, "div": 2, "max": 2, "min": 2, "pow": 1}.get(op, 1 if op in _FUNCS else -1)
    if n == -1 or not isinstance(args, list) or not args or (n is not None and len(args) != n):
        raise Reject(where, f"unknown op or wrong argument count: {op!r}")
    xs = [_eval(a, env, alg, f"{where}.args[{i}]", budget) for i, a in enumerate(args)]
    if op == "pow":
        k = integer(t.get("exponent"), where + ".exponent", 0, 12)
        return alg.mul(alg.const(Fraction(1)), *[xs[0]] * k)
    if op in _FUNCS:
        return alg.func(op, xs[0])
    return getattr(alg, op)(*xs)


def _value(m: dict[str, Any], ctx: dict[str, Any], xs: list[Any], alg: Any, where: str) -> Any:
    """The model's output at the last of the tokens ``xs`` (values of the algebra)."""
    t, budget = len(xs), [MAX_NODES * 4 * (len(xs) + 1)]
    js = range(t - 1) if ctx["keys"] == "causal" else range(t)
    terms = [_eval(m["psi"], {"a": xs[-1], "b": xs[j]}, alg, f"{where}.psi", budget) for j in js]
    terms += [xs[-1]] if ctx["residual"] else []
    s = alg.add(alg.const(Fraction(0)), *terms)
    out = _eval(m["omega"], {"s": s}, alg, f"{where}.omega", budget)
    if "key_order" in m:
        r = integer(m["key_order"], f"{where}.key_order", 1, 12)
        out = alg.add(out, *[alg.mul(*c) for c in itertools.combinations(xs[:-1], r)])
    return out


def _support(s: Any, t: int) -> tuple[tuple[Fraction, Fraction], list[Poly], list[Poly]]:
    """The length-t support: the token box, its affine constraints g <= 0 and its other ones."""
    s = fields(s, "data.support", ("tokens",), ("sorted", "sums", "balls"))
    lo, hi = vector(s["tokens"], "data.support.tokens", 2)
    x = [{((_var(i), 1),): Fraction(1)} for i in range(t)]
    chain = range(t - 1) if s.get("sorted") is True else range(0)
    linear = [_padd(x[i], x[i + 1], scale=Fraction(-1)) for i in chain]
    for k, c in enumerate(s.get("sums", [])):
        c = fields(c, f"data.support.sums[{k}]", ("positions", "at_most"))
        pos = [integer(p, f"data.support.sums[{k}].positions", 1, 64) for p in c["positions"]]
        if max(pos) <= t:
            linear.append(_padd(*[x[p - 1] for p in pos], {(): -number(c["at_most"], "at_most")}))
    other = []
    for k, b in enumerate(s.get("balls", [])):
        b = fields(b, f"data.support.balls[{k}]", ("centre", "radius2"))
        c = number(b["centre"], "centre")
        other.append(_padd(*[_pmul(d, d) for d in (_padd(xi, {(): -c}) for xi in x)],
                           {(): -number(b["radius2"], "radius2")}))
    return (lo, hi), linear, other


def check_closed_form(data: Any) -> str:
    """Re-derive zero risk at every stored length and the gap at the witness; the figures, or Reject."""
    d = fields(data, "data", ("kind", "keys", "residual", "learner", "truth", "support", "lengths",
                              "witness"), ("gap", "gap_ball"))
    if d["keys"] not in ("causal", "diagonal") or not isinstance(d["residual"], bool):
        raise Reject("data.keys", "keys causal or diagonal, residual true or false")
    ms = [fields(d[w], f"data.{w}", ("omega", "psi"), ("key_order",)) for w in ("learner", "truth")]
    lengths = d["lengths"]
    if not isinstance(lengths, list) or not lengths:
        raise Reject("data.lengths", "expected a non-empty list of lengths")
    for t in [integer(v, "data.lengths", 1, 8) for v in lengths]:
        box, linear, other = _support(d["support"], t)
        alg = Canon(box, t, linear, other)
        xs = [{((_var(i), 1),): Fraction(1)} for i in range(t)]
        diff = _padd(_value(ms[0], d, xs, alg, "data.learner"), _value(ms[1], d, xs, alg, "data.truth"),
                     scale=Fraction(-1))
        if diff:
            raise Reject("data.learner", f"h - f at length {t} is not shown to vanish on the support "
                                         f"({len(diff)} terms remain)")
    X = vector(d["witness"], "data.witness")
    if not X:
        raise Reject("data.witness", "an empty witness")
    alg = Canon((Fraction(0), Fraction(0)), 0, [], [])
    xs = [alg.const(v) for v in X]
    gap = _const(_padd(_value(ms[0], d, xs, alg, "data.learner"), _value(ms[1], d, xs, alg, "data.truth"),
                       scale=Fraction(-1)))
    zero = f"h = f at every length {lengths} on the support (canonical forms)"
    if gap is not None:
        stored = number(d.get("gap"), "data.gap")
        if gap != stored or gap == 0:
            raise Reject("data.gap", f"{d.get('gap')} stored, the kernel's exact gap is {gap}")
        return f"{zero}; exact gap h - f = {figure(gap)} at the {len(X)}-token witness"
    lo, hi = vector(d.get("gap_ball"), "data.gap_ball", 2)
    with precision(60):
        bs = [ball(v) for v in X]
        g = _value(ms[0], d, bs, Balls(), "data.learner") - _value(ms[1], d, bs, Balls(), "data.truth")
        if not (lo <= lower_bound(g) and upper_bound(g) <= hi) or lo <= 0 <= hi:
            raise Reject("data.gap_ball", f"[{lo}, {hi}] stored, the kernel's ball is {figure(g, 15)}")
        return f"{zero}; gap h - f = {figure(g, 10)} at the {len(X)}-token witness (ball, excludes 0)"


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """The certificate is about this witness record: its tokens are the record's, an exact gap is the
    record's, its lengths cover the record's training lengths (1..T, or T with supervision ONLY)."""
    w, params = rec.get("witness") or {}, rec.get("params") or {}
    toks = [number(v.strip().strip("'\""), "witness.tokens") for v in str(w.get("tokens", ""))
            .strip("[]").split(",") if v.strip()]
    if toks != vector(data["witness"], "data.witness"):
        raise Reject("certificate.data.witness", f"the record's tokens are {w.get('tokens')}")
    if "gap" in data and number(str(w.get("gap")), "witness.gap") != number(data["gap"], "data.gap"):
        raise Reject("certificate.data.gap", f"the record's gap is {w.get('gap')}")
    T = params.get("T")
    need = [T] if params.get("supervision") == "ONLY" else list(range(1, int(T) + 1))
    if not set(need) <= set(data["lengths"]):
        raise Reject("certificate.data.lengths", f"covers {data['lengths']}, the record trains at {need}")
    _tie_support(params, data["support"])


def _tie_support(params: dict[str, Any], sup: dict[str, Any]) -> None:
    """The support premise is no narrower than the record's setting: for the cut cube (tokens in [0,1]^n,
    coordinates summing to at most c = max(n, cut_frac n T)) every stored sum bound is at least c and
    nothing else narrows it; for i.i.d. tokens the premise is the unit box alone. Other settings are
    premises of their own theorem (e.g. the ball example), taken as stated."""
    kind = params.get("support")
    if kind not in ("cut", "iid"):
        return
    if [number(v, "data.support.tokens") for v in sup["tokens"]] != [0, 1]:
        raise Reject("certificate.data.support.tokens", f"[0, 1] for the {kind} support")
    if sup.get("sorted") or sup.get("balls"):
        raise Reject("certificate.data.support", f"no sorted or ball premise for the {kind} support")
    n, T = int(params.get("n", 1)), int(params["T"])
    c = max(Fraction(n), number(repr(float(params.get("cut_frac", 0))), "params.cut_frac") * n * T)
    for k, bound in enumerate(sup.get("sums", [])):
        if kind == "iid" or number(bound["at_most"], "data.support.sums") < c:
            raise Reject(f"certificate.data.support.sums[{k}]",
                         f"a premise narrower than the record's {kind} support"
                         + (f" (sum bound {c})" if kind == "cut" else ""))
