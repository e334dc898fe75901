"""C-RASP IR programs printed back as program text (the inverse of
:func:`proofkit.crasp.language.parser.parse` up
to the renaming of generated operations)."""

from __future__ import annotations

import string as _string

from ...errors import InputError
from .ir import Op, Program
from .lexer import _DIGITS, _NAME_CHARS, _NAME_START, KEYWORDS


def _is_plain_name(name: str) -> bool:
    """Whether ``name`` can appear as a statement name in program text."""
    return (bool(name) and name[0] in _string.ascii_letters and set(name) <= _NAME_CHARS
            and name not in KEYWORDS)


def _symbol_text(symbol: str) -> str:
    """An alphabet symbol as program text: bare when it is a name or digits, quoted otherwise."""
    if (symbol and set(symbol) <= _DIGITS) or (symbol[:1] in _NAME_START and set(symbol) <= _NAME_CHARS):
        return symbol
    if len(symbol) != 1 or symbol.isspace():
        raise InputError("program", "symbols that are names, digits or one non-blank character", symbol)
    return f'"{symbol}"' if symbol == "'" else f"'{symbol}'"


def _statement_names(program: Program) -> dict[str, str]:
    """Printable names: plain names are kept, others (generated _t<k>, ...) become fresh t<k>."""
    taken = {op.name for op in program.ops if _is_plain_name(op.name)}
    names: dict[str, str] = {}
    k = 0
    for op in program.ops:
        if op.name in taken:
            names[op.name] = op.name
            continue
        k += 1
        while f"t{k}" in taken:
            k += 1
        names[op.name] = f"t{k}"
        taken.add(f"t{k}")
    return names


def op_text(op: Op, a: list[str] | None = None) -> str:
    """The right-hand side of one IR op in primitive syntax, its operands named ``a`` (default: their IR
    names, as ``crasp eval`` labels its rows)."""
    a = list(op.args) if a is None else a
    kind = op.kind
    if kind == "sym":
        return f"Q({_symbol_text(op.symbol)})"
    if kind == "periodic":
        return f"mod({op.modulus}, {op.residue})"
    if kind == "local":
        return "#[{" + ", ".join(map(str, op.offsets)) + "}] " + a[0]
    simple = {"true": "true", "not": "not {0}", "and": "{0} and {1}", "le": "{0} <= {1}", "count": "#{0}",
              "cond": "{0} ? {1} : {2}", "add": "{0} + {1}", "sub": "{0} - {1}", "const": str(op.value)}
    return simple[kind].format(*a)


def to_text(program: Program) -> str:
    """Program text for an IR program, one primitive statement per op; parse(to_text(p)) has the same
    ops up to renaming of the non-plain names (generated ``_t<k>`` become ``t<k>``).

    One statement per op is longer than sugared source (``x <-> y`` is six statements): a program of a few
    thousand ops prints to more than MAX_CHARS characters, the cap the parser puts on text that is input.
    Parse it back with ``parse(text, max_chars=len(text))``."""
    names = _statement_names(program)
    lines = ["alphabet: " + " ".join(_symbol_text(s) for s in program.alphabet)]
    for op in program.ops:
        lines.append(f"{names[op.name]} := {op_text(op, [names[x] for x in op.args])}")
    lines.append(f"accept {names[program.output]}")
    return "\n".join(lines) + "\n"
