"""Searches built on the bottom-up enumeration of :mod:`proofkit.crasp.search.enumerate`: masked targets
(``search_masked``), per-statement task programs (``search_task``) and the Occam learner (``occam``, a
finite proxy of the Inference Procedure). What a result means, and why the pruning is sound for masked
targets, is in the docstring of :mod:`proofkit.crasp.search.enumerate`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import InputError
from ..language.parser import parse
from ..semantics.compare import exhaustive_check
from ..semantics.truth import GroundTruth
from ..semantics.vector import accepts_prefixes
from .enumerate import (
    CELLS,
    Fragment,
    _alpha,
    _alphabet_text,
    _check_limits,
    _Search,
    _truth_fn,
    program_of,
    search,
)
from .samples import PrefixSample, Sample


@dataclass
class MaskedMatch:
    """One masked target of :func:`search_masked`: the smallest expression matching it on the cared nodes."""

    name: str
    cared: int  # number of sample nodes where the target is cared about
    found: bool = False
    size_completed: int = 0  # every expression of size <= size_completed was covered
    expression: str | None = None
    size: int | None = None

    def text(self) -> str:
        """'name := expression (size s)' or 'name: none found up to size s'."""
        if self.found:
            return f"{self.name} := {self.expression} (size {self.size})"
        return f"{self.name}: none found up to size {self.size_completed}"


@dataclass
class MaskedSearch:
    """The outcome of :func:`search_masked`: per target the smallest match or the bounded negative."""

    fragment: str
    max_size: int
    sample_nodes: int
    matches: list[MaskedMatch]
    bool_behaviours: int = 0
    count_behaviours: int = 0
    candidates: int = 0
    seconds: float = 0.0
    stopped: str = ""  # why the enumeration stopped early ('' when it ran to max_size or found all)
    per_size: list[tuple[int, int, int]] = field(default_factory=list)  # (size, bools, counts) kept

    def counts(self) -> str:
        """The enumeration effort in words."""
        return (f"{self.bool_behaviours} Boolean / {self.count_behaviours} count behaviours kept of "
                f"{self.candidates} candidates")  # no timing: verdict texts must be reproducible


def _masked_rows(st: _Search, r: range, target: np.ndarray, mask: np.ndarray) -> int:
    """Index of the first kept Boolean row in r that equals target on the mask (packed, 64-bit words)."""
    w = st.bw // 8
    step = max(1, CELLS // max(1, w) // 8)
    for a in range(r.start, r.stop, step):
        rows = st.B.rows[a: min(r.stop, a + step)].view(np.uint64)
        ok = np.flatnonzero(~((rows ^ target) & mask).any(axis=1))
        if len(ok):
            return a + int(ok[0])
    return -1


def search_masked(alphabet: Sequence[str], sample: Sample | PrefixSample,
                  targets: Sequence[tuple[str, Any, Any]], fragment: str | Fragment, max_size: int,
                  max_behaviours: int = 400_000) -> MaskedSearch:
    """Smallest Boolean expressions (one shared enumeration) matching masked targets (name, bits, care mask)
    over the sample nodes: a behaviour matches when it equals the bits on every cared node."""
    t0 = time.perf_counter()
    alpha = _alpha(alphabet)
    if not isinstance(sample, (Sample, PrefixSample)) or sample.k != len(alpha):
        raise InputError("sample", f"a Sample or PrefixSample over {len(alpha)} letters", sample)
    frag = Fragment.of(fragment)
    _check_limits(max_size, max_behaviours)
    if not targets:
        raise InputError("targets", "at least one (name, bits, mask)", targets)
    st = _Search(alpha, frag, sample, max_behaviours, max_size)
    packed, matches = [], []
    for name, bits, mask in targets:
        b, m = np.asarray(bits), np.asarray(mask)
        if b.shape != (st.N,) or b.dtype != bool:
            raise InputError("bits", f"a Boolean vector of shape ({st.N},) (one per sample node) for {name}",
                             b.shape)
        if m.shape != (st.N,) or m.dtype != bool:
            raise InputError("mask", f"a Boolean vector of shape ({st.N},) (one per sample node) for {name}",
                             m.shape)
        packed.append((st.pack((b & m)[None, :])[0].view(np.uint64), st.pack(m[None, :])[0].view(np.uint64)))
        matches.append(MaskedMatch(str(name), int(m.sum())))
    out = MaskedSearch(frag.text(), max_size, st.N, matches)
    hits = [-1] * len(targets)
    for s in range(1, max_size + 1):
        st.grow(s)
        out.per_size.append((s, st.B.n - st.bstart[s], st.C.n - st.cstart[s]))
        capped = st.B.full or st.C.full
        for i, (t, m) in enumerate(packed):
            if hits[i] < 0:
                hits[i] = _masked_rows(st, st.rng("B", s), t, m)
                if hits[i] < 0 and not capped:
                    matches[i].size_completed = s
        if all(h >= 0 for h in hits):
            break
        if capped:
            out.stopped = f"behaviour cap {max_behaviours} reached during size {s}"
            break
    for i, mt in enumerate(matches):
        if hits[i] >= 0:
            mt.found, mt.size = True, int(st.B.size[hits[i]])
            mt.size_completed = mt.size - 1
            mt.expression = st.text("B", hits[i])
    out.bool_behaviours, out.count_behaviours = st.B.n, st.C.n
    out.candidates = st.B.candidates + st.C.candidates
    out.seconds = time.perf_counter() - t0
    return out


@dataclass
class TaskSearchResult:
    """The outcome of :func:`search_task`: per ``next_`` statement the smallest expression or the bounded
    negative; when all are found, the assembled program and its exact task check at a larger size."""

    task: str
    max_input_len: int
    sequences: int  # target sequences whose prefixes form the sample
    search: MaskedSearch
    program_text: str | None = None
    verify_size: int | None = None
    generalizes: bool | None = None
    failure: str | None = None  # the task check's first failure (the program overfits the sample)

    @property
    def found(self) -> bool:
        """Every next_ statement was found."""
        return all(m.found for m in self.search.matches)

    def summary(self) -> str:
        """One line for reports."""
        s = self.search
        stop = f" (stopped: {s.stopped})" if s.stopped else ""
        head = (f"{self.task} in C-RASP{s.fragment}, per statement up to size {s.max_size}, on every prefix "
                f"of the {self.sequences} target sequences x SEP y EOS with |x| <= {self.max_input_len} "
                f"({s.sample_nodes} nodes; cared: the positions check_task checks): "
                + "; ".join(m.text() for m in s.matches) + stop)
        if self.found and self.verify_size is not None:
            head += ("; assembled program: exact check_task on all valid inputs |x| <= "
                     f"{self.verify_size}: " + ("holds" if self.generalizes else
                                                f"FAILS (overfits the sample): {self.failure}"))
        elif not self.found:
            head += "; no task program of that per-statement size is consistent on the sample"
        return f"{head} ({s.counts()})"


def search_task(task: Any, fragment: str | Fragment, max_size: int, max_input_len: int,
                verify_size: int | None = None, samples: int = 0, sample_len: int = 150, seed: int = 0,
                max_behaviours: int = 400_000) -> TaskSearchResult:
    """Bounded search for a task program (proofkit.crasp.tasks.tasks): for every alphabet symbol s the
    smallest
    ``next_s`` consistent with the task at the positions check_task checks, on every prefix of the target
    sequences of all valid inputs of length <= max_input_len; verified with check_task at verify_size."""
    from ..tasks import tasks as tk  # imported here to keep the import light

    if not isinstance(max_input_len, int) or isinstance(max_input_len, bool) or max_input_len < 0:
        raise InputError("max_input_len", "an integer >= 0", max_input_len)
    alpha = _alpha(task.alphabet)
    seqs = []
    for n in task.lengths(max_input_len):
        X = task.inputs(n)
        if len(X):
            seqs += [(n, t) for t in task.targets(X).tolist()]
    if not seqs:
        raise InputError("max_input_len", f"a length with valid inputs of task {task.name!r}", max_input_len)
    sample = PrefixSample.closure(len(alpha), [t for _, t in seqs])
    index = {w: i for i, w in enumerate(sample.words)}
    nxt = np.full(sample.N, -1, dtype=np.int64)
    for n, t in seqs:  # checked: positions n + 1 (SEP) .. L - 1 (last output), predicting t[i]
        for i in range(n + 1, len(t)):
            u = index[tuple(t[:i])]
            if nxt[u] not in (-1, t[i]):
                raise InputError("task", "outputs determined by the prefix x SEP y_1 .. y_j",
                                 task.text(t[:i]))
            nxt[u] = t[i]
    care = nxt >= 0
    targets = [(tk.next_name(s), nxt == j, care) for j, s in enumerate(alpha)]
    ms = search_masked(alpha, sample, targets, fragment, max_size, max_behaviours)
    res = TaskSearchResult(task.name, max_input_len, len(seqs), ms)
    if res.found:
        res.program_text = f"alphabet: {_alphabet_text(alpha)}\n" + "".join(
            f"{m.name} := {m.expression}\n" for m in ms.matches)
        if verify_size is not None:
            prog = parse(res.program_text, name="smallest task program found")
            chk = tk.check_task(prog, task, verify_size, sample_len=sample_len, samples=samples, seed=seed)
            res.verify_size, res.generalizes = verify_size, chk.holds
            if not chk.holds:
                res.failure = str(chk.failure) if chk.failure else "the two interpreters disagree"
    return res


@dataclass
class OccamStep:
    """One training length of the Occam learner."""

    n: int
    expression: str | None
    size: int | None
    agrees_2n: bool | None
    witness: str | None
    seconds: float
    size_completed: int = 0  # when none was found: every expression of size <= this was covered


@dataclass
class OccamRun:
    """The learned sequence and where it stabilizes (a finite illustration of Theorem 7, not a proof)."""

    language: str
    fragment: str
    steps: list[OccamStep]
    stable_from: int | None  # first n from which the learned program never changes and agrees up to 2n
    first_agrees: int | None = None  # first n whose learned program agrees with f on all lengths <= 2n
    final_verified_len: int | None = None
    final_generalizes: bool | None = None

    def summary(self) -> str:
        """One line per run."""
        seq = "; ".join(f"n={s.n}: " + (f"{s.expression} [{'ok' if s.agrees_2n else 'fails'} at 2n]"
                                        if s.expression else f"none found up to size {s.size_completed}")
                        for s in self.steps)
        tail = (f"stable and correct up to 2n from n = {self.stable_from}"
                + (f"; final program checked exactly to length {self.final_verified_len}: "
                   f"{'agrees' if self.final_generalizes else 'fails'}" if self.final_verified_len else "")
                if self.stable_from is not None else "never stabilizes on a program correct up to 2n")
        return f"{self.language} in C-RASP{self.fragment}: {seq}. {tail}"


def occam(truth_accepts: GroundTruth | Callable[[np.ndarray], np.ndarray], alphabet: Sequence[str],
          fragment: str | Fragment, ns: Sequence[int], max_size: int, final_len: int | None = None,
          max_behaviours: int = 400_000, name: str = "") -> OccamRun:
    """Inference Procedure proxy (Def. 6): at each n the smallest program consistent on lengths <= n,
    checked on all strings of length <= 2n; reports from which n the sequence is stable and correct."""
    steps = []
    for n in ns:
        r = search(truth_accepts, alphabet, fragment, max_size, n, verify_len=2 * n,
                   max_behaviours=max_behaviours, name=name)
        steps.append(OccamStep(n, r.expression, r.size, r.generalizes, r.witness, r.seconds,
                               r.size_completed))
    stable = None
    for i in range(len(steps)):
        tail = steps[i:]
        last = tail[-1].expression
        if all(s.expression is not None and s.expression == last and s.agrees_2n for s in tail):
            stable = steps[i].n
            break
    lang = name or getattr(truth_accepts, "name", "f")
    first = next((s.n for s in steps if s.agrees_2n), None)
    run = OccamRun(lang, Fragment.of(fragment).text(), steps, stable, first)
    if stable is not None and final_len is not None:
        prog = program_of(tuple(alphabet), steps[-1].expression or "true")
        d = exhaustive_check(lambda X: accepts_prefixes(prog, X), _truth_fn(truth_accepts), len(alphabet),
                             final_len)
        run.final_verified_len, run.final_generalizes = final_len, d is None
    return run
