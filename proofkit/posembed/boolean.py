"""Boolean expressions over p0..p3, true and false, as printed in Richard 2024's examples (Sec. 2.1,
App. 5.1): a tokenizer, a parser under two precedence conventions, and equivalence on all 16 assignments.

The paper prints its expressions without saying how '&' and '|' bind, so each is read under both
conventions: ``'sympy'`` (not > and > or, the usual one) and ``'left'`` ('&' and '|' of equal precedence,
grouped left to right). Expressions are sympy Booleans (sympy.logic).
"""

from __future__ import annotations

from itertools import product
from typing import Any

import sympy as sp

#: the variables p0..p3
P = sp.symbols("p0 p1 p2 p3")
_ATOMS = {"true": sp.true, "false": sp.false, **{f"p{i}": P[i] for i in range(4)}}
CONVENTIONS = ("sympy", "left")


def tokens(text: str) -> list[str]:
    """p0..p3, true, false, ¬ (or ~), &, |, parentheses; spaces ignored; anything else is a ValueError."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "()&|":
            out.append(c)
            i += 1
        elif c in "¬~":
            out.append("¬")
            i += 1
        else:
            name = next((a for a in _ATOMS if text.startswith(a, i)), None)
            if name is None:
                raise ValueError(f"unknown token at {i}: {text[i:i + 8]!r}")
            out.append(name)
            i += len(name)
    return out


def parse(text: str, convention: str) -> Any:
    """The sympy Boolean of ``text`` under ``convention`` ('sympy': ¬ > & > |; 'left': & and | equal,
    grouped left to right); unbalanced parentheses are a ValueError."""
    toks, pos = tokens(text), 0

    def unary() -> Any:
        nonlocal pos
        if pos >= len(toks):  # text that ends after an operator or an opening parenthesis
            raise ValueError("an operand expected at the end")
        t = toks[pos]
        pos += 1
        if t == "¬":
            return sp.Not(unary())
        if t == "(":
            e = binary(0)
            if pos >= len(toks) or toks[pos] != ")":
                raise ValueError("unbalanced parentheses")
            pos += 1
            return e
        if t in _ATOMS:
            return _ATOMS[t]
        raise ValueError(f"unexpected {t!r}")

    def binary(level: int) -> Any:
        nonlocal pos
        ops = ("|", "&") if convention == "sympy" else ("&|",)
        if level == len(ops):
            return unary()
        e = binary(level + 1)
        while pos < len(toks) and toks[pos] in ops[level]:
            op = toks[pos]
            pos += 1
            e = (sp.And if op == "&" else sp.Or)(e, binary(level + 1))
        return e

    e = binary(0)
    if pos != len(toks):
        raise ValueError("unbalanced parentheses")
    return e


def parses(text: str, convention: str) -> bool:
    """Whether :func:`parse` accepts ``text`` (False where it raises ValueError)."""
    try:
        parse(text, convention)
    except ValueError:
        return False
    return True


def equivalent(a: Any, b: Any) -> bool:
    """Same truth value on all 16 assignments of p0..p3."""
    return all(bool(a.xreplace(dict(zip(P, v)))) == bool(b.xreplace(dict(zip(P, v))))
               for v in product((sp.false, sp.true), repeat=4))


def compare_readings(readings: dict[str, str], target: str, convention: str
                     ) -> tuple[dict[str, bool], dict[str, Any]]:
    """For each named reading of an expression: whether it is :func:`equivalent` to ``target``, and its
    simplified form (sympy.simplify_logic), both under ``convention``."""
    goal = parse(target, convention)
    same = {k: equivalent(parse(v, convention), goal) for k, v in readings.items()}
    simp = {k: sp.simplify_logic(parse(v, convention)) for k, v in readings.items()}
    return same, simp
