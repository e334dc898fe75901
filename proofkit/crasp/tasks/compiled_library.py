"""Compiled networks of a whole C-RASP library against the interpreter (Huang et al. 2024, Theorem 9 and
Remark 28): every program compiled under a compiler variant and run on every string up to a length, every
``next_`` output of a multi-output program compiled on its own, the task programs on their own target
sequences, the structural NoPE / period facts of the weights, and float64 runs on seeded long strings.

Each function stops at the first failure and returns what was covered, so a theorem file can name the
domain and count exactly."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..compilation.checking import Mismatch, check_against
from ..compilation.compiler import compile_program
from ..compilation.forward import run
from ..compilation.variants import VARIANTS, reference
from ..language import analysis
from ..language.ir import Program
from .checks import length_for
from .compiled import CompiledCheck, check_compiled
from .library import Entry
from .tasks import Task


def strings_up_to(alphabet: Sequence[str], n: int) -> int:
    """Number of strings over the alphabet of length <= n."""
    return sum(len(alphabet) ** i for i in range(n + 1))


@dataclass(frozen=True)
class LibraryAgreement:
    """Result of :func:`library_agreement`: the programs done with their exhaustive lengths, the strings
    compared, and the first failure as (file, mismatch) or None."""

    done: list[tuple[str, int]]
    strings: int
    failure: tuple[str, Mismatch] | None


def library_agreement(entries: Sequence[Entry], binary_len: int, variant: str) -> LibraryAgreement:
    """Every program compiled under the compiler variant (knobs, precision and offset of ``VARIANTS``) equals
    the interpreter at every prefix of every string of length <= n (binary n = binary_len; other alphabets:
    the same string count)."""
    knobs, precision, offset = VARIANTS[variant]
    done: list[tuple[str, int]] = []
    count = 0
    for e in entries:
        n = length_for(len(e.program.alphabet), binary_len)
        m = check_against(e.program, reference(e.program), n, precision, offset, **knobs)
        if m is not None:
            return LibraryAgreement(done, count, (e.file, m))
        done.append((e.file, n))
        count += strings_up_to(e.program.alphabet, n)
    return LibraryAgreement(done, count, None)


def task_agreement(cases: Iterable[tuple[str, Program, Task, int]]) -> list[tuple[str, int, CompiledCheck]]:
    """(name, size, :func:`~proofkit.crasp.tasks.compiled.check_compiled`) for each (name, program, task,
    input size) case, up to and including the first mismatch."""
    out = []
    for name, program, task, size in cases:
        out.append((name, size, check_compiled(program, task, size)))
        if out[-1][2].mismatch is not None:
            break
    return out


def output_agreement(program: Program, max_len: int) -> tuple[list[str], tuple[str, Mismatch] | None]:
    """Each ``next_`` output of a multi-output program, compiled on its own (``output`` set to it), against
    the interpreter on every string of length <= max_len: (the outputs checked, the first failing (output,
    mismatch) or None)."""
    outputs = [o.name for o in program.ops if o.name.startswith("next_")]
    for name in outputs:
        one = replace(program, output=name)
        m = check_against(one, reference(one), max_len)
        if m is not None:
            return outputs, (name, m)
    return outputs, None


@dataclass(frozen=True)
class StructureMismatch:
    """A program whose compiled weights are NoPE although it is not in C-RASP[] (or the converse), or whose
    positional period differs from the static period."""

    file: str
    nope: bool
    period: int


def structure_mismatch(entries: Sequence[Entry]) -> StructureMismatch | None:
    """The first program whose compiled network is not NoPE-iff-C-RASP[] or whose period is not
    ``analysis.period`` (the lcm of the moduli), or None."""
    for e in entries:
        net = compile_program(e.program)
        nope_ok = net.is_nope() == (analysis.fragment(e.program) == "[]")
        if not nope_ok or net.period != analysis.period(e.program):
            return StructureMismatch(e.file, net.is_nope(), net.period)
    return None


def long_run_failure(entries: Sequence[Entry], per_program: int = 3, length: int = 1000,
                     seed: int = 0) -> str | None:
    """float64 runs (robust comparison) of each program's compiled network on ``per_program`` seeded random
    strings of the given length (one generator over all programs) against the interpreter at every prefix:
    the file of the first program that differs, or None."""
    rng = np.random.default_rng(seed)
    for e in entries:
        net = compile_program(e.program)
        A = e.program.alphabet
        for _ in range(per_program):
            w = tuple(A[i] for i in rng.integers(0, len(A), length))
            if run(net, net.encode(w), "float64") != [bool(v) for v in reference(e.program)(w)]:
                return e.file
    return None
