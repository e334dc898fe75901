"""Static analyses of C-RASP IR programs (fragments of Huang et al. 2024, Def. 8 and Sec. 4.2; depth,
period, locality and count bounds), plus an IR validator.

The validator lets the interpreters trust programs built directly as IR (not only parsed ones); the
analyses feed the fragment checks, the compiler (period, locality, count bounds) and JSON reports.
"""

from __future__ import annotations

import math
import numbers
import weakref
from typing import Any

from ...errors import InputError
from .ir import BOOL_KINDS, COUNT_KINDS, Op, Program

# Sorts of the operands of each kind, in order.
ARG_SORTS: dict[str, tuple[str, ...]] = {
    "sym": (), "true": (), "periodic": (), "const": (),
    "not": ("bool",), "and": ("bool", "bool"), "le": ("count", "count"),
    "count": ("bool",), "local": ("bool",), "cond": ("bool", "count", "count"),
    "add": ("count", "count"), "sub": ("count", "count"),
}  # fmt: skip


def _is_int(x: object) -> bool:
    """True for a Python (or numpy) integer that is not a bool."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _check_fields(program: Program, op: Op) -> str | None:
    """What is wrong with the kind-specific fields of one op, or None."""
    if op.kind == "sym" and op.symbol not in program.alphabet:
        return f"a symbol of the alphabet for sym op {op.name!r}"
    if op.kind == "periodic":
        m, r = op.modulus, op.residue
        if not (_is_int(m) and _is_int(r) and m >= 1 and 0 <= r < m):
            return f"modulus >= 1 and 0 <= residue < modulus for periodic op {op.name!r}"
    if op.kind == "local" and not (op.offsets and all(_is_int(c) and c >= 0 for c in op.offsets)):
        return f"a non-empty set of offsets >= 0 for local op {op.name!r}"
    if op.kind == "const" and not _is_int(op.value):
        return f"an integer value for const op {op.name!r}"
    return None


_VALIDATED: weakref.WeakValueDictionary[int, Program] = weakref.WeakValueDictionary()


def validate(program: Program) -> None:
    """Check that the IR is well formed (known kinds, earlier operands of the right sort, fields).

    Programs are immutable, so a program object that passed once is remembered (by identity)."""
    if _VALIDATED.get(id(program)) is program:
        return
    if not isinstance(program, Program):
        raise InputError("program", "a proofkit.crasp Program", type(program).__name__)
    if not program.alphabet or len(set(program.alphabet)) != len(program.alphabet):
        raise InputError("program", "a non-empty alphabet of distinct symbols", program.alphabet)
    sorts: dict[str, str] = {}
    for op in program.ops:
        if op.kind not in ARG_SORTS:
            raise InputError("program", f"an op kind in {BOOL_KINDS + COUNT_KINDS}", op.kind)
        if op.name in sorts:
            raise InputError("program", "distinct op names", op.name)
        want = ARG_SORTS[op.kind]
        got = tuple(sorts.get(a, "undefined") for a in op.args)
        if got != want:
            raise InputError("program", f"operands of sorts {want} (defined earlier) for op {op.name!r}", got)
        problem = _check_fields(program, op)
        if problem:
            raise InputError("program", problem, op)
        sorts[op.name] = op.sort
    if sorts.get(program.output) != "bool":
        raise InputError("program", "an output naming a Boolean op", program.output)
    _VALIDATED[id(program)] = program


def op_depths(program: Program) -> dict[str, int]:
    """Counting depth of every op: 1 + operand depth for counts, max over operands otherwise."""
    d: dict[str, int] = {}
    for op in program.ops:
        inner = max((d[a] for a in op.args), default=0)
        d[op.name] = inner + 1 if op.kind in ("count", "local") else inner
    return d


def depth(program: Program) -> int:
    """Maximal nesting of counting operations over the whole program (Lemma 37's depth)."""
    return max(op_depths(program).values(), default=0)


def period(program: Program) -> int:
    """Period Delta: the lcm of all moduli of periodic predicates (1 if there are none)."""
    return math.lcm(1, *(op.modulus for op in program.ops if op.kind == "periodic"))


def locality(program: Program) -> int:
    """Locality tau: the largest offset of any local count (0 if there are none)."""
    return max((max(op.offsets) for op in program.ops if op.kind == "local"), default=0)


def fragment(program: Program) -> str:
    """The smallest of C-RASP[], [periodic], [local], [periodic,local] containing the program."""
    kinds = {op.kind for op in program.ops}
    tags = [t for t, k in (("periodic", "periodic"), ("local", "local")) if k in kinds]
    return "[" + ",".join(tags) + "]"


def op_counts(program: Program) -> dict[str, int]:
    """K_u, K_l, K_c: the numbers of plain counts, local counts and constant counts."""
    kinds = [op.kind for op in program.ops]
    return {"plain": kinds.count("count"), "local": kinds.count("local"), "const": kinds.count("const")}


def count_bounds(program: Program) -> dict[str, int]:
    """M_C with |C(i)| <= M_C * (i + 1) for every count op (used by the compiler's conditionals)."""
    m: dict[str, int] = {}
    for op in program.ops:
        if op.kind == "count":
            m[op.name] = 1
        elif op.kind == "local":
            m[op.name] = len(op.offsets)
        elif op.kind == "const":
            m[op.name] = abs(op.value)
        elif op.kind in ("add", "sub"):
            m[op.name] = m[op.args[0]] + m[op.args[1]]
        elif op.kind == "cond":
            m[op.name] = max(m[op.args[1]], m[op.args[2]])
    return m


def summary(program: Program) -> dict[str, Any]:
    """All static analyses as a JSON-ready dict."""
    bounds = count_bounds(program)
    counts = op_counts(program)
    return {
        "name": program.name,
        "alphabet": list(program.alphabet),
        "output": program.output,
        "ops": len(program.ops),
        "bool_ops": sum(op.sort == "bool" for op in program.ops),
        "count_ops": sum(op.sort == "count" for op in program.ops),
        "depth": depth(program),
        "fragment": fragment(program),
        "period": period(program),
        "locality": locality(program),
        "plain_counts": counts["plain"],
        "local_counts": counts["local"],
        "const_counts": counts["const"],
        "max_count_bound": max(bounds.values(), default=0),
        "count_bounds": bounds,
    }
