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

from collections.abc import Mapping
from fractions import Fraction as Fr
from typing import Any

import sympy as sp

from proofkit import (
    Computed,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Step,
    Theorem,
    Verdict,
    fails,
    forall,
    holds,
    predicate,
    undecided,
)
from proofkit.families import constant_token_trajectories, final_states, tent


def paper_claim(p: Mapping[str, Any]) -> Evidence:
    """The summary's claim itself: nothing to compute (no model class, CoT target or support given)."""
    return undecided("the summary names no model class, no CoT target (which intermediate quantities are "
                     "supervised) and no support condition, so there is no statement to check; see the two "
                     "derived proxies below (non-authoritative)", method=Method.EXACT,
                     domain="nothing: the statement is not given")


#: the contractive proxy's test sequences: constant tokens x from h_0 (every pair of these)
H0S, XS = (Fr(0), Fr(1), Fr(2)), (Fr(0), Fr(1, 2), Fr(1))


def contractive_proxy(p: Mapping[str, Any]) -> Evidence:
    """g(h, x) = h/2 + x, h_0 in [0, 2], x in [0, 1]: [0, 2] is invariant and fully visited at t = 1, so
    g~ = g on [0,2] x [0,1] (zero CoT risk) gives h~_t = h_t for every t (induction). Checked: the
    invariance at the corners (g affine), and a bump learner supported outside [0, 2] agrees on a grid
    of sequences at every length 1..L."""
    g = lambda h, x: h / 2 + x  # noqa: E731
    corners = [g(Fr(h), Fr(x)) for h in (0, 2) for x in (0, 1)]
    L = p["L"]
    domain = ("the invariance of [0,2] at the 4 corners of [0,2]x[0,1], and one bump learner (tent on "
              f"(2,3)) on {len(H0S) * len(XS)} constant sequences (h_0 in {{0, 1, 2}}, x in {{0, 1/2, 1}}) "
              f"at lengths 1..{L}")
    outside = [str(c) for c in corners if not 0 <= c <= 2]
    if outside:
        return fails(Method.EXACT, f"g maps a corner outside [0, 2]: {outside}", domain=domain,
                     residual=outside[0])
    gt = lambda h, x: g(h, x) + tent(h, Fr(2), Fr(3))  # noqa: E731

    def agrees(case: tuple[Fr, Fr, int, Fr, Fr]) -> str | None:
        h0, x, t, h, ht = case
        return None if h == ht else f"h_0 = {h0}, x = {x}, length {t}: h = {h}, h~ = {ht}"

    return forall(constant_token_trajectories(g, gt, H0S, XS, L), agrees, method=Method.EXACT, domain=domain,
                  detail=f"proxy (derived, not the paper's theorem): g(h, x) = h/2 + x maps the corners of "
                         f"[0,2]x[0,1] to {[str(c) for c in corners]}, inside [0,2] (g affine, so [0,2] is "
                         "invariant), hence g~ = g on the visited set [0,2]x[0,1] gives h~_t = h_t at every "
                         "length by induction (argued); the bump learner agrees exactly at every checked "
                         "(sequence, length)")


def accumulating_proxy(p: Mapping[str, Any]) -> Evidence:
    """g(h, x) = h + x (running sum), h_0 = 0, x in [0, 1], CoT on lengths <= T: visited states
    h_{t-1} <= T - 1. g~ = g + tent on (T - 1, T + 1) has zero CoT risk but errs at length T + 1."""
    T = p["T"]
    g = lambda h, x: h + x  # noqa: E731
    gt = lambda h, x: g(h, x) + tent(h, Fr(T - 1), Fr(T + 1))  # noqa: E731
    domain = (f"T = {T}: the tent learner g~ = g + tent on ({T - 1}, {T + 1}), all-ones tokens at length "
              f"{T + 1}")
    # zero CoT risk: every visited (h_{t-1}, x_t) with t <= T has h_{t-1} in [0, T-1], where the tent is 0
    # (by construction: the tent is 0 on h <= lo); the grid of step 1/4 there re-checks it
    train_risk = max(tent(Fr(k, 4), Fr(T - 1), Fr(T + 1)) for k in range(0, 4 * (T - 1) + 1))
    if train_risk != 0:
        return undecided(f"the tent learner has CoT risk {train_risk} on the visited states",
                         method=Method.EXACT, domain=domain, residual=str(train_risk))
    h, ht = final_states(g, gt, Fr(0), [Fr(1)] * (T + 1))  # all-ones tokens
    gap = abs(h - ht)
    if gap == 0:
        return holds(Method.EXACT, domain, count=1, residual="0")
    return fails(Method.EXACT,
                 f"g~ = g + tent on ({T - 1}, {T + 1}) is zero on the visited states h_(t-1) in [0, {T - 1}] "
                 f"(max tent on a grid of step 1/4 there: {train_risk}; the tent vanishes on h <= {T - 1} by "
                 f"construction), so CoT risk is 0; at length {T + 1} with all-ones tokens h = {h}, h~ = "
                 f"{ht}: exact gap {gap}", domain=domain, residual=str(gap),
                 detail="proxy (derived, not the paper's theorem): running sum with CoT labels on lengths "
                        f"<= {T}. CoT alone does not give length generalization when states leave the "
                        "visited region")


def control_bump_inside(p: Mapping[str, Any]) -> Evidence:
    """Control: a tent inside the visited set [0, 2] keeps zero CoT risk (false)."""
    risk = tent(Fr(1), Fr(0), Fr(2))  # at the training point h_0 = 1
    domain = "the training point h_0 = 1"
    if risk == 0:
        return holds(Method.EXACT, domain, count=1, residual="0")
    return fails(Method.EXACT, f"a tent on (0, 2) changes g at the training point h_0 = 1 by {risk}: "
                 "non-zero CoT risk", domain=domain, residual=str(risk))


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
                 contractive_proxy, reading="proxy"),
        Computed("proxy: running sum generalizes under CoT", "proxy", "derived, non-authoritative",
                 "g~ = g on states visited at lengths <= T => h~_t = h_t for all t", accumulating_proxy,
                 reading="proxy"),
        Computed("control: a tent inside the visited set keeps zero CoT risk", "control",
                 "deliberately false", "g~ = g + tent on (0, 2) has zero CoT risk", control_bump_inside,
                 reading="proxy"),
    ),
    expect={
        "CoT supervision => length generalization (higher capacity)": Verdict.INCONCLUSIVE,
        "proxy: contractive recurrence with a visited invariant set generalizes under CoT": Verdict.CERTIFIED,
        "proxy: running sum generalizes under CoT": Verdict.REFUTED,
        "control: a tent inside the visited set keeps zero CoT risk": Verdict.REFUTED,
    },
    sentences=(
        Step("abstract; Mechanism 2", "chain-of-thought supervision enables length generalization in higher "
             "capacity counterparts",
             by=("CoT supervision => length generalization (higher capacity)",
                 "proxy: contractive recurrence with a visited invariant set generalizes under CoT",
                 "proxy: running sum generalizes under CoT")),
    ),
)
