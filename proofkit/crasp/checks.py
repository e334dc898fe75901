"""Exact checks that C-RASP theorem files declare as Computed claims: exhaustive agreement with a ground
truth, row counts against reference values and the program-level Theorem-12 bound. Each returns
(verdict, residual, how) and says exactly what was enumerated."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from ..verdict import Verdict
from . import analysis, comm
from .library import Entry, check_entry, load_index
from .truth import LIBRARY
from .vector import accepts_prefixes

Outcome = tuple[Verdict, str, str]


def length_for(alphabet_size: int, binary_len: int) -> int:
    """Exhaustive length for an alphabet at the cost of binary strings of length binary_len."""
    if alphabet_size == 1:
        return 2 * binary_len
    return int(binary_len * math.log(2) / math.log(alphabet_size) + 1e-9)


@cache
def _index(folder: str) -> dict[str, Entry]:
    programs, controls = load_index(folder)
    return {e.file: e for e in programs + controls}


def entry(folder: str | Path, file: str) -> Entry:
    return _index(str(folder))[file]


def agreement(folder: str | Path, file: str, binary_len: int, fragment: str | None = None) -> Outcome:
    """The program equals its ground truth at every prefix of every string up to the length, plus a
    seeded sample of length-1000 strings; optionally it lies in the stated fragment."""
    e = entry(folder, file)
    n = length_for(len(e.program.alphabet), binary_len)
    r = check_entry(e, max_len=n)
    frag = analysis.fragment(e.program)
    where = (f"exhaustive over all {r.strings} strings of length <= {n} at every prefix, exact integers; "
             f"{r.samples} seeded strings of length {r.sample_len}")
    if not r.agrees or not r.sample_agrees:
        return Verdict.REFUTED, str(r.disagreement), f"disagrees with {e.truth} on {r.disagreement} ({where})"
    if fragment is not None and frag != fragment:
        return Verdict.REFUTED, frag, f"program is in C-RASP{frag}, not C-RASP{fragment}"
    return (Verdict.CONFIRMED, "0",
            f"{file} ({frag}, depth {analysis.depth(e.program)}) agrees with {e.truth}: {where}; "
            f"certified for |w| <= {n}, all lengths only by the program's construction")


def rows_match(folder: str | Path, file: str, Ns: Sequence[int],
               expected: Callable[[int], int] | None = None) -> Outcome:
    """Exact one-way rows of the program for each N: equal to the reference values (when given) and
    at most the program-level bound (N+1)^K_u * prod 2^min(tau, N) (a form of Thm 12 for C-RASP programs,
    derived here: ``comm.program_bound``)."""
    e = entry(folder, file)
    k = len(e.program.alphabet)
    table = []
    for N in Ns:
        r = comm.rows(lambda X: accepts_prefixes(e.program, X), k, N)
        b = comm.program_bound_for_ops(e.program.ops, N)
        table.append((N, r, b, None if expected is None else expected(N)))
    text = ", ".join(f"N={N}: {r}" + (f" (bound {b})" if b is not None else "") for N, r, b, _ in table)
    if any(r > b for _, r, b, _ in table):
        return Verdict.REFUTED, text, f"rows exceed the program-level bound: {text}"
    if expected is not None and any(r != x for _, r, _, x in table):
        return Verdict.REFUTED, text, f"rows differ from the reference values: {text}"
    return Verdict.CERTIFIED, text, f"exact row counts over all {k}^(2N) strings: {text}"


def truth_rows(name: str, Ns: Sequence[int], mode: str = "prefix-vector") -> list[int]:
    truth = LIBRARY[name]
    return [comm.rows(truth.accepts_prefixes, len(truth.alphabet), N, mode) for N in Ns]
