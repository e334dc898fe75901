"""The search behind HYB24.G1c (App. G.1 / Prop. 54 corrected): for which width schedules, entry variances,
initialization laws and head counts does the expected all-pairs regularizer (67) stay bounded as N grows?

Everything here is derived, not printed (the extracted text lost the formulas of G.1 and Prop. 54's
assumption on d). Setting (our reading, as in :mod:`init_width`): one head, positional encodings p_1..p_N in
R^d, K, Q in R^{d x d} (d_k = d), all entries i.i.d. from a centered law scaled to variance s = d^-v, with
kurtosis kappa = E[x^4] / E[x^2]^2. With A = K^T Q and independent zero-mean entries,

* E[(p_i^T A p_j)^2] = s^4 d_k d^2 for i != j (only second moments enter: the law does not matter);
* E[(p_i^T A p_i)^2] = s^4 d_k (d^2 + (kappa - 1) d) (the fourth moment of p enters once per coordinate;
  Gaussian kappa = 3 gives the d^2 + 2d of :mod:`init_width`).

:func:`moment_polynomials` sums the moments of every pair of monomials with kappa a symbol (no formula
assumed) at d = 0..6, and :func:`moment_forms` interpolates (each sum is a polynomial of degree <= 6 in d),
which re-derives both; with K = Q tied (a dependence) it gives d^2 (2d + kappa - 2) and
d^2 (d^2 + (kappa + 1) d + kappa^2 - kappa - 2), so the i = j term no longer vanishes at s = 1/d. Summing
over i <= j <= N and over L H = N^h layer-heads (independent K, Q; the tied forms replace the brackets),

    E(67) = N^h [ N (N - 1) / 2 * d^(3 - 4v) + N (d^(3 - 4v) + (kappa - 1) d^(2 - 4v)) ],

and at d = c N^a it is a finite sum of terms coefficient * N^e (rational e). :func:`asymptotics` reads the
exact leading term; bounded iff the leading exponent 2 + h + a (3 - 4v) is <= 0 (its coefficient is
positive), i.e. a (4v - 3) >= 2 + h; sympy's limit cross-checks the result. A law with infinite fourth
moment (Student t with 3 degrees of freedom) makes every diagonal term, hence E(67), infinite at every N.
Integer widths ceil(c N^a) change no verdict: every term is a power of d and ceil(c N^a) / (c N^a) -> 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import sympy as sp

from ...errors import InputError, one_of
from ...language.evidence import Evidence, Method, fails, holds
from ...language.spec import WitnessOutcome

N = sp.Symbol("N", positive=True)
kappa = sp.Symbol("kappa", positive=True)
_x = sp.Symbol("x", real=True)
_u = sp.Symbol("u", positive=True)

#: the initialization laws searched, each as (kind, density / point masses): centered, before scaling to the
#: variance (only the kurtosis E[x^4] / E[x^2]^2 matters)
LAWS: dict[str, tuple[str, Any]] = {
    "gaussian": ("density", sp.exp(-_x**2 / 2) / sp.sqrt(2 * sp.pi)),
    "rademacher": ("atoms", ((-1, sp.Rational(1, 2)), (1, sp.Rational(1, 2)))),
    "uniform": ("interval", sp.Rational(1, 2)),  # on [-1, 1]
    "student-t3": ("density", 6 * sp.sqrt(3) / (sp.pi * (3 + _x**2) ** 2)),
}
#: the width constants each search tries after the setting's own c
C_GRID = ("1/64", "1/8", "1", "8", "64")
CLAIM = "E(67) stays bounded as N -> oo (App. G.1 / Prop. 54 as corrected here)"


def rational(text: str, field: str = "value") -> Fraction:
    """A rational number from its decimal or p/q text (parsed, never evaluated); InputError otherwise."""
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError, AttributeError):
        raise InputError(field, "a rational number (p/q or a decimal)", text) from None


@cache
def law_moments(law: str) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(E[x], E[x^2], E[x^4]) of the law at unit scale, by exact integration / summation (oo if infinite)."""
    if law not in LAWS:
        raise one_of("law", LAWS, law)
    kind, spec = LAWS[law]
    if kind == "atoms":
        return tuple(sp.nsimplify(sum(w * sp.Integer(v) ** k for v, w in spec)) for k in (1, 2, 4))
    lo, hi = (-1, 1) if kind == "interval" else (-sp.oo, sp.oo)
    return tuple(sp.integrate(_x**k * spec, (_x, lo, hi)) for k in (1, 2, 4))


def kurtosis(law: str) -> sp.Expr:
    """E[x^4] / E[x^2]^2 of the law (scale-free; oo for an infinite fourth moment)."""
    _, m2, m4 = law_moments(law)
    return sp.oo if m4 is sp.oo else sp.nsimplify(m4 / m2**2)


def _kappa_power(count: int) -> int | None:
    """E[x^count] / s^(count / 2) of one entry as a power of kappa: None (odd: 0), 0 for 2, 1 for 4."""
    if count % 2:
        return None
    if count > 4:
        raise ValueError(f"a variable occurs {count} times in a degree-8 product of the setting")
    return count // 4


def moment_polynomials(dim: int, tied: bool = False) -> tuple[sp.Expr, sp.Expr]:
    """E[(p^T K^T Q q)^2] / s^4 (p, q independent) and E[(p^T K^T Q p)^2] / s^4 at d = d_k = ``dim``, exact,
    as polynomials in kappa: the sum over every pair of monomials of the product of each variable's moment.
    ``tied``: K = Q (the same matrix), the dependence the independence assumption excludes."""
    out = []
    key = "Q" if tied else "K"
    for diagonal in (False, True):
        q = "p" if diagonal else "q"
        terms = [(f"p{a}", f"{key}{k}_{a}", f"Q{k}_{b}", f"{q}{b}")
                 for k, a, b in product(range(dim), repeat=3)]
        total: Counter[int] = Counter()
        for t1 in terms:
            for t2 in terms:
                powers = [_kappa_power(n) for n in Counter(t1 + t2).values()]
                if None not in powers:
                    total[sum(powers)] += 1
        out.append(sp.expand(sum((n * kappa**k for k, n in total.items()), sp.S.Zero)))
    return out[0], out[1]


#: the sums run over six indices (k, a, b of each factor) in [d], and a product's moment depends only on
#: which indices coincide, so each sum is sum over partitions of E(partition) d (d - 1) ... (d - m + 1),
#: m <= 6 blocks: a polynomial of degree <= 6 in d, fixed by its values at d = 0..6
DEGREE = 6
d_sym = sp.Symbol("d", positive=True)


@cache
def moment_forms(tied: bool = False) -> tuple[sp.Expr, sp.Expr]:
    """The exact (i != j, i = j) moments / s^4 as polynomials in d and kappa (d_k = d), interpolated from
    :func:`moment_polynomials` at d = 0..6 (exact: see :data:`DEGREE`)."""
    vals = [moment_polynomials(m, tied) for m in range(DEGREE + 1)]
    return tuple(sp.factor(sp.expand(sp.interpolate([(m, v[i]) for m, v in enumerate(vals)], d_sym)))
                 for i in (0, 1))


def moment_law_evidence() -> Evidence:
    """Evidence: the independent forms are d^3 and d^2 (d + kappa - 1) (times s^4), and at the Gaussian law,
    variance 1/d they give init_width's E(67); the tied (K = Q) forms are reported (derived here)."""
    from .init_width import E67 as E67_GAUSS  # the (67) expectation HYB24.T7 checks

    domain = (f"d = d_k = 0..{DEGREE} (exhaustive), E[(p^T K^T Q q)^2] and E[(p^T K^T Q p)^2] for every "
              "centered law with kurtosis kappa (a symbol), K, Q independent or tied (K = Q)")
    off, diag = moment_forms(False)
    want = (d_sym**3, d_sym**2 * (d_sym + kappa - 1))
    res = [sp.expand(off - want[0]), sp.expand(diag - want[1])]
    nn = sp.Symbol("N", positive=True)
    gauss = (nn * (nn - 1) / 2 * off + nn * diag).subs(kappa, 3) / d_sym**4
    res.append(sp.simplify(gauss - E67_GAUSS.subs({sp.Symbol("N", positive=True): nn,
                                                    sp.Symbol("d", positive=True): d_sym})))
    if any(r != 0 for r in res):
        return fails(Method.EXACT, f"forms ({off}, {diag}) differ from {want} or init_width's E67: {res}",
                     domain=domain, count=2 * (DEGREE + 1), residual=str(res))
    toff, tdiag = moment_forms(True)
    return holds(Method.ENUMERATION, domain, count=4 * (DEGREE + 1), residual="0",
                 detail="exact sums over every pair of monomials of the entries' moments (E x^2 = s, E x^4 = "
                        "kappa s^2, odd moments 0) at d = 0..6, interpolated (each sum is a polynomial of "
                        "degree <= 6 in d: six indices, the moment depends only on which coincide): "
                        f"independent K, Q: E/s^4 = ({off}, {diag}) as derived (the i != j term has no "
                        "kappa; "
                        "Gaussian kappa = 3, s = 1/d gives init_width's E(67) exactly); tied K = Q: "
                        f"({toff}, {tdiag}), so at s = 1/d the i = j term tends to 1, not 0")


#: the setting's fields, in order (parameter names of HYB24.G1c)
FIELDS = ("width_exp", "width_c", "var_exp", "law", "heads_exp", "keys")
KEYS = ("independent", "tied")


@dataclass(frozen=True)
class Setting:
    """One schedule: width d = c N^a, entry variance d^-v, a law, L H = N^h layer-heads, K and Q
    independent or tied."""

    width_exp: str
    width_c: str
    var_exp: str
    law: str
    heads_exp: str
    keys: str = "independent"

    @classmethod
    def of(cls, params: Mapping[str, Any]) -> Setting:
        return cls(*(str(params[k]) for k in FIELDS))

    def numbers(self) -> tuple[sp.Rational, sp.Rational, sp.Rational, sp.Rational]:
        vals = [rational(t, f) for t, f in ((self.width_exp, "width_exp"), (self.width_c, "width_c"),
                                            (self.var_exp, "var_exp"), (self.heads_exp, "heads_exp"))]
        if vals[1] <= 0:
            raise InputError("width_c", "a positive rational", self.width_c)
        return tuple(sp.Rational(v.numerator, v.denominator) for v in vals)

    def label(self) -> str:
        c = "" if self.width_c == "1" else f"{self.width_c} "
        keys = "" if self.keys == "independent" else ", K = Q (tied)"
        return (f"d = {c}N^{self.width_exp}, variance d^-{self.var_exp}, {self.law} law, "
                f"L H = N^{self.heads_exp}{keys}")


def expectation67(s: Setting, law_kappa: sp.Expr | None = None) -> sp.Expr:
    """E(67) at the setting as an expression in N (sympy oo when the law has no fourth moment)."""
    a, c, v, h = s.numbers()
    k = kurtosis(s.law) if law_kappa is None else law_kappa
    if k is sp.oo:
        return sp.oo
    if s.keys not in KEYS:
        raise one_of("keys", KEYS, s.keys)
    d = c * N**a
    off, diag = (sp.expand(f.subs({kappa: k, d_sym: d})) * d ** (-4 * v)
                 for f in moment_forms(s.keys == "tied"))
    return N**h * (N * (N - 1) / 2 * off + N * diag)


@dataclass(frozen=True)
class Asymptotics:
    """The exact leading term coefficient * N^exponent of E(67), and its limit as N -> oo."""

    expression: str
    exponent: str
    coefficient: str
    limit: str

    @property
    def bounded(self) -> bool:
        return self.limit not in ("oo", "-oo")


def asymptotics(expr: sp.Expr) -> Asymptotics:
    """Leading term of a finite sum of c_i N^(e_i) (exact rational e_i; terms with equal exponents summed)."""
    if expr is sp.oo:
        return Asymptotics("oo (E[x^4] = oo: every diagonal term is infinite)", "-", "oo", "oo")
    expanded = sp.expand(sp.powsimp(sp.expand(expr), force=True))
    by_exp: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(expanded):
        coef, e = term.as_coeff_exponent(N)
        if coef.has(N) or not e.is_Rational:
            raise ValueError(f"not a sum of rational powers of N: {term}")
        by_exp[e] = by_exp.get(e, sp.S.Zero) + coef
    nonzero = {e: cf for e, cf in by_exp.items() if sp.simplify(cf) != 0}
    top = max(nonzero)
    cf = sp.nsimplify(nonzero[top])
    if top > 0:
        limit = "oo" if cf > 0 else "-oo"
    else:
        limit = str(cf if top == 0 else sp.S.Zero)
    return Asymptotics(str(expanded), str(top), str(cf), limit)


def decide(s: Setting) -> tuple[Asymptotics, str]:
    """The setting's leading term, and sympy's limit of E(67) as a cross-check (must agree)."""
    expr = expectation67(s)
    out = asymptotics(expr)
    check = "oo" if expr is sp.oo else str(sp.limit(expr, N, sp.oo))
    if check != out.limit:
        raise ArithmeticError(f"leading term says {out.limit}, sympy's limit {check} at {s.label()}")
    return out, check


def _witness(s: Setting, out: Asymptotics) -> dict[str, str]:
    return {"width_exp": s.width_exp, "width_c": s.width_c, "var_exp": s.var_exp, "law": s.law,
            "heads_exp": s.heads_exp, "keys": s.keys, "kurtosis": str(kurtosis(s.law)), "E67": out.expression,
            "leading_exponent": out.exponent, "leading_coefficient": out.coefficient, "limit": out.limit}


def search_setting(params: Mapping[str, Any]) -> WitnessOutcome:
    """The setting at ``params`` with its own width constant c first, then every c of :data:`C_GRID`:
    the first schedule whose E(67) tends to infinity (exact leading term, sympy limit agreeing)."""
    base = Setting.of(params)
    cs = [base.width_c] + [c for c in C_GRID if rational(c) != rational(base.width_c)]
    seen = []
    for c in cs:
        s = Setting(base.width_exp, c, base.var_exp, base.law, base.heads_exp, base.keys)
        out, _ = decide(s)
        seen.append(f"c = {c}: limit {out.limit}")
        if out.limit == "oo":  # -oo only for d < 1 (a <= 0, c < 1): no width, no witness
            infinite = out.exponent == "-"
            lead = (f"the law's fourth moment is infinite ({s.law}: E[x^4] = oo, exact integral), so every "
                    "diagonal term E[(p_i^T A p_i)^2] and E(67) are infinite at every N" if infinite
                    else f"E(67) = {out.expression}, leading term {out.coefficient} N^{out.exponent}, so "
                    "lim_(N -> oo) E(67) = oo (exact leading term; sympy's limit agrees); integer widths "
                    "ceil(c N^a) change nothing (ceil(c N^a) / (c N^a) -> 1)")
            how = f"{s.label()} (kurtosis {kurtosis(s.law)}): {lead}"
            return WitnessOutcome(True, _effort(base, cs), _witness(s, out), how, True, CLAIM,
                                  certificate_data(s, out))
    how = (f"E(67) bounded at every width constant c: {'; '.join(seen)} (variance d^-{base.var_exp}, "
           f"{base.law} law, L H = N^{base.heads_exp}, d = c N^{base.width_exp}, {base.keys} K, Q)")
    return WitnessOutcome(False, _effort(base, cs), None, how, False, CLAIM)


def certificate_data(s: Setting, out: Asymptotics) -> dict[str, Any]:
    """The kernel's "growth" certificate (proofkit/kernel/growth.py): the setting as exact strings, and for
    a finite kurtosis the leading N-exponent with its coefficient as [r, e] pairs (sum r c^e, e increasing),
    read from E(67) with c a symbol (it must give the leading coefficient at the setting's c)."""
    a, c, v, h = s.numbers()
    k = kurtosis(s.law)
    data: dict[str, Any] = {"kind": "growth", "width_exp": str(a), "width_c": str(c), "var_exp": str(v),
                            "heads_exp": str(h), "kappa": "infinite" if k is sp.oo else str(k),
                            "keys": s.keys}
    if k is sp.oo:
        return data
    cs = sp.Symbol("c", positive=True)
    d = cs * N**a
    off, diag = (sp.expand(f.subs({kappa: k, d_sym: d})) * d ** (-4 * v)
                 for f in moment_forms(s.keys == "tied"))
    expr = sp.expand(sp.powsimp(sp.expand_power_base(sp.expand(N**h * (N * (N - 1) / 2 * off + N * diag)),
                                                     force=True), force=True))
    top = sp.Rational(out.exponent)
    by_c: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(expr):
        coef, e = term.as_coeff_exponent(N)
        if e == top:
            r, ce = coef.as_coeff_exponent(cs)
            if r.has(cs) or not (r.is_Rational and ce.is_Rational):
                raise ArithmeticError(f"not r c^e: {coef}")
            by_c[ce] = by_c.get(ce, sp.S.Zero) + r
    kept = [(by_c[e], e) for e in sorted(by_c) if by_c[e] != 0]
    pairs = [[str(r), str(e)] for r, e in kept]
    if str(sp.nsimplify(sum(r * c**e for r, e in kept))) != out.coefficient:  # as asymptotics prints it
        raise ArithmeticError(f"the coefficient {pairs} at c = {c} is not {out.coefficient}")
    data["leading_exponent"], data["leading_coefficient"] = str(top), pairs
    return data


def _effort(base: Setting, cs: list[str]) -> str:
    return (f"{len(cs)} schedules d = c N^{base.width_exp} (c in {', '.join(cs)}), variance "
            f"d^-{base.var_exp}, {base.law} law, L H = N^{base.heads_exp}, {base.keys} K, Q: exact leading "
            "term of E(67)")


class WidthFalsifier:
    """The falsifier of HYB24.G1c: a schedule (width, variance, law, head count) under which E(67) is
    unbounded in N, decided exactly; the drop search moves the theorem's parameters, this sweeps c."""

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        return search_setting(params)

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        keys = (*FIELDS, "kurtosis", "E67", "leading_exponent", "leading_coefficient", "limit")
        for key in keys:
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        s = Setting(*(witness[k] for k in FIELDS))
        s.numbers()  # rationals, c > 0 (InputError otherwise)
        if s.law not in LAWS or s.keys not in KEYS:
            raise InputError("witness.law/keys", f"one of {', '.join(LAWS)} / {', '.join(KEYS)}",
                             (s.law, s.keys))
        out, _ = decide(s)
        again = _witness(s, out)
        ok = out.limit == "oo" and all(witness[k] == again[k] for k in keys)
        verdict = "E(67) still unbounded" if ok else "NOT reproduced"
        how = (f"replayed: {verdict} at {s.label()} (leading term "
               f"{out.coefficient} N^{out.exponent}, limit {out.limit})")
        return WitnessOutcome(ok, "1 schedule", witness, how, ok, CLAIM)


def _values(settings: list[Setting], field: str) -> str:
    return "{" + ", ".join(dict.fromkeys(getattr(s, field) for s in settings)) + "}"


def grid_evidence(settings: Iterable[Setting], expect_bounded: bool) -> Evidence:
    """Exact evidence over a finite set of settings: each E(67) bounded (``expect_bounded``) or not."""
    settings = list(settings)
    domain = (f"d = c N^a, a in {_values(settings, 'width_exp')}, c in {_values(settings, 'width_c')}, "
              f"variance d^-v, v in {_values(settings, 'var_exp')}, law in {_values(settings, 'law')}, L H = "
              f"N^h, h in {_values(settings, 'heads_exp')}, K, Q {_values(settings, 'keys')}: "
              f"{len(settings)} settings (exact leading term, "
              "N -> oo)")
    rows, limits = [], Counter()
    for s in settings:
        out, _ = decide(s)
        rows.append(f"[{s.label()}] leading {out.coefficient} N^{out.exponent}, limit {out.limit}")
        limits[out.limit] += 1
        if out.bounded != expect_bounded:
            return fails(Method.IDENTITY, f"{s.label()}: lim E(67) = {out.limit}", domain=domain,
                         count=len(settings), residual=out.limit, detail=rows[-1])
    shown = "; ".join(rows[:4]) + (f"; ... ({len(rows)} in all)" if len(rows) > 4 else "")
    return holds(Method.IDENTITY, domain, count=len(settings),
                 residual="every limit finite" if expect_bounded else "every limit oo",
                 detail=f"{shown}; limits (count): " + ", ".join(f"{k} ({n})" for k, n in limits.items()))


def exponent_residuals() -> list[sp.Expr]:
    """For every width exponent a = 2 + alpha and variance exponent v = 1 + beta (alpha, beta >= 0
    symbolic), constant L H and a finite-kurtosis law: the exponents of N in the three terms of E(67) at
    d = c N^a, read off the expression, satisfy e_1 = -(alpha + 8 beta + 4 alpha beta) (<= 0 manifestly),
    e_1 - e_2 = 1 and e_1 - e_3 = 1 + a (so e_1 leads). Residuals that must vanish."""
    al, be, c = sp.symbols("alpha beta c", nonnegative=True)
    a, v = 2 + al, 1 + be
    d = c * N**a
    terms = (N**2 / 2 * d ** (3 - 4 * v), N * d ** (3 - 4 * v) / 2, N * (kappa - 1) * d ** (2 - 4 * v))
    e1, e2, e3 = (sp.powsimp(sp.expand_power_base(t, force=True), force=True).as_coeff_exponent(N)[1]
                  for t in terms)
    return [sp.expand(e1 + (al + 8 * be + 4 * al * be)), sp.expand(e1 - e2 - 1), sp.expand(e1 - e3 - 1 - a)]


def necessity_residual() -> sp.Expr:
    """At variance 1/d, the Gaussian law and constant L H, with d = c N^(2 - t) (t > 0, c > 0 symbolic):
    E(67) >= its i < j part N (N - 1) / (2d) (the i = j part N (d + 2) / d^2 is non-negative), and that part
    divided by N^t tends to 1/(2c) > 0, so E(67) -> oo for every width exponent below 2. The residual
    lim (i < j part) / N^t - 1/(2c), which must vanish."""
    c = sp.Symbol("c", positive=True)
    d = c * N ** (2 - _u)
    return sp.simplify(sp.limit(N * (N - 1) / (2 * d) / N**_u, N, sp.oo) - 1 / (2 * c))


__all__ = ["N", "kappa", "LAWS", "C_GRID", "CLAIM", "rational", "law_moments", "kurtosis",
           "moment_polynomials", "moment_forms", "moment_law_evidence", "FIELDS", "KEYS", "Setting",
           "expectation67", "Asymptotics", "certificate_data",
           "asymptotics", "decide", "search_setting", "WidthFalsifier", "grid_evidence", "exponent_residuals",
           "necessity_residual"]
