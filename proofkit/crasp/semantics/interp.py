"""Scalar reference interpreter for C-RASP IR: plain Python ints and bools, written to be audited.

Values are computed for positions 0..n: position 0 is the virtual start position (every symbol test
false, every count 0, periodic predicates evaluated at 0); real symbols sit at positions 1..n. The
value at position i depends only on w_1..w_i, so it is also the value at the last position of the
prefix w_1..w_i. The program accepts w when its output op is true at position n.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate

from ...errors import InputError
from ..language.analysis import validate
from ..language.ir import Op, Program
from ..language.lexer import Plain, brief, symbol_list

Value = list  # list[bool] for Boolean ops, list[int] for count ops, indexed by position 0..n


def symbols_of(program: Program, string: Sequence[str] | str) -> list[str]:
    """The string as a list of alphabet symbols; a str is split into characters when every symbol
    is one character, otherwise on whitespace."""
    if isinstance(string, str):
        single = all(len(s) == 1 for s in program.alphabet)
        syms = list(string) if single else string.split()
    else:
        try:
            syms = list(string)
        except TypeError:
            got = Plain(type(string).__name__)
            raise InputError("string", "a str or a sequence of symbols", got) from None
    alphabet = frozenset(program.alphabet)
    for k, s in enumerate(syms, start=1):
        if s not in alphabet:
            expected = "symbols of the alphabet " + symbol_list(program.alphabet)
            raise InputError("string", expected, Plain(f"{brief(repr(s))} at position {k}"))
    return syms


def _sym(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [False] + [s == op.symbol for s in w]


def _true(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [True] * (len(w) + 1)


def _periodic(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [i % op.modulus == op.residue for i in range(len(w) + 1)]


def _const(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [op.value] * (len(w) + 1)


def _not(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [not p for p in v[op.args[0]]]


def _and(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [p and q for p, q in zip(v[op.args[0]], v[op.args[1]])]


def _le(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [c <= d for c, d in zip(v[op.args[0]], v[op.args[1]])]


def _count(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    """#{j in 1..i : P(j)}: a running sum that skips the virtual position 0."""
    return list(accumulate(v[op.args[0]][1:], initial=0))


def _local(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    """#{j in 1..i : i - j in offsets and P(j)}: the sum over offsets c of P(i - c) (0 when i - c < 1)."""
    p = v[op.args[0]]
    n = len(p) - 1
    # entry i: P(i - c); an offset c >= n leaves no entry (the slice end is clamped: a negative end would
    # count from the back and make the list longer than n + 1)
    shifted = [[False] * min(c + 1, n + 1) + p[1 : max(1, n + 1 - c)] for c in op.offsets]
    return [sum(column) for column in zip(*shifted)]


def _cond(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [c if t else d for t, c, d in zip(v[op.args[0]], v[op.args[1]], v[op.args[2]])]


def _add(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [c + d for c, d in zip(v[op.args[0]], v[op.args[1]])]


def _sub(op: Op, v: dict[str, Value], w: list[str]) -> Value:
    return [c - d for c, d in zip(v[op.args[0]], v[op.args[1]])]


EVAL: dict[str, Callable[[Op, dict[str, Value], list[str]], Value]] = {
    "sym": _sym, "true": _true, "periodic": _periodic, "const": _const, "not": _not, "and": _and,
    "le": _le, "count": _count, "local": _local, "cond": _cond, "add": _add, "sub": _sub,
}  # fmt: skip


def evaluate(program: Program, string: Sequence[str] | str) -> dict[str, list[int | bool]]:
    """Value of every op at every position 0..n of the string (lists of length n + 1)."""
    validate(program)
    w = symbols_of(program, string)
    values: dict[str, Value] = {}
    for op in program.ops:
        values[op.name] = EVAL[op.kind](op, values, w)
    return values


def accepts(program: Program, string: Sequence[str] | str) -> bool:
    """Whether the program accepts the string: its output op is true at the last position."""
    return bool(evaluate(program, string)[program.output][-1])
