"""C-RASP: parser, static analyses and reference / vectorized interpreters over the IR of ``ir.py``.

See docs/crasp.md for the surface grammar and the conventions (positions 1..n, virtual position 0).
"""

from .interp import accepts, evaluate
from .ir import Op, Program
from .parser import CraspSyntaxError, load, parse
from .vector import accepts_batch, accepts_prefixes, all_strings, encode, evaluate_batch

__all__ = [
    "CraspSyntaxError",
    "Op",
    "Program",
    "accepts",
    "accepts_batch",
    "accepts_prefixes",
    "all_strings",
    "encode",
    "evaluate",
    "evaluate_batch",
    "load",
    "parse",
]
