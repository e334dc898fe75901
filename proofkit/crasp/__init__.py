"""C-RASP: parser, static analyses and reference / vectorized interpreters over the IR of ``ir.py``.

See docs/crasp.md for the surface grammar and the conventions (positions 1..n, virtual position 0);
``check_against`` compares a program with a ground truth written in Python (any language, regular or not).
"""

from .against import TruthCheck, check_against
from .interp import accepts, evaluate
from .ir import Op, Program
from .parser import CraspSyntaxError, load, parse
from .vector import accepts_batch, accepts_prefixes, all_strings, encode, evaluate_batch

__all__ = [
    "CraspSyntaxError",
    "Op",
    "Program",
    "TruthCheck",
    "accepts",
    "accepts_batch",
    "accepts_prefixes",
    "all_strings",
    "check_against",
    "encode",
    "evaluate",
    "evaluate_batch",
    "load",
    "parse",
]
