"""Identity certificates: h_t - f_t is identically 0 in the tokens, proven by the kernel's own canonical
forms (no computer algebra system), plus a ball gap at the witness.

With every token coordinate a symbol, a recurrent model's logit is built from linear forms with exact
rational coefficients over *atoms*: token symbols x[j][i] and activations of earlier forms, act(L). Each
rewrite used is an identity of real functions, so two models whose canonical forms are equal compute the
same function (the converse is not claimed: a form that differs means "not shown", never "different"):

* linearity (collecting equal atoms, dropping zero coefficients);
* a sign normal form for the argument of each activation, from the activation's symmetry:
  sigmoid(-z) = 1 - sigmoid(z), tanh(-z) = -tanh(z), relu(z) - relu(-z) = z and
  softplus(z) - softplus(-z) = z; sigmoid(0) = 1/2, tanh(0) = relu(0) = 0; identity(z) = z.

Data: learner and truth (``rnn`` or ``linear-recurrence``), readout, lengths (every supervised length),
digits, witness, gap_ball [lo, hi] (the ball of h - f at the witness, logits for an injective readout,
outputs otherwise, must exclude 0).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .core import Reject, ball, fields, figure, integer, lower_bound, matrix, number, precision, upper_bound
from .models import INJECTIVE, Model, activation, balls, convert, logits, parse_model, same_io

Form = dict[Any, Fraction]  # atom key -> coefficient; the key () is the constant term
_HALF = Fraction(1, 2)


def _add(*terms: tuple[Fraction, Form]) -> Form:
    """sum of c * form, zero coefficients dropped."""
    out: Form = {}
    for c, form in terms:
        for key, v in form.items():
            out[key] = out.get(key, Fraction(0)) + c * v
    return {k: v for k, v in out.items() if v != 0}


def _key(form: Form) -> tuple[Any, ...]:
    return tuple(sorted(form.items()))


def _apply(name: str, L: Form) -> Form:
    """act(L) as a canonical form."""
    if name == "identity":
        return dict(L)
    parts = [k for k in sorted(L) if k != ()]
    sign = (L[parts[0]] if parts else L.get((), Fraction(0)))
    if sign == 0:  # L = 0
        if name in ("tanh", "relu"):
            return {}
        return {(): _HALF} if name == "sigmoid" else {(name, ()): Fraction(1)}
    if sign > 0:
        return {(name, _key(L)): Fraction(1)}
    atom = {(name, _key(_add((Fraction(-1), L)))): Fraction(1)}  # act(-L), -L has a positive lead
    if name == "sigmoid":
        return _add((Fraction(1), {(): Fraction(1)}), (Fraction(-1), atom))
    if name == "tanh":
        return _add((Fraction(-1), atom))
    return _add((Fraction(1), atom), (Fraction(1), L))  # relu, softplus: act(L) = act(-L) + L


def symbolic_logits(model: Model, t: int) -> list[Form]:
    """The model's logits after t symbolic tokens x[0..t-1], as canonical forms."""
    state: list[Form] = [{} for _ in model.Lam]
    for j in range(t):
        token = [{("x", j, i): Fraction(1)} for i in range(model.n)]
        pre = [_add(*[(c, s) for c, s in zip(lrow, state)], *[(b, x) for b, x in zip(brow, token)])
               for lrow, brow in zip(model.Lam, model.B)]
        sigma = "identity" if model.family == "linear-recurrence" else model.sigma
        state = [_apply(sigma, L) for L in pre]
    return [_add(*[(c, s) for c, s in zip(row, state)], (a, {(): Fraction(1)}))
            for row, a in zip(model.A, model.bias())]


def check_identity(data: Any) -> str:
    """Re-check an ``identity`` certificate; the figures re-derived, or Reject."""
    d = fields(data, "data", ["kind", "learner", "truth", "readout", "lengths", "digits", "witness",
                              "gap_ball"])
    h, f = parse_model(d["learner"], "learner"), parse_model(d["truth"], "truth")
    same_io(h, f, "learner")
    if not isinstance(d["lengths"], list) or not d["lengths"]:
        raise Reject("data.lengths", "expected a non-empty list of lengths")
    lengths = [integer(t, f"data.lengths[{i}]", 1, 16) for i, t in enumerate(d["lengths"])]
    atoms = 0
    for t in lengths:
        for r, (u, v) in enumerate(zip(symbolic_logits(h, t), symbolic_logits(f, t))):
            diff = _add((Fraction(1), u), (Fraction(-1), v))
            if diff:
                key, c = sorted(diff.items())[0]
                raise Reject("data.learner", f"h - f at length {t}, output {r} is not shown to be 0 "
                                             f"(coefficient {figure(c)} of {str(key)[:80]})")
            atoms += len(u)
    readout, digits = d["readout"], integer(d["digits"], "data.digits", 15, 600)
    X = matrix(d["witness"], "data.witness", None, h.n)
    if not isinstance(d["gap_ball"], list) or len(d["gap_ball"]) != 2:
        raise Reject("data.gap_ball", "expected [lo, hi]")
    lo, hi = number(d["gap_ball"][0], "data.gap_ball[0]"), number(d["gap_ball"][1], "data.gap_ball[1]")
    if not (lo > 0 or hi < 0) or lo > hi:
        raise Reject("data.gap_ball", f"[{figure(lo)}, {figure(hi)}] does not exclude 0")
    with precision(digits):
        zh, zf = logits(convert(h, ball), balls(X)), logits(convert(f, ball), balls(X))
        if readout not in INJECTIVE:
            zh, zf = [activation(readout, z) for z in zh], [activation(readout, z) for z in zf]
        inside = [u - v for u, v in zip(zh, zf) if lo <= lower_bound(u - v) and upper_bound(u - v) <= hi]
    if not inside:
        raise Reject("data.gap_ball", f"no component of h - f at the witness lies in [{figure(lo)}, "
                                      f"{figure(hi)}]")
    space = "logits" if readout in INJECTIVE else "outputs"
    return (f"h - f of the logits is identically 0 in the tokens at lengths {lengths} (canonical forms, "
            f"{atoms} terms); {space} gap at the length-{len(X)} witness in {figure(inside[0])}, inside "
            f"the certificate's [{figure(lo)}, {figure(hi)}] which excludes 0")
