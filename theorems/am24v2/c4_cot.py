"""AM24v2.C4: chain-of-thought supervision makes higher-capacity models length-generalize.

Source: the later version's summary ("chain-of-thought supervision enables length generalization in
higher capacity counterparts"; CoT "provide[s] data on the intermediate thoughts/computations"). The
summary gives no model class, no statement of what is supervised and no support condition, so the
theorem itself cannot be decided here: its claim is inconclusive, with that reason.

Proxies (derived here, NOT the paper's theorem; non-authoritative): a recurrence h_t = g(h_{t-1}, x_t)
learned by an arbitrary ("higher capacity") transition g~, with CoT labels = the true states h_t. Zero CoT
risk gives g~ = g exactly on the visited (h_{t-1}, x_t); length generalization then holds iff test
states stay in the visited set. Exact rational arithmetic decides both proxies.
"""

from fractions import Fraction as Fr

import sympy as sp

from proofkit.params import Param, ParamSpace
from proofkit.spec import Computed, PaperRef, Theorem, predicate
from proofkit.verdict import Verdict


def paper_claim(p):
    return (Verdict.INCONCLUSIVE, None,
            "inconclusive: the summary names no model class, no CoT target (which intermediate quantities "
            "are supervised) and no support condition, so there is no statement to check; see the two "
            "derived proxies below (non-authoritative)")


def bump(h, lo, hi):
    """A tent of height 1 on (lo, hi), zero elsewhere (exact rationals)."""
    if h <= lo or h >= hi:
        return Fr(0)
    mid = (lo + hi) / 2
    return 1 - abs(h - mid) / (mid - lo)


def contractive_proxy(p):
    """g(h, x) = h/2 + x, h_0 in [0, 2], x in [0, 1]: [0, 2] is invariant and fully visited at t = 1, so
    g~ = g on [0,2] x [0,1] (zero CoT risk) gives h~_t = h_t for every t (induction). Checked: the
    invariance at the corners (g affine), and a bump learner supported outside [0, 2] agrees on a grid
    of sequences up to length L."""
    g = lambda h, x: h / 2 + x  # noqa: E731
    corners = [g(Fr(h), Fr(x)) for h in (0, 2) for x in (0, 1)]
    invariant = all(0 <= c <= 2 for c in corners)
    gt = lambda h, x: g(h, x) + bump(h, Fr(2), Fr(3))  # noqa: E731
    worst = Fr(0)
    for h0 in (Fr(0), Fr(1), Fr(2)):
        for x in (Fr(0), Fr(1, 2), Fr(1)):
            h = ht = h0
            for _ in range(p["L"]):
                h, ht = g(h, x), gt(ht, x)
                worst = max(worst, abs(h - ht))
    ok = invariant and worst == 0
    return ((Verdict.CERTIFIED if ok else Verdict.REFUTED), str(worst),
            f"proxy (derived, not the paper's theorem): g(h, x) = h/2 + x maps the corners of [0,2]x[0,1] "
            f"to {[str(c) for c in corners]} (inside [0,2]: {invariant}; g affine, so [0,2] is invariant), "
            "hence "
            "g~ = g on the visited set [0,2]x[0,1] gives h~_t = h_t at every length by induction; exact "
            f"check of a bump learner (tent on (2,3)) over 9 constant sequences up to length {p['L']}: "
            f"max |h~_t - h_t| = {worst}")


def accumulating_proxy(p):
    """g(h, x) = h + x (running sum), h_0 = 0, x in [0, 1], CoT on lengths <= T: visited states
    h_{t-1} <= T - 1. g~ = g + tent on (T - 1, T + 1) has zero CoT risk but errs at length T + 1."""
    T = p["T"]
    g = lambda h, x: h + x  # noqa: E731
    gt = lambda h, x: g(h, x) + bump(h, Fr(T - 1), Fr(T + 1))  # noqa: E731
    # zero CoT risk: every visited (h_{t-1}, x_t) with t <= T has h_{t-1} in [0, T-1], where the tent is 0
    train_risk = max(bump(Fr(k, 4), Fr(T - 1), Fr(T + 1)) for k in range(0, 4 * (T - 1) + 1))
    h = ht = Fr(0)
    for _ in range(T + 1):  # all-ones tokens
        h, ht = g(h, Fr(1)), gt(ht, Fr(1))
    gap = abs(h - ht)
    holds = gap == 0
    return ((Verdict.CERTIFIED if holds else Verdict.REFUTED), str(gap),
            f"proxy (derived, not the paper's theorem): running sum with CoT labels on lengths <= {T}; "
            f"g~ = g + tent on ({T - 1}, {T + 1}) is zero on the visited states h_(t-1) in [0, {T - 1}] "
            f"(max tent on a grid of step 1/4 there: {train_risk}; the tent vanishes on h <= {T - 1} by "
            f"construction), so CoT risk is 0; at length {T + 1} with all-ones tokens h = {h}, h~ = {ht}: "
            f"exact gap {gap}. CoT alone does not give length generalization when states leave the "
            "visited region")


def control_bump_inside(p):
    """Control: a tent inside the visited set [0, 2] keeps zero CoT risk (false)."""
    risk = bump(Fr(1), Fr(0), Fr(2))  # at the training point h_0 = 1
    return ((Verdict.REFUTED if risk != 0 else Verdict.CONFIRMED), str(risk),
            f"a tent on (0, 2) changes g at the training point h_0 = 1 by {risk}: non-zero CoT risk (exact)")


CoTGeneralizes = predicate("CoTGeneralizes",
                           "a higher-capacity model trained with chain-of-thought supervision on lengths "
                           "<= T "
                           "generalizes to every length (the summary's claim; its model class, target and "
                           "support are not given)")

THEOREM = Theorem(
    id="AM24v2.C4",
    title="Chain-of-thought supervision for higher-capacity models (paper claim undecidable from "
          "the summary; derived proxies)",
    paper=PaperRef("Ahuja & Mansouri, later version (arXiv 2402.04875), via its summary",
                   "abstract / Mechanism 2 (chain-of-thought supervision)", "-", "ahuja2024provable"),
    params=ParamSpace((
        Param("T", int, 3, "largest CoT-supervised length (accumulating proxy)", min=2, max=50),
        Param("L", int, 30, "lengths checked (contractive proxy)", min=1, max=200),
    )),
    assumptions=(),
    conclusion=CoTGeneralizes(sp.Symbol("T")),
    claims=(
        Computed("CoT supervision => length generalization (higher capacity)", "conclusion",
                 "summary: abstract, Mechanism 2", "the paper's C4 claim", paper_claim),
        Computed("proxy: contractive recurrence with a visited invariant set generalizes under CoT",
                 "proxy", "derived, non-authoritative",
                 "g~ = g on the visited set and g(S) in S => h~_t = h_t for all t",
                 contractive_proxy),
        Computed("proxy: running sum generalizes under CoT", "proxy", "derived, non-authoritative",
                 "g~ = g on states visited at lengths <= T => h~_t = h_t for all t", accumulating_proxy),
        Computed("control: a tent inside the visited set keeps zero CoT risk", "control",
                 "deliberately false", "g~ = g + tent on (0, 2) has zero CoT risk", control_bump_inside),
    ),
    expect={
        "CoT supervision => length generalization (higher capacity)": Verdict.INCONCLUSIVE,
        "proxy: contractive recurrence with a visited invariant set generalizes under CoT": Verdict.CERTIFIED,
        "proxy: running sum generalizes under CoT": Verdict.REFUTED,
        "control: a tent inside the visited set keeps zero CoT risk": Verdict.REFUTED,
    },
)
