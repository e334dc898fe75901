"""INL25.TASKS: the synthetic tasks of Izzo, Nichani & Lee 2025 (Sec. 5, data generators of App. B) and
their expressivity constructions (App. A.2), built as rational one-layer limit transformers and checked
with the exact forward pass (proofkit.limit.constructions).

* Targets are exact (Fractions; sympy sin). Undefined targets (SimpleTask when c_0 + c_1 = 0, ModPTask
  when no position t = k mod p exists) are None and are dropped from every loss; their probability under
  the generator is computed exactly and by seeded sampling.
* The appendix's infinite logits become a finite gap c, so the margin is c and the flushed softmax is a
  hardmax from N >= 2^(bits/c) on (bits: the precision; the paper's p is also the ModPTask period and a
  probability vector, so here the precision is ``bits``).
* The ModPTask position vectors are built as printed ("p_i = q_j where i != j (mod p)", in the readings
  it admits) and with "=", and the exact forward pass decides which compute the target.
* Fig. 3's 1/16 (p = 5, test length 80) is recomputed from the construction's attention weights.

Every computed claim returns evidence (proofkit.language.evidence) naming what it covered: the exact rational
forward pass on every string of the stated lengths (with hardmax over every length by the slot reduction
of proofkit.limit.margin), interval arithmetic for sin, sympy, or seeded sampling; the engine decides.
"""

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

import mpmath as mp
import numpy as np
import sympy as sp

from proofkit import (
    Computed,
    Cost,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    SymbolicStep,
    Theorem,
    Verdict,
    fails,
    forall,
    holds,
    predicate,
)
from proofkit.limit import (
    ModPTask,
    SimpleTask,
    evaluate,
    flush,
    strings_up_to,
    undefined_probability_closed_form,
    undefined_probability_exact,
    undefined_probability_sampled,
)
from proofkit.limit import constructions as cons
from proofkit.limit import margin as mg

Expressible = predicate("Expressible", "the task's target is computed by a one-layer limit transformer "
                                       "(App. A.2 construction) on every string in the hardmax regime")


def _simple_model(p: Mapping[str, Any]) -> Any:
    return cons.simple_task_model(p["omega"], p["c"], p["knots"])


def target_instances(p: Mapping[str, Any]) -> Evidence:
    """The worked instances: SimpleTask x = 0120 gives sin(omega/3); ModPTask p = 3, k = 1, x = 101101
    gives 1; every string of length <= 6 against a direct count."""
    om = Fraction(p["omega"])
    t, m = SimpleTask(om), ModPTask(3, 1)
    worked = [("simple", "0120", sp.sin(sp.Rational(om) / 3)), ("modp", "101101", 1)]

    def direct(x: tuple[str, ...]) -> sp.Expr | None:
        c0, c1 = x.count("0"), x.count("1")
        return None if c0 + c1 == 0 else sp.sin(sp.Rational(om) * sp.Rational(c0 - c1, c0 + c1))

    cases = worked + [("simple", x, direct(x)) for L in range(1, 7) for x in product("012", repeat=L)]

    def test(case: tuple[str, Any, Any]) -> str | None:
        task, x, want = case
        got = (t if task == "simple" else m).target(x)
        return None if got == want else f"{task} target of {''.join(x)} is {got}, expected {want}"

    return forall(cases, test, method=Method.EXACT,
                  domain=f"SimpleTask(omega = {om}) on 0120 and on every string of length <= 6 over "
                         "{0, 1, 2} (against direct counts); ModPTask(3, 1) on 101101",
                  detail=f"SimpleTask(omega = {om}) on 0120 -> {t.target('0120')}, ModPTask(3, 1) on "
                         f"101101 -> {m.target('101101')}; every string of length <= 6 equals sympy sin of "
                         "the exact rational count ratio")


def undefined_symbolic() -> sp.Expr:
    """int_0^1 int_0^(1 - p2) 2 p2^T dp1 dp2 = 2/((T + 1)(T + 2)) for every T > 0 (sympy)."""
    T, p1, p2 = sp.symbols("T", positive=True), *sp.symbols("p1 p2", nonnegative=True)
    lhs = sp.integrate(sp.integrate(2 * p2**T, (p1, 0, 1 - p2)), (p2, 0, 1), conds="none")
    return sp.simplify(lhs - 2 / ((T + 1) * (T + 2)))


def undefined_simple(p: Mapping[str, Any]) -> Evidence:
    """P(c_0 + c_1 = 0 | T) under the generator: exact integral, closed form, seeded sampling (float64
    frequencies within 4 standard errors: the sampled half is floating point, never a proof)."""
    rows = []
    S, seed, T_max = p["samples"], p["seed"], p["T_max"]
    domain = (f"T = 1..{T_max}: exact integral against 2/((T+1)(T+2)), and {S} seeded generator sequences "
              f"per T (seeds {seed + 1}..{seed + T_max}) within 4 standard errors")
    for T in range(1, T_max + 1):
        exact = undefined_probability_exact(T)
        if exact != undefined_probability_closed_form(T):
            return fails(Method.EXACT, f"T = {T}: integral {exact} != 2/((T+1)(T+2))", domain=domain,
                         residual=str(exact - undefined_probability_closed_form(T)))
        f, se = undefined_probability_sampled(T, S, seed + T)
        if abs(f - float(exact)) > 4 * se:
            return fails(Method.FLOAT, f"T = {T}: sampled {f:.4f} +- {se:.4f} vs exact {exact}",
                         domain=domain, residual=f"{abs(f - float(exact)):.4g}")
        rows.append(f"T = {T}: {exact} (sampled {f:.4f} +- {se:.4f}, seed {seed + T})")
    return holds(Method.FLOAT, domain, count=T_max,
                 detail="sympy integral = 2/((T+1)(T+2)) exactly and the samples agree: " + "; ".join(rows)
                        + ". Convention: the target is None there and the sequence is dropped from the loss")


def undefined_modp(p: Mapping[str, Any]) -> Evidence:
    """ModPTask's target is undefined exactly for lengths T < k' (k' the first position = k mod p),
    whatever the tokens: probability 1 there and 0 beyond under the generator (T fixed)."""
    rng_seed = p["seed"]
    cases = [(per, k, T) for per in range(1, 6) for k in range(0, per + 1) for T in range(1, 3 * per + 2)]

    def test(case: tuple[int, int, int]) -> str | None:
        per, k, T = case
        task = ModPTask(per, k)
        undefined = task.target("0" * T) is None
        if undefined != (T < task.first_position()):
            return (f"period {per}, k = {k}, T = {T}: undefined {undefined}, first position "
                    f"{task.first_position()}")
        _, _, d = task.sample(np.random.default_rng(rng_seed), 64, T)
        if bool(d.all()) == undefined or bool(d.any()) == undefined:
            return f"period {per}, k = {k}, T = {T}: the generator's defined mask disagrees (seed {rng_seed})"
        return None

    return forall(cases, test, method=Method.ENUMERATION,
                  domain="periods 1..5, k = 0..p, T = 1..3p+1 (the definedness depends on T only), with the "
                         f"seeded generator's defined mask (seed {rng_seed}, 64 sequences per case)",
                  detail="e.g. p = 5, k = 0: undefined for T < 5; k = 1: never. Convention: None, dropped "
                         "from the loss; the construction then attends uniformly and outputs the mean of all "
                         "tokens")


def simple_construction(p: Mapping[str, Any]) -> Evidence:
    """Every string of length 2^(bits/c)..n_enum: attention output = (c_0 - c_1)/(c_0+c_1) exactly, MLP
    output within the interpolation bound of sin(omega z) (interval arithmetic), and hardmax at every
    N >= 2^(bits/c) (slot reduction over every length)."""
    m, om, bits = _simple_model(p), Fraction(p["omega"]), p["bits"]
    task = SimpleTask(om)
    thr = flush.hardmax_length(bits, Fraction(p["c"]))
    onset = mg.hardmax_onset(m, bits, thr)
    bound = cons.interpolation_error_bound(om, p["knots"])
    limit = mp.mpf(bound.numerator) / bound.denominator
    worst = [mp.mpf(0)]
    domain = (f"every string over {{0, 1, 2}} of length {thr}..{p['n_enum']} (exact forward pass at {bits} "
              f"bits; 2^(bits/c) = {thr}), and hardmax at every N >= {thr} (slot reduction)")
    if onset.failing:
        return fails(Method.EXACT, f"hardmax fails at N = {onset.failing[0]} >= 2^(bits/c) = {thr}",
                     domain=domain, residual=str(onset.failing[0]))

    def test(x: tuple[str, ...]) -> str | None:
        ev = evaluate(m, x, bits)
        z = task.argument(x)
        z = Fraction(0) if z is None else z
        if ev.out[0] != z:
            return f"x = {''.join(x)}: attention coordinate {ev.out[0]} != {z}"
        gap = cons.sin_gap_bound(om, z, ev.out[1])
        worst[0] = max(worst[0], gap)
        if gap > limit:
            return f"x = {''.join(x)}: |MLP - sin(omega z)| <= {mp.nstr(gap, 6)} exceeds {float(bound):.3g}"
        return None

    ev = forall((x for x in strings_up_to("012", p["n_enum"]) if len(x) >= thr), test, method=Method.INTERVAL,
                domain=domain,
                detail=lambda n: f"attention coordinate = (c0-c1)/(c0+c1) on every one of the {n} strings "
                                 f"(0 on all-2 strings, the undefined case), hardmax from N = "
                                 f"{onset.from_N}; "
                                 f"|MLP - sin(omega z)| <= {mp.nstr(worst[0], 6)} <= omega^2 h^2/8 + "
                                 f"rounding = {float(bound):.3g} ({p['knots']} ReLU knots, interval "
                                 "arithmetic). Bias coordinate: none needed (the token one-hots sum to 1: Q "
                                 "and the readout's constant read them)")
    return ev if ev.outcome == "fails" else holds(Method.INTERVAL, domain, count=ev.domain.count,
                                                  residual=mp.nstr(worst[0], 6), detail=ev.detail)


def simple_below_threshold(p: Mapping[str, Any]) -> Evidence:
    """Below 2^(bits/c) the attention output is not the hardmax average on some string."""
    m, bits = _simple_model(p), p["bits"]
    thr = flush.hardmax_length(bits, Fraction(p["c"]))
    task = SimpleTask(Fraction(p["omega"]))
    top = min(thr - 1, p["n_enum"])
    got: list[Fraction] = []

    def test(x: tuple[str, ...]) -> str | None:
        z = task.argument(x)
        ev = evaluate(m, x, bits)
        want = Fraction(0) if z is None else z
        if ev.out[0] != want:
            got.append(ev.out[0])
            return (f"x = {''.join(x)} (N = {len(x)} < 2^(bits/c) = {thr}): the key 2 keeps weight N^-c > "
                    f"2^-bits, attention coordinate {ev.out[0]} != {want}")
        return None

    ev = forall(strings_up_to("012", top), test, method=Method.ENUMERATION,
                domain=f"every string over {{0, 1, 2}} of length 1..{top} (below 2^(bits/c) = {thr}; exact "
                       f"forward pass at {bits} bits)")
    return replace(ev, residual=str(got[0])) if got else ev


READINGS = {
    "equiv": "p_i = q_(i mod p), K reads +q_k (the '=' reading)",
    "shift": "p_i = q_(i+1 mod p) (one j != i, a bijection), K reads +q_(k+1)",
    "complement": "p_i = sum_(j != i) q_j, K reads +q_k (the '=' construction's K)",
    "complement-adapted": "p_i = sum_(j != i) q_j, K reads -q_k",
    "first": "p_i = q_j for the smallest j != i (not injective for p >= 3), K reads +q_k",
}


def modp_reading(reading: str) -> Any:
    def run(p: Mapping[str, Any]) -> Evidence:
        per, k, bits, c = p["period"], p["k"], p["bits"], p["c"]
        m = cons.modp_task_model(per, k, c, reading)
        task = ModPTask(per, k)
        thr = flush.hardmax_length(bits, Fraction(c))
        onset = mg.hardmax_onset(m, bits, thr)
        domain = (f"{READINGS[reading]}: every defined string over {{0, 1}} of length "
                  f"{thr}..{p['n_enum_modp']} (exact forward pass at {bits} bits, period {per}, k = {k}, "
                  f"gap c = {c}), and hardmax at every N >= {thr} (slot reduction)")
        if onset.failing:
            return fails(Method.EXACT, f"hardmax fails at N = {onset.failing[0]} >= 2^(bits/c) = {thr}",
                         domain=domain, residual=str(onset.failing[0]))

        off: list[Fraction] = []

        def test(x: tuple[str, ...]) -> str | None:
            want = task.target(x)
            got = evaluate(m, x, bits).out[0]
            if got == want:
                return None
            off.append(got - want)
            return f"x = {''.join(x)} gives {got}, target {want}"

        cases = (x for x in strings_up_to("01", p["n_enum_modp"])
                 if len(x) >= thr and task.target(x) is not None)
        ev = forall(cases, test, method=Method.ENUMERATION, domain=domain,
                    detail=f"output = f* exactly on every string; no MLP, L = {m.lipschitz_L()}; constant "
                           "coordinate: none needed (token one-hots sum to 1)")
        return replace(ev, residual=str(off[0])) if off else ev
    return run


def modp_norm(p: Mapping[str, Any]) -> Evidence:
    """The ModPTask construction needs no MLP: the paper's L = ||A||_F ||B||_F ||V E|| is 0, not Theta(1)."""
    m = cons.modp_task_model(p["period"], p["k"], p["c"], "equiv")
    L = m.lipschitz_L()
    domain = f"the '=' construction at period {p['period']}, k = {p['k']}, gap c = {p['c']}"
    if L != 0:
        return fails(Method.EXACT, f"L = {L}", domain=domain, count=1, residual=str(L))
    return holds(Method.EXACT, domain, count=1, residual=str(L),
                 detail="no MLP (A, B empty), L = 0; with tau = 0 (phi = 0) Theorem 4.1's tau Delta "
                        "L^2/eps^2 term vanishes and the bound is 2^(p/gamma) alone, so N proportional to "
                        "Delta is not what the bound predicts for this construction")


def fig3_weight(p: Mapping[str, Any]) -> Evidence:
    """Fig. 3 (p = 5, test length 80): the construction's attention weight on positions = k (mod 5) is 1/16
    for every k (16 positions per residue among 1..80, the query included); others 0."""
    bits, c = p["bits"], p["c"]
    rng = np.random.default_rng(p["seed"])
    x = tuple(str(v) for v in rng.integers(0, 2, 80))
    rows: list[str] = []

    def test(k: int) -> str | None:
        m = cons.modp_task_model(5, k, c, "equiv")
        ev = evaluate(m, x, bits)
        on = {ev.weights[j - 1] for j in range(1, 81) if (j - k) % 5 == 0}
        off = {ev.weights[j - 1] for j in range(1, 81) if (j - k) % 5 != 0}
        soft = evaluate(m, x, None)
        soft_on = {soft.weights[j - 1] for j in range(1, 81) if (j - k) % 5 == 0}
        rows.append(f"k = {k}: {_show(on)} on / {_show(off)} off (soft, no flush: {_show(soft_on)} on)")
        if on == {Fraction(1, 16)} and off == {Fraction(0)}:
            return None
        return f"k = {k}: weights {_show(on)} on positions = k (mod 5), {_show(off)} elsewhere"

    counts = {name: [sum(1 for j in keys if j % 5 == r) for r in range(5)]
              for name, keys in (("1..80", range(1, 81)), ("1..79", range(1, 80)), ("0..79", range(80)))}
    ev = forall(range(5), test, method=Method.EXACT,
                domain=f"k = 0..4 at period 5, one seeded string of length 80 (seed {p['seed']}; the logits "
                       f"depend on positions only, so every string gives these weights), {bits} bits, gap "
                       f"c = {c} (2^(bits/c) = {flush.hardmax_length(bits, Fraction(c))})")
    detail = ("exact forward pass: " + "; ".join(rows) + ". Positions per residue 0..4 (the hardmax weight "
              "is 1 over the count): " + "; ".join(f"keys {nm}: {v}" for nm, v in counts.items()))
    if ev.outcome == "fails":
        return fails(Method.EXACT, ev.witness, domain=ev.domain, detail=detail, residual=ev.witness)
    return holds(Method.EXACT, ev.domain, residual="1/16", detail=detail)


def _show(values: set[Any]) -> str:
    return "{" + ", ".join(str(v) for v in sorted(values)) + "}"


def control_undefined(p: Mapping[str, Any]) -> Evidence:
    """Control: P(c_0 + c_1 = 0 | T) = 1/(T + 1) (p_2 uniform on [0, 1], the simplex density dropped)."""
    def test(T: int) -> str | None:
        got = undefined_probability_exact(T)
        return None if got == sp.Rational(1, T + 1) else f"T = {T}: {got} vs 1/{T + 1}"

    return forall(range(1, p["T_max"] + 1), test, method=Method.EXACT, domain=f"T = 1..{p['T_max']}")


THEOREM = Theorem(
    id="INL25.TASKS",
    title="SimpleTask and ModPTask: exact targets, undefined cases, and the App. A.2 constructions",
    paper=PaperRef("Izzo, Nichani & Lee 2025", "Sec. 5 (tasks, Fig. 3), App. A.2 (constructions), App. B "
                   "(data)", "", "izzo2025quantitative"),
    params=ParamSpace((
        Param("omega", int, 2, "SimpleTask frequency (integer here; targets accept any rational)", min=1,
              max=64),
        Param("c", int, 2, "logit gap replacing the appendix's infinite logit", min=1, max=8),
        Param("bits", int, 4, "precision p in bits (flush threshold 2^-bits)", min=1, max=16),
        Param("knots", int, 16, "ReLU interpolation intervals of sin(omega z) on [-1, 1]", min=2, max=256),
        Param("n_enum", int, 6, "SimpleTask: every string up to this length (3^n of them)", min=2, max=8),
        Param("n_enum_modp", int, 9, "ModPTask: every string up to this length", min=2, max=13),
        Param("period", int, 5, "ModPTask period p (= Delta)", min=1, max=8),
        Param("k", int, 1, "ModPTask index k", min=0, max=8),
        Param("T_max", int, 4, "lengths for the undefined-probability check", min=1, max=12),
        Param("samples", int, 20000, "sequences per length for the sampled check", min=1000, max=10**6),
        Param("seed", int, 0, "seed of every sampled check (printed)", min=0, max=2**31),
    )),
    assumptions=(),
    conclusion=Expressible(sp.Symbol("SimpleTask")) & Expressible(sp.Symbol("ModPTask")),
    claims=(
        Computed("exact targets on the worked instances", "proof-step", "Sec. 5",
                 "f* of SimpleTask and ModPTask as defined, on instances and all short strings",
                 target_instances, reading="as printed"),
        SymbolicStep("E[p_2^T] = 2/((T+1)(T+2)) for p ~ Dirichlet(1,1,1)", "proof-step", "App. B",
                     "the probability that a SimpleTask string has no 0 or 1", undefined_symbolic,
                     reading="our reading"),
        Computed("SimpleTask undefined-target probability (exact and sampled)", "identification", "App. B",
                 "P(c_0 + c_1 = 0 | T) = 2/((T+1)(T+2)) under the generator", undefined_simple,
                 reading="our reading"),
        Computed("ModPTask undefined exactly below the first position = k mod p", "identification",
                 "Sec. 5", "f* undefined iff T < k'", undefined_modp, reading="our reading"),
        Computed("SimpleTask construction (finite gap c) computes (c0-c1)/(c0+c1) and sin within eta",
                 "conclusion", "App. A.2", "hardmax for N >= 2^(bits/c); exact attention average; MLP "
                 "within omega^2 h^2/8 (the appendix's infinite logit read as a finite gap c)",
                 simple_construction, reading="our reading"),
        Computed("SimpleTask construction already exact below 2^(bits/c)", "identification", "App. A.2",
                 "the finite-gap construction equals the hardmax average at every length ('the attention "
                 "probabilities will then be uniform over all 0 and 1 tokens' read at every length)",
                 simple_below_threshold, reading="our reading"),
        Computed("ModPTask construction with p_i = q_j, i = j (mod p)", "conclusion", "App. A.2",
                 "the '=' reading computes f*", modp_reading("equiv"), reading="corrected"),
        Computed("ModPTask as printed (i != j), one j per i as a bijection, K adapted", "identification",
                 "App. A.2", "p_i = q_(i+1 mod p) computes f* with K reading q_(k+1)", modp_reading("shift"),
                 reading="our reading"),
        Computed("ModPTask as printed (i != j), p_i = sum over j != i, construction's K", "identification",
                 "App. A.2", "the complement reading with K reading +q_k computes f*",
                 modp_reading("complement"), reading="our reading"),
        Computed("ModPTask as printed (i != j), p_i = sum over j != i, K adapted", "identification",
                 "App. A.2", "the complement reading with K reading -q_k computes f*",
                 modp_reading("complement-adapted"), reading="our reading"),
        Computed("ModPTask as printed (i != j), smallest j != i", "identification", "App. A.2",
                 "p_i = q_(min j != i) computes f*", modp_reading("first"), reading="our reading"),
        Computed("ModPTask construction's L", "identification", "Sec. 5 ('L = Theta(1)')",
                 "L = ||A||_F ||B||_F ||V E|| of the construction is 0", modp_norm, reading="our reading"),
        Computed("Fig. 3: attention 1/16 at p = 5, length 80", "identification", "Sec. 5, Fig. 3",
                 "weight 1/16 on positions = k (mod 5), 0 elsewhere", fig3_weight, reading="experiment"),
        Computed("control: P(c_0 + c_1 = 0 | T) = 1/(T+1)", "control", "deliberately false",
                 "the simplex density dropped", control_undefined, reading="proxy"),
    ),
    expect={
        "exact targets on the worked instances": Verdict.CERTIFIED,
        "E[p_2^T] = 2/((T+1)(T+2)) for p ~ Dirichlet(1,1,1)": Verdict.CERTIFIED,
        "SimpleTask undefined-target probability (exact and sampled)": Verdict.CONFIRMED,
        "ModPTask undefined exactly below the first position = k mod p": Verdict.CERTIFIED,
        "SimpleTask construction (finite gap c) computes (c0-c1)/(c0+c1) and sin within eta":
            Verdict.CERTIFIED,
        "SimpleTask construction already exact below 2^(bits/c)": Verdict.REFUTED,
        "ModPTask construction with p_i = q_j, i = j (mod p)": Verdict.CERTIFIED,
        "ModPTask as printed (i != j), one j per i as a bijection, K adapted": Verdict.CERTIFIED,
        "ModPTask as printed (i != j), p_i = sum over j != i, construction's K": Verdict.REFUTED,
        "ModPTask as printed (i != j), p_i = sum over j != i, K adapted": Verdict.CERTIFIED,
        "ModPTask as printed (i != j), smallest j != i": Verdict.REFUTED,
        "ModPTask construction's L": Verdict.CERTIFIED,
        "Fig. 3: attention 1/16 at p = 5, length 80": Verdict.CERTIFIED,
        "control: P(c_0 + c_1 = 0 | T) = 1/(T+1)": Verdict.REFUTED,
    },
    cost=Cost(3.4, per_unit={"n_enum": 1.78, "n_enum_modp": 1.706}),
)
