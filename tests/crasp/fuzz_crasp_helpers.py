"""Shared by the C-RASP fuzz suites: the shipped programs, the message bound, Hypothesis settings and the IR
up to renaming of generated operations."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, settings

from proofkit.crasp.language.ir import Program
from proofkit.crasp.language.lexer import MAX_CHARS
from proofkit.crasp.language.parser import parse
from proofkit.crasp.language.printer import to_text
from tests.fuzzguard import DEADLINE

ROOT = Path(__file__).resolve().parents[2]
PROGRAM_FILES = sorted((ROOT / "theorems/hyb24/programs").glob("*.crasp"))
SOURCES = [p.read_text(encoding="utf-8") for p in PROGRAM_FILES]
#: the longest error message accepted: field, expectation and the echoed input together
MAX_MESSAGE = 500
_AT = re.compile(r"line (\d+), column (\d+)")


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


# ----------------------------------------------------------------------------- the IR up to renaming
def canonical(p: Program) -> tuple:
    """The program with every operand and the output as an op index: equal for programs that differ only
    in the names of their operations (the printer renames generated ``_t<k>`` to ``t<k>``)."""
    index = {op.name: k for k, op in enumerate(p.ops)}
    ops = tuple((op.kind, tuple(index[a] for a in op.args), op.symbol, op.modulus, op.residue, op.offsets,
                 op.value) for op in p.ops)
    return p.alphabet, ops, index[p.output]


def assert_round_trip(p: Program) -> None:
    """parse(to_text(p)) is p up to renaming, and printing that again gives the same text. The printed
    text of a large program can exceed MAX_CHARS (the cap on input text), so the cap is raised to its
    length (the documented way to re-parse printer output)."""
    text = to_text(p)
    q = parse(text, max_chars=max(MAX_CHARS, len(text)))
    assert canonical(q) == canonical(p), text
    assert to_text(q) == text
    assert all(op.name == q.ops[k].name for k, op in enumerate(p.ops) if not op.name.startswith("_"))
