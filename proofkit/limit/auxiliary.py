"""The auxiliary string z of the proof of Theorem 4.1 (Izzo, Nichani & Lee 2025, App. A.1) and its
sub-claims with explicit constants, exactly (Delta = 1, hardmax models, strings by token counts).

For models f, g and a string x (prefix counts n_s, suffix of tau + 1 tokens), A_h is the set of prefix
positions whose logit under h equals the string's maximal logit, S_h its token set. ``build_z`` follows the
text case by case, reading the position sets the text writes in case 3 ("s in A_f", "s in A_g \\ A_f") as the
token sets S_f, S_g:

- C0: |A_f|, |A_g| <= tau/eps: z's prefix copies the tokens of A_f and A_g.
- f-part: m_s = n_s (|A_f| <= tau/eps) or m_s = floor(n_s/|A_f| * tau/eps), s in S_f.
- C2 (|A_f cap A_g|/|A_g| <= eps): m_s = floor(n_s/|A_g| * tau/eps^2), s in S_g \\ S_f.
- C3 (otherwise): s* = argmax_{s in S_f} n_s, m_s = floor(m_{s*}/n_{s*} * n_s), s in S_g \\ S_f.

z keeps the suffix of x (tau + 1 tokens, offsets 0..tau: the offsets that carry phi). Every inequality is
decided in Fractions; the attention a forward pass of z gives is read as the uniform average over the argmax
classes (the proof's hardmax reading), and separately through the flushed forward pass at p bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import floor

from .counts import CountString, classes, count_string
from .model import LimitTransformer, readout


@dataclass(frozen=True)
class Attended:
    """A_h for one model and string: the attended prefix tokens S_h with their counts, |A_h|."""

    tokens: tuple[str, ...]
    size: int


def attended(model: LimitTransformer, cs: CountString) -> Attended:
    """A_h: prefix classes whose logit equals the maximal logit of the whole string (suffix included)."""
    cl = classes(model, cs)
    top = max(a for *_, a in cl)
    toks = tuple(t for c, t, m, a in cl if c[0] == "prefix" and a == top and m)
    return Attended(toks, sum(cs.counts()[t] for t in toks))


@dataclass(frozen=True)
class Construction:
    """The auxiliary string and the quantities the proof names. ``swapped``: f and g were exchanged so that
    |A_f| <= |A_g| (the text's WLOG)."""

    case: str
    z: CountString
    swapped: bool
    Af: Attended
    Ag: Attended
    f_part: dict[str, int]
    g_part: dict[str, int]
    s_star: str | None = None
    notes: tuple[str, ...] = field(default=())


def _floor(r: Fraction) -> int:
    return floor(r)


def build_z(f: LimitTransformer, g: LimitTransformer, x: CountString, tau: int,
            eps: Fraction) -> Construction:
    """The auxiliary string z of App. A.1 for f, g and x (token-set reading of case 3)."""
    n = x.counts()
    Af, Ag = attended(f, x), attended(g, x)
    swapped = Af.size > Ag.size
    if swapped:
        Af, Ag = Ag, Af
    lim = Fraction(tau) / eps
    Sf, Sg = set(Af.tokens), set(Ag.tokens)
    if Af.size <= lim and Ag.size <= lim:
        part = {s: n[s] for s in Sf | Sg}
        return Construction("C0", count_string(part, x.suffix), swapped, Af, Ag, part, {})
    if Af.size <= lim:
        fp = {s: n[s] for s in Sf}
    else:
        fp = {s: _floor(Fraction(n[s], Af.size) * lim) for s in Sf}
    inter = sum(n[s] for s in Sf & Sg)
    if Fraction(inter, Ag.size) <= eps:
        gp = {s: _floor(Fraction(n[s], Ag.size) * tau / eps**2) for s in Sg - Sf}
        case, star = "C2", None
    else:
        star = max(sorted(Sf), key=lambda s: n[s])
        gp = {s: _floor(Fraction(fp[star], n[star]) * n[s]) for s in Sg - Sf}
        case = "C3"
    return Construction(case, count_string({**fp, **gp}, x.suffix), swapped, Af, Ag, fp, gp, star)


def hard_prop(model: LimitTransformer, cs: CountString) -> dict[str, Fraction]:
    """The hardmax attention distribution over tokens: uniform over every key of maximal logit."""
    cl = classes(model, cs)
    top = max(a for *_, a in cl)
    tot = sum(m for _, _, m, a in cl if a == top)
    out: dict[str, Fraction] = {}
    for _, t, m, a in cl:
        if a == top:
            out[t] = out.get(t, Fraction(0)) + Fraction(m, tot)
    return out


def hard_out(model: LimitTransformer, cs: CountString) -> tuple[Fraction, ...]:
    """The output when attention is the hardmax average (the value the proof uses)."""
    Y = list(model.y(cs.suffix[-1], 0))
    for t, w in hard_prop(model, cs).items():
        Y = [Yc + w * v for Yc, v in zip(Y, model.apply("V", model.y(t, 0)))]
    return readout(model, Y)


def l1(p: dict[str, Fraction], q: dict[str, Fraction]) -> Fraction:
    """The l1 distance of two distributions over tokens."""
    return sum((abs(p.get(t, Fraction(0)) - q.get(t, Fraction(0))) for t in set(p) | set(q)), Fraction(0))


def floor_claims(c: Construction, x: CountString, tau: int, eps: Fraction, sigma: int) -> dict[str,
                                                                                               bool | None]:
    """The floor inequalities S1, S2 (eq. (1)), S4, S5, S7, S8, S9, S11 at this instance, each with the
    constant printed in App. A.1 (None: the claim's condition does not hold here)."""
    n = x.counts()
    lim = Fraction(tau) / eps
    Af, Ag, fp, gp = c.Af, c.Ag, c.f_part, c.g_part
    Sf, Sg = set(Af.tokens), set(Ag.tokens)
    out: dict[str, bool | None] = dict.fromkeys(("S1", "S2", "S4", "S5", "S7", "S8", "S9", "S11"))
    zlen = c.z.length
    out["S11"] = zlen <= (2 * lim + tau + 1 if c.case == "C0" else tau + 1 + lim + lim / eps)
    if c.case == "C0":
        return out
    big = Af.size > lim
    M = sum(fp.values())
    if big:
        out["S1"] = lim - len(Sf) <= M <= lim
        if len(Sf) * eps / tau <= Fraction(1, 2):
            r = {s: Fraction(n[s], Af.size) for s in Sf}
            out["S2"] = all(r[s] - eps / tau <= Fraction(fp[s], M) <= r[s] + 2 * len(Sf) * eps / tau
                            and abs(Fraction(fp[s], M) - r[s]) <= 2 * sigma * eps / tau for s in Sf)
    G = sum(gp.values())
    if c.case == "C2":
        diff = len(Sg - Sf)
        out["S4"] = Fraction(Ag.size - sum(n[s] for s in Sf & Sg), Ag.size) * tau / eps**2 - diff <= G \
            <= tau / eps**2
        if G:
            out["S5"] = all(abs(Fraction(gp[s], G) - Fraction(n[s], Ag.size)) <= 2 * sigma * eps**2 / tau
                            for s in gp)
        return out
    star = c.s_star
    ms, ns = fp[star], n[star]
    out["S8"] = G <= tau / eps**2
    if big:
        out["S7"] = ns >= lim / sigma and lim / Af.size - eps * sigma / tau <= Fraction(ms,
                                                                                        ns) <= lim / Af.size
        if lim / sigma >= 2 and ms:
            ok = True
            for s in Sg:
                q, m = Fraction(n[s], ns), (gp[s] if s in gp else fp[s])
                if s in Sf:
                    ok &= q - sigma * eps / tau <= Fraction(m, ms) <= q + 2 * sigma * eps / tau
                else:
                    ok &= q - sigma * eps / (tau - sigma * eps) <= Fraction(m, ms) <= q
            out["S9"] = ok
    return out


__all__ = ["Attended", "Construction", "attended", "build_z", "hard_prop", "hard_out", "l1", "floor_claims"]
