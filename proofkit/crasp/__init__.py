"""C-RASP: parser, static analyses and reference / vectorized interpreters over the IR of ``ir.py``.

See docs/crasp.md for the surface grammar and the conventions (positions 1..n, virtual position 0);
``check_against`` compares a program with a ground truth written in Python (any language, regular or not).
"""

from ..runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "accepts": "proofkit.crasp.semantics.interp",
    "accepts_batch": "proofkit.crasp.semantics.vector",
    "accepts_prefixes": "proofkit.crasp.semantics.vector",
    "all_strings": "proofkit.crasp.semantics.vector",
    "check_against": "proofkit.crasp.tools.against",
    "CraspSyntaxError": "proofkit.crasp.language.parser",
    "encode": "proofkit.crasp.semantics.vector",
    "evaluate": "proofkit.crasp.semantics.interp",
    "evaluate_batch": "proofkit.crasp.semantics.vector",
    "load": "proofkit.crasp.language.parser",
    "Op": "proofkit.crasp.language.ir",
    "parse": "proofkit.crasp.language.parser",
    "Program": "proofkit.crasp.language.ir",
    "TruthCheck": "proofkit.crasp.tools.against",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
