"""INL25.P37: the hardmax lemma of Izzo, Nichani & Lee 2025 (Sec. 3.2, after the definition of the logit
margin): for a tau-local, Delta-periodic, translation-invariant one-layer limit transformer at p bits
(flush rule: after subtracting the largest logit, every softmax term of absolute value <= 2^-p is 0), every
string of length N >= 2^(p/gamma(f)) is attended by a hardmax, the uniform average over its argmax keys.

Everything here is exact: rational parameters, the flush decided by integer comparisons, and "for every
string of every length N >= threshold" reduced to a finite computation (proofkit.limit.margin: beyond
tau + 2 Delta positions the realizable logit pairs depend on N mod Delta only), cross-checked against
brute force over every string in the tests. The claims run over the small models of proofkit.limit.zoo, each
built so that one reading of the definitions matters; a verdict names the models it covers.

Notation (the paper's p is also the ModPTask period and a probability vector; here p is only the bits
of precision; its A is also the MLP matrix: here A is only the attention matrix of D3.4).
"""

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy as sp

from proofkit import (
    Assumption,
    Computed,
    DeltaPeriodic,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Proof,
    Step,
    SymbolicStep,
    TauLocal,
    Theorem,
    TranslationInvariant,
    Verdict,
    fails,
    function,
    holds,
    predicate,
)
from proofkit.limit import MODELS, evaluate, flush, margin_readings, regimes, spelled_witness
from proofkit.limit import margin as mg

N_, p_, g_ = sp.Symbol("N", integer=True, positive=True), sp.Symbol("p", positive=True), \
    sp.Symbol("gamma", positive=True)
Hardmax = predicate("Hardmax", "the flushed softmax at the last query equals the uniform average over "
                               "the argmax keys, for every string of length N")
FlushInclusive = predicate("FlushInclusive", "every softmax term of absolute value <= 2^-p is set to 0 "
                                             "after the largest logit is subtracted")
margin_of = function("gamma_f", "the logit margin of D3.6, over the logit sets of D3.5")


def _models() -> dict[str, Any]:
    return {name: make() for name, make in MODELS.items()}


def _lemma(p: int, variant: str, pairs: str, rule: str = "inclusive") -> Evidence:
    """Decide 'hardmax at every N >= 2^(p/gamma)' on every zoo model, gamma read as ``variant``/``pairs``.
    Each model is one case: every string of every length N >= its threshold, reduced to a finite exact
    computation (slot reduction, integer flush decisions)."""
    models = _models()
    found = regimes(models, p, variant, pairs, rule)
    rows = [f"{r.name}: gamma {r.gamma if r.gamma is not None else 'inf'}, 2^(p/gamma) -> N >= "
            f"{r.threshold}, hardmax holds from N = {r.onset.from_N}" for r in found]
    bad = next((r for r in found if r.onset.failing), None)
    domain = (f"p = {p}, flush rule '{rule}', gamma from the {variant} logit sets ({pairs} pairs): every "
              f"string of every length N >= 2^(p/gamma) on each zoo model ({', '.join(models)}; every N by "
              "the slot reduction)")
    if bad:
        onset, w = bad.onset, bad.onset.witness
        return fails(Method.EXACT,
                     f"fails on '{bad.name}' at N = {', '.join(map(str, onset.failing))}"
                     f"{' ...' if len(onset.failing) >= 8 else ''} (threshold {bad.threshold}; holds from "
                     f"N = {onset.from_N}); {_witness_text(MODELS[bad.name](), w, p, rule)}",
                     domain=domain, count=len(models), residual=str(w.gap),
                     detail="models: " + "; ".join(rows))
    return holds(Method.EXACT, domain, count=len(models), detail="on every zoo model: " + "; ".join(rows))


def _witness_text(model: Any, gap: mg.Gap, p: int, rule: str) -> str:
    """The witness of a failing length, checked by the exact forward pass where it is short enough."""
    y, _, z1, _, z2 = gap.choice
    head = f"at N = {gap.N} a sub-maximal key with gap {gap.gap} survives the flush"
    spelled = spelled_witness(model, gap, p, rule)
    if spelled is None:
        return (f"{head} (query {y}, maximal key {z1}, sub-maximal key {z2}, every other position at its "
                f"lowest logit; a string of length {gap.N}, not spelled out)")
    x, ev = spelled
    return (f"{head}: x = {''.join(x)}, terms kept at positions {list(ev.survivors)}, argmax "
            f"{list(ev.argmax)} (exact forward pass)")


def printed(p: Mapping[str, Any]) -> Evidence:
    return _lemma(p["p"], "literal", "all")


def prose(p: Mapping[str, Any]) -> Evidence:
    return _lemma(p["p"], "completed", "max-vs-rest")


def corrected(p: Mapping[str, Any]) -> Evidence:
    return _lemma(p["p"], "completed", "all")


def strict_rule(p: Mapping[str, Any]) -> Evidence:
    return _lemma(p["p"], "completed", "all", rule="strict")


def boundary(p: Mapping[str, Any]) -> Evidence:
    """At N = 2^(p/gamma) exactly (gap-half: gamma = 1/2, N = 2^(2p)) the sub-maximal term equals 2^-p: it
    is flushed under the inclusive rule, kept under a strict one."""
    m, bits = MODELS["gap-half"](), p["p"]
    N = 2 ** (2 * bits)
    term = flush.term_value(N, Fraction(1, 2))
    inclusive = flush.term_flushed(N, Fraction(1, 2), bits, "inclusive")
    strict = flush.term_flushed(N, Fraction(1, 2), bits, "strict")
    x = ("b",) * (N - 1) + ("a",)
    ev = evaluate(m, x, bits)
    ok = term == Fraction(1, 2**bits) and inclusive and not strict and ev.hardmax
    domain = (f"gap-half, p = {bits}, N = 2^(p/gamma) = {N}: the term N^-1/2 and the forward pass on "
              f"b^{N - 1}a")
    found = (f"N^-1/2 = {term} (= 2^-p: {term == Fraction(1, 2**bits)}), flushed inclusive {inclusive}, "
             f"strict {strict}; forward pass on b^{N - 1}a: hardmax {ev.hardmax} ({ev.arithmetic})")
    if not ok:
        return fails(Method.EXACT, found, domain=domain, count=1, residual=str(term))
    return holds(Method.EXACT, domain, count=1, residual=str(term), detail=found)


def all_intermediates(p: Mapping[str, Any]) -> Evidence:
    """With every intermediate quantity flushed (proofkit's reading of 'during each intermediate
    computation': the normalized weights are intermediates), N >= 2^p tied keys give normalized weights
    1/N <= 2^-p: they are flushed too and the attention output is lost, so the output is not the argmax
    average."""
    m, bits = MODELS["uniform"](), p["p"]
    N = 2**bits
    x = ("a",) * N
    terms = evaluate(m, x, bits, scope="terms")
    every = evaluate(m, x, bits, scope="all")
    show = (lambda ev: ", ".join(str(v) for v in ev.out))  # noqa: E731
    domain = f"uniform model, p = {bits}, x = a^{N} (N = 2^p, every key tied)"
    found = (f"terms-only flush gives ({show(terms)}) (the hardmax average), flushing every intermediate "
             f"gives ({show(every)})")
    if terms.out != every.out:
        return fails(Method.EXACT, found + f" (weights 1/{N} <= 2^-p flushed)", domain=domain, count=1,
                     residual=f"{show(every)} vs {show(terms)}")
    return holds(Method.EXACT, domain, count=1, residual="0", detail=found)


def index_placement(p: Mapping[str, Any]) -> Evidence:
    """D3.4 as printed pairs the key token with the query's position vector; does its gamma (D3.4-D3.6 as
    printed) equal the smallest gap a forward pass realizes, as Sec. 3.2 says ('the smallest nonzero gap
    we can observe')?"""
    models = _models()
    readings = margin_readings(models)
    rows = [f"{r.name}: literal {r.literal}, forward-index {r.forward}, realized {r.realized}"
            for r in readings]
    diff = [(r.name, r.literal, r.realized) for r in readings if r.literal != r.realized]
    domain = (f"each zoo model ({', '.join(models)}): the printed gamma against the smallest gap realized "
              "at the last query over every string of every length N >= tau + 2 Delta + 1")
    detail = "per zoo model: " + "; ".join(rows)
    if diff:
        witness = "; ".join(f"{n}: printed gamma {lit} vs realized {obs}" for n, lit, obs in diff)
        return fails(Method.EXACT, witness, domain=domain, count=len(models),
                     residual=",".join(n for n, _, _ in diff), detail=detail)
    return holds(Method.EXACT, domain, count=len(models), detail=detail)


def control_half_exponent(p: Mapping[str, Any]) -> Evidence:
    """Control: hardmax already at N >= 2^(p/(2 gamma)) (false: the gap-half term survives there)."""
    m, bits = MODELS["gap-half"](), p["p"]
    g = mg.gamma(m, "completed")
    thr = flush.hardmax_length(bits, 2 * g)
    onset = mg.hardmax_onset(m, bits, thr)
    domain = f"gap-half, p = {bits}: every string of every length N >= 2^(p/(2 gamma)) = {thr}"
    if onset.failing:
        return fails(Method.EXACT, f"hardmax fails at N = {onset.failing[0]}", domain=domain, count=1,
                     residual=str(onset.failing[0]))
    return holds(Method.EXACT, domain, count=1, detail=f"gap-half: holds from {thr}")


def boundary_identity() -> sp.Expr:
    """(2^(p/gamma))^(-gamma) = 2^-p: the threshold is where a term of gap gamma equals 2^-p exactly."""
    return (2 ** (p_ / g_)) ** (-g_) - 2 ** (-p_)


def maximal_term() -> list[Any]:
    """Case a = a*: s_j = exp(0) = 1, above the flush threshold 2^-p for every p > 0 (in logs: log 1 = 0 >
    log 2^-p = -p log 2), so it survives."""
    return [sp.exp(0) - 1, sp.log(sp.exp(0)) > sp.expand_log(sp.log(2 ** (-p_)), force=True)]


def submaximal_bound() -> list[Any]:
    """Case a != a*: log N >= p log 2/gamma (log N = p log 2/gamma + d) and a - a* <= -gamma (a - a* = -gamma
    - e) give log s_j = log N (a - a*) = -p log 2 - (the non-negative rest), i.e. s_j <= 2^-p."""
    d, e = sp.Symbol("d", nonnegative=True), sp.Symbol("e", nonnegative=True)
    log_s = (p_ * sp.log(2) / g_ + d) * (-g_ - e)
    rest = sp.expand(-p_ * sp.log(2) - log_s)
    return [sp.simplify(rest - (p_ * sp.log(2) * e / g_ + d * g_ + d * e)), rest >= 0]


PRINTED, CORRECTED, PROSE = ("P3.7 as printed (gamma from D3.4-D3.6)",
                             "P3.7, gamma from every logit a forward pass can see",
                             "P3.7 with the prose reading of gamma (max vs rest)")
D34, BOUND, STRICT = ("D3.4 as printed gives the gap a forward pass realizes",
                      "boundary N = 2^(p/gamma): term = 2^-p, flushed (inclusive)",
                      "P3.7 under a strict flush rule (< 2^-p)")
INTER, IDENT = ("flushing every intermediate keeps the hardmax average",
                "threshold identity (2^(p/gamma))^(-gamma) = 2^-p")
MAXT, SUBT = "maximal term: s_j = exp(0) = 1 > 2^-p", "sub-maximal term: log s_j <= -p log 2"

CONTAINS = "A_y holds every logit a forward pass realizes (the sentence after D3.5)"


def containment(p: Mapping[str, Any]) -> Evidence:
    """The printed sentence 'A_y contains all of the possible attention logits': for every zoo model and
    query token y, every logit the last query of a length-N string realizes (each key token at each key
    position 1..N, the query's own token at N) is compared with the printed set A_(y,N) of D3.5, exactly;
    N = tau + Delta + 2 holds every local offset and every far residue."""
    domain = f"{len(MODELS)} zoo models, every query token, every key token and position"
    for name, make in MODELS.items():
        m = make()
        N = m.tau + m.Delta + 2
        for y in m.alphabet:
            printed = mg.logit_set(m, y, N, "literal")
            shown = "{" + ", ".join(map(str, sorted(printed))) + "}"
            for j in range(1, N + 1):
                for z in ((y,) if j == N else m.alphabet):
                    if (a := m.logit(y, N, z, j)) not in printed:
                        return fails(Method.EXACT, f"'{name}', query {y} at N = {N}: key {z} at position {j} "
                                     f"(offset {N - j}) has logit {a}, not in the printed A_({y},{N}) = "
                                     f"{shown}", domain=domain, count=1)
    return holds(Method.EXACT, domain, detail="every realized logit is in A_(y,N)")


#: Sec. 3.2's derivation, in order (the paper prints it as prose and displays, no numbered equations)
WALK = Proof("Sec. 3.2 hardmax derivation (proofkit P3.7; unnumbered in the paper)", "Sec. 3.2", (
    Step("A_{(y,i),(z,j)}", "the logit of key token z at position i against query token y at position j "
         "(D3.4)", by=D34, kind="definition"),
    Step("logit sets", "A_(y,i) = {A_{(y,i),(z,i-k)} + phi(1, k+1): z in Sigma, k = 0..tau} (D3.5)",
         why_not="a definition; encoded in proofkit.limit.margin (printed and completed readings)",
         kind="definition"),
    Step("A_y holds every logit", "'A_y contains all of the possible attention logits we can observe'",
         by=CONTAINS),
    Step("gamma(f)", "gamma = min over (y, i) of the smallest positive gap a - a' in A_(y,i); min of the "
         "empty set = +inf (D3.6)", why_not="a definition; encoded in proofkit.limit.margin.gamma",
         kind="definition"),
    Step("gamma in words", "gamma is the smallest nonzero gap observable between a maximal logit and any "
         "non-maximal one", by=(D34, PROSE)),
    Step("s_j display, line 1", "s_j = exp(log N [(A + phi(j, N)) - (A* + phi(j*, N))]) after the max is "
         "subtracted", why_not="the definition of the log N-scaled softmax (encoded in "
                               "proofkit.limit.model)", kind="definition"),
    Step("s_j display, line 2", "phi(j, N) = phi(1, N - j + 1) by translation invariance",
         why_not="the assumption phi(j, i) = phi(j + t, i + t) at t = 1 - j, a substitution into an "
                 "arbitrary function"),
    Step("s_j display, line 3", "= exp(log N (a - a*)) with a, a* in A_(x_N, N)", by=D34),
    Step("case a = a*", "s_j = exp(0) = 1, unaffected by rounding", by=MAXT),
    Step("s_j <= 2^-p display", "a - a* <= -gamma and N >= 2^(p/gamma) give s_j <= exp(-(p log 2/gamma) "
         "gamma) = 2^-p", by=(SUBT, IDENT)),
    Step("rounded to 0", "a term <= 2^-p is flushed", by=(BOUND, STRICT)),
    Step("conclusion", "for N >= 2^(p/gamma(f)) attention is the uniform average over the argmax tokens",
         by=(PRINTED, CORRECTED, INTER)),
))

SENTENCES = (
    Step("Sec. 3.2, conclusion", "for sequences x of length N >= 2^(p/gamma(f)) softmax attention acts as a "
         "hardmax (for all x, N)", by=(PRINTED, CORRECTED)),
    Step("Sec. 3.2, A_y", "A_y contains all of the possible attention logits", by=CONTAINS),
    Step("Sec. 3.2, s_j", "the bound s_j <= 2^-p for every sub-maximal j", by=(SUBT, BOUND)),
)


THEOREM = Theorem(
    id="INL25.P37",
    title="Hardmax lemma: N >= 2^(p/gamma(f)) makes the flushed softmax a uniform average over the argmax",
    paper=PaperRef("Izzo, Nichani & Lee 2025", "Sec. 3.2 (Definitions of A, the logit sets and gamma(f); "
                   "the hardmax derivation)", "logit margin; s_j <= 2^-p", "izzo2025quantitative"),
    params=ParamSpace((Param("p", int, 4, "bits of precision (flush threshold 2^-p)", min=1, max=8),)),
    assumptions=(
        Assumption("tau-local", "phi(j, i) = 0 for i > j + tau", predicate=TauLocal(sp.Symbol("phi"))),
        Assumption("Delta-periodic", "p_i = p_{i + Delta}", predicate=DeltaPeriodic(sp.Symbol("p_i"))),
        Assumption("translation-invariant", "phi(j, i) = phi(j + t, i + t)",
                   predicate=TranslationInvariant(sp.Symbol("phi"))),
        Assumption("flush-inclusive", "terms <= 2^-p (inclusive) are flushed after the max is subtracted",
                   predicate=FlushInclusive(p_)),
        Assumption("N-threshold", "N >= 2^(p/gamma(f))",
                   predicate=sp.Ge(N_, 2 ** (p_ / margin_of(sp.Symbol("f"))))),
    ),
    conclusion=Hardmax(N_),
    claims=(
        Computed("P3.7 as printed (gamma from D3.4-D3.6)", "conclusion", "Sec. 3.2",
                 "hardmax at every N >= 2^(p/gamma), gamma over the printed logit sets (key token with the "
                 "query's position vector; offsets 0..tau only)", printed, reading="as printed"),
        Computed("P3.7, gamma from every logit a forward pass can see", "corrected", "derived here",
                 "hardmax at every N >= 2^(p/gamma), gamma over the forward pass's logits, far keys "
                 "(offset > tau, no bias) included", corrected, reading="corrected"),
        Computed("P3.7 with the prose reading of gamma (max vs rest)", "identification", "Sec. 3.2, prose "
                 "after D3.6", "gamma = smallest gap between the set's maximum and another logit (the "
                 "prose's 'a maximal attention logit' read as the set's maximum; logit sets completed with "
                 "the far keys)",
                 prose, reading="our reading"),
        Computed("D3.4 as printed gives the gap a forward pass realizes", "identification", "D3.4",
                 "gamma(literal) = the smallest gap over every long string ('the smallest nonzero gap we can "
                 "observe')", index_placement, reading="as printed"),
        Computed(CONTAINS, "identification", "Sec. 3.2, after D3.5", "every logit the last query of a "
                 "string realizes is in A_(y,i)", containment, reading="as printed"),
        Computed("boundary N = 2^(p/gamma): term = 2^-p, flushed (inclusive)", "proof-step", "Sec. 3.2",
                 "N^-gamma = 2^-p at the threshold; '<=' flushes it, '<' would not", boundary,
                 reading="as printed"),
        Computed("P3.7 under a strict flush rule (< 2^-p)", "identification", "derived here",
                 "hardmax at every N >= 2^(p/gamma) when only terms < 2^-p are flushed (the paper flushes "
                 "'at most 2^-p')", strict_rule, reading="our reading"),
        Computed("flushing every intermediate keeps the hardmax average", "identification",
                 "Sec. 3.2, 'during each intermediate computation'",
                 ">= 2^p tied keys: the output equals the argmax average, the normalized weights read as "
                 "intermediates", all_intermediates, reading="our reading"),
        SymbolicStep("threshold identity (2^(p/gamma))^(-gamma) = 2^-p", "proof-step", "Sec. 3.2",
                     "s_j <= exp(-(p log 2/gamma) gamma) = 2^-p", boundary_identity, reading="as printed"),
        Computed("control: hardmax from N >= 2^(p/(2 gamma))", "control", "deliberately false",
                 "half the exponent suffices", control_half_exponent, reading="proxy"),
        SymbolicStep(MAXT, "proof-step", "Sec. 3.2, case a = a*", "exp(0) = 1 > 2^-p", maximal_term,
                     reading="as printed"),
        SymbolicStep(SUBT, "proof-step", "Sec. 3.2, display s_j <= 2^-p",
                     "log N (a - a*) <= -p log 2 from log N >= p log 2/gamma, a - a* <= -gamma",
                     submaximal_bound, reading="as printed"),
    ),
    expect={
        "P3.7 as printed (gamma from D3.4-D3.6)": Verdict.REFUTED,
        "P3.7, gamma from every logit a forward pass can see": Verdict.CERTIFIED,
        "P3.7 with the prose reading of gamma (max vs rest)": Verdict.REFUTED,
        "D3.4 as printed gives the gap a forward pass realizes": Verdict.REFUTED,
        CONTAINS: Verdict.REFUTED,
        "boundary N = 2^(p/gamma): term = 2^-p, flushed (inclusive)": Verdict.CERTIFIED,
        "P3.7 under a strict flush rule (< 2^-p)": Verdict.REFUTED,
        "flushing every intermediate keeps the hardmax average": Verdict.REFUTED,
        "threshold identity (2^(p/gamma))^(-gamma) = 2^-p": Verdict.CERTIFIED,
        "control: hardmax from N >= 2^(p/(2 gamma))": Verdict.REFUTED,
        MAXT: Verdict.CERTIFIED,
        SUBT: Verdict.CERTIFIED,
    },
    proofs=(WALK,),
    sentences=SENTENCES,
)
