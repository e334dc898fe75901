"""Assumption drops for Richard 2024, Theorem 4.1 (b): each variant changes one hypothesis and searches,
deterministically, for a training word s in D_2N and a completable prefix whose failure mass provably
exceeds 2N e^{-N} (interval arithmetic, ``dp.ivdps``), or reports none with the effort spent.

Variants: ``attention-q`` (Q = q small, K = 1: causal softmax weights e^{q x_r x_i}), ``eta-fixed-B`` and
``eta-rebuilt`` (E = [1, -1 + eta] with B kept from E = [1, -1], or rebuilt by eq. (4)), ``unbalanced``
(B built from a word not in D_2N), ``gamma`` (another gamma; gamma > 0 is claim (c): v gamma = N^2 + 1),
``v-small`` (-v = N^2 instead of > 2N^2), ``memorization-v`` (v gamma = N^2/2 in claim (a)) and
``argmax`` (greedy decoding instead of sampling).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import mpmath as mp

from ..errors import InputError, one_of
from ..language.spec import WitnessOutcome
from . import dp, dyck
from .model import Head

VARIANTS = ("none", "attention-q", "eta-fixed-B", "eta-rebuilt", "unbalanced", "gamma", "v-small",
            "memorization-v", "argmax")
CLAIM = "Thm 4.1 (b): every completable prefix is completed into D_2N with probability >= 1 - 2N e^{-N}"
CLAIM_A = "Thm 4.1 (a): every prefix of s is completed into s with probability >= 1 - 2N e^{-N}"
ETAS = (Fraction(1, 16), Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))
G = Fraction(-1, 2)


def q_grid(seed: int, n: int = 12) -> list[Fraction]:
    """``n`` seeded attention weights q ~ U(-1/2, 1/2) (numpy default_rng(seed)), to 1/1000, by |q|."""
    import numpy as np

    xs = np.random.default_rng(seed).uniform(-0.5, 0.5, n)
    return sorted({Fraction(round(float(x) * 1000), 1000) for x in xs} - {Fraction(0)}, key=abs)


def attention_log_odds(head: Head, z: tuple[int, ...], q: Fraction) -> Any:
    """D = 2 v sum_i w_i x_i, x_i = E[z_i] + B_i, w = softmax_i(q x_r x_i) over i <= r (interval)."""
    xs = [head.E[k][0] + head.B[i][0] for i, k in enumerate(z)]
    ws = [dp.iv.exp(dp.ball(q * xs[-1] * x)) for x in xs]
    pooled = dp.iv.fsum(w * dp.ball(x) for w, x in zip(ws, xs)) / dp.iv.fsum(ws)
    return 2 * dp.ball(head.v) * pooled


def _attention(N: int, seed: int) -> tuple[dict[str, str] | None, str, str, dict[str, Any] | None]:
    v = Fraction(-(2 * N * N + 1))
    bound, tried = dp.paper_bound(N), 0
    for q in q_grid(seed):
        for s in dyck.dyck_words(N):
            head = Head.closed_form([[1], [-1]], s, G, v)
            for r in range(1, 2 * N):
                for z in itertools.product((0, 1), repeat=r):
                    hs = dyck.heights(z)
                    if min(hs) < 0 or not dyck.completable(N, r, hs[-1]):
                        continue
                    tried += 1
                    w, lower = z, dp.iv.mpf(1)  # the greedy continuation's probability
                    while len(w) < 2 * N:
                        D = attention_log_odds(head, w, q)
                        if not (D.a > 0 or D.b < 0):
                            break
                        k = dyck.OPEN if D.a > 0 else dyck.CLOSE
                        lower *= 1 / (1 + dp.iv.exp(-abs(D)))
                        w = (*w, k)
                    if len(w) == 2 * N and not dyck.is_dyck(w) and dp.gt(lower, bound):
                        how = (f"Q = {q} (K = 1, causal softmax), v = {v}, gamma = -1/2: from prefix "
                               f"{dyck.show(z)} the argmax continuation {dyck.show(w[r:])} gives "
                               f"{dyck.show(w)} (not in D_2N) with probability >= {dp.text(lower)} > "
                               f"2N e^-N = {dp.text(bound)}")
                        data = certificate(N, s, z, G, v, Fraction(-1), False, "dyck", lower) | {
                            "model": "softmax-attention-head", "q": str(q)}
                        return ({"q": str(q), "s": dyck.show(s), "prefix": dyck.show(z),
                                 "completion": dyck.show(w), "fail_lower": dp.text(lower, 12)}, how,
                                f"{tried} (q, s, prefix) triples", data)
    return None, f"no q of {q_grid(seed)} breaks the bound (argmax continuations)", f"{tried} triples", None


def certificate(N: int, s: tuple[int, ...], prefix: tuple[int, ...], gamma: Fraction, v: Fraction,
                e_close: Fraction, fixed_B: bool, target: str, fail: Any) -> dict[str, Any]:
    """The kernel's ``enumeration`` data (docs/trust.md): the head (E = [1, e_close], B built by eq. (4)
    from s with E_B = [1, -1] when ``fixed_B``, else E), the prefix, the target ('dyck' or 'word') and the
    failure mass's lower end rounded down."""
    from ..numerics.exact import exact, rounded

    e = [exact(Fraction(1)), exact(e_close)]
    return {"kind": "enumeration", "model": "uniform-attention-head", "e": e,
            "e_b": [exact(Fraction(1)), exact(Fraction(-1))] if fixed_B else e, "word": dyck.show(s),
            "gamma": exact(gamma), "v": exact(v), "N": N, "prefix": dyck.show(prefix), "target": target,
            "fail_lower": rounded(mp.mpf(fail.a), up=False)}


def _scan_witness(N: int, sc: dp.Scan, what: str, head: tuple[Fraction, Fraction, Fraction, bool],
                  claim: str = CLAIM) -> tuple[dict[str, str] | None, str, dict[str, Any] | None]:
    """The worst prefix state of the scan as a witness when its failure provably exceeds 2N e^-N, with
    its certificate data; ``head`` is (gamma, v, e_close, fixed_B) of the scanned head."""
    bound = dp.paper_bound(N)
    w = sc.all
    how = (f"{what}: worst failure {dp.text(w.value)} at {w.where()}; 2N e^-N = {dp.text(bound)} "
           f"({sc.words} words, {sc.states} prefix states, exact DP in intervals)")
    if dp.gt(w.value, bound):
        prefix = dp.witness_prefix(w.r, w.h)
        return ({"s": dyck.show(w.s), "prefix": dyck.show(prefix), "fail": dp.text(w.value, 12)}, how,
                certificate(N, w.s, prefix, *head, "dyck", w.value))
    return None, how, None


def decide(variant: str, N: int, gamma: Fraction, seed: int) -> WitnessOutcome:
    """Run the search of ``variant`` at N (its own fixed grids); deterministic given (N, gamma, seed)."""
    if variant not in VARIANTS:
        raise one_of("variant", VARIANTS, variant)
    base = {"variant": variant, "N": str(N), "gamma": str(gamma), "seed": str(seed)}
    with dp.ivdps(60):
        words = list(dyck.dyck_words(N))
        claim, wit, how, effort = CLAIM, None, "", f"every s in D_{2 * N} ({len(words)}), every prefix state"
        data, v_theorem = None, Fraction(-(2 * N * N + 1))
        if variant == "attention-q":
            wit, how, effort, data = _attention(N, seed)
        elif variant in ("eta-fixed-B", "eta-rebuilt"):
            hows = []
            for eta in ETAS:
                sc = dp.scan(N, words, G, v_theorem, e_close=eta - 1, fixed_B=variant == "eta-fixed-B")
                wit, h, data = _scan_witness(N, sc, f"eta = {eta}, v = -(2N^2 + 1)",
                                             (G, v_theorem, eta - 1, variant == "eta-fixed-B"))
                hows.append(h)
                if wit:
                    wit["eta"] = str(eta)
                    break
            how, effort = "; ".join(hows), effort + f", eta in {[str(e) for e in ETAS]} (smallest first)"
        elif variant == "unbalanced":
            bad = [w for w in itertools.product((0, 1), repeat=2 * N) if not dyck.is_dyck(w)]
            found = [w for w in bad if dp.gt(dp.scan(N, [w], G, Fraction(-(2 * N * N + 1))).all.value,
                                             dp.paper_bound(N))]
            effort = f"every word of length {2 * N} not in D_{2 * N} ({len(bad)}), every prefix state"
            if found:
                wit, how, data = _scan_witness(N, dp.scan(N, [found[0]], G, v_theorem),
                                               f"s = {dyck.show(found[0])} (unbalanced), v = -(2N^2 + 1)",
                                               (G, v_theorem, Fraction(-1), False))
                wit["unbalanced_failing"] = f"{len(found)}/{len(bad)}"
                how += f"; {len(found)} of the {len(bad)} unbalanced words have a failing prefix"
        elif variant == "gamma":
            v = (N * N + 1) / gamma if gamma > 0 else Fraction(-(2 * N * N + 1))
            sc = dp.scan(N, words, gamma, v)
            wit, how, data = _scan_witness(N, sc, f"gamma = {gamma}, v = {v}",
                                           (gamma, v, Fraction(-1), False))
            if gamma > 0 and N > 1:
                ok = dp.scan(N, words, gamma, v, target="valid").off
                how += (f"; claim (c): max P(valid) over prefixes off s's stack path {dp.text(ok.value)} at "
                        f"{ok.where()}")
                if wit:
                    wit["max_valid_off_path"] = dp.text(ok.value, 12)
        elif variant == "v-small":
            v_small = Fraction(-N * N)
            wit, how, data = _scan_witness(N, dp.scan(N, words, G, v_small), "gamma = -1/2, v = -N^2",
                                           (G, v_small, Fraction(-1), False))
        elif variant == "memorization-v":
            claim, vg = CLAIM_A, Fraction(N * N, 2)
            f, bound = dp.memorization_failure(N, vg), dp.paper_bound(N)
            how = (f"v gamma = N^2/2 = {vg}: 1 - P(s_:1 -> s) = {dp.text(f)} vs 2N e^-N = {dp.text(bound)} "
                   "(the same for every s; closed-form product in intervals)")
            effort = "prefix s_:1 (the longest completion), every s at once"
            if dp.gt(f, bound):
                wit = {"v_gamma": str(vg), "fail": dp.text(f, 12)}
                first = words[0]  # the same failure for every s: the first word, gamma = -1/2, v = vg / gamma
                data = certificate(N, first, first[:1], G, vg / G, Fraction(-1), False, "word", f)
        elif variant == "argmax":
            bad_n = 0
            for s in words:
                D = dp.head_log_odds(s, G, Fraction(-(2 * N * N + 1)))
                for r, h in dyck.prefix_states(N):
                    path, tie = dp.greedy(N, D, r, h)
                    bad_n += tie or path[-1] != 0 or min(path) < 0
            how = f"argmax decoding: {bad_n} invalid or tied completions (exact signs)"
        else:
            how = "no assumption dropped: nothing to search"
    if wit:
        wit.update(base)
        return WitnessOutcome(True, effort, wit, how, True, claim, data)
    return WitnessOutcome(False, effort, None, "none found: " + how, True, claim)


class DyckFalsifier:
    """The falsifier of R24.T41: the variant of the dropped assumption (``params['variant']``)."""

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        return decide(params["variant"], params["N_drop"], parse_fraction(params["gamma"], "gamma"),
                      params["seed"])

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        for key in ("variant", "N", "gamma", "seed"):
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        if not (witness["N"].isdigit() and witness["seed"].isdigit()) or not 1 <= int(witness["N"]) <= 8:
            raise InputError("witness.N/seed", "integers (1 <= N <= 8)", (witness["N"], witness["seed"]))
        out = decide(witness["variant"], int(witness["N"]), parse_fraction(witness["gamma"], "witness.gamma"),
                     int(witness["seed"]))
        ok = out.found and out.witness == witness
        how = f"replayed: {'the witness still fails the bound' if ok else 'NO failure'} ({out.how})"
        return WitnessOutcome(ok, out.effort, witness, how, ok, out.claim)


def parse_fraction(text: str, where: str) -> Fraction:
    """'p/q' or a decimal, exactly (Fraction's parser; nothing evaluated)."""
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(where, "a rational 'p/q' or decimal", text) from None
