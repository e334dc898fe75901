"""Induction-head programs (eq. 10; App. C.2.1 argmax, C.2.2 support) checked against bigram statistics
computed directly, without C-RASP, at every position of every string up to a length."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ..language.ir import Program
from ..semantics.interp import evaluate
from ..semantics.vector import all_strings, evaluate_batch
from ..tasks.tasks import next_name


def bigram_sets(w: Sequence[int], k: int, mode: str) -> list[frozenset[int]]:
    """Ground truth at positions 1..n: c_t(i) = #{j : 2 <= j <= i, w_{j-1} = w_i, w_j = t} (j = i included;
    position 1 has no predecessor, the SOS is no symbol). ``support``: {t : c_t >= 1}; ``argmax``: {t}
    when c_t is strictly largest, else {} (ties and the empty denominator give no prediction)."""
    out = []
    for i in range(1, len(w) + 1):
        c = [0] * k
        for j in range(2, i + 1):
            if w[j - 2] == w[i - 1]:
                c[w[j - 1]] += 1
        if mode == "support":
            out.append(frozenset(t for t in range(k) if c[t] >= 1))
        else:
            top = max(c)
            out.append(frozenset(t for t in range(k) if c[t] == top) if top and c.count(top) == 1
                       else frozenset())
    return out


@dataclass(frozen=True)
class HeadCheck:
    """Result of :func:`check_induction_head`."""

    program: Program
    mode: str
    max_len: int
    strings: int
    failure: str | None
    interpreters_agree: bool
    seconds: float

    @property
    def holds(self) -> bool:
        """Every position of every string agrees and both interpreters agree."""
        return self.failure is None and self.interpreters_agree


def check_induction_head(program: Program, mode: str, max_len: int = 8, cross_check: int = 50) -> HeadCheck:
    """At every position of every string over the program's alphabet of length <= max_len, the set
    {t : next_t} equals the bigram ground truth (:func:`bigram_sets`); first failure shortest, least."""
    if mode not in ("support", "argmax"):
        raise InputError("mode", "'support' or 'argmax'", mode)
    t0 = time.perf_counter()
    k = len(program.alphabet)
    names = [next_name(s) for s in program.alphabet]
    for name in names:
        if name not in {op.name for op in program.ops}:
            raise InputError(f"program statement {name}", f"a Boolean statement '{name} := ...'",
                             "no such statement")
    X = all_strings(k, max_len)
    v = evaluate_batch(program, X)
    P = np.stack([v[name] for name in names], axis=2)  # (B, n + 1, k)
    failure = None
    best: tuple[int, tuple[int, ...]] | None = None
    for r, w in enumerate(X.tolist()):
        truth = bigram_sets(w, k, mode)
        for i, want in enumerate(truth, start=1):
            got = frozenset(np.flatnonzero(P[r, i]).tolist())
            if got != want:
                key = (i, tuple(w[:i]))
                if best is None or key < best[0:2]:
                    best = key
                    failure = (f"'{''.join(program.alphabet[s] for s in w[:i])}' at position {i}: predicts "
                               f"{sorted(program.alphabet[s] for s in got)}, bigram truth "
                               f"{sorted(program.alphabet[s] for s in want)}")
                break
    agree = True
    step = max(1, len(X) // cross_check)
    for r in range(0, len(X), step):
        ref = evaluate(program, [program.alphabet[s] for s in X[r]])
        agree &= all(list(map(bool, ref[name])) == P[r, :, j].tolist() for j, name in enumerate(names))
    return HeadCheck(program, mode, max_len, sum(k**m for m in range(max_len + 1)), failure, agree,
                     time.perf_counter() - t0)
