"""Growth certificates: E(67), the expected all-pairs regularizer at initialization (HYB24.G1c), is
unbounded as N -> oo at a stated setting, re-derived from the setting alone.

Setting (data): width d = c N^a, entries of p_i, K, Q i.i.d. centered with variance s = d^-v and kurtosis
kappa (a fraction, or "infinite"), L H = N^h layer-heads, K and Q independent or tied (K = Q). The kernel
derives E[(p^T K^T Q q)^2] / s^4 (i != j) and E[(p^T K^T Q p)^2] / s^4 (i = j) as polynomials in d and kappa
by its own count: the six indices (k, a, b, k', a', b') of the squared sum, one term per set partition of
them (blocks = distinct values, d (d - 1) ... (d - m + 1) assignments), its moment the product over the
distinct entries of E x^2 = 1, E x^4 = kappa (odd counts 0). Then

    E(67) = N^h [ N (N - 1) / 2 s^4 off(d) + N s^4 diag(d) ],  s^4 d^j = c^(j - 4v) N^(a (j - 4v)),

a finite sum of r c^e N^f (r, e, f exact fractions). The leading N-exponent and its coefficient (a sum of
r c^e, stored as [r, e] pairs in increasing e) must equal the stored ones, and diverge: exponent > 0 and
coefficient > 0 (exact when every r > 0, else a 60-digit ball). With kappa infinite the i = j moment's highest
kappa power has a weight with non-negative coefficients in d (positive at every width d >= 1), so E(67) is
infinite at every N (the stored leading fields are absent).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import flint

from .core import Reject, ball, fields, figure, lower_bound, number, precision

#: the initialization laws the tie accepts, with their kurtosis E[x^4] / E[x^2]^2 (a premise table:
#: Gaussian 3, Rademacher 1, uniform on [-1, 1] (1/5) / (1/3)^2 = 9/5, Student t3 infinite)
KURTOSIS = {"gaussian": "3", "rademacher": "1", "uniform": "9/5", "student-t3": "infinite"}
KEYS = ("independent", "tied")


def _partitions(n: int) -> list[list[int]]:
    """Every set partition of n positions as restricted growth strings (block labels 0, 1, ...)."""
    out = [[0]]
    for _ in range(n - 1):
        out = [p + [b] for p in out for b in range(max(p) + 2)]
    return out


@functools.cache
def moments(tied: bool, diagonal: bool) -> dict[tuple[int, int], int]:
    """E[(p^T K^T Q q)^2] / s^4 (q = p when ``diagonal``; K = Q when ``tied``) as {(d power, kappa power):
    integer}, summed over the set partitions of the six indices."""
    falling: dict[int, dict[int, int]] = {0: {0: 1}}  # d (d - 1) ... (d - m + 1) by powers of d
    for m in range(1, 7):
        prev = falling[m - 1]
        falling[m] = {j: prev.get(j - 1, 0) - (m - 1) * prev.get(j, 0) for j in range(m + 1)}
    key, right = ("Q" if tied else "K"), ("p" if diagonal else "q")
    out: dict[tuple[int, int], int] = {}
    for k, a, b, k2, a2, b2 in _partitions(6):
        count: dict[tuple, int] = {}
        for var in (("p", a), ("p", a2), (key, k, a), (key, k2, a2), ("Q", k, b), ("Q", k2, b2),
                    (right, b), (right, b2)):
            count[var] = count.get(var, 0) + 1
        if any(n % 2 for n in count.values()):
            continue
        if any(n > 4 for n in count.values()):
            raise ValueError("an entry occurs more than four times")
        fours = sum(n == 4 for n in count.values())
        for j, f in falling[max(k, a, b, k2, a2, b2) + 1].items():
            out[(j, fours)] = out.get((j, fours), 0) + f
    return {t: n for t, n in out.items() if n}


def leading(a: Fraction, v: Fraction, h: Fraction, kappa: Fraction, tied: bool
            ) -> tuple[Fraction, list[tuple[Fraction, Fraction]]]:
    """The leading N-exponent of E(67) and its coefficient as [(r, e)] (sum r c^e, e increasing)."""
    terms: dict[Fraction, dict[Fraction, Fraction]] = {}
    half = Fraction(1, 2)  # i < j: N (N - 1) / 2 = N^2 / 2 - N / 2 pairs; i = j: N
    for diagonal, weights in ((False, ((2, half), (1, -half))), (True, ((1, Fraction(1)),))):
        for (j, kp), n in moments(tied, diagonal).items():
            ce = j - 4 * v
            for npow, w in weights:
                f = h + npow + a * ce
                row = terms.setdefault(f, {})
                row[ce] = row.get(ce, Fraction(0)) + w * n * kappa**kp
    nonzero = {f: {e: r for e, r in row.items() if r} for f, row in terms.items()}
    top = max(f for f, row in nonzero.items() if row)
    return top, [(r, e) for e, r in sorted(nonzero[top].items())]


def _coefficient(value: Any) -> list[tuple[Fraction, Fraction]]:
    if not isinstance(value, list) or not value:
        raise Reject("data.leading_coefficient", "expected a non-empty list of [r, e] pairs (r c^e)")
    out = []
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise Reject(f"data.leading_coefficient[{i}]", "expected a pair [r, e]")
        out.append((number(pair[0], f"data.leading_coefficient[{i}][0]"),
                    number(pair[1], f"data.leading_coefficient[{i}][1]")))
    return sorted(out, key=lambda t: t[1])


def check_growth(data: Any) -> str:
    """Re-derive E(67)'s leading term at the setting; it must be the stored one and diverge."""
    d = fields(data, "data", ["kind", "width_exp", "width_c", "var_exp", "heads_exp", "kappa", "keys"],
               ["leading_exponent", "leading_coefficient"])
    a, c, v, h = (number(d[k], f"data.{k}") for k in ("width_exp", "width_c", "var_exp", "heads_exp"))
    if c <= 0:
        raise Reject("data.width_c", f"{figure(c)} is not a positive width constant")
    if d["keys"] not in KEYS:
        raise Reject("data.keys", f"expected one of {', '.join(KEYS)}")
    tied = d["keys"] == "tied"
    if d["kappa"] == "infinite":
        if "leading_exponent" in d or "leading_coefficient" in d:
            raise Reject("data", "no leading term is stored when E(67) is infinite")
        top_k = max(kp for _, kp in moments(tied, True))
        weight = {j: n for (j, kp), n in moments(tied, True).items() if kp == top_k}
        if not top_k or min(weight.values()) < 0:
            raise Reject("data.kappa", "the i = j moment's highest kappa power has no positive weight")
        return (f"E x^4 infinite enters E[(p^T A p)^2] as kappa^{top_k} with weight "
                + " + ".join(f"{n} d^{j}" for j, n in sorted(weight.items()))
                + f" > 0 at every width: E(67) is infinite at every N ({d['keys']} K, Q)")
    kappa = number(d["kappa"], "data.kappa")
    if kappa < 1:
        raise Reject("data.kappa", f"{figure(kappa)}: a kurtosis is at least 1")
    if "leading_exponent" not in d or "leading_coefficient" not in d:
        raise Reject("data", "a finite kurtosis needs leading_exponent and leading_coefficient")
    top, coef = leading(a, v, h, kappa, tied)
    stored_top = number(d["leading_exponent"], "data.leading_exponent")
    if stored_top != top:
        raise Reject("data.leading_exponent", f"{d['leading_exponent']}, the kernel derives N^{top}")
    stored = _coefficient(d["leading_coefficient"])
    if stored != coef:
        raise Reject("data.leading_coefficient", "the kernel derives " +
                     " + ".join(f"{r} c^{e}" for r, e in coef))
    if top <= 0:
        raise Reject("data.leading_exponent", f"N^{top}: E(67) does not diverge")
    if any(r <= 0 for r, _ in coef):
        with precision(60):
            lc = ball(c).log()
            total = sum((ball(r) * (ball(e) * lc).exp() for r, e in coef), flint.arb(0))
            if lower_bound(total) <= 0:
                raise Reject("data.leading_coefficient", f"{figure(total)}: not proven positive")
    shown = " + ".join(f"{r} c^{e}" for r, e in coef)
    return f"E(67) ~ ({shown}) N^{top} at c = {c}, kappa = {kappa}, {d['keys']} K, Q: unbounded"


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """The certificate is about this witness record: the setting is the witness's, the witness's law has
    the stated kurtosis (by the table above) and the record's other parameters, and the witness's leading
    exponent (and, when it is a single c^0 term, coefficient) and infinite limit are the certificate's."""
    w, params = rec.get("witness") or {}, rec.get("params") or {}
    if rec.get("kind") != "witness":
        raise Reject("certificate.data", "a growth certificate belongs to a witness record")
    for key in ("width_exp", "width_c", "var_exp", "heads_exp"):
        if number(str(w.get(key)), f"witness.{key}") != number(data[key], f"data.{key}"):
            raise Reject(f"certificate.data.{key}", f"{data[key]}, the witness says {w.get(key)}")
        if key != "width_c" and number(str(params.get(key)), f"params.{key}") != number(data[key], key):
            raise Reject(f"certificate.data.{key}", f"{data[key]}, the record's params say {params.get(key)}")
    if w.get("keys") != data["keys"] or params.get("keys") != data["keys"]:
        raise Reject("certificate.data.keys", f"{data['keys']}, the record says {w.get('keys')}")
    if KURTOSIS.get(str(w.get("law"))) != data["kappa"] or params.get("law") != w.get("law"):
        raise Reject("certificate.data.kappa", f"{data['kappa']}, the record's law is {w.get('law')}")
    if w.get("limit") != "oo":
        raise Reject("certificate.data", f"the witness's limit is {w.get('limit')}, not oo")
    if data["kappa"] == "infinite":
        return
    if number(str(w.get("leading_exponent")), "witness.leading_exponent") != \
            number(data["leading_exponent"], "data.leading_exponent"):
        raise Reject("certificate.data.leading_exponent", f"the witness says {w.get('leading_exponent')}")
    total = sum(number(r, "r") for r, _ in data["leading_coefficient"])  # the coefficient at c = 1
    if number(data["width_c"], "c") == 1 and \
            number(str(w.get("leading_coefficient")), "witness.leading_coefficient") != total:
        raise Reject("certificate.data.leading_coefficient",
                     f"the witness says {w.get('leading_coefficient')}")
