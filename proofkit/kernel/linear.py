"""Certificates of counterexamples for linear recurrences, re-checked exactly (Fractions).

``rational-learner``: an exact rational learner h whose Markov parameters equal the truth's for every
j < T (and whose readout bias equals the truth's) computes the same logits as f on every sequence of
length <= T (logit_t = sum_(j<t) M_j x_(t-j) + a), so it has zero risk on any training support of
lengths <= T; the logit gap at the witness is an exact non-zero rational, and an injective readout
turns it into an output gap. Data: learner, truth, readout, equal_below (T), witness, gap.

``ball-bound`` (a ReLU readout that is dead on the training box): every logit of both models, at every
length t <= T and every token in the box [lo, hi], is <= 0 (the exact maximum of a linear function on a
box: each coordinate at the end that favours it), so both outputs are exactly 0 there and h is an exact
zero-risk learner; the output gap at the witness is exact. Data: learner, truth, readout ("relu"),
dead_below (T), token_box {lo, hi}, logit_upper {learner, truth}, witness, gap_lower.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .core import Reject, claimed_gap, fields, figure, integer, matrix, number, vector
from .models import INJECTIVE, Model, logits, markov, parse_model, same_io


def _pair(d: dict[str, Any]) -> tuple[Model, Model]:
    h, f = parse_model(d["learner"], "learner", ("linear-recurrence",)), \
        parse_model(d["truth"], "truth", ("linear-recurrence",))
    same_io(h, f, "learner")
    return h, f


def check_rational_learner(data: Any) -> str:
    """Re-check a ``rational-learner`` certificate; the figures re-derived, or Reject."""
    d = fields(data, "data", ["kind", "learner", "truth", "readout", "equal_below", "witness", "gap"])
    h, f = _pair(d)
    if d["readout"] not in INJECTIVE:
        raise Reject("data.readout", f"{d['readout']!r} is not an injective readout (equal logits are "
                                     f"needed where outputs are compared): one of {', '.join(INJECTIVE)}")
    T = integer(d["equal_below"], "data.equal_below", 1, 64)
    for j, (Mh, Mf) in enumerate(zip(markov(h, T), markov(f, T))):
        for r, (row_h, row_f) in enumerate(zip(Mh, Mf)):
            for c, (u, v) in enumerate(zip(row_h, row_f)):
                if u != v:
                    raise Reject("data.learner", f"Markov parameter M_{j}[{r}][{c}] = {str(u)} differs "
                                                 f"from the truth's {str(v)}")
    for r, (u, v) in enumerate(zip(h.bias(), f.bias())):
        if u != v:
            raise Reject("data.learner.a", f"readout bias a[{r}] = {str(u)}, the truth's is {str(v)}")
    X = matrix(d["witness"], "data.witness", None, h.n)
    gap = max(abs(u - v) for u, v in zip(logits(h, X), logits(f, X)))
    stored = number(d["gap"], "data.gap")
    if gap != stored:
        raise Reject("data.gap", f"the logit gap at the witness is {str(gap)}, the certificate says "
                                 f"{str(stored)}")
    if gap == 0:
        raise Reject("data.gap", "the logit gap at the witness is 0: no counterexample")
    return (f"Markov parameters equal for j < {T} ({T * h.m * h.n} exact entries) and readout biases "
            f"equal, so h = f at every length <= {T}; logit gap at the length-{len(X)} witness = "
            f"{figure(gap)} (exact, non-zero), readout {d['readout']} injective")


def _box_max(Ms: list[list[list[Fraction]]], bias: list[Fraction], lo: list[Fraction],
             hi: list[Fraction]) -> Fraction:
    """The exact maximum, over lengths t <= len(Ms), outputs r and tokens in [lo, hi], of
    sum_(j<t) M_j[r] x_(t-j) + bias[r] (a linear function of independent tokens: coordinatewise ends)."""
    best = None
    partial = list(bias)
    for M in Ms:
        for r, row in enumerate(M):
            partial[r] += sum((max(v * a, v * b) for v, a, b in zip(row, lo, hi)), Fraction(0))
        top = max(partial)
        best = top if best is None else max(best, top)
    assert best is not None
    return best


def check_ball_bound(data: Any) -> str:
    """Re-check a dead-readout ``ball-bound`` certificate (exactly: the parameters are rationals)."""
    d = fields(data, "data", ["kind", "learner", "truth", "readout", "dead_below", "token_box",
                              "logit_upper", "witness", "gap_lower"])
    h, f = _pair(d)
    if d["readout"] != "relu":
        raise Reject("data.readout", f"a dead-readout bound needs relu (0 for every logit <= 0), got "
                                     f"{d['readout']!r}")
    T = integer(d["dead_below"], "data.dead_below", 1, 64)
    box = fields(d["token_box"], "data.token_box", ["lo", "hi"])
    lo, hi = vector(box["lo"], "data.token_box.lo", h.n), vector(box["hi"], "data.token_box.hi", h.n)
    if any(a > b for a, b in zip(lo, hi)):
        raise Reject("data.token_box", "an empty box (lo > hi in some coordinate)")
    ups = fields(d["logit_upper"], "data.logit_upper", ["learner", "truth"])
    tops = []
    for name, model in (("learner", h), ("truth", f)):
        top, claimed = _box_max(markov(model, T), model.bias(), lo, hi), number(ups[name],
                                                                                f"data.logit_upper.{name}")
        if top > claimed:
            raise Reject(f"data.logit_upper.{name}", f"the {name}'s largest logit on the box is "
                                                     f"{figure(top)} > the certificate's {figure(claimed)}")
        if claimed > 0:
            raise Reject(f"data.logit_upper.{name}", f"{figure(claimed)} > 0: the readout is not dead")
        tops.append(top)
    X = matrix(d["witness"], "data.witness", None, h.n)
    gap = max(abs(max(u, 0) - max(v, 0)) for u, v in zip(logits(h, X), logits(f, X)))
    claimed = claimed_gap(d, gap, "the output gap at the witness")
    return (f"every logit <= {figure(tops[0])} (learner) and <= {figure(tops[1])} (truth) at every length "
            f"<= {T} on the token box (exact box maxima), so both ReLU outputs are 0 there; output gap at "
            f"the length-{len(X)} witness = {figure(gap)} >= {figure(claimed)}")
