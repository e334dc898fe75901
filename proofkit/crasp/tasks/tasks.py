"""Algorithmic tasks of Huang et al. 2024 (Table 3, App. E.2.1) as exact next-token checks of C-RASP programs.

A :class:`Task` fixes an alphabet (input symbols plus the separator ``SEP`` and end marker ``EOS``), the
format ``SOS x SEP y EOS`` (SOS is the virtual position 0 of the interpreters, so it is no symbol), every
valid input x of a given length (exhaustive), a seeded sampler of long inputs, and the outputs y(x).

A task program is an ordinary C-RASP program (text, parsed by :func:`proofkit.crasp.parse`) over exactly
the task alphabet that defines one Boolean statement ``next_<symbol>`` per alphabet symbol (naming:
:func:`next_name`). At every position i whose next target symbol is an output (the SEP position predicts
y_1, ..., the last output predicts EOS) the set {s : next_s true at i} must equal {target_{i+1}}: the
paper's atomic next-token labels, argmax with a unique answer. Input positions are not checked (the
inputs are random). Batches run through the vectorized interpreter; a sample is re-run through the
scalar reference interpreter. Integers are exact throughout; the first failure reported is the
shortest, then lexicographically least (alphabet order) input.

The task programs themselves are generated as text in :mod:`proofkit.crasp.tasks.task_programs`; the
induction-head programs of App. C.2.1 / C.2.2 are checked in :mod:`proofkit.crasp.theory.induction` against
bigram statistics computed directly, without C-RASP.

Result texts never embed wall-clock times (they become verdict texts, which must be reproducible); the
``seconds`` fields hold them.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ..language import analysis
from ..language.ir import Program
from ..semantics.compare import all_strings as strings_range
from ..semantics.interp import evaluate
from ..semantics.vector import all_strings, evaluate_batch

SEP = "SEP"
EOS = "EOS"
CHUNK_CELLS = 2**24  # ops x strings x positions materialized per evaluate_batch call
BLOCK_ROWS = 2**16  # inputs of one length checked at a time (2**18 held 144 MB on HYB24.TAB3)
SHRINK_CELLS = 2**24  # candidate symbols (inputs x length) one shrink may run, a deterministic budget
_PLAIN = re.compile(r"[A-Za-z0-9_]+")


def next_name(symbol: str) -> str:
    """Name of the statement predicting ``symbol``: ``next_<symbol>`` for symbols made of letters,
    digits and ``_`` (``next_0``, ``next_SEP``), otherwise ``next_u`` + the code points in hex
    (``'#'`` -> ``next_u23``, ``'+='`` -> ``next_u2b_3d``)."""
    if _PLAIN.fullmatch(symbol):
        return "next_" + symbol
    return "next_u" + "_".join(f"{ord(c):x}" for c in symbol)


# ----------------------------------------------------------------------------------------------------
# Tasks


@dataclass(frozen=True)
class Task:
    """An algorithmic task: format ``SOS x SEP outputs(x) EOS`` over ``symbols + (SEP, EOS)``.

    ``inputs(n)``: every valid input of length n, an int array (B, n) of indices into ``symbols``, in
    lexicographic order; ``outputs(X)``: the output indices (into ``alphabet``), (B, m); ``sample(rng,
    n, count)``: ``count`` valid inputs of length about n (at least n when the task allows it);
    ``lengths(size)``: the input lengths up to ``size`` that have valid inputs; ``smaller(x)``: valid
    candidate inputs one step smaller than x (for shrinking sampled failures)."""

    name: str
    symbols: tuple[str, ...]
    format: str
    inputs: Callable[[int], np.ndarray]
    outputs: Callable[[np.ndarray], np.ndarray]
    sample: Callable[[np.random.Generator, int, int], np.ndarray]
    lengths: Callable[[int], Sequence[int]]
    smaller: Callable[[np.ndarray], list[np.ndarray]] = field(default=lambda x: _deletions(x))
    valid: Callable[[np.ndarray], np.ndarray] | None = None
    #: k when ``inputs(n)`` is every string of length n over k symbols kept by ``valid``: the check then
    #: streams them in blocks instead of holding all k^n at once (:func:`input_blocks`)
    universe: int | None = None

    @property
    def alphabet(self) -> tuple[str, ...]:
        """Input symbols, then SEP and EOS (the program's alphabet, in this order)."""
        return (*self.symbols, SEP, EOS)

    def targets(self, X: np.ndarray) -> np.ndarray:
        """Full target sequences x SEP y EOS as alphabet indices, (B, n + m + 2)."""
        X = np.asarray(X, dtype=np.int64).reshape(len(X), -1)
        B, k = X.shape[0], len(self.symbols)
        Y = np.asarray(self.outputs(X), dtype=np.int64).reshape(B, -1)
        return np.concatenate([X, np.full((B, 1), k), Y, np.full((B, 1), k + 1)], axis=1)

    def text(self, row: Sequence[int]) -> str:
        """One sequence of alphabet indices as space-separated symbols."""
        return " ".join(self.alphabet[int(i)] for i in row)


def _deletions(x: np.ndarray) -> list[np.ndarray]:
    return [np.delete(x, j) for j in range(len(x))]


def _filter(X: np.ndarray, keep: np.ndarray) -> np.ndarray:
    return X[np.asarray(keep, dtype=bool)]


def _counts(X: np.ndarray, k: int) -> np.ndarray:
    """Occurrences of each of the k symbols per row: (B, k)."""
    if not X.size:
        return np.zeros((len(X), k), dtype=np.int64)
    return np.stack([(X == s).sum(axis=1) for s in range(k)], axis=1)


def _unique_argmax(X: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(argmax symbol, whether the maximal count is attained by exactly one symbol) per row."""
    c = _counts(X, k)
    top = c.max(axis=1, keepdims=True)
    return c.argmax(axis=1), (c == top).sum(axis=1) == 1


def majority_task(k: int) -> Task:
    """Majority over k letters (k = 2: Binary Majority over bits 0/1): ``SOS x SEP y EOS``, y the unique
    most frequent symbol of x, |x| >= 1, inputs with a tie are not in the task."""
    if not 2 <= k <= 26:
        raise InputError("k", "a vocabulary size in [2, 26]", k)
    symbols = ("0", "1") if k == 2 else tuple("abcdefghijklmnopqrstuvwxyz"[:k])

    def valid(X: np.ndarray) -> np.ndarray:
        return _unique_argmax(X, k)[1]

    def inputs(n: int) -> np.ndarray:
        X = all_strings(k, n)
        return _filter(X, valid(X))

    def sample(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        out = np.empty((0, n), dtype=np.int64)
        while len(out) < count:  # rejection sampling: uniform over the valid inputs of length n
            X = rng.integers(0, k, size=(4 * count, n))
            out = np.concatenate([out, _filter(X, valid(X))])
        return out[:count]

    name = "Binary Majority" if k == 2 else f"Majority ({k} letters)"
    fmt = "SOS x SEP y EOS; x in " + ("{0,1}" if k == 2 else f"{{a..{symbols[-1]}}}") + \
          "^n, n >= 1, y the unique most frequent symbol of x (inputs with ties excluded)"
    return Task(name, symbols, fmt, inputs, lambda X: _unique_argmax(X, k)[0][:, None], sample,
                lambda size: range(1, size + 1), valid=valid, universe=k)


def interleave_task(streams: int = 3) -> Task:
    """Binary Majority Interleave: streams s_1..s_r of one length m interleaved position by position
    (s_1[1] s_2[1] ... s_r[1] s_1[2] ...), outputs the r majority bits; no stream has a tie."""
    r = streams
    if not 2 <= r <= 5:
        raise InputError("streams", "a number of streams in [2, 5]", r)

    def stream_bits(X: np.ndarray) -> list[np.ndarray]:
        return [X[:, s::r] for s in range(r)]

    def valid(X: np.ndarray) -> np.ndarray:
        ok = np.full(len(X), X.shape[1] % r == 0 and X.shape[1] > 0)
        for S in stream_bits(X):
            ok &= 2 * S.sum(axis=1) != S.shape[1]
        return ok

    def outputs(X: np.ndarray) -> np.ndarray:
        return np.stack([(2 * S.sum(axis=1) > S.shape[1]).astype(np.int64) for S in stream_bits(X)], axis=1)

    def inputs(n: int) -> np.ndarray:
        X = all_strings(2, n)
        return _filter(X, valid(X))

    def sample(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        m = -(-n // r)
        m += 1 - m % 2  # odd stream length: no stream can tie
        return rng.integers(0, 2, size=(count, r * m))

    def smaller(x: np.ndarray) -> list[np.ndarray]:
        m = len(x) // r  # drop two rounds (one symbol of every stream, twice): lengths stay valid
        cands = [np.delete(x, [*range(a * r, a * r + r), *range(b * r, b * r + r)])
                 for a, b in itertools.combinations(range(m), 2)]
        return [c for c in cands if valid(c[None, :])[0]]

    fmt = (f"SOS x SEP y_1 .. y_{r} EOS; x = {r} bit streams of one length m interleaved (stream s at "
           f"positions = s mod {r}, 1-based), y_s the majority bit of stream s (ties excluded)")
    return Task(f"Binary Majority Interleave ({r} streams)", ("0", "1"), fmt, inputs, outputs, sample,
                lambda size: range(r, size + 1, r), smaller, valid, universe=2)


def _distinct_inputs(V: int, n: int) -> np.ndarray:
    rows = list(itertools.permutations(range(V), n))
    return np.asarray(rows, dtype=np.int64).reshape(len(rows), n)


def _distinct_sample(V: int) -> Callable[[np.random.Generator, int, int], np.ndarray]:
    def sample(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        n = min(n, V)
        return np.stack([rng.permutation(V)[:n] for _ in range(count)]).astype(np.int64)
    return sample


def _distinct_valid(X: np.ndarray) -> np.ndarray:
    S = np.sort(X, axis=1)
    return (S[:, 1:] != S[:, :-1]).all(axis=1) if X.shape[1] > 1 else np.ones(len(X), dtype=bool)


def sort_task(V: int) -> Task:
    """Sort: x of distinct numbers from 1..V (symbols ``1``..``V``), outputs x sorted increasingly."""
    if not 1 <= V <= 400:
        raise InputError("V", "a vocabulary size in [1, 400]", V)
    fmt = f"SOS x SEP sorted(x) EOS; x = distinct numbers of 1..{V}, 1 <= |x| <= {V}"
    return Task(f"Sort (V = {V})", tuple(str(v) for v in range(1, V + 1)), fmt,
                lambda n: _distinct_inputs(V, n), lambda X: np.sort(X, axis=1), _distinct_sample(V),
                lambda size: range(1, min(size, V) + 1), valid=_distinct_valid)


def copy_task(V: int, unique: bool = True, reps: int = 1) -> Task:
    """Copy: x over symbols ``1``..``V`` (distinct symbols when ``unique``), outputs x again; with
    ``reps`` > 1 the repeated-copy formalization (App. E.2.2): x SEP x SEP ... x (reps copies) EOS."""
    if not 1 <= V <= 400:
        raise InputError("V", "a vocabulary size in [1, 400]", V)
    if not 1 <= reps <= 20:
        raise InputError("reps", "a number of copies in [1, 20]", reps)

    def outputs(X: np.ndarray) -> np.ndarray:
        sep = np.full((len(X), 1), V)
        return np.concatenate([X] + [np.concatenate([sep, X], axis=1)] * (reps - 1), axis=1)

    if unique:
        outs = " SEP x" * (reps - 1)
        return Task(f"Copy unique (V = {V}" + (f", {reps} copies)" if reps > 1 else ")"),
                    tuple(str(v) for v in range(1, V + 1)),
                    f"SOS x SEP x{outs} EOS; x = distinct symbols of 1..{V}, 1 <= |x| <= {V}",
                    lambda n: _distinct_inputs(V, n), outputs, _distinct_sample(V),
                    lambda size: range(1, min(size, V) + 1), valid=_distinct_valid)
    return Task(f"Copy with repeats (V = {V})", tuple(str(v) for v in range(1, V + 1)),
                f"SOS x SEP x EOS; x in {{1..{V}}}^n, n >= 1", lambda n: all_strings(V, n), lambda X: X,
                lambda rng, n, count: rng.integers(0, V, size=(count, n)), lambda size: range(1, size + 1),
                universe=V)


# ----------------------------------------------------------------------------------------------------
# The check


@dataclass(frozen=True)
class Failure:
    """A failing input: the full target, the 1-based position, the predicted set and the expected symbol."""

    target: str
    input: str
    position: int
    predicted: tuple[str, ...]
    expected: str
    source: str  # "exhaustive" or "sample (seed S)"

    def __str__(self) -> str:
        got = "{" + ", ".join(self.predicted) + "}"
        return (f"input [{self.input}] ({self.source}): target [{self.target}], at position {self.position} "
                f"the program predicts {got}, expected {{{self.expected}}}")


@dataclass(frozen=True)
class TaskCheck:
    """Result of :func:`check_task`."""

    task: Task
    program: Program
    size: int
    inputs: int  # valid inputs checked exhaustively (every input length <= size)
    positions: int  # predictions compared (exhaustive + sample)
    sample_len: int
    samples: int
    seed: int
    cross_checked: int  # inputs re-run with the reference interpreter
    interpreters_agree: bool
    failure: Failure | None
    seconds: float

    @property
    def holds(self) -> bool:
        """Every prediction correct and both interpreters agree."""
        return self.failure is None and self.interpreters_agree

    def describe(self) -> str:
        """One line: what was enumerated and the failure if any (no timing: see ``seconds``)."""
        s = analysis.summary(self.program)
        sample = (f" + {self.samples} inputs of length {self.sample_len} (seed {self.seed})" if self.samples
                  else " (no sampled inputs)")
        agree = "agree" if self.interpreters_agree else "DISAGREE"
        head = (f"{self.program.name or 'program'} (C-RASP{s['fragment']}, depth {s['depth']}, "
                f"{len(self.program.ops)} ops) on {self.task.name} [{self.task.format}]: exhaustive over "
                f"all {self.inputs} valid inputs of length <= {self.size}{sample}; {self.positions} "
                f"next-token sets compared, exact integers; {self.cross_checked} inputs re-run with the "
                f"reference interpreter ({agree})")
        return head if self.failure is None else f"{head}; FAILS on {self.failure}"

    def brief(self) -> str:
        """A short line: program, fragment, depth, sizes (and the failure if any)."""
        s = analysis.summary(self.program)
        sample = f" + {self.samples} x |x| = {self.sample_len}" if self.samples else ""
        head = (f"{self.program.name or 'program'} (C-RASP{s['fragment']}, depth {s['depth']}, "
                f"{len(self.program.ops)} ops): {self.inputs} inputs |x| <= {self.size}{sample}")
        return head if self.failure is None else f"{head}, FAILS on {self.failure}"


def check_program_for_task(program: Program, task: Task) -> list[str]:
    """The ``next_`` op names in alphabet order; InputError (naming the field) when the program does not
    fit the task: another alphabet, or a missing or non-Boolean ``next_`` statement."""
    if program.alphabet != task.alphabet:
        raise InputError("program alphabet", f"the alphabet of task {task.name!r}: {' '.join(task.alphabet)}",
                         " ".join(program.alphabet))
    names = {op.name: op for op in program.ops}
    out = []
    for s in task.alphabet:
        name = next_name(s)
        if name not in names:
            raise InputError(f"program statement {name}", f"a Boolean statement '{name} := ...' predicting "
                             f"{s!r} (one per alphabet symbol; see docs/crasp.md, Tasks)",
                             "no such statement")
        if names[name].sort != "bool":
            raise InputError(f"program statement {name}", "a Boolean statement", "a count statement")
        out.append(name)
    return out


def predictions(program: Program, names: Sequence[str], T: np.ndarray) -> np.ndarray:
    """bool (B, L + 1, |alphabet|): next_s of every alphabet symbol s at every position 0..L of T."""
    B, L = T.shape
    out = np.empty((B, L + 1, len(names)), dtype=bool)
    step = max(1, CHUNK_CELLS // ((L + 1) * max(1, len(program.ops))))
    for a in range(0, B, step):
        v = evaluate_batch(program, T[a : a + step], names=names)
        for j, name in enumerate(names):
            out[a : a + step, :, j] = v[name]
    return out


def _failing(P: np.ndarray, T: np.ndarray, n: int) -> np.ndarray:
    """Per row, the first checked 1-based position (n + 1 .. L - 1) with a wrong set, or 0."""
    L = T.shape[1]
    pos = np.arange(n + 1, L)  # position i predicts target_{i+1} = T[:, i]
    want = np.zeros((len(T), len(pos), P.shape[2]), dtype=bool)
    np.put_along_axis(want, T[:, pos][:, :, None], True, axis=2)
    bad = (P[:, pos, :] != want).any(axis=2)
    return np.where(bad.any(axis=1), pos[bad.argmax(axis=1)], 0)


def _failure(task: Task, P: np.ndarray, T: np.ndarray, n: int, row: int, pos: int, source: str) -> Failure:
    got = tuple(task.alphabet[j] for j in np.flatnonzero(P[row, pos]))
    want = task.alphabet[int(T[row, pos])]
    return Failure(task.text(T[row]), task.text(T[row, :n]), pos, got, want, source)


def _least(X: np.ndarray, rows: np.ndarray) -> int:
    """The lexicographically least of the given rows of X."""
    return int(rows[np.lexsort(X[rows].T[::-1])[0]]) if X.shape[1] else int(rows[0])


def _run_inputs(program: Program, names: Sequence[str], task: Task, X: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    T = task.targets(X)
    P = predictions(program, names, T)
    return T, P, _failing(P, T, X.shape[1])


def _cross_check(program: Program, names: Sequence[str], task: Task, T: np.ndarray, P: np.ndarray) -> bool:
    """The reference interpreter gives the same next_ values at every position of every row of T."""
    for t, p in zip(T, P):
        v = evaluate(program, [task.alphabet[int(i)] for i in t])
        ref = np.array([[bool(v[name][i]) for name in names] for i in range(len(t) + 1)])
        if not (ref == p).all():
            return False
    return True


def shrink(program: Program, task: Task, x: np.ndarray, budget_cells: int = SHRINK_CELLS) -> np.ndarray:
    """A smaller failing input: greedily the shortest, then least, failing candidate of ``task.smaller``
    until none fails, or until the candidates run so far reach ``budget_cells`` (inputs x symbols). The
    budget counts work, not time, so the result is the same on every machine and every run."""
    names = [next_name(s) for s in task.alphabet]
    work = 0
    while work < budget_cells:
        cands = [c for c in task.smaller(x) if task.valid is None or task.valid(c[None, :])[0]]
        if not cands:
            break
        best = None
        for m in sorted({len(c) for c in cands}):
            C = np.stack([c for c in cands if len(c) == m]).astype(np.int64)
            work += C.size
            _, _, bad = _run_inputs(program, names, task, C)
            if bad.any():
                best = C[_least(C, np.flatnonzero(bad))]
                break
        if best is None:
            break
        x = best
    return x


def check_input(program: Program, task: Task, x: Sequence[str]) -> Failure | None:
    """The first wrong prediction on one input x (symbols of ``task.symbols``; any x, valid or not)."""
    names = check_program_for_task(program, task)
    index = {s: i for i, s in enumerate(task.symbols)}
    for j, s in enumerate(x, start=1):
        if s not in index:
            raise InputError("input", f"symbols of task {task.name!r}: {' '.join(task.symbols)}",
                             f"{s!r} at position {j}")
    X = np.array([[index[s] for s in x]], dtype=np.int64).reshape(1, len(x))
    T_, P, bad = _run_inputs(program, names, task, X)
    return _failure(task, P, T_, len(x), 0, int(bad[0]), "given") if bad[0] else None


def input_blocks(task: Task, n: int) -> Iterator[np.ndarray]:
    """The valid inputs of length n in blocks of BLOCK_ROWS rows, in lexicographic order: the blocks of
    ``task.inputs(n)``, exactly, but for a task with a ``universe`` built from the strings in row ranges
    (:func:`proofkit.crasp.semantics.compare.all_strings`) and filtered block by block, so memory stays at a
    block
    however many strings the length has."""
    if task.universe is None:
        X_all = task.inputs(n)
        for start in range(0, len(X_all), BLOCK_ROWS):
            yield X_all[start : start + BLOCK_ROWS]
        return
    total = task.universe**n
    pending = np.empty((0, n), dtype=np.int64)
    for start in range(0, total, BLOCK_ROWS):
        X = strings_range(task.universe, n, start, min(total, start + BLOCK_ROWS))
        pending = np.concatenate([pending, X if task.valid is None else _filter(X, task.valid(X))])
        while len(pending) >= BLOCK_ROWS:
            yield pending[:BLOCK_ROWS]
            pending = pending[BLOCK_ROWS:]
    if len(pending):
        yield pending


def check_task(program: Program, task: Task, size: int, sample_len: int = 150, samples: int = 16,
               seed: int = 0, cross_check: int = 12) -> TaskCheck:
    """Exhaustive next-token check over every valid input of length <= size, then ``samples`` seeded
    inputs of length ``sample_len``; ``cross_check`` inputs are re-run with the reference interpreter."""
    t0 = time.perf_counter()
    names = check_program_for_task(program, task)
    count = positions = checked_ref = 0
    agree = True
    failure = None
    for n in task.lengths(size):
        for b, X in enumerate(input_blocks(task, n)):  # blocks in lexicographic order bound the memory
            T, P, bad = _run_inputs(program, names, task, X)
            count += len(X)
            positions += len(X) * (T.shape[1] - n - 1)
            if checked_ref < cross_check and b == 0:
                pick = np.array([len(X) // 2])  # one input of every length, up to cross_check inputs
                agree &= _cross_check(program, names, task, T[pick], P[pick])
                checked_ref += len(pick)
            if bad.any():
                row = _least(X, np.flatnonzero(bad))
                failure = _failure(task, P, T, n, row, int(bad[row]), "exhaustive")
                break
        if failure is not None:
            size = n  # enumeration stops at the first failing length
            break
    sample_n = 0
    if failure is None and samples:
        rng = np.random.default_rng(seed)
        X = task.sample(rng, sample_len, samples)
        sample_n = X.shape[1]
        T, P, bad = _run_inputs(program, names, task, X)
        positions += len(X) * (T.shape[1] - sample_n - 1)
        if cross_check:
            agree &= _cross_check(program, names, task, T[:1], P[:1])
            checked_ref += 1
        if bad.any():
            x = shrink(program, task, X[int(np.flatnonzero(bad)[0])])
            T1, P1, bad1 = _run_inputs(program, names, task, x[None, :])
            failure = _failure(task, P1, T1, len(x), 0, int(bad1[0]), f"sample, seed {seed}, shrunk")
    return TaskCheck(task, program, size, count, positions, sample_n, samples if sample_n else 0, seed,
                     checked_ref, agree, failure, time.perf_counter() - t0)
