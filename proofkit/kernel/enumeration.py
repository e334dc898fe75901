"""Enumeration certificates: a failure probability of a generator re-derived by enumerating every
continuation, under a work cap.

Model ``uniform-attention-head`` (Richard 2024, eq. (1) with Q = 0, V = v I, tied unembedding, d = 1):
tokens '(' and ')' with embeddings E = [e_open, e_close]; positional embeddings B built from a word s by
eq. (4) with the embedding E_B: B_1 = -E_B[s_1] + gamma E_B[s_2], B_i = -E_B[s_i] + gamma (E_B[s_(i+1)] -
E_B[s_i]) for i >= 2, E_B[s_(n+1)] := 0. At a context z of length r, with x_i = E[z_i] + B_i, the logit of
token k is v (1/r) sum_(i<=r) x_i E[k], and the next token is drawn from their softmax.
``softmax-attention-head`` (the R24 drop of uniform attention): the mean replaced by the causal softmax
average sum_i w_i x_i / sum_i w_i with w_i = e^(q x_r x_i).

The certificate: from the prefix, the probability that the completed length-2N word misses the target
(``dyck``: the bounded Dyck language D_2N; ``word``: the word s itself) is at least ``fail_lower``, which
exceeds the theorem's bound 2N e^-N. The kernel enumerates all 2^(2N - r) continuations, multiplies
their next-token probabilities in balls, sums those that miss the target, and computes 2N e^-N itself.

Data: model, e (the two token embeddings), e_b (the embeddings B was built from), word, gamma, v, N,
prefix, target, fail_lower, and q for the softmax head.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import flint

from .core import (
    NotRechecked,
    Reject,
    ball,
    fields,
    figure,
    integer,
    lower_bound,
    number,
    precision,
    upper_bound,
)

#: most next-token probabilities the kernel evaluates for one certificate (2^(2N - r) x (2N - r))
MAX_STEPS = 1 << 22
TOKENS = "()"


def _word(value: Any, field: str, max_len: int) -> tuple[int, ...]:
    if not isinstance(value, str) or not value or len(value) > max_len or set(value) - set(TOKENS):
        raise Reject(field, f"expected a non-empty word of '(' and ')' of at most {max_len} tokens")
    return tuple(TOKENS.index(c) for c in value)


def dyck(word: tuple[int, ...]) -> bool:
    """Balanced: no prefix closes more than it opens, and the word closes all it opens."""
    h = 0
    for k in word:
        h += 1 if k == 0 else -1
        if h < 0:
            return False
    return h == 0


def positional(e_b: list[Fraction], s: tuple[int, ...], gamma: Fraction) -> list[Fraction]:
    """B of eq. (4) from the word s (1-D embeddings), E_B[s_(n+1)] := 0."""
    n = len(s)

    def e(i: int) -> Fraction:  # E_B[s_i], 1-based
        return e_b[s[i - 1]] if i <= n else Fraction(0)

    return [-e(1) + gamma * e(2)] + [-e(i) + gamma * (e(i + 1) - e(i)) for i in range(2, n + 1)]


def check_enumeration(data: Any) -> str:
    """Re-derive an enumeration certificate's failure probability; the figures, or Reject / NotRechecked."""
    d = fields(data, "data", ["kind", "model", "e", "e_b", "word", "gamma", "v", "N", "prefix", "target",
                              "fail_lower"], ["q"])
    if d["model"] not in ("uniform-attention-head", "softmax-attention-head"):
        raise NotRechecked(f"no evaluator for the model {str(d['model'])[:60]!r}")
    q = number(d["q"], "data.q") if d["model"] == "softmax-attention-head" else None
    N = integer(d["N"], "data.N", 1, 16)
    e = [number(v, f"data.e[{i}]") for i, v in enumerate(d["e"])] if isinstance(d["e"], list) else []
    e_b = [number(v, f"data.e_b[{i}]") for i, v in enumerate(d["e_b"])] if isinstance(d["e_b"], list) else []
    if len(e) != 2 or len(e_b) != 2:
        raise Reject("data.e", "expected two token embeddings each for e and e_b")
    s, z = _word(d["word"], "data.word", 2 * N), _word(d["prefix"], "data.prefix", 2 * N - 1)
    if len(s) != 2 * N:
        raise Reject("data.word", f"a word of length 2N = {2 * N}")
    gamma, v = number(d["gamma"], "data.gamma"), number(d["v"], "data.v")
    if d["target"] not in ("dyck", "word"):
        raise Reject("data.target", "expected 'dyck' or 'word'")
    rest, heights = 2 * N - len(z), [sum(1 if k == 0 else -1 for k in z[:i + 1]) for i in range(len(z))]
    if min(heights) < 0 or heights[-1] > rest:  # the theorem speaks of completable prefixes only
        raise Reject("data.prefix", f"{d['prefix']} cannot be completed into a word of D_{2 * N}")
    if d["target"] == "word" and s[:len(z)] != z:
        raise Reject("data.prefix", f"{d['prefix']} is not a prefix of the word {d['word']}")
    if 2 ** rest * rest > MAX_STEPS:
        raise NotRechecked(f"{2 ** rest} continuations, over the kernel's work cap of {MAX_STEPS} steps")
    B = positional(e_b, s, gamma)
    claimed = number(d["fail_lower"], "data.fail_lower")
    with precision(60):
        cache: dict[tuple[int, ...], tuple[Any, Any]] = {}

        def law(ctx: tuple[int, ...]) -> tuple[Any, Any]:
            """P('('), P(')') after the context (exact logits, then balls)."""
            if ctx not in cache:
                xs = [e[k] + B[i] for i, k in enumerate(ctx)]
                if q is None:  # uniform attention: the mean of the context vectors
                    pooled = ball(sum(xs, Fraction(0)) / len(xs))
                else:  # causal softmax attention, weights e^(q x_r x_i)
                    ws = [ball(q * xs[-1] * x).exp() for x in xs]
                    total = sum(ws, flint.arb(0))
                    pooled = sum((w * ball(x) for w, x in zip(ws, xs)), flint.arb(0)) / total
                # P('(') = 1 / (1 + e^w), w = logit ')' - logit '('
                w = (ball(v) * pooled * ball(e[1] - e[0])).exp()
                cache[ctx] = (1 / (1 + w), w / (1 + w))
            return cache[ctx]

        fail = flint.arb(0)
        for tail in itertools.product((0, 1), repeat=rest):
            word = z + tail
            if (dyck(word) if d["target"] == "dyck" else word == s):
                continue
            p = flint.arb(1)
            for r in range(len(z), 2 * N):
                p *= law(word[:r])[word[r]]
            fail += p
        bound = 2 * N * flint.arb(-N).exp()
    got = lower_bound(fail)
    if got < claimed:
        raise Reject("data.fail_lower", f"the failure probability is {figure(fail)}, below the certificate's "
                                        f"{figure(claimed)}")
    if claimed <= upper_bound(bound):
        raise Reject("data.fail_lower", f"{figure(claimed)} does not exceed 2N e^-N = {figure(bound)}")
    return (f"{2 ** rest} continuations of the length-{len(z)} prefix enumerated: P(miss {d['target']}) = "
            f"{figure(fail)} >= {figure(claimed)} > 2N e^-N = {figure(bound)} (N = {N})")


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """An enumeration certificate is about its witness record: N, the word and the prefix are the
    witness's own, and so is gamma where the witness varies it (variant "gamma"; the other variants keep
    the theorem's gamma = -1/2) or v gamma where the witness states it."""
    w = rec.get("witness", {})
    if rec.get("kind") != "witness" or data.get("kind") != "enumeration":
        raise Reject("certificate.data", "an enumeration certificate belongs to a witness record")
    if str(data["N"]) != w.get("N"):
        raise Reject("certificate.data.N", f"{data['N']}, the witness says N = {w.get('N')}")
    for key, wkey in (("word", "s"), ("prefix", "prefix")):
        if wkey in w and w[wkey] != data[key]:
            raise Reject(f"certificate.data.{key}", f"{data[key]}, the witness says {w[wkey]}")
    if "v_gamma" in w:
        vg = number(data["v"], "data.v") * number(data["gamma"], "data.gamma")
        if vg != number(w["v_gamma"], "witness.v_gamma"):
            raise Reject("certificate.data.v", f"v gamma differs from the witness's {w['v_gamma']}")
    elif w.get("variant") == "gamma" and number(data["gamma"], "data.gamma") != number(w.get("gamma"),
                                                                                         "witness.gamma"):
        raise Reject("certificate.data.gamma", f"{data['gamma']}, the witness says {w.get('gamma')}")
