"""The logit margin gamma(f) and the hardmax regime of a one-layer limit transformer, exactly.

Izzo, Nichani & Lee 2025, Sec. 3.2, define an attention matrix A (their D3.4), logit sets (D3.5) and the
margin gamma(f) (D3.6), and prove that for N >= 2^(p/gamma) the flushed softmax is a hardmax (P3.7).
What a forward pass can actually see at the last query of a length-N string is decided here without
enumerating strings: position j contributes the logit of its token at offset k = N - j, offsets beyond tau
carry no bias and depend on j only through j mod Delta, so from N >= tau + 2 Delta + 1 on the set of
realizable (max, sub-max) logit pairs depends on N mod Delta only. The smallest realized positive gap
per length, and hence the exact set of lengths at which hardmax fails, is therefore a finite computation
over every N. (A brute force over all strings cross-checks it in the tests.)

The printed definitions are encoded as written (``literal``: D3.4 pairs the key token with the query's
position vector; D3.5 ranges over offsets 0..tau only) next to the readings a forward pass uses
(``forward``: the logit a_{i,j} of Sec. 3.1; ``completed``: forward plus the far keys, offsets > tau).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from ..errors import InputError, one_of
from . import flush
from .model import LimitTransformer, _dot, evaluate

VARIANTS = ("literal", "forward", "completed")
PAIRS = ("all", "max-vs-rest")


def attention_entry(model: LimitTransformer, y: str, i: int, z: str, j: int, variant: str) -> Fraction:
    """D3.4 ``literal``: A_{(y,i),(z,j)} = (E_z + p_i)^T K^T Q (E_y + p_j) (as printed); otherwise the
    forward pass's (E_z + p_j)^T K^T Q (E_y + p_i)."""
    if variant == "literal":
        key = [e + q for e, q in zip(model.E[z], model.P[i % model.Delta])]
        qry = [e + q for e, q in zip(model.E[y], model.P[j % model.Delta])]
    else:
        key, qry = model.y(z, j), model.y(y, i)
    return _dot(model.apply("K", key), model.apply("Q", qry))


def logit_set(model: LimitTransformer, y: str, i: int, variant: str = "literal") -> set[Fraction]:
    """D3.5: {A_{(y,i),(z,i-k)} + phi(1, k+1) : z, k = 0..tau}; ``completed`` adds the far keys
    {A_{(y,i),(z,j)} + 0 : z, j mod Delta}."""
    if variant not in VARIANTS:
        raise one_of("variant", VARIANTS, variant)
    out = {attention_entry(model, y, i, z, i - k, variant) + model.bias(k)
           for z in model.alphabet for k in range(model.tau + 1)}
    if variant == "completed":
        out |= {attention_entry(model, y, i, z, j, "forward") for z in model.alphabet
                for j in range(model.Delta)}
    return out


def gamma(model: LimitTransformer, variant: str = "literal", pairs: str = "all") -> Fraction | None:
    """D3.6: the smallest positive difference a - a' within one logit set, minimized over (y, i mod Delta);
    None is +inf (min over the empty set). ``pairs='max-vs-rest'`` is the prose's reading (the largest
    logit of the set against each smaller one)."""
    if pairs not in PAIRS:
        raise one_of("pairs", PAIRS, pairs)
    best: Fraction | None = None
    for y in model.alphabet:
        for i in range(model.Delta):
            vals = sorted(logit_set(model, y, i, variant))
            if len(vals) < 2:
                continue
            diffs = [b - a for a, b in zip(vals, vals[1:])] if pairs == "all" \
                else [vals[-1] - a for a in vals[:-1]]
            g = min(diffs)
            best = g if best is None or g < best else best
    return best


@dataclass(frozen=True)
class Slot:
    """A class of key positions with the same logit function: a representative position and how many."""

    j: int
    count: int


def _slots(model: LimitTransformer, N: int) -> list[Slot]:
    """Key positions 1..N grouped: each offset k <= tau alone, the far positions (1..N - tau - 1) by
    residue mod Delta, counted arithmetically (N may be astronomically large)."""
    near = [Slot(N - k, 1) for k in range(min(model.tau, N - 1) + 1)]
    last_far = N - model.tau - 1
    far = [Slot(first, (last_far - first) // model.Delta + 1)
           for first in range(1, min(model.Delta, last_far) + 1)]
    return near + far


@dataclass(frozen=True)
class Gap:
    """The smallest positive gap between a string's maximal logit and a sub-maximal one at the last
    query of some length-N string (None: every string has all logits equal), and the choice realizing
    it: query token y, the maximal key (slot, token) and the sub-maximal one; every other position holds
    its lowest-logit token. :func:`witness_string` spells the string out."""

    N: int
    gap: Fraction | None
    choice: tuple[str, int, str, int, str] | None = None


def _tables(model: LimitTransformer, N: int, y: str, slots: list[Slot]) -> list[dict[str, Fraction]]:
    """Per slot: token -> logit at the last query (the query slot holds y)."""
    return [{z: model.logit(y, N, z, s.j) for z in ((y,) if s.j == N else model.alphabet)} for s in slots]


def realized_gap(model: LimitTransformer, N: int) -> Gap:
    """The smallest realizable (max - sub-max) logit gap over every string of length N, exactly."""
    slots = _slots(model, N)
    best: Gap | None = None
    for y in model.alphabet:
        table = _tables(model, N, y, slots)
        floor = [min(t.values()) for t in table]
        for s1, t1 in enumerate(table):
            for z1, a1 in t1.items():
                for s2, t2 in enumerate(table):
                    if s2 == s1 and slots[s1].count < 2:
                        continue
                    for z2, a2 in t2.items():
                        if not a2 < a1 or (best is not None and a1 - a2 >= best.gap):
                            continue
                        if any(floor[s] > a1 for s in range(len(slots)) if s not in (s1, s2)):
                            continue
                        best = Gap(N, a1 - a2, (y, s1, z1, s2, z2))
    return best or Gap(N, None)


def witness_string(model: LimitTransformer, gap: Gap) -> tuple[str, ...]:
    """The string of length ``gap.N`` realizing ``gap``: the two chosen keys, every other position at a
    token whose logit is the lowest of its slot (hence <= the chosen maximum). Checked on return."""
    if gap.choice is None:
        raise InputError("gap", "a gap with a realizing choice (not +inf)", None)
    N, (y, s1, z1, s2, z2) = gap.N, gap.choice
    slots = _slots(model, N)
    table = _tables(model, N, y, slots)
    placed = {s1: [z1], s2: [z2]} if s1 != s2 else {s1: [z1, z2]}
    x = [""] * N
    for s, slot in enumerate(slots):
        members = range(slot.j, slot.j + slot.count * model.Delta, model.Delta)  # near slots: one
        chosen, low = placed.get(s, []), min(table[s], key=table[s].get)
        for idx, j in enumerate(members):
            x[j - 1] = chosen[idx] if idx < len(chosen) else low
    x[N - 1] = y
    a = model.logits(x)
    if max(a) - gap.gap not in a or any(0 < max(a) - v < gap.gap for v in a):
        raise AssertionError("witness construction does not realize the gap")  # a bug, never input
    return tuple(x)


@dataclass(frozen=True)
class Onset:
    """Where hardmax holds: ``from_N`` the smallest N from which every string of every length >= N is
    attended by a hardmax, ``failing`` the lengths
    >= ``threshold`` where it fails (capped at ``limit`` entries) with a witness for the first."""

    p: int
    threshold: int
    from_N: int
    failing: tuple[int, ...]
    witness: Gap | None


def stable_length(model: LimitTransformer) -> int:
    """From this length on the realizable pairs depend on N mod Delta only (every far residue class has
    at least two positions)."""
    return model.tau + 2 * model.Delta + 1


def hardmax_onset(model: LimitTransformer, p: int, threshold: int, rule: str = "inclusive",
                  limit: int = 8) -> Onset:
    """Decide, for every N >= 1, whether every length-N string's flushed softmax is a hardmax, and list
    the lengths >= ``threshold`` where it is not. Exact over all N: lengths below the stable length one by
    one, beyond it one smallest gap per residue class and the exact flush length of that gap."""
    stable = stable_length(model)
    holds_small = {}
    gaps_small = {}
    for N in range(1, stable + model.Delta):
        g = realized_gap(model, N)
        gaps_small[N] = g
        holds_small[N] = g.gap is None or flush.term_flushed(N, g.gap, p, rule)
    # beyond `stable`: N ≡ r holds iff N >= hardmax_length(gap_r)
    per_residue = {}
    for N in range(stable, stable + model.Delta):
        g = gaps_small[N]
        per_residue[N % model.Delta] = (g, flush.hardmax_length(p, g.gap, rule))
    failing: list[int] = []
    witness = None
    for N in range(threshold, stable):
        if not holds_small[N] and len(failing) < limit:
            failing.append(N)
            witness = witness or gaps_small[N]
    start = max(threshold, stable)
    for r, (_, need) in sorted(per_residue.items(), key=lambda kv: kv[1][1]):
        N = start + ((r - start) % model.Delta)
        while N < need and len(failing) < limit:
            failing.append(N)
            if witness is None or N < witness.N:
                witness = realized_gap(model, N)
            N += model.Delta
    from_N = max([N + 1 for N in range(1, stable) if not holds_small[N]] + [1])
    for r, (_, need) in per_residue.items():
        last_bad = need - 1 - ((need - 1 - r) % model.Delta)  # the largest N ≡ r below need
        if last_bad >= stable:
            from_N = max(from_N, last_bad + 1)
    return Onset(p, threshold, from_N, tuple(sorted(failing)), witness)


def brute_force_hardmax(model: LimitTransformer, N: int, p: int, rule: str = "inclusive") -> bool:
    """Every string of length N (|alphabet|^N of them) evaluated: is each flushed softmax a hardmax?
    The reference the slot analysis is tested against (small N only)."""
    return all(evaluate(model, x, p, rule=rule).hardmax for x in product(model.alphabet, repeat=N))


__all__ = ["VARIANTS", "PAIRS", "attention_entry", "logit_set", "gamma", "realized_gap", "hardmax_onset",
           "stable_length", "brute_force_hardmax", "Gap", "Onset"]
