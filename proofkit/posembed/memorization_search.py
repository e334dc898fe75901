"""The search that attacks Richard 2024, Theorem 4.1 (a) as corrected (probability >= 1 - 2N e^-N, the
printed "1 2N exp(-N)" with its minus sign restored): for every training word s, every prefix s_:r
(r = 1..2N - 1), the mass of the completions that are not s itself, computed on the head exactly and
compared with 2N e^-N in intervals.

Completion into s stays on s's own path, so the failure from the prefix s_:r is accumulated along it,
f_r = P(wrong token at r) + P(s_(r+1) at r) f_(r+1), f_2N = 0: a sum of non-negative terms (never
1 - P(success)). The next-token law at the context s_:r' is the head's own: the exact rational log-odds of
the DP (:func:`dp.head_log_odds`, the pooled sums of eq. (4)'s B at the state (r', Delta_r'(s))) turned
into probabilities by :class:`dp.Probs` (mpmath intervals at >= 60 digits), or, for the softmax-attention
variant, the causal softmax average of :func:`drops.attention_log_odds` in intervals.

Variants (the assumption each one drops; the others hold):

* ``none``: the corrected statement itself, v gamma in {N^2 + 1/1000, N^2 + 1, 2N^2, 4N^2} (just above
  the threshold, and larger) for gamma in {-1/2, 1/2, -5/2, 4} (gamma is free in (a); v = v gamma/gamma);
* ``memorization-v``: v gamma = N^2/2;
* ``attention-q``: Q = q != 0 (K = 1), the seeded q grid of :func:`drops.q_grid`, v gamma = N^2 + 1/1000;
* ``eta-fixed-B`` / ``eta-rebuilt``: E = [1, -1 + eta], B kept from E = [1, -1] or rebuilt by eq. (4);
* ``unbalanced``: s ranges over the words of length 2N not in D_2N;
* ``argmax``: greedy decoding (exact signs of the log-odds; a tie or a wrong sign is a failure of mass 1).

Each search goes over N = 1..N_max in order and reports, at the first N where some failure provably
exceeds 2N e^-N, the worst (s, prefix) with the kernel's ``enumeration`` certificate (target ``word``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from ..errors import InputError, one_of
from ..language.spec import WitnessOutcome
from . import dp, dyck
from .drops import CLAIM_A, ETAS, attention_log_odds, certificate, q_grid
from .model import Head

MEMO_VARIANTS = ("none", "memorization-v", "attention-q", "eta-fixed-B", "eta-rebuilt", "unbalanced",
                 "argmax")
#: gamma is a free parameter of eq. (4) in (a): both signs, small and large
MEMO_GAMMAS = (Fraction(-1, 2), Fraction(1, 2), Fraction(-5, 2), Fraction(4))
#: the largest N the search accepts (the kernel re-checks a prefix of length 1 up to N = 9)
MEMO_N_MAX = 8


def vg_grid(N: int, variant: str) -> tuple[Fraction, ...]:
    """The values of v gamma searched at N: just above N^2 and larger (N^2/2 for ``memorization-v``;
    only the value just above N^2 for the other drops: the failure along s's path decreases in v gamma,
    so that is the weakest head of the grid)."""
    if variant == "memorization-v":
        return (Fraction(N * N, 2),)
    just_above = Fraction(N * N) + Fraction(1, 1000)
    if variant in ("none", "argmax"):
        return just_above, Fraction(N * N + 1), Fraction(2 * N * N), Fraction(4 * N * N)
    return (just_above,)


def path_failures(s: tuple[int, ...], correct_log_odds: Callable[[int], Any], memo: dict) -> list[Any]:
    """[f_1, ..., f_(2N-1)]: the failure to complete s_:r into s, from the interval log-odds of the
    correct token at each context length r (``correct_log_odds(r)``: logit(s_(r+1)) - logit(other)).
    Suffixes with the same log-odds share their values (``memo``, keyed by the exact values)."""
    n = len(s)
    f, key, out = dp.iv.mpf(0), (), []
    for r in range(n - 1, 0, -1):
        c = correct_log_odds(r)
        key = (c, key) if isinstance(c, Fraction) else None
        val = memo.get(key) if key is not None else None
        if val is None:
            e = dp.iv.exp(dp.ball(c)) if isinstance(c, Fraction) else dp.iv.exp(c)
            val = 1 / (1 + e) + e / (1 + e) * f  # wrong token, or the right one and a later failure
            if key is not None:
                memo[key] = val
        f = val
        out.append(f)
    return out[::-1]


def _words(N: int, variant: str) -> Iterable[tuple[int, ...]]:
    if variant == "unbalanced":
        return (w for w in itertools.product((0, 1), repeat=2 * N) if not dyck.is_dyck(w))
    return dyck.dyck_words(N)


#: the unbalanced search enumerates 4^N words: it stops at this N whatever N_max is
UNBALANCED_N_MAX = 5


def _completable(N: int, hs: list[int], r: int) -> bool:
    """The prefix of length r (heights hs[1..r]) can be completed into a word of D_2N."""
    return min(hs[1:r + 1]) >= 0 and dyck.completable(N, r, hs[r])


class _Worst:
    """The largest failure (by upper end) seen at one N, where, and whether every one is decided."""

    def __init__(self) -> None:
        self.value: Any = None
        self.at: tuple = ()
        self.cases = self.undecided = 0


def _sign(s: tuple[int, ...]) -> list[int]:
    return [1 if k == dyck.OPEN else -1 for k in s]


def _dp_correct(s: tuple[int, ...], hs: list[int], D: Callable[[int, int], Fraction]
                ) -> Callable[[int], Fraction]:
    """The correct token's exact log-odds at s_:r: the DP's D at the state (r, Delta_r(s)), signed."""
    sign = _sign(s)
    return lambda r: sign[r] * D(r, hs[r])


def _softmax_correct(s: tuple[int, ...], head: Head, q: Fraction) -> Callable[[int], Any]:
    """The correct token's log-odds at s_:r under causal softmax attention (weights e^(q x_r x_i)),
    an interval."""
    sign = _sign(s)
    return lambda r: sign[r] * attention_log_odds(head, s[:r], q)


def _scan_N(N: int, variant: str, seed: int) -> tuple[_Worst, Any]:
    """Every (s, gamma, v gamma, model perturbation, prefix) of ``variant`` at N: the worst failure."""
    bound, worst, memo = dp.paper_bound(N), _Worst(), {}
    perturb: list[Any] = [None]
    if variant == "attention-q":
        perturb = list(q_grid(seed))
    elif variant in ("eta-fixed-B", "eta-rebuilt"):
        perturb = list(ETAS)
    for s in _words(N, variant):
        hs = [0, *dyck.heights(s)]
        for g, vg, x in itertools.product(MEMO_GAMMAS, vg_grid(N, variant), perturb):
            v = vg / g
            if variant == "attention-q":
                e_close, fixed = Fraction(-1), False
                lo = _softmax_correct(s, Head.closed_form([[1], [-1]], s, g, v), x)
            else:
                e_close, fixed = (x - 1 if x is not None else Fraction(-1)), variant == "eta-fixed-B"
                lo = _dp_correct(s, hs, dp.head_log_odds(s, g, v, e_close, fixed))
            if variant == "argmax":
                bad = [r for r in range(1, 2 * N) if lo(r) <= 0]  # a tie or the other token wins
                worst.cases += 2 * N - 1
                if bad:
                    worst.value, worst.at = dp.iv.mpf(1), (s, bad[0], g, v, e_close, fixed, x)
                    return worst, bound
                continue
            fs = path_failures(s, lo, memo if variant != "attention-q" else {})
            for r, f in enumerate(fs, start=1):
                if variant == "unbalanced" and not _completable(N, hs, r):
                    continue  # (a) speaks of prefixes the model is asked to complete into D_2N
                worst.cases += 1
                if not (dp.le(f, bound) or dp.gt(f, bound)):
                    worst.undecided += 1
                if worst.value is None or f.b > worst.value.b:
                    worst.value, worst.at = f, (s, r, g, v, e_close, fixed, x)
    return worst, bound


def decide_memorization(variant: str, N_max: int, seed: int) -> WitnessOutcome:
    """The search of ``variant`` over N = 1..N_max (deterministic given the arguments)."""
    if variant not in MEMO_VARIANTS:
        raise one_of("variant", MEMO_VARIANTS, variant)
    if not 1 <= N_max <= MEMO_N_MAX:
        raise InputError("N_max", f"an integer 1..{MEMO_N_MAX}", N_max)
    base = {"variant": variant, "N_max": str(N_max), "seed": str(seed)}
    what = {"none": "v gamma in {N^2 + 1/1000, N^2 + 1, 2N^2, 4N^2}",
            "memorization-v": "v gamma = N^2/2",
            "attention-q": f"Q = q in {[str(q) for q in q_grid(seed)]} (K = 1), v gamma = N^2 + 1/1000",
            "eta-fixed-B": f"E = [1, -1 + eta], B from E = [1, -1], eta in {[str(e) for e in ETAS]}, "
                           "v gamma = N^2 + 1/1000",
            "eta-rebuilt": f"E = [1, -1 + eta], B rebuilt by eq. (4), eta in {[str(e) for e in ETAS]}, "
                           "v gamma = N^2 + 1/1000",
            "unbalanced": "the completable prefixes only, v gamma = N^2 + 1/1000",
            "argmax": "argmax decoding, v gamma in {N^2 + 1/1000, N^2 + 1, 2N^2, 4N^2}"}[variant]
    words = "every s in D_2N" if variant != "unbalanced" else "every word s of length 2N not in D_2N"
    effort = (f"N = 1..{N_max}, {words}, every prefix s_:r (r = 1..2N-1), gamma in "
              f"{[str(g) for g in MEMO_GAMMAS]}, {what}")
    top = min(N_max, UNBALANCED_N_MAX) if variant == "unbalanced" else N_max
    if top < N_max:
        effort = effort.replace(f"N = 1..{N_max}", f"N = 1..{top} (4^N words; N_max = {N_max})")
    rows, total, undecided = [], 0, 0
    with dp.ivdps(60):
        for N in range(1, top + 1):
            w, bound = _scan_N(N, variant, seed)
            total, undecided = total + w.cases, undecided + w.undecided
            if w.value is None:
                rows.append(f"N={N}: greedy = s_(r+1) at every step" if variant == "argmax" else
                            f"N={N}: no case")
                continue
            s, r, g, v, e_close, fixed, x = w.at
            rows.append(f"N={N}: {dp.text(w.value, 3)} vs {dp.text(bound, 3)}")
            if not dp.gt(w.value, bound):
                continue
            z = s[:r]
            wit = {**base, "N": str(N), "s": dyck.show(s), "prefix": dyck.show(z), "gamma": str(g),
                   "v_gamma": str(v * g), "fail": dp.text(w.value, 12)}
            if variant == "argmax":
                how = (f"argmax decoding at N = {N}, gamma = {g}, v = {v}: from the prefix {dyck.show(z)} of "
                       f"s = {dyck.show(s)} the greedy token is not s_(r+1) (exact sign)")
                return WitnessOutcome(True, effort, wit, how, True, CLAIM_A)
            data = certificate(N, s, z, g, v, e_close, fixed, "word", w.value)
            if variant == "attention-q":
                wit["q"] = str(x)
                data |= {"model": "softmax-attention-head", "q": str(x)}
            elif x is not None:
                wit["eta"] = str(x)
            how = (f"N = {N}, s = {dyck.show(s)}, prefix {dyck.show(z)}, gamma = {g}, v = {v} "
                   f"(v gamma = {v * g}): 1 - P(s_:r -> s) = {dp.text(w.value)} > 2N e^-N = "
                   f"{dp.text(bound)} ({'softmax weights' if variant == 'attention-q' else 'exact log-odds'}"
                   ", failure accumulated in intervals at 60 digits); "
                   "N < " + f"{N}: " + ("; ".join(rows[:-1]) or "none"))
            return WitnessOutcome(True, effort, wit, how, True, CLAIM_A, data)
    head = "greedy decoding per N" if variant == "argmax" else "worst failure per N vs 2N e^-N"
    how = (f"{total} (s, gamma, v gamma, prefix) cases, {head}: " + "; ".join(rows)
           + (f"; {undecided} cases not decided (intervals overlap)" if undecided else
              "; every case proven <= 2N e^-N" if variant != "argmax" else
              "; the greedy token is s_(r+1) at every step (failure 0)"))
    return WitnessOutcome(False, effort, None, "none found: " + how, undecided == 0, CLAIM_A)


def memorization_cases(out: WitnessOutcome) -> int:
    """How many (s, gamma, v gamma, prefix) cases an empty search of :func:`decide_memorization` decided
    (read back from its how-text, which this module writes); 1 for a search that found a witness."""
    m = re.match(r"none found: (\d+) \(s, gamma", out.how)
    return int(m.group(1)) if m and not out.found else 1


class MemorizationFalsifier:
    """The falsifier of R24.T41c: the variant of the dropped assumption (``params['variant']``) over
    N = 1..``params['N']``; at the defaults (``none``) it searches the corrected statement itself."""

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        return decide_memorization(params["variant"], params["N"], params["seed"])

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        for key in ("variant", "N_max", "seed"):
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        if not (witness["N_max"].isdigit() and witness["seed"].isdigit()):
            raise InputError("witness.N_max/seed", "integers", (witness["N_max"], witness["seed"]))
        out = decide_memorization(witness["variant"], int(witness["N_max"]), int(witness["seed"]))
        ok = out.found and out.witness == witness
        how = f"replayed: {'the witness still fails the bound' if ok else 'NO failure'} ({out.how})"
        return WitnessOutcome(ok, out.effort, witness, how, ok, out.claim)


__all__ = ["MEMO_GAMMAS", "MEMO_N_MAX", "MEMO_VARIANTS", "MemorizationFalsifier", "memorization_cases",
           "decide_memorization", "path_failures", "vg_grid"]
