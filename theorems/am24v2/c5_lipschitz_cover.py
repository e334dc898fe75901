"""AM24v2.C5: a uniformly Lipschitz hypothesis class with a finite covering number length-generalizes
approximately: a learner that is near-optimal at every training length t <= T is near the truth at every
length, once T exceeds a threshold T0.

Source: the later version's summary (Mechanism 3): "if eta <= eps/L, then we obtain an eps-cover for all
{H_t}" and "a constrained learner that achieves eps-optimality at all training sequence lengths can
generalize to all longer sequences". The exact theorem (number, constants, T0) is not in the summary.
Encoded here on a concrete class (chosen here, not the paper's): scalar linear recurrences
logit_t = a sum_{j<t} lam^j b x_{t-j}, theta in [-1,1] x [-g,g] x [-1,1], tokens in [-1,1].
Derived here: L = 2/(1-g) + 1/(1-g)^2; ERM over an eta-net at lengths <= T has error at every length
<= L eta + 2 g^T / (1-g) (training error <= L eta; lengths > T add at most the geometric tail).
"""

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import sympy as sp

from proofkit import (
    Computed,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Step,
    SymbolicStep,
    Theorem,
    Verdict,
    fails,
    forall,
    function,
    holds,
)
from proofkit.families import DeepSets, MeanPoolDeepSets
from proofkit.families import lipschitz as lip

TRUE_THETA = np.array([0.7, 0.45, -0.8])  # (a, lam, b), off the net; chosen here


def _setup(p):
    g, eta = p["g"], p["eta"]
    pts, N = lip.grid(g, eta)
    return g, eta, pts, N, lip.uniform_lipschitz(g)


def cover_radius(p: Mapping[str, Any], factor: float = 1.0) -> Evidence:
    """Float64 evidence: the sup over every length and token sequence of |h_theta - h_theta0| (theta0 the
    nearest net point) at seeded parameter samples, against ``factor`` x L eta."""
    g, eta, pts, N, L = _setup(p)
    rng = np.random.default_rng(p["seed"])
    theta = rng.uniform([-1, -g, -1], [1, g, 1], size=(p["samples"], 3))
    gaps = lip.sup_gap(theta, lip.nearest(pts, theta), None, g)
    bound = factor * L * eta
    radius = float(gaps.max())
    domain = (f"{p['samples']} seeded parameter samples (seed {p['seed']}) in the box "
              f"[-1,1]x[-{g},{g}]x[-1,1], each against its nearest point of the eta-net (eta = {eta}, N(eta) "
              f"= {N}), every length t and every x in [-1,1]^t (the sum of |Markov differences|: 400 terms + "
              "tail 2g^400/(1-g))")
    detail = (f"{'L' if factor == 1 else f'{factor:.4g} x L'} eta = {bound:.4g} with L = 2/(1-g) + 1/(1-g)^2 "
              f"= {L:.4g}; measured sup over the samples: {radius:.4g} (float64; sampled parameters, not "
              "every theta)")

    def within(i: int) -> str | None:
        gap = float(gaps[i])
        return None if gap <= bound else f"sample {i}: sup gap {gap:.4g} > {bound:.4g}"

    ev = forall(range(len(gaps)), within, method=Method.FLOAT, domain=domain, detail=detail,
                residual=f"{radius:.4g}")
    return ev if ev.outcome == "holds" else replace(ev, residual=f"{radius:.4g}")


def control_eta_cover(p: Mapping[str, Any]) -> Evidence:
    """Control: the eta-net of parameters is an eta-net of every H_t (L = 1): false here."""
    _, _, _, _, L = _setup(p)
    return cover_radius(p, factor=1.0 / L)


def approx_length_generalization(p: Mapping[str, Any]) -> Evidence:
    """Float64 evidence: ERM over the eta-net on lengths <= T, its error over every length against the
    derived bound L eta + 2 g^T/(1-g), for T = 1..T_max at one true theta."""
    g, eta, pts, N, L = _setup(p)
    rows: list[str] = []

    def within(T: int) -> str | None:
        train = lip.sup_gap(pts, TRUE_THETA[None, :], T, g)  # sup over x at length T = max over t <= T
        best = pts[[int(train.argmin())]]
        measured = float(lip.sup_gap(best, TRUE_THETA[None, :], None, g)[0])
        bound = L * eta + 2 * g**T / (1 - g)
        rows.append(f"T={T}: train {float(train.min()):.3g}, every-length {measured:.3g} <= {bound:.3g}")
        return None if measured <= bound else f"T = {T}: every-length error {measured:.3g} > {bound:.3g}"

    domain = (f"training lengths T = 1..{p['T_max']}, ERM over the eta-net ({N} points, eta = {eta}), one "
              f"true theta = {TRUE_THETA.tolist()}, error over every length t and x in [-1,1]^t (exact "
              "Markov sum + tail)")
    ev = forall(range(1, p["T_max"] + 1), within, method=Method.FLOAT, domain=domain,
                detail=lambda n: (f"L eta = {L * eta:.4g}; bound L eta + 2 g^T/(1-g): " + "; ".join(rows)
                                  + f". T0 for a tail eps' = {2 * g ** p['T_max'] / (1 - g):.3g} is "
                                  f"T = {p['T_max']} (float64, one true theta)"))
    return replace(ev, residual=rows[-1]) if ev.outcome == "holds" else ev


#: the lengths of the Lipschitz sweep and the ones its growth is compared against
SWEEP_LENGTHS, EARLY = (1, 2, 5, 10, 50, 200), (1, 2, 5, 10)


def _lip_sweep(family: Any, p: Mapping[str, Any]) -> dict[int, float]:
    """max over sampled sequences of the sup-norm-in-theta Lipschitz constant of the logits
    (max row sum of |d logit / d theta|) at each length, at the AM24.T1 true model."""
    theta = np.array([1.0, 0.4, -0.2, 0.9, 1.0, -0.5, 0.3, 0.8, -0.7, 0.2, 0.1, -0.2, 0.05,
                      0.6, -0.4, 0.9, -0.3, 0.7, 0.5, -0.2, 0.1])
    return lip.sampled_parameter_lipschitz(family, theta, SWEEP_LENGTHS, np.random.default_rng(p["seed"]))


def lipschitz_sweep(family: Any, label: str) -> Callable[[Mapping[str, Any]], Evidence]:
    """Float64 evidence that Lip_t stays bounded in t: Lip_200 at most 1.5 x the largest Lip_t, t <= 10
    (a stand-in for sup_t Lip_t < infinity)."""
    def run(p: Mapping[str, Any]) -> Evidence:
        lips = _lip_sweep(family, p)
        ratio = lips[SWEEP_LENGTHS[-1]] / max(lips[t] for t in EARLY)
        domain = (f"{label}: 32 seeded sequences (tokens U[0,1]^2, seed {p['seed']}) at each length "
                  f"t in {list(SWEEP_LENGTHS)}, at the AM24.T1 true model")
        detail = ("Lip_t (max over the sequences of the max row sum of |d logit/d theta|) = "
                  + ", ".join(f"t={t}: {v_:.3g}" for t, v_ in lips.items())
                  + f"; Lip_200 / max_(t<=10) Lip_t = {ratio:.3g} (uniform taken as <= 1.5; sampled, "
                  "float64)")
        if ratio <= 1.5:
            return holds(Method.FLOAT, domain, count=32 * len(SWEEP_LENGTHS), residual=f"{ratio:.3g}",
                         detail=detail)
        return fails(Method.FLOAT, f"Lip_200 / max_(t<=10) Lip_t = {ratio:.3g} > 1.5", domain=domain,
                     residual=f"{ratio:.3g}", detail=detail)
    return run


def tail_sum_closed_form():
    """sum_{j=1}^t j g^(j-1) = (1 - (t+1) g^t + t g^(t+1)) / (1-g)^2: the step S(t) - S(t-1) = t g^(t-1)
    and S(1) = 1 (the series' limit 1/(1-g)^2 bounds d logit/d lam uniformly in t)."""
    g, t = sp.symbols("g t", positive=True)
    S = sp.Lambda(t, (1 - (t + 1) * g**t + t * g ** (t + 1)) / (1 - g) ** 2)
    return [sp.simplify(S(t) - S(t - 1) - t * g ** (t - 1)), sp.simplify(S(1) - 1)]


# the statement's own objects: parameters theta, theta_0 (theta_0 the nearest eta-net point), the length t,
# the training length T, the contraction bound g, the cover radius eta, the accuracy eps
L_, eta_, eps_, g_ = sp.symbols("L eta epsilon g", positive=True)
t_, T_ = sp.symbols("t T", integer=True, positive=True)
theta, theta_net = sp.Symbol("theta"), sp.Symbol("theta_0")  # theta_0: the nearest net point
gap = function("gap_t", "sup over token sequences of length t (tokens in [-1,1]) of |h_theta - h_theta_0|")
dist = function("dist", "sup-norm distance of two parameter vectors")
lip_t = function("Lip_t", "Lipschitz constant of theta -> h_theta at length t (sup over tokens)")
err_t = function("err_t", "sup over tokens of |h_ERM - f| at length t, ERM over the eta-net on lengths <= T")
COVER = sp.Le(gap(t_, theta, theta_net), L_ * eta_)
ERM = sp.Le(err_t(t_), L_ * eta_ + 2 * g_**T_ / (1 - g_))
LIP_CONTROL = sp.Le(gap(t_, theta, theta_net), eta_)

THEOREM = Theorem(
    id="AM24v2.C5",
    title="Uniform Lipschitz + finite cover => approximate length generalization (numeric bound)",
    paper=PaperRef("Ahuja & Mansouri, later version (arXiv 2402.04875), via its summary",
                   "Mechanism 3 (uniform Lipschitz continuity, covering number, threshold T0)",
                   "'eta <= eps/L gives an eps-cover for all {H_t}'", "ahuja2024provable"),
    params=ParamSpace((
        Param("g", float, 0.5, "bound g < 1 on |lam| (contractive class)", min=0.05, max=0.9),
        Param("eta", float, 0.05, "parameter net radius (sup norm)", min=0.02, max=0.5),
        Param("T_max", int, 10, "largest training length", min=1, max=30),
        Param("samples", int, 300, "sampled parameters for the cover radius", min=10, max=2000),
        Param("seed", int, 0, "sampling seed", min=0, max=2**31),
    )),
    given=(("uniform Lipschitz (every t)", sp.Le(gap(t_, theta, theta_net), L_ * dist(theta, theta_net))),
           ("eta-net of parameters", sp.Le(dist(theta, theta_net), eta_)),
           ("contractive class", sp.Le(sp.Abs(sp.Symbol("lambda", real=True)), g_)),
           ("eta <= eps / L", sp.Le(eta_, eps_ / L_))),
    assumptions=(),
    claims=(
        Computed("eta-net of parameters is an (L eta)-net of every H_t", "conclusion",
                 "summary: 'eta <= eps/L gives an eps-cover for all {H_t}'",
                 "sup_t sup_x |h_theta - h_theta'| <= L ||theta - theta'||_inf, L uniform in t",
                 cover_radius, predicate=COVER, reading="proxy"),
        Computed("ERM on lengths <= T: error at every length <= L eta + 2 g^T/(1-g)", "conclusion",
                 "summary: eps-optimal at training lengths => approximate LG beyond T0 (bound derived)",
                 "approximate length generalization with the derived bound", approx_length_generalization,
                 predicate=ERM, reading="proxy"),
        Computed("mean-pooled deep sets are uniformly Lipschitz in theta", "conclusion",
                 "derived here (the summary names mean pooling; the length sweep is ours)",
                 "sup_t Lip_t < infinity for logit A (1/t) sum psi",
                 lipschitz_sweep(MeanPoolDeepSets(2, 2, 2, 3), "mean pooling"),
                 predicate=sp.Lt(lip_t(t_), sp.oo), reading="proxy"),
        SymbolicStep("S1 sum_j j g^(j-1) closed form", "proof-step", "derived",
                     "sum_{j=1}^t j g^(j-1) = (1 - (t+1) g^t + t g^(t+1))/(1-g)^2 <= 1/(1-g)^2",
                     tail_sum_closed_form, reading="proxy"),
        Computed("control: eta-net of parameters is an eta-net of every H_t (L = 1)", "control",
                 "deliberately false", "sup_t sup_x |h_theta - h_theta'| <= ||theta - theta'||_inf",
                 control_eta_cover, predicate=LIP_CONTROL, reading="proxy"),
        Computed("control: sum-pooled deep sets are uniformly Lipschitz in theta", "control",
                 "deliberately false (Lip_t grows like t)", "sup_t Lip_t < infinity for A sum psi",
                 lipschitz_sweep(DeepSets(2, 2, 2, 3), "sum pooling"), reading="proxy"),
    ),
    expect={
        "eta-net of parameters is an (L eta)-net of every H_t": Verdict.CONFIRMED,
        "ERM on lengths <= T: error at every length <= L eta + 2 g^T/(1-g)": Verdict.CONFIRMED,
        "mean-pooled deep sets are uniformly Lipschitz in theta": Verdict.CONFIRMED,
        "S1 sum_j j g^(j-1) closed form": Verdict.CERTIFIED,
        "control: eta-net of parameters is an eta-net of every H_t (L = 1)": Verdict.REFUTED,
        "control: sum-pooled deep sets are uniformly Lipschitz in theta": Verdict.REFUTED,
    },
    sentences=(
        Step("abstract; Mechanism 3", "approximate length generalization is achievable provided training "
             "sequences are sufficiently long", by="ERM on lengths <= T: error at every length <= L eta + 2 "
             "g^T/(1-g)"),
        Step("Mechanism 3", "if eta <= eps/L, an eta-cover of the parameters is an eps-cover of every H_t",
             by=("eta-net of parameters is an (L eta)-net of every H_t",
                 "control: eta-net of parameters is an eta-net of every H_t (L = 1)")),
    ),
)
