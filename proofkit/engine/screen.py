"""Batched float64 support screen: many more test sequences than the high-precision suite can afford.

The generalization checks (:mod:`proofkit.engine.generalization`) compare h and f at 60+ digits on a few dozen
sequences per length; a learner that differs from f only in a small region of the token box is missed by them
with good probability. The screen draws ``samples`` sequences per test length from the same distribution as
those suites (:func:`proofkit.engine.generalization.test_sequences`: TS-L lengths beyond T with tokens on [0,
test_scale], or TS-C lengths 1..T with product tokens; Ahuja & Mansouri 2024, Definitions 1 and 2), evaluates
both models in float64 in the array namespace of :mod:`proofkit.numerics.arrays` (numpy, or CuPy on a GPU) in
memory-bounded batches, and keeps the ``keep`` sequences with the largest non-zero relative gap |h - f| /
max(1, |f|) at each length (where h and f agree to the last bit on every sample, the screen saw nothing and
hands nothing on).

A float64 gap is evidence of nothing by itself (cancellation, saturation and rounding make gaps of
1e-16 .. 1e-5 appear where h = f exactly, and can hide smaller real ones): the worst sequences join the
high-precision suite, where the gap is decided again. What the screen alone supports is the word
"screened", never a verdict.

Randomness: tokens are drawn on the host from a numpy Generator derived from the problem seed and the suite
kind (:func:`screen_rng`), never from global state or the check's own stream, so a screen leaves every other
random choice of a check as it was. Rows are drawn batch after batch from one stream, so the sample does not
depend on the batch size, and the result does not depend on the namespace beyond float64 rounding.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import mpmath as mp
import numpy as np

from ..errors import InputError, one_of
from ..families import Family
from ..numerics import activation as act
from ..numerics import arrays
from ..numerics.backend import MP, to_float
from .problem import Problem
from .support import test_lengths

#: sequences screened per test length by default: 0.05-0.45 s of float64 work per TS-L suite of the AM24
#: checks on one CPU core (lengths up to 1000), a small share of their 60-digit comparisons
SAMPLES = 2000
#: worst sequences per length handed to the high-precision suite (each at length 1000 costs about as
#: much there as screening a thousand in float64)
KEEP = 1
#: elements of one batch array (float64): bounds memory whatever the sample size and length
BUDGET = 2**22
#: the suite kinds and the tag of the screen's random stream (so it is independent of the check's)
KINDS = ("length", "compositional")
STREAM = 0x5C12EE


@dataclass(frozen=True)
class LengthScreen:
    """The screen at one length: sequences screened, the largest relative gap among them, and up to
    ``keep`` worst sequences with a non-zero gap (host numpy, worst first) with their gaps (NaN or
    overflow counts as inf)."""

    length: int
    samples: int
    max_gap: float
    worst: np.ndarray  # (K, length, n)
    gaps: np.ndarray  # (K,)


@dataclass(frozen=True)
class ScreenResult:
    """A float64 screen of one test suite kind, per length in the suite's order."""

    kind: str
    per_length: tuple[LengthScreen, ...]
    device: str
    compared: str  # "logits" (injective readout) or "outputs"

    @property
    def samples(self) -> int:
        """Sequences screened per length."""
        return self.per_length[0].samples if self.per_length else 0

    @property
    def max_gap(self) -> float:
        return max((s.max_gap for s in self.per_length), default=0.0)

    def worst_sequences(self) -> list[np.ndarray]:
        """The worst sequences of each length (for the high-precision suite, same order of lengths;
        none at a length where every gap was 0)."""
        return [s.worst for s in self.per_length]

    def words(self) -> str:
        """What was screened, where, and the largest float64 gap: the screen's whole claim."""
        return (f"float64 screen of {self.samples} sequences per length on {self.device}: max relative "
                f"gap {self.max_gap:.3g} ({self.compared}), screened only")


def screen_rng(p: Problem, kind: str) -> np.random.Generator:
    """The screen's Generator: from the problem seed and the suite kind alone."""
    return np.random.default_rng([p.seed, STREAM, KINDS.index(kind)])


def screen(p: Problem, theta: Any, kind: str = "length", samples: int = SAMPLES,
           rng: np.random.Generator | None = None, xp: Any = None, keep: int = KEEP,
           budget: int = BUDGET) -> ScreenResult:
    """Screen h (parameters ``theta``: mpmath, arb, exact or float values) against f on ``samples``
    sequences per length of the ``kind`` suite, in float64 in namespace ``xp`` (default: the selected
    backend, :func:`proofkit.numerics.arrays.namespace`). ``rng`` defaults to :func:`screen_rng`."""
    if kind not in KINDS:
        raise one_of("kind", KINDS, kind)
    if int(samples) < 0 or int(keep) < 0:
        raise InputError("samples", "non-negative sample and keep counts", (samples, keep))
    xp = arrays.namespace() if xp is None else xp
    rng = screen_rng(p, kind) if rng is None else rng
    ops = arrays.float64_ops(xp)
    with mp.workdps(p.dps):
        th_f = to_float(p.true_theta(MP))
    th_h = arrays.asarray(to_float(np.asarray(theta, dtype=object)), xp, dtype=xp.float64)
    th_f = arrays.asarray(th_f, xp, dtype=xp.float64)
    lengths = test_lengths(p.T) if kind == "length" else list(range(1, p.T + 1))
    per = []
    for L in lengths:
        width = L * (2 * p.support.n + max(_width(p.learned), _width(p.true)) + 1)
        best_gap, best_seq, top = np.zeros(0), np.zeros((0, L, p.support.n)), 0.0
        for Xh, gap in _gaps(p, th_h, th_f, ops, xp, rng, L, int(samples), width, budget, kind):
            top = max(top, float(gap.max(initial=0.0)))
            best_gap, best_seq = _keep_worst(np.concatenate([best_gap, gap]),
                                             np.concatenate([best_seq, Xh]), keep)
        per.append(LengthScreen(L, int(samples), top, best_seq, best_gap))
    return ScreenResult(kind, tuple(per), arrays.device_name(_backend_name(xp)),
                        "logits" if p.injective else "outputs")


def _gaps(p: Problem, th_h: Any, th_f: Any, ops: Any, xp: Any, rng: np.random.Generator, L: int,
          samples: int, width: int, budget: int, kind: str) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(host sequences, host relative gaps) batch by batch at length L."""
    for part in arrays.batches(samples, width, budget):
        Xh = p.support.tokens(rng, (part.stop - part.start, L), beyond=kind == "length")
        X = arrays.asarray(Xh, xp, dtype=xp.float64)
        with np.errstate(all="ignore"):  # an unstable learner overflows: inf / NaN gaps, screened worst
            try:
                zh, zf = p.learned.logits(th_h, X, ops), p.true.logits(th_f, X, ops)
                if not p.injective:
                    zh, zf = act.apply(p.activation, zh, ops), act.apply(p.activation, zf, ops)
            except (AttributeError, TypeError) as exc:
                if arrays.is_numpy(xp):
                    raise
                # a family written for numpy only (a user's): say so instead of a traceback
                raise InputError("--backend", "families whose float64 forward pass uses the array API "
                                 f"({type(p.learned).__name__} / {type(p.true).__name__} raised "
                                 f"{type(exc).__name__}: {str(exc)[:80]}); use --backend numpy",
                                 _backend_name(xp)) from None
            gap = xp.max(xp.abs(zh - zf), axis=1) / xp.maximum(xp.max(xp.abs(zf), axis=1), 1.0)
        gap = np.asarray(arrays.to_numpy(gap), dtype=np.float64)  # (a numpy family may give object floats)
        yield Xh, np.where(np.isnan(gap), np.inf, gap)


def _keep_worst(gaps: np.ndarray, seqs: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``keep`` largest non-zero gaps and their sequences, ties in drawing order (deterministic)."""
    order = np.argsort(-gaps, kind="stable")[:keep]
    order = order[gaps[order] > 0]
    return gaps[order], seqs[order]


def _width(fam: Family) -> int:
    """Per-token intermediate width of a family's forward pass (hidden units, features, states): the
    memory bound of a batch counts this many float64 per token."""
    base = getattr(fam, "base", fam)
    return max(int(getattr(base, attr, 0) or 0) for attr in ("width", "F", "k", "m", "n"))


def _backend_name(xp: Any) -> str:
    """The :mod:`proofkit.numerics.arrays` backend name of a namespace."""
    import array_api_compat

    if array_api_compat.is_numpy_namespace(xp):
        return "numpy"
    if array_api_compat.is_array_api_strict_namespace(xp):
        return "array-api-strict"
    return "cupy"
