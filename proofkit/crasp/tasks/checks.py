"""Exact checks that C-RASP theorem files declare as Computed claims: exhaustive agreement with a ground
truth, row counts against reference values and the program-level Theorem-12 bound. Each returns
:class:`~proofkit.language.evidence.Evidence` naming exactly what was enumerated (the domain, with its count);
the engine decides the verdict (docs/verdicts.md)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from ...language.evidence import Evidence, Method, fails, holds
from ..communication import comm
from ..language import analysis
from ..semantics.compare import sample_check
from ..semantics.truth import LIBRARY
from ..semantics.vector import accepts_prefixes
from .library import Entry, check_entry, load_index


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


def alphabet_text(alphabet: Sequence[str]) -> str:
    """``{a, b}``: an alphabet as the domain texts name it."""
    return "{" + ", ".join(alphabet) + "}"


def strings_domain(alphabet: Sequence[str], n: int, samples: int = 0, sample_len: int = 0) -> str:
    """The domain text of an exhaustive check at every prefix up to length n (plus seeded samples)."""
    text = f"every string over {alphabet_text(alphabet)} of length <= {n}, at every prefix"
    if samples:
        text += f", and {samples} seeded strings of length {sample_len}"
    return text


def agreement(folder: str | Path, file: str, binary_len: int, fragment: str | None = None) -> Evidence:
    """Evidence that the program equals its ground truth at every prefix of every string up to the
    length (exhaustive, exact integers) and of a seeded sample of length-1000 strings; optionally that
    it lies in the stated fragment. Longer strings are not covered: all lengths follow only from the
    program's construction, so a claim about all lengths reads this as a proxy."""
    e = entry(folder, file)
    A = e.program.alphabet
    n = length_for(len(A), binary_len)
    r = check_entry(e, max_len=n)
    frag = analysis.fragment(e.program)
    domain = strings_domain(A, n, r.samples, r.sample_len)
    count = r.strings + r.samples
    where = (f"exhaustive over all {r.strings:,} strings of length <= {n} at every prefix, exact integers; "
             f"{r.samples} seeded strings of length {r.sample_len}")
    if not r.agrees:
        return fails(Method.ENUMERATION, f"{file} and {e.truth} differ on {r.disagreement}", domain=domain,
                     count=count, residual=str(r.disagreement), detail=where)
    if not r.sample_agrees:
        bad = sample_check(lambda X: accepts_prefixes(e.program, X), LIBRARY[e.truth], len(A),
                           r.sample_len, r.samples, 0)
        word = repr(bad.text(A)) if bad is not None else "a seeded long string"
        return fails(Method.EXACT, f"{file} and {e.truth} differ on the prefix {word} of a seeded string "
                     f"of length {r.sample_len}", domain=domain, count=count, residual=word, detail=where)
    if fragment is not None and frag != fragment:
        return fails(Method.EXACT, f"{file} is in C-RASP{frag}, not C-RASP{fragment}",
                     domain=f"the operations of {file} (static fragment analysis)", count=1, residual=frag)
    return holds(Method.ENUMERATION, domain, count=count, residual="0",
                 detail=f"{file} ({frag}, depth {analysis.depth(e.program)}) agrees with {e.truth}: {where}; "
                        f"longer strings only by the program's construction (not computed)")


def rows_match(folder: str | Path, file: str, Ns: Sequence[int],
               expected: Callable[[int], int] | None = None) -> Evidence:
    """Evidence on the exact one-way rows of the program for each N: equal to the reference values (when
    given) and at most the program-level bound (N+1)^K_u * prod 2^min(tau, N) (a form of Thm 12 for
    C-RASP programs, derived here: ``comm.program_bound``). The domain is the N range, every string of
    length 2N enumerated at each N."""
    e = entry(folder, file)
    k = len(e.program.alphabet)
    table = []
    for N in Ns:
        r = comm.rows(lambda X: accepts_prefixes(e.program, X), k, N)
        b = comm.program_bound_for_ops(e.program.ops, N)
        table.append((N, r, b, None if expected is None else expected(N)))
    text = ", ".join(f"N={N}: {r} (bound {b})" for N, r, b, _ in table)
    domain = (f"{file}: N = {Ns[0]}..{Ns[-1]}" if len(Ns) else f"{file}: no N") + \
        f", all {k}^(2N) strings at each N"
    over = next(((N, r, b) for N, r, b, _ in table if r > b), None)
    if over is not None:
        return fails(Method.ENUMERATION, f"{file} at N = {over[0]}: {over[1]} rows > bound {over[2]}",
                     domain=domain, count=len(table), residual=text, detail=f"rows: {text}")
    off = next(((N, r, x) for N, r, _, x in table if x is not None and r != x), None)
    if off is not None:
        return fails(Method.ENUMERATION, f"{file} at N = {off[0]}: {off[1]} rows, reference {off[2]}",
                     domain=domain, count=len(table), residual=text, detail=f"rows: {text}")
    return holds(Method.ENUMERATION, domain, count=len(table), residual=text,
                 detail=f"exact row counts over all {k}^(2N) strings: {text}")


def library_rows(folder: str | Path, binary_N: int) -> list[tuple[str, Evidence]]:
    """:func:`rows_match` (the program-level bound, no reference values) for every program of the library
    at N = 1..top, top = binary_N for binary alphabets and the same string count otherwise (at least 1), up
    to and including the first program whose evidence does not hold."""
    out = []
    for e in load_index(folder)[0]:
        top = max(1, length_for(len(e.program.alphabet), 2 * binary_N) // 2)
        out.append((e.file, rows_match(folder, e.file, range(1, top + 1))))
        if out[-1][1].outcome != "holds":
            break
    return out


def truth_rows(name: str, Ns: Sequence[int], mode: str = "prefix-vector") -> list[int]:
    truth = LIBRARY[name]
    return [comm.rows(truth.accepts_prefixes, len(truth.alphabet), N, mode) for N in Ns]
