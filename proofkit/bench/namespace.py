"""Row 3: numpy against CuPy on the batched float64 and integer work that runs through the array namespace.

Forward passes: the true models of AM24.T1 (deep sets) and AM24.T4 (a linear recurrence) at their longest
training length T, on S sequences drawn (seeded) from the theorem's training support on the host, in
memory-bounded batches (:func:`proofkit.numerics.arrays.batches`); each backend computes the logits of every
batch (``family.logits(theta, X, arrays.float64_ops(xp))``) and their sum, which makes the device finish and
lets the two backends be compared. The timings exclude drawing the samples and, for CuPy, moving them to the
device (reported on its own).

Support screen: :func:`proofkit.engine.screen.screen` of AM24.T1 (a seeded random deep-sets learner h against
the true f, the compositional suite: S / T sequences at each length 1..T), end to end as a check runs
it: drawing the tokens on the host, moving them, both forward passes and the relative gaps.

Exhaustive C-RASP: DYCK-1 on every prefix of all 2^n binary strings
(:func:`proofkit.crasp.semantics.vector.accepts_prefixes`), enumerated in the namespace in blocks of 2^20
strings that share one suffix block; the count of accepted prefixes is checked against the closed form sum_i
Catalan(i/2) 2^(n - i) on both backends.

Without CuPy or a device the CuPy figure is "not available" with the reason
:func:`proofkit.numerics.arrays.namespace` gives, and the numpy figures are still measured.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ..crasp.semantics.vector import accepts_prefixes, all_strings
from ..errors import InputError
from ..numerics import arrays
from .common import SEED, Figure, Ratio, Section, progress
from .crasp import program

BACKENDS = ("numpy", "cupy")
FAMILIES = ("AM24.T1", "AM24.T4")
SCREENED = "AM24.T1"  # the support screen's theorem
EXHAUSTIVE_PROGRAM = "DYCK-1"
BLOCK_BITS = 20  # strings per enumeration block: 2^20


def available() -> dict[str, Any]:
    """Namespace per backend, or the reason it is not available (a string)."""
    out: dict[str, Any] = {}
    for name in BACKENDS:
        try:
            out[name] = arrays.namespace(name)
        except InputError as exc:
            out[name] = f"not available: {exc}"
    return out


def _sync(value: Any) -> np.ndarray:
    """``value`` copied to the host (a 0-d array for a scalar): waits for the device to finish."""
    return np.asarray(arrays.to_numpy(value))


def _failed(exc: Exception) -> str:
    """How a device backend failed (e.g. code that is not yet namespace-clean), for its table cell."""
    return f"failed: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"


def forward(theorem_id: str, samples: int, spaces: dict[str, Any]) -> dict[str, Any]:
    """Seconds per backend for the true model's logits on ``samples`` training-support sequences. numpy
    errors propagate; a device backend that raises is reported as failed and the run goes on."""
    from .fit import make_problem

    prob = make_problem(theorem_id)
    fam, L = prob.true, prob.T
    theta_host = prob.true_theta(arrays.float64_ops(np))
    row_elems = L * max(fam.n, getattr(fam, "width", 1), getattr(fam, "k", 1))
    live = {k: xp for k, xp in spaces.items() if not isinstance(xp, str)}
    out: dict[str, Any] = {"family": fam.name, "length": L, "samples": samples,
                           **{k: v for k, v in spaces.items() if k not in live}}
    figures = {k: {"seconds": 0.0, "transfer_s": 0.0, "logit_sum": 0.0} for k in live}
    rng = np.random.default_rng(SEED)
    for sl in arrays.batches(samples, row_elems):
        X_host = prob.support.sample(rng, sl.stop - sl.start, L)
        for k, xp in list(live.items()):
            f = figures[k]
            try:
                theta, ops = arrays.asarray(theta_host, xp), arrays.float64_ops(xp)
                t0 = time.perf_counter()
                X = arrays.asarray(X_host, xp)
                _sync(X[0, 0, 0])
                f["transfer_s"] += time.perf_counter() - t0
                t0 = time.perf_counter()
                f["logit_sum"] += float(_sync(xp.sum(fam.logits(theta, X, ops))))
                f["seconds"] += time.perf_counter() - t0
            except Exception as exc:  # the device side only: numpy's own errors are bugs, raised
                if k == "numpy":
                    raise
                out[k] = _failed(exc)
                del live[k]
    return {**out, **{k: figures[k] for k in live}}


def support_screen(theorem_id: str, samples: int, spaces: dict[str, Any]) -> dict[str, Any]:
    """Seconds per backend for :func:`proofkit.engine.screen.screen` of a seeded random learner against the
    true
    model on the compositional suite (lengths 1..T, ``samples // T`` sequences each), end to end: host
    sampling and transfers included, as a check pays them."""
    from ..engine.screen import screen
    from .fit import make_problem

    prob = make_problem(theorem_id)
    theta = prob.learned.init(np.random.default_rng(SEED))
    per_length = max(1, samples // prob.T)
    out: dict[str, Any] = {"family": prob.learned.name, "lengths": prob.T, "samples": per_length * prob.T}
    for k, xp in spaces.items():
        if isinstance(xp, str):
            out[k] = xp
            continue
        try:
            t0 = time.perf_counter()
            res = screen(prob, theta, "compositional", per_length, xp=xp)
            out[k] = {"seconds": time.perf_counter() - t0, "max_gap": res.max_gap}
        except Exception as exc:  # the device side only, as in forward()
            if k == "numpy":
                raise
            out[k] = _failed(exc)
    return out


def dyck1_accepted(n: int) -> int:
    """Accepted prefixes of DYCK-1 over all 2^n strings, each prefix of length i counted once per string:
    sum over even i of Catalan(i/2) 2^(n - i) (the empty prefix included)."""
    return sum(math.comb(i, i // 2) // (i // 2 + 1) * 2 ** (n - i) for i in range(0, n + 1, 2))


def exhaustive(n: int, xp: Any) -> tuple[float, int]:
    """Seconds and accepted-prefix count of DYCK-1 on every prefix of all 2^n strings in ``xp``."""
    prog = program(EXHAUSTIVE_PROGRAM)
    s = min(n, BLOCK_BITS)
    k = n - s
    t0 = time.perf_counter()
    P = xp.empty((n, 2**s), dtype=xp.int8)  # position-major block: k prefix rows, then all suffixes
    P[k:] = xp.astype(all_strings(2, s, xp).T, xp.int8)
    total = 0
    for c in range(2**k):
        for j in range(k):
            P[j] = (c >> (k - 1 - j)) & 1
        total += int(_sync(xp.sum(xp.astype(accepts_prefixes(prog, P.T, xp), xp.int64))))
    return time.perf_counter() - t0, total


def _exhaustive_entry(name: str, n: int, xp: Any, want: int) -> dict[str, Any] | str:
    """Seconds and count on one backend; a wrong count stops the benchmark, a device failure is
    reported."""
    try:
        secs, got = exhaustive(n, xp)
    except Exception as exc:  # the device side only, as in forward()
        if name == "numpy":
            raise
        return _failed(exc)
    if got != want:
        raise AssertionError(f"{EXHAUSTIVE_PROGRAM} on {name}: {got} accepted prefixes at n = {n}, expected "
                             f"{want}")
    return {"seconds": secs, "accepted": got}


def _speedup(row: int, comparison: str, instance: str, numpy_s: float, cupy: Any,
             goal: str = "") -> Ratio:
    """numpy / CuPy seconds; the CuPy figure carries its reason when it is not available."""
    a = (Figure("CuPy", None, "s", note=cupy) if isinstance(cupy, str)
         else Figure("CuPy", cupy, "s"))
    r = Ratio(row, comparison, instance, a, Figure("numpy", numpy_s, "s"), "numpy / CuPy (speed-up)",
              goal=goal)
    value, _ = r.ratio()
    r.goal_met = None if not goal or value is None else value >= 20
    return r


def bench(settings: Any) -> Section:
    """Row 3: forward passes at ``settings.support_samples`` and DYCK-1 at ``settings.exhaustive_lengths``."""
    spaces = available()
    device = arrays.device_name("cupy") if not isinstance(spaces["cupy"], str) else spaces["cupy"]
    sec = Section("namespace", details={"device": device, "forward": [], "screen": [], "exhaustive": []})
    top = max(settings.support_samples)
    try:
        for tid in FAMILIES:
            for S in settings.support_samples:
                progress(f"namespace {tid}: forward pass on {S:.0e} samples")
                d = forward(tid, S, spaces)
                sec.details["forward"].append({"theorem": tid, **d})
                cupy = d["cupy"] if isinstance(d["cupy"], str) else d["cupy"]["seconds"]
                sec.ratios.append(_speedup(3, f"forward pass, {d['family']} (length {d['length']})",
                                           f"{tid}, {S:.0e} samples", d["numpy"]["seconds"], cupy,
                                           ">= 20x" if S == top and S >= 10**7 else ""))
        for S in settings.support_samples:
            progress(f"namespace {SCREENED}: support screen on {S:.0e} samples")
            d = support_screen(SCREENED, S, spaces)
            sec.details["screen"].append({"theorem": SCREENED, **d})
            cupy = d["cupy"] if isinstance(d["cupy"], str) else d["cupy"]["seconds"]
            sec.ratios.append(_speedup(3, f"support screen, {d['family']} h vs f (lengths 1..{d['lengths']})",
                                       f"{SCREENED}, {S:.0e} samples", d["numpy"]["seconds"], cupy))
    except InputError as exc:  # no theorem files (an installed package): the C-RASP part still runs
        sec.details["forward_skipped"] = str(exc)
        progress(f"namespace: forward passes not run: {exc}")
    for n in settings.exhaustive_lengths:
        progress(f"namespace {EXHAUSTIVE_PROGRAM}: every prefix of all 2^{n} strings")
        want = dyck1_accepted(n)
        entry: dict[str, Any] = {"program": EXHAUSTIVE_PROGRAM, "n": n, "accepted_expected": want}
        for name, xp in spaces.items():
            entry[name] = xp if isinstance(xp, str) else _exhaustive_entry(name, n, xp, want)
        sec.details["exhaustive"].append(entry)
        cupy = entry["cupy"] if isinstance(entry["cupy"], str) else entry["cupy"]["seconds"]
        sec.ratios.append(_speedup(3, "exhaustive C-RASP evaluation", f"{EXHAUSTIVE_PROGRAM}, every prefix "
                                   f"of 2^{n} strings", entry["numpy"]["seconds"], cupy))
    return sec
