"""C-RASP: parser, static analyses and reference / vectorized interpreters over the IR of ``ir.py``.

See docs/crasp.md for the surface grammar and the conventions (positions 1..n, virtual position 0);
``check_against`` compares a program with a ground truth written in Python (any language, regular or not).
"""

from .language.ir import Op, Program
from .language.parser import CraspSyntaxError, load, parse
from .semantics.interp import accepts, evaluate
from .semantics.vector import accepts_batch, accepts_prefixes, all_strings, encode, evaluate_batch
from .tools.against import TruthCheck, check_against

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
