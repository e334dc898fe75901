"""Small C-RASP programs as text and the helpers that read a syntax error's position (shared by the core
tests)."""

from __future__ import annotations

import pytest

from proofkit.crasp import (
    parse,
)
from proofkit.crasp.language.parser import CraspSyntaxError

MAJORITY = "alphabet: a b\nM := #Q(b) <= #Q(a)\n"
DYCK_PARENS = """alphabet: '(' ')'
V := #Q('(') < #Q(')')            // this prefix has more ')' than '('
D := #V == 0 and #Q('(') == #Q(')')
"""
DYCK_AB = "alphabet: a b\nV := #Q(a) < #Q(b)\nD := #V == 0 and #Q(a) == #Q(b)\n"
ANBNCN = """alphabet: a b c
bad := (Q(a) and #Q(b) + #Q(c) >= 1) or (Q(b) and #Q(c) >= 1)
L := #bad == 0 and #Q(a) == #Q(b) and #Q(b) == #Q(c)
"""
ASTAR_BSTAR = "alphabet: a b\nL := #(Q(a) and exists Q(b)) == 0\n"
TOMITA4 = """alphabet: 0 1
tri := Q(0) and #[1] Q(0) >= 1 and #[2] Q(0) >= 1   // a 0 preceded by two 0s
T4 := #tri == 0
"""
AA_STAR = "alphabet: a b\nE := #Q(b) == 0 and mod(2, 0)\n"
SIGMA_AB_SIGMA = "alphabet: a b\nS := exists (Q(b) and #[1] Q(a) >= 1)\n"


def _error(text: str) -> CraspSyntaxError:
    with pytest.raises(CraspSyntaxError) as info:
        parse(text)
    return info.value


def _at(exc: CraspSyntaxError, line: int, column: int) -> None:
    assert (exc.line, exc.column) == (line, column), str(exc)
    assert str(exc).startswith(f"line {line}, column {column}: expected ")
    assert exc.field == f"line {line}, column {column}"
