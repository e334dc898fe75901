"""Exact witness search for the general-readout theorem (AM24.T3, Ahuja & Mansouri, Theorem 3): scalar
tokens, rho = id (a gauge), learners ``omega(sum_j psi(x_t, x_j) (+ x_t))`` built in closed form
(:mod:`proofkit.families.readout`). Each family states why its learner has zero risk on the whole
training support (an exact identity or an exact bound on the training pre-activations) and gives an
exact gap at a stated sequence.

Families, tried in this order (the first that applies is the witness):

* ``off-support`` (support ``sorted``, non-decreasing sequences: every pair (query, key) has key <=
  query, so supp(X_i, X_j) is a triangle): psi = phi + max(k - q, 0)^2, omega = id; exact on every pair
  the support holds, off by 1/4 at the compositional point (3/4, 1/4).
* ``T-key`` (truth ``T-key``: f adds e_T(keys), a T-key interaction outside the pair class): the pair
  part of f has zero risk (e_T of at most T - 1 keys is an empty sum) and misses e_T at length T + 1.
* ``compositional-hinge`` (support ``cut``: positions 1..T-1 in {sum <= T - 3/2}, pair marginals still
  [0,1]^2; phi = b): omega(s) = s + max(s - s0, 0)^3 at the exact maximum s0 of the training
  pre-activations (vertex enumeration), off at the length-T point (1, ..., 1): compositional, not length.
* ``offset`` (one informative length): psi = phi + 1, omega(s) = s - m0.
* ``analytic`` (lengths <= 2 only): omega = sinh, psi = asinh o phi.
* ``plateau`` (readout ``continuous``, phi = b: omega need not be injective): omega(s) = min(s, s0),
  constant beyond the training pre-activations.
* ``hinge`` (phi = b, C^1 readout): omega(s) = s + max(s - s0, 0)^3, a C^2 diffeomorphism.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp

from proofkit.families import closed_form
from proofkit.families.readout import (
    KeyInteraction,
    Model,
    SumReadout,
    exact_gap,
    hinge,
    polytope_max,
    term_counts,
)
from proofkit.language.spec import WitnessOutcome

CONCLUSION = "every zero-risk learner generalizes (exact witness search)"
FAMILIES = ("off-support (psi = phi + max(k - q, 0)^2), T-key (the pair part of f), compositional-hinge "
            "(omega = s + max(s - s0, 0)^3 at the cut's exact maximum), offset (psi = phi + 1), analytic "
            "(omega = sinh), plateau (omega = min(s, s0)), hinge (omega = s + max(s - s0, 0)^3)")
#: the number of witness families :func:`search` tries (an empty search has tried that many candidates)
FAMILY_COUNT = 7
EFFORT = f"{FAMILY_COUNT} closed-form witness families tried: {FAMILIES}"
HALF, QUARTER = sp.Rational(1, 2), sp.Rational(1, 4)


def phi_of(pair_map: str) -> Callable[[sp.Expr, sp.Expr], sp.Expr]:
    """The true pair map phi(query, key): b (bounded) or (1 + a) log(b / (1 - b)) (logit)."""
    if pair_map == "bounded":
        return lambda a, b: b
    return lambda a, b: (1 + a) * sp.log(b / (1 - b))


def token_of(pair_map: str) -> sp.Rational:
    """The witness token (every position): 1 for phi = b (its supremum), 3/4 for the logit map."""
    return sp.Integer(1) if pair_map == "bounded" else sp.Rational(3, 4)


def supervised(p: Mapping[str, Any]) -> list[int]:
    """The supervised lengths: 1..T (ALL) or T (ONLY)."""
    return list(range(1, p["T"] + 1)) if p["supervision"] == "ALL" else [p["T"]]


def truth(p: Mapping[str, Any]) -> Model:
    """f: rho(sum phi) with rho = id, plus e_T(keys) when the truth is ``T-key``."""
    base = SumReadout(lambda s: s, phi_of(p["pair_map"]), p["keys"], p["residual"])
    return KeyInteraction(base, p["T"]) if p["truth"] == "T-key" else base


def searched(p: Mapping[str, Any]) -> str:
    """The parameters the witness search ran at (what an empty search covers)."""
    return (f"the {FAMILY_COUNT} closed-form witness families at T = {p['T']}, supervision "
            f"{p['supervision']}, pair map {p['pair_map']}, readout class {p['readout']}, support "
            f"{p['support']}, truth {p['truth']}, keys {p['keys']}" + (", residual" if p["residual"] else ""))


def max_preactivation(p: Mapping[str, Any]) -> sp.Rational:
    """Exact maximum of the true pre-activation sum_{j in J(t)} x_j (+ x_t) over the training support at
    the supervised lengths, for phi = b (so phi(q, k) = k, phi(q, q) = q <= 1)."""
    T, own = p["T"], (p["keys"] == "diagonal") + bool(p["residual"])
    best = sp.Integer(0)
    for t in supervised(p):
        if p["support"] == "cut" and T >= 2:  # positions 1..T-1 in the cut polytope, later ones free
            d = T - 1
            w = [sp.Integer(1) if j < t - 1 else sp.Integer(0) for j in range(d)]
            if t <= d:
                w[t - 1] += own
            val = polytope_max(w, cut_cap(T)) + (own if t > d else 0)
        else:  # box, sorted, cut + segment (the segment reaches every token 1): the box maximum
            val = sp.Integer(t - 1 + own)
        best = val if val > best else best
    return best


def cut_cap(T: int) -> sp.Rational:
    """The cut of the ``cut`` support: positions 1..T-1 sum to at most T - 3/2 (every pair marginal is
    still [0,1]^2 for T >= 4: two tokens and zeros sum to <= 2 <= T - 3/2)."""
    return sp.Integer(T) - sp.Rational(3, 2)


@dataclass(frozen=True)
class Witness:
    """A closed-form learner, the test sequence, and why its training risk is exactly zero."""

    family: str
    learner: SumReadout
    omega: str
    psi: str
    tokens: list[sp.Expr]
    why: str


def _family(p: Mapping[str, Any]) -> Witness | None:
    """The first witness family that applies at ``p`` (order: see the module docstring)."""
    keys, res, T = p["keys"], p["residual"], p["T"]
    L, phi, tok = supervised(p), phi_of(p["pair_map"]), token_of(p["pair_map"])
    counts = term_counts(L, keys)
    bounded, c1 = p["pair_map"] == "bounded", p["readout"] in ("C1", "continuous")
    if p["support"] == "sorted" and keys != "set":
        g = lambda a, b: sp.Piecewise(((b - a) ** 2, b > a), (0, True))  # noqa: E731
        return Witness("off-support", SumReadout(lambda s: s, lambda a, b: phi(a, b) + g(a, b), keys, res),
                       "s", "phi(a, b) + max(b - a, 0)^2", [sp.Rational(3, 4), QUARTER],
                       "on a non-decreasing sequence every pair (x_t, x_j), j <= t, has x_j <= x_t, "
                       "where max(x_j - x_t, 0)^2 = 0 exactly; the support's pair support is the "
                       "triangle {key <= query}, not [0,1]^2")
    if p["truth"] == "T-key":
        return Witness("T-key", SumReadout(lambda s: s, phi, keys, res), "s", "phi(a, b)", [tok] * (T + 1),
                       f"f - h = e_{T}(x_1, ..., x_(t-1)) is an empty sum (exactly 0) at every length "
                       f"t <= {T}")
    if p["support"] == "cut" and bounded and c1:
        s0 = max_preactivation(p)
        return Witness("compositional-hinge", SumReadout(hinge(s0), phi, keys, res),
                       f"s + max(s - {s0}, 0)^3", "phi(a, b)", [sp.Integer(1)] * T,
                       f"the exact maximum of the training pre-activations is {s0} (every vertex of the "
                       f"cut polytope sum_(j<{T}) x_j <= {cut_cap(T)} enumerated), where the hinge "
                       "term is exactly 0; omega' = 1 + 3 max(s - s0, 0)^2 >= 1 (C^2 diffeomorphism)")
    if len(set(counts)) == 1:  # one informative pre-activation size: shift psi, undo it in omega
        m0 = counts[0]
        return Witness("offset", SumReadout(lambda s: s - m0, lambda a, b: phi(a, b) + 1, keys, res),
                       f"s - {m0}", "phi(a, b) + 1", [tok] * (T + 1),
                       f"every supervised length has {m0} terms, so the shift cancels in omega at each "
                       "(exact identity)")
    if max(L) <= 2 and keys == "causal" and not res:  # length 2 only pins psi = a(phi) for any a
        return Witness("analytic", SumReadout(sp.sinh, lambda a, b: sp.asinh(phi(a, b)), keys, res),
                       "sinh(s)", "asinh(phi(a, b))", [tok] * (T + 1),
                       "sinh(asinh(phi)) = phi at length 2 and omega(0) = 0 at length 1 (exact)")
    if p["readout"] == "continuous" and bounded:
        s0 = max_preactivation(p)
        return Witness("plateau", SumReadout(lambda s: sp.Min(s, s0), phi, keys, res), f"min(s, {s0})",
                       "phi(a, b)", [sp.Integer(1)] * (T + 1),
                       f"the training pre-activations are <= {s0}, where min(s, {s0}) = s; omega is "
                       "continuous, constant on [s0, oo): not injective, not a diffeomorphism")
    if c1 and bounded:
        s0 = max_preactivation(p)
        return Witness("hinge", SumReadout(hinge(s0), phi, keys, res), f"s + max(s - {s0}, 0)^3",
                       "phi(a, b)", [sp.Integer(1)] * (T + 1),
                       "the training pre-activations are <= s0 (phi <= 1 on [0,1]^2), where the hinge "
                       "term is exactly 0; omega' = 1 + 3 max(s - s0, 0)^2 >= 1, so omega is a C^2 "
                       "diffeomorphism of R")
    return None


def _outcome(found: bool, witness: dict[str, str] | None, how: str,
             data: dict[str, Any] | None = None) -> WitnessOutcome:
    """Witnesses are decided exactly, so a found one is certified; it refutes the conclusion."""
    return WitnessOutcome(found, EFFORT, witness, how, found, CONCLUSION, data)


#: supports the kernel's closed-form-witness kind describes (token box [0,1], sorted, the cut)
KERNEL_SUPPORTS = ("cube", "sorted", "cut")


def certificate(p: Mapping[str, Any], w: Witness, gap: sp.Expr) -> dict[str, Any] | None:
    """The kernel's ``closed-form-witness`` data (docs/trust.md), None where the kernel has no description
    of the keys or support."""
    if p["keys"] not in ("causal", "diagonal") or p["support"] not in KERNEL_SUPPORTS:
        return None
    T = p["T"]
    sup = closed_form.support(("0", "1"), sorted_=p["support"] == "sorted",
                                   sums=[(range(1, T), str(cut_cap(T)))] if p["support"] == "cut" else ())
    f = truth(p)
    base = f.base if isinstance(f, KeyInteraction) else f
    return closed_form.data(p["keys"], bool(p["residual"]), closed_form.pair_model(
        w.learner.omega, w.learner.psi), closed_form.pair_model(base.omega, base.psi), sup,
        supervised(p), w.tokens, gap, f.order if isinstance(f, KeyInteraction) else None)


def why_empty(p: Mapping[str, Any]) -> str:
    """Why no family applies, where it is known (else only 'searched and empty')."""
    if p["pair_map"] != "logit":
        return ""
    out = ("; the logit pair map is unbounded (every training pre-activation range is R), so no "
           "hinge or plateau placed beyond the training sums exists")
    if p["readout"] == "continuous":
        out += ("; and injectivity is not needed there: phi(q, .) is strictly increasing onto R (S11), "
                "so zero risk at length 2, omega(psi(q, .)) = phi(q, .), makes omega a continuous "
                "bijection from the interval psi(q, (0,1)) onto R; a finite endpoint would make omega "
                "unbounded near it, so that interval is R and omega is a homeomorphism of R (the Cauchy "
                "argument then needs continuity only); omega(s) = s^2 cannot even fit length 2: "
                "phi(0, 1/4) = -log 3 < 0")
    if p["support"] == "cutseg":
        out += ("; and regular closedness is not used by the proof: it works with values only (no "
                "gradient), and zero risk plus continuity gives h = f at every point of any support "
                "(each is a limit of points where h = f); the segment {(s, s, s)} only adds training "
                "sequences")
    return out


def search(p: Mapping[str, Any]) -> WitnessOutcome:
    """The first applicable family's witness with its exact gap, or an empty outcome saying why."""
    w = _family(p)
    if w is None:
        return _outcome(False, None, "no witness family applies at these parameters (supervised lengths "
                        f"{supervised(p)}, pair map {p['pair_map']}, readout class {p['readout']}, "
                        f"support {p['support']}, truth {p['truth']}): searched and empty" + why_empty(p))
    f = truth(p)
    gap, nonzero = exact_gap(w.learner, f, w.tokens)
    if not nonzero:
        return _outcome(False, None, f"witness {w.family} gives no certified gap")
    L, t_test = supervised(p), len(w.tokens)
    kind = "length" if t_test > p["T"] else "compositional (a length seen in training)"
    witness = {"family": w.family, "omega": w.omega, "psi": w.psi, "rho": "s",
               "phi": "b" if p["pair_map"] == "bounded" else "(1 + a) log(b / (1 - b))",
               "keys": p["keys"], "residual": str(p["residual"]), "supervised": str(L),
               "tokens": str([str(x) for x in w.tokens]), "length": str(t_test), "gap": sp.sstr(gap),
               "readout": p["readout"], "pair_map": p["pair_map"], "T": str(p["T"]),
               "supervision": p["supervision"], "support": p["support"], "truth": p["truth"]}
    how = (f"exact: the {w.family} learner omega(s) = {w.omega}, psi = {w.psi} has zero risk at lengths "
           f"{L} on the whole training support ({w.why}); at length {t_test} ({kind}) with tokens "
           f"{[str(x) for x in w.tokens]}: h - f = {sp.sstr(gap)} (~{sp.N(gap, 6)}), certified non-zero"
           + outside_class(p))
    return _outcome(True, witness, how, certificate(p, w, gap))


def outside_class(p: Mapping[str, Any]) -> str:
    """For the T-key truth: the exact argument that f is in no pair model omega(sum psi) with omega
    injective (so the drop does violate realizability), where the supervised lengths give it."""
    if p["truth"] != "T-key":
        return ""
    T = p["T"]
    if p["keys"] != "causal" or p["residual"] or not {1, 2} <= set(supervised(p)):
        return "; f outside the class is not shown at these parameters"
    if p["pair_map"] == "logit":  # phi(1/2, 1/2) = 0
        fx = truth(p).value([HALF] * (T + 1))
        return (f"; f is outside the class: phi(1/2, 1/2) = 0, so f = 0 on (1/2, ..., 1/2) at lengths 1, 2, "
                f"forcing omega(0) = 0 and omega(psi(1/2, 1/2)) = 0, hence psi(1/2, 1/2) = 0 (omega "
                f"injective) and h = omega(0) = 0 there at length {T + 1}, while f = {sp.sstr(fx)}")
    if 3 not in supervised(p):
        return "; f outside the class is not shown at these parameters"
    xs = [sp.Rational(1, T)] * T + [sp.Integer(0)]
    fx = truth(p).value(xs)
    return (f"; f is outside the class: lengths 2 and 3 give omega(psi(q, k)) = k and psi(q, k1) + psi(q, "
            f"k2) = psi(q, k1 + k2) for k1 + k2 <= 1 (omega injective), so {T} keys 1/{T} give "
            f"h = omega(psi(q, 1)) = 1 at length {T + 1}, while f = {sp.sstr(fx)}")


def replay(witness: Mapping[str, str]) -> WitnessOutcome:
    """Re-run the search at the parameters a witness record names."""
    p = {"T": int(witness["T"]), "supervision": witness["supervision"], "keys": witness["keys"],
         "residual": witness["residual"] == "True", "pair_map": witness["pair_map"],
         "readout": witness["readout"], "support": witness.get("support", "cube"),
         "truth": witness.get("truth", "pair")}
    return search(p)


@dataclass(frozen=True)
class ReadoutFalsifier:
    """The theorem's falsifier: ``search(params)`` and ``replay(witness)`` (exact, deterministic)."""

    def __call__(self, params: Mapping[str, Any]) -> WitnessOutcome:
        return search(params)

    def search(self, params: Mapping[str, Any]) -> WitnessOutcome:
        """The witness search at ``params``."""
        return search(params)

    def replay(self, witness: Mapping[str, str]) -> WitnessOutcome:
        """The search at the parameters stored in ``witness``."""
        return replay(witness)
