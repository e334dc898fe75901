"""The C-RASP language: the IR (Huang et al. 2024, Def. 8), tokenizer, parser and printer, syntax
diagnostics, and the static analyses (fragments, depth) read off the IR."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "analysis": "proofkit.crasp.language.analysis",
    "load": "proofkit.crasp.language.parser",
    "parse": "proofkit.crasp.language.parser",
    "summary": "proofkit.crasp.language.analysis",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
