"""What a C-RASP program means on strings: the scalar reference interpreter, the vectorized one, the
batch conventions for comparing prefix functions, and independent ground truths (library languages,
DFAs, regular expressions)."""

from ...runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "accepts": "proofkit.crasp.semantics.interp",
    "accepts_prefixes": "proofkit.crasp.semantics.vector",
    "all_strings": "proofkit.crasp.semantics.vector",
    "AUXILIARY": "proofkit.crasp.semantics.truth",
    "CounterTruth": "proofkit.crasp.semantics.truth",
    "exhaustive_check": "proofkit.crasp.semantics.truth",
    "labelled_strings": "proofkit.crasp.semantics.vector",
    "LIBRARY": "proofkit.crasp.semantics.truth",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
