"""Lemma-1 geometry: closed sets in R^2 as exact pieces and the hinge-function falsifier over them."""

from ..runtime.namespace import lazy

#: the package's public surface, name -> defining module (docs/api.md lists it); imported on first use
PUBLIC = {
    "FALSIFIER": "proofkit.geometry.transfer",
    "NAMED": "proofkit.geometry.regions",
    "named": "proofkit.geometry.regions",
}
__all__ = sorted(PUBLIC)
__getattr__, __dir__ = lazy(__name__, PUBLIC)
