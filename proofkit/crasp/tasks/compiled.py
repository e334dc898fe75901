"""Compiled networks on a task's own sequences (Huang et al. 2024, Theorem 9 for multi-output programs):
the Limit Transformer compiled from a task program, run on the full target sequence of every valid
input, must agree with the reference interpreter on every ``next_`` statement at every position."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...errors import InputError
from ..compilation.compiler import compile_program, value_dims
from ..compilation.forward import final_stream, prepare
from ..language.ir import Program
from ..semantics.interp import evaluate
from .tasks import Task, next_name


@dataclass(frozen=True)
class CompiledCheck:
    """Result of :func:`check_compiled`: sequences run, values compared, and the first mismatch if any."""

    sequences: int
    values: int
    mismatch: str | None


def check_compiled(program: Program, task: Task, size: int, **variant_knobs: object) -> CompiledCheck:
    """Compile the program once (exact rationals; ``variant_knobs`` as for ``compile_program``, to drop an
    assumption) and compare every ``next_`` statement's value in the network's final residual stream
    (Booleans are stored as 0/1) with the reference interpreter at every position of the full target
    sequence of every valid input of length <= size."""
    names = [next_name(s) for s in task.alphabet]
    missing = [n for n in names if n not in {o.name for o in program.ops}]
    if missing:
        raise InputError("program", f"statements {', '.join(names)}", f"no statement {missing[0]}")
    net = compile_program(program, **variant_knobs)
    dims = value_dims(net)
    weights = prepare(net)
    sequences = values = 0
    for n in task.lengths(size):
        X = task.inputs(n)
        for row in task.targets(X) if len(X) else []:
            word = [task.alphabet[int(i)] for i in row]
            final = final_stream(net, net.encode(word), prepared=weights)
            ref = evaluate(program, word)
            for name in names:
                got = [y[dims[name]] > Fraction(1, 2) for y in final]
                if got != [bool(v) for v in ref[name]]:
                    k = next(i for i, (g, e) in enumerate(zip(got, ref[name])) if g != bool(e))
                    where = f"[{' '.join(word)}] statement {name} at position {k}"
                    return CompiledCheck(sequences, values,
                                         f"{where}: network {got[k]}, interpreter {bool(ref[name][k])}")
                values += len(got)
            sequences += 1
    return CompiledCheck(sequences, values, None)
