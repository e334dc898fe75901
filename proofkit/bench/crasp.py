"""Row 4: the vectorized C-RASP interpreter against the reference interpreter and a hand-vectorized floor.

On every prefix of all 2^n binary strings of length n (all strings of length <= n), for MAJORITY, DYCK-1 and
Tomita 4 (Huang et al. 2024, Thm 10 and Table 2): the vectorized interpreter
(:func:`proofkit.crasp.semantics.vector.accepts_prefixes`, numpy), the reference interpreter
(:func:`proofkit.crasp.semantics.interp.evaluate`, one string at a time, timed on a seeded sample and
extrapolated to 2^n strings), and a floor written by hand for each language in numpy (a running sum; a running
sum and a running OR; a running OR of a local pattern), row by row over cache-sized chunks of strings as the
interpreter works, producing the same (2^n, n + 1) acceptance array. The floor's output must equal the
interpreter's on every string (else the benchmark stops with the first string that differs). The input array
is built once, outside the timings.

The memory-bandwidth bound is the time to move the least data the task needs: one byte per symbol in
(the narrowest type) and one byte per prefix verdict out, 2^n (2n + 1) bytes, at the copy bandwidth
measured in the same run (``numpy.copyto`` of a 256 MiB array, read plus write bytes over the median
time). The interpreter's ratio to it (goal <= 2x) says how far the evaluation is from streaming its
input once. Why it is far: the interpreter runs one numpy pass per op of the program over the whole
(n + 1) x B chunk (a symbol test, a cumulative count, a comparison, ...), each reading and writing
its operands in their own arrays, plus the transposes in and out of the position-major layout; a program
of p ops moves several times p bytes per cell. Reaching the bound needs one fused pass per string
(a compiled kernel), which numpy cannot express; the hand-vectorized floor, with the same pass
structure, is the fair software baseline.

The programs are the files of ``theorems/hyb24/programs`` (``majority``, ``dyck1``, ``tomita4``), held
here as text so that ``proofkit bench`` runs from an installed package.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..crasp import Program, all_strings, parse
from ..crasp.semantics.interp import evaluate
from ..crasp.semantics.vector import CHUNK_CELLS, accepts_prefixes
from .common import SEED, Figure, Ratio, Section, progress, timed

PROGRAMS: dict[str, str] = {
    "MAJORITY": "alphabet: a b\nM := #Q(b) <= #Q(a)\n",
    "DYCK-1": ("alphabet: '(' ')'\nV := #Q('(') < #Q(')')\n"
               "D := #V == 0 and #Q('(') == #Q(')')\n"),
    "Tomita 4": ("alphabet: 0 1\ntri := Q(0) and #[1] Q(0) >= 1 and #[2] Q(0) >= 1\n"
                 "T := #tri == 0\n"),
}


def program(name: str) -> Program:
    """A benchmark program parsed from its text (data: parsed, never executed)."""
    return parse(PROGRAMS[name])


def _chunked(X: np.ndarray, kernel: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The (B, n + 1) acceptance array from a kernel mapping position-major int8 strings (n, b) to the
    acceptance of prefixes 1..n (n, b), over chunks of CHUNK_CELLS cells (the interpreter's chunking:
    arrays stay in cache). The empty prefix is accepted by all three languages."""
    B, n = X.shape
    out = np.empty((B, n + 1), dtype=bool)
    out[:, 0] = True
    step = max(1, CHUNK_CELLS // (n + 1))
    for start in range(0, B, step):
        P = np.ascontiguousarray(X[start : start + step].T).astype(np.int8, copy=False)
        out[start : start + step, 1:] = kernel(P).T
    return out


def _running_sum(D: np.ndarray) -> np.ndarray:
    """Cumulative sum down the positions, in place, one row at a time (for wide rows a loop over the
    rows beats cumsum along axis 0 several-fold)."""
    for i in range(1, D.shape[0]):
        D[i] += D[i - 1]
    return D


def _running_or(M: np.ndarray) -> np.ndarray:
    for i in range(1, M.shape[0]):
        M[i] |= M[i - 1]
    return M


def _balance(P: np.ndarray) -> np.ndarray:
    """#first symbol - #second symbol at every prefix (int16: |balance| <= n)."""
    return _running_sum((1 - 2 * P).astype(np.int16))


def floor_majority(X: np.ndarray) -> np.ndarray:
    """#b <= #a at every prefix: the running balance of a over b is >= 0."""
    return _chunked(X, lambda P: _balance(P) >= 0)


def floor_dyck1(X: np.ndarray) -> np.ndarray:
    """Depth +1 per '(', -1 per ')': a prefix is balanced when its depth is 0 and no earlier depth went
    below 0 (a running sum and a running OR)."""
    def kernel(P: np.ndarray) -> np.ndarray:
        depth = _balance(P)
        return (depth == 0) & ~_running_or(depth < 0)
    return _chunked(X, kernel)


def floor_tomita4(X: np.ndarray) -> np.ndarray:
    """No "000" within the prefix: a running OR of the positions that end three zeros."""
    def kernel(P: np.ndarray) -> np.ndarray:
        Z = P == 0
        tri = np.zeros_like(Z)
        tri[2:] = Z[2:] & Z[1:-1] & Z[:-2]
        return ~_running_or(tri)
    return _chunked(X, kernel)


FLOORS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "MAJORITY": floor_majority, "DYCK-1": floor_dyck1, "Tomita 4": floor_tomita4}


def copy_bandwidth(repeats: int, nbytes: int = 1 << 28) -> float:
    """Bytes per second moved (read + write) by ``numpy.copyto`` of an ``nbytes`` array, median time."""
    src = np.ones(nbytes, dtype=np.uint8)
    dst = np.empty_like(src)
    np.copyto(dst, src)  # first touch of the pages outside the timing
    seconds, _ = timed(lambda: np.copyto(dst, src), max(3, repeats))
    return 2 * nbytes / seconds


def reference_seconds(prog: Program, n: int, samples: int) -> float:
    """Reference interpreter seconds per string of length n, on ``samples`` seeded strings."""
    rng = np.random.default_rng(SEED)
    words = [[prog.alphabet[i] for i in row] for row in rng.integers(0, 2, (samples, n))]
    t0 = time.perf_counter()
    for w in words:
        evaluate(prog, w)
    return (time.perf_counter() - t0) / samples


def compare(name: str, n: int, samples: int, repeats: int, X: np.ndarray | None = None) -> dict[str, Any]:
    """Vectorized, reference (extrapolated) and floor seconds for one program on all 2^n strings."""
    prog = program(name)
    X = all_strings(2, n) if X is None else X
    accepts_prefixes(prog, X[:1024])  # warm-up (imports, caches) outside the timings
    floor = FLOORS[name]
    t_vec, got = timed(lambda: accepts_prefixes(prog, X), repeats)
    t_floor, want = timed(lambda: floor(X), repeats)
    if not np.array_equal(got, want):
        bad = int(np.argwhere(np.any(got != want, axis=1))[0, 0])
        raise AssertionError(f"{name}: the hand-vectorized floor disagrees with the interpreter on string "
                             f"{bad} of length {n}")
    per = reference_seconds(prog, n, samples)
    return {"strings": int(X.shape[0]), "prefixes": int(got.size), "accepted_prefixes": int(got.sum()),
            "vectorized_s": t_vec, "floor_s": t_floor, "reference_s_per_string": per,
            "reference_s_extrapolated": per * X.shape[0], "reference_samples": samples,
            "floor_equals_interpreter": True}


def bench(settings: Any) -> Section:
    """Row 4 at length ``settings.interp_length``."""
    n = settings.interp_length
    progress("crasp: copy bandwidth")
    bandwidth = copy_bandwidth(settings.repeats)
    sec = Section("crasp", details={"n": n, "copy_bandwidth_gb_s": bandwidth / 1e9})
    X = all_strings(2, n)  # shared by every program: built once, outside the timings
    bound_s = X.shape[0] * (2 * n + 1) / bandwidth
    for name in PROGRAMS:
        progress(f"crasp {name}: all 2^{n} strings")
        d = compare(name, n, settings.reference_samples, settings.repeats, X)
        sec.details[name] = d
        vec = Figure("vectorized interpreter", d["vectorized_s"], "s")
        ref = Figure("reference interpreter", d["reference_s_extrapolated"], "s",
                     note=f"extrapolated from {d['reference_samples']} strings")
        floor = Figure("hand-vectorized numpy", d["floor_s"], "s")
        inst = f"{name}, every prefix of 2^{n} strings"
        sec.ratios.append(Ratio(4, "vectorized vs reference interpreter", inst, vec, ref,
                                "reference / vectorized (speed-up)", goal=">= 100x",
                                goal_met=d["reference_s_extrapolated"] >= 100 * d["vectorized_s"]))
        sec.ratios.append(Ratio(4, "vectorized interpreter vs hand-vectorized floor", inst, floor, vec,
                                "interpreter / floor (overhead)"))
        bound = Figure("memory-bandwidth bound", bound_s, "s",
                       note=f"{X.shape[0] * (2 * n + 1) / 1e6:.1f} MB at {bandwidth / 1e9:.1f} GB/s")
        sec.ratios.append(Ratio(4, "vectorized interpreter vs memory-bandwidth bound", inst, bound, vec,
                                "interpreter / bound", goal="<= 2x",
                                goal_met=d["vectorized_s"] <= 2 * bound_s))
    return sec
